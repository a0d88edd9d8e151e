"""The Tasks screen's ``u``: tasks queued from a CSV file (``POST /tasks/csv``): a dry run
first, whose rows would-be-queued and refused are shown, then the question, which counts
the real calls, then the real upload."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from textual import work

from vagent_tui.api.models import CsvUpload
from vagent_tui.services.session import Connection
from vagent_tui.services.tasks import total_of
from vagent_tui.services.tasks_csv import csv_problem, not_a_dry_run, what_it_queues
from vagent_tui.ui import format as fmt
from vagent_tui.ui.dialogs import ConfirmModal, PromptModal, TextModal
from vagent_tui.ui.screens.base import BaseScreen, who_of
from vagent_tui.ui.screens.tasks_parts import refused_lines
from vagent_tui.ui.text import inert
from vagent_tui.ui.writes import Write, Written
from vagent_tui.words import counted

NEED_AGENT = "Select a voice agent account on the Scope screen (1): its agent places the call"


class TasksCsvUpload(BaseScreen):
    """``u`` on a screen that lists the tasks (`after_upload` shows them again)."""

    def after_upload(self, written: Written[Any]) -> None:
        """The upload was sent (whatever its outcome): show the tasks as they are now."""
        raise NotImplementedError

    def action_upload_csv(self) -> None:
        if not self.connection.is_agent_selected:
            self.status.info(NEED_AGENT)
            return
        prompt = PromptModal(
            "Queue tasks from a CSV file",
            "A header row naming target (type, message, context, scheduledFor, accountId... "
            "optional). A dry run comes first: nothing is queued before you have seen what "
            "would be and answered the question.",
            placeholder="~/calls.csv", confirm_label="Dry run", validate=csv_problem,
        )  # fmt: skip
        self.app.push_screen(prompt, self._csv_chosen)

    def _csv_chosen(self, text: str | None) -> None:
        if text is None:
            return
        path = Path(text.strip()).expanduser()
        try:
            content = path.read_bytes()
        except OSError as exc:
            self.status.info(f"Could not read {path}: {exc.strerror or exc}")
            return
        self.upload_csv(path.name, content, self.connection)

    @work(group="write-tasks-csv", exit_on_error=False)
    async def upload_csv(self, name: str, content: bytes, start: Connection) -> None:
        """The dry run, then (asked, the real calls counted) the upload for real."""
        who = who_of(self, with_id=True)
        dry = await self.written(
            Write[CsvUpload](
                "tasks-csv-dry", f"Checking {name} (a dry run: nothing is queued)",
                lambda c: c.api.upload_tasks_csv(content, dry_run=True, filename=name,
                                                 target=c.target_id),
                done="",
            ),
            start,
        )  # fmt: skip
        if dry.outcome != "done" or dry.result is None:
            return
        result = dry.result
        if not_a_dry_run(result):
            # A platform that ignored dryRun queued the rows already: asking now would
            # queue them twice. Say so and show what the platform holds.
            self.status.error(
                f"The platform did not answer {name} as a dry run (inserted "
                f"{inert(result.inserted)}): its rows may be queued already. Nothing more "
                "was sent; r shows the tasks as they are.",
                retry_key=None,
            )
            return
        queued = result.queued_rows()
        refused = refused_lines(result)
        if not queued:
            self.status.info(f"No row of {name} would be queued; {len(result.rows)} refused")
            self.app.push_screen(TextModal(f"{name}: every row refused", "\n".join(refused)))
            return
        calls, what = what_it_queues(queued)
        body = (f"{name}: {counted(len(queued), 'row')} of {len(result.rows)} would be queued "
                f"from the agent of {who}: {what}. Each waits for the business hours, its "
                "cooldown and the tasks running at once. Phones will ring.")  # fmt: skip
        if refused:
            body += "\n\nRefused (not queued):\n" + "\n".join(refused)
        title = f"Place {counted(calls, 'real call')}" if calls else f"Send {what}"
        question = ConfirmModal(title, body, confirm_label=f"Queue {len(queued)}")

        async def read_back(c: Connection) -> str:
            page = await c.api.list_tasks(target=c.target_id)
            total = total_of(page)
            return f"{counted(total if total is not None else len(page.tasks), 'task')} listed now."

        await self.written(
            Write[CsvUpload](
                "tasks-csv", f"Queuing {counted(len(queued), 'task')} from {name}",
                lambda c: c.api.upload_tasks_csv(content, dry_run=False, filename=name,
                                                 target=c.target_id),
                confirm=question,
                done=lambda r: (f"{fmt.plain(r.inserted)} queued from {name}; "
                                f"{fmt.plain(r.refused)} refused"),
                read_back=read_back,
                after=self.after_upload,
            ),
            start,
        )  # fmt: skip
