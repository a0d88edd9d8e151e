"""The platform's review of an agent: each suggestion beside the text it would replace.

``R`` on the Agent screen asks ``POST /agent/autoReviewAgentConfiguration`` (``agent``
mode) about the configuration the agent runs next (staging, or live when staging is
empty). Nothing is written from here: ``t`` takes a suggestion for the instructions or
the greeting into the settings form as an edit, where ctrl+s shows the diff and asks
before writing it to staging, as any edit. A suggestion for an action or an app is
shown and copied (``y``); those instructions are edited on the Functions screen.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from rich.console import Group
from rich.text import Text
from textual import work
from textual.binding import Binding, BindingType
from textual.containers import Container, VerticalScroll
from textual.widget import Widget
from textual.widgets import DataTable, Static

from vagent_tui.api.log_models import cell
from vagent_tui.api.models import AgentReview
from vagent_tui.services.agents import review_now
from vagent_tui.ui.colours import HEADING
from vagent_tui.ui.screens.base import BaseScreen, who_of
from vagent_tui.ui.text import inert, safe
from vagent_tui.ui.widgets.tables import RecordTable, record_table
from vagent_tui.words import counted

PREVIEW = 60
"""Characters of each text the table shows (the pane below shows them whole)."""


@dataclass(frozen=True)
class Suggested:
    """One row: what it is about, the setting it may be taken into, now and suggested."""

    key: str
    what: str
    now: str
    suggested: str
    setting: str | None = None
    """The settings form's field a suggestion can be taken into (None: shown only)."""


def _named(items: Any, name: str) -> dict[str, str]:
    """``{name: instructions}`` of a configuration's actions or apps."""
    out: dict[str, str] = {}
    for item in items if isinstance(items, list) else []:
        if isinstance(item, Mapping) and isinstance(item.get(name), str):
            out[item[name]] = cell(item.get("instructions"))
    return out


def suggestions(review: AgentReview, config: Mapping[str, Any]) -> list[Suggested]:
    """The review's suggestions that hold text, each with the text it would replace."""
    rows: list[Suggested] = []
    for key, label, setting, value in (
        ("instructions", "Instructions", "agentInstructions",
         review.agent_instructions_suggestion),
        ("greeting", "Greeting", "welcomeMessage", review.greeting_suggestion),
    ):  # fmt: skip
        if isinstance(value, str) and value.strip():
            rows.append(Suggested(key, label, cell(config.get(setting)), value, setting))
    actions = _named(config.get("actions"), "name")
    for item in review.action_suggestions:
        if isinstance(item.prompt_suggestion, str) and item.prompt_suggestion.strip():
            name = cell(item.name) or "?"
            rows.append(Suggested(f"action:{name}", f"Action {name}", actions.get(name, ""),
                                  item.prompt_suggestion))  # fmt: skip
    apps = _named(config.get("apps"), "appId")
    for item in review.app_suggestions:
        if isinstance(item.prompt_suggestion, str) and item.prompt_suggestion.strip():
            name = cell(item.app_id) or "?"
            rows.append(Suggested(f"app:{name}", f"App {name}", apps.get(name, ""),
                                  item.prompt_suggestion))  # fmt: skip
    return rows


def _preview(text: str, width: int = PREVIEW) -> Text:
    flat = " ".join(text.split())
    return safe(flat if len(flat) <= width else flat[: width - 1] + "…")


class ReviewScreen(BaseScreen):
    """The platform's suggestions for the agent, each beside the current text."""

    TITLE = "Review"
    CSS_PATH = "review.tcss"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "back", "Back", id="review.back", tooltip="Back to the agent"),
        # Not a write itself: the form it opens writes (its ctrl+s), after the diff.
        Binding("t", "take", "Take", id="review.take",
                tooltip="Type the suggestion into the settings form (ctrl+s there reviews it)"),
        Binding("y", "copy", "Copy", id="review.copy", tooltip="Copy the suggestion"),
    ]  # fmt: skip

    def __init__(self) -> None:
        super().__init__()
        self.rows: list[Suggested] = []

    def compose_body(self) -> Iterable[Widget]:
        yield Static("", id="review-intro", markup=False)
        with Container(id="review-body"):
            yield record_table(
                "review-table",
                (("About", "what"), ("Now", "now"), ("Suggested", "suggested")),
                lambda row: row.key,
            )
            with VerticalScroll(id="review-detail"):
                yield Static("", id="review-detail-text", markup=False)

    @property
    def table(self) -> RecordTable[Suggested]:
        table: RecordTable[Suggested] = self.query_one("#review-table", RecordTable)
        return table

    def on_mount(self) -> None:
        self.table.focus()

    def reload(self) -> None:
        self._review()

    @work(exclusive=True, group="review-load", exit_on_error=False)
    async def _review(self) -> None:
        if not self.connection.is_agent_selected:
            self.status.error("Select an agent account on the Scope screen (1)", retry_key=None)
            return

        ok, got = await self.load(
            lambda c: review_now(c.api, c.target_id), note="Asking the platform to review the agent"
        )
        if not ok or got is None:
            return
        source, config, review = got
        if review is None:
            self.status.error("The agent has no configuration to review", retry_key=None)
            return
        self.rows = suggestions(review, config)
        self.query_one("#review-intro", Static).update(safe(
            f"The platform's review of {who_of(self)} ({source}): "
            f"{counted(len(self.rows), 'suggestion')}. t types a suggestion for the "
            "instructions or the greeting into the settings form; nothing is written before "
            "its diff and your confirmation there."
        ))  # fmt: skip
        # both texts in view: each column half of what the first one leaves
        width = max(16, min(PREVIEW, (self.size.width - 34) // 2))
        self.table.show(
            self.rows,
            lambda r: (
                safe(r.what),
                _preview(r.now, width) if r.now else Text("—", style="dim"),
                _preview(r.suggested, width),
            ),
        )
        if self.rows:
            self.status.clear()
        else:
            self.status.info("The platform suggested nothing for this agent")
        self._detail()

    def _detail(self) -> None:
        row = self.table.highlighted_record
        pane = self.query_one("#review-detail-text", Static)
        if row is None:
            pane.update(Text("No suggestion highlighted.", style="dim"))
            return
        pane.update(Group(
            Text(f"{inert(row.what)} — now", style=HEADING),
            safe(row.now or "(empty)", multiline=True),
            Text(""),
            Text(f"{inert(row.what)} — suggested", style=HEADING),
            safe(row.suggested, multiline=True),
            Text(""),
            Text("t: type it into the settings form" if row.setting else
                 "Shown only: edit action and app instructions on the Functions screen (4); "
                 "y copies the suggestion", style="dim"),
        ))  # fmt: skip

    def on_data_table_row_highlighted(self, event: DataTable.RowHighlighted) -> None:
        event.stop()
        self._detail()

    def action_back(self) -> None:
        self.app.pop_screen()

    def action_take(self) -> None:
        row = self.table.highlighted_record
        if row is None:
            self.status.info("No suggestion highlighted")
            return
        if self.connection.read_only:
            self.status.info("Read-only profile: a suggestion cannot be written (y copies it)")
            return
        if row.setting is None:
            self.status.info(
                f"{row.what}: its instructions are edited on the Functions screen (4); "
                "y copies the suggestion"
            )
            return
        from vagent_tui.ui.screens.settings import SettingsScreen

        self.app.push_screen(SettingsScreen(prefill={row.setting: row.suggested}))

    def action_copy(self) -> None:
        row = self.table.highlighted_record
        if row is None:
            self.status.info("No suggestion highlighted")
            return
        self.vapp.copy_text(inert(row.suggested, multiline=True), "suggestion")
