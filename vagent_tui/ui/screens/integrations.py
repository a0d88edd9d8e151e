"""Integrations: one integration's data (``appData``) of the target account, by its slug
and version (``GET /integration/{slug}/{version}``), and its edit
(``PUT /integration/{slug}/{version}``, which replaces the whole ``appData``).

The platform lists no integration: ``o`` asks for a slug and a version, offering the
ones opened before on this platform (kept in the state folder, `RecentIntegrations`).
Each leaf of the data is a row; a value whose key names a key, a secret, a token or a
password is masked. ``e`` edits the data as JSON, each secret's value standing as
``<unchanged secret>`` (left so it stays as it is; typed anew, it is replaced), then
shows what changes (secrets said as changed, never shown) and asks before the PUT; the
journal says a secret was set, not what it is.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any, ClassVar, cast

from rich.text import Text
from textual import work
from textual.binding import Binding, BindingType
from textual.widget import Widget
from textual.widgets import Static

from vagent_tui import crash
from vagent_tui.api.echoes import secrets_of
from vagent_tui.api.errors import ApiError, PlatformError
from vagent_tui.services.integrations import (
    RecentIntegrations,
    changes,
    editable,
    parse_edit,
    read_again,
    rows,
)
from vagent_tui.ui.diff_text import was_becomes_text
from vagent_tui.ui.format import plain
from vagent_tui.ui.safety import WRITES, Key
from vagent_tui.ui.screens.base import BaseScreen, who_of
from vagent_tui.ui.text import safe
from vagent_tui.ui.widgets.record_table import RecordTable, record_table
from vagent_tui.ui.widgets.table_filter import filter_binding
from vagent_tui.ui.writes import Write, Written
from vagent_tui.words import counted

if TYPE_CHECKING:
    from vagent_tui.api.integration_models import IntegrationData, IntegrationUpdate
    from vagent_tui.services.session import Connection

Row = tuple[str, str]

EDIT_NOTE = (
    "appData as JSON; a PUT replaces all of it. <unchanged secret> keeps a secret as it "
    "is; type a new value to replace it. ctrl+s: review."
)


class IntegrationsScreen(BaseScreen):
    """One integration's data: open by slug, read, edit after a review."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("o", "open_slug", "Open", id="integrations.open",
                tooltip="Open an integration by its slug and version (those used before offered)"),
        Key("e", "edit", "Edit", id="integrations.edit", does=WRITES,
            tooltip="Edit the data as JSON (secrets stay unless typed anew), review, then PUT"),
        filter_binding("integrations"),
    ]  # fmt: skip
    CSS_PATH = "integrations.tcss"

    def __init__(self) -> None:
        super().__init__()
        self.slug = ""
        self.version = "v1"
        self.data: dict[str, Any] | None = None
        """The data on show, as read (secrets included: never drawn unmasked)."""
        self.recent = RecentIntegrations()

    def compose_body(self) -> Iterable[Widget]:
        yield Static("", id="integrations-header", markup=False)
        yield record_table(
            "integrations-table", (("Key", "key"), ("Value", "value")), key=lambda row: row[0]
        )

    @property
    def table(self) -> RecordTable[Row]:
        return cast("RecordTable[Row]", self.query_one("#integrations-table", RecordTable))

    def on_mount(self) -> None:
        self.table.focus()

    def _used(self) -> list[tuple[str, str]]:
        return self.recent.load(self.connection.api.host)

    def _header(self, line: str) -> None:
        self.query_one("#integrations-header", Static).update(safe(line))

    # ------------------------------------------------------------------ reading

    def reload(self) -> None:
        if not self.slug:
            used = self._used()
            self.slug, self.version = used[0] if used else ("", "v1")
        if not self.slug:
            self.data = None
            self.table.show([], _cells)
            self._header(f"No integration opened for {who_of(self)}: press o")
            self.status.info("o opens an integration by its slug and version")
            return
        self.load_data()

    @work(exclusive=True, group="integrations-load", exit_on_error=False)
    async def load_data(self) -> None:
        slug, version = self.slug, self.version
        where = f"{slug}/{version}"

        def failed(exc: PlatformError) -> None:
            self.data = None
            self.table.show([], _cells)
            if isinstance(exc, ApiError) and exc.status == 404:
                self._header(f"{where}: no data for {who_of(self)}")
                self.status.info(f"{where}: {exc.message} · o opens another")
                return
            self._header(f"{where}: not read")
            self.status.error(exc)

        ok, read = await self.load(
            lambda c: c.api.get_integration(slug, version, target=c.target_id),
            note=f"Reading {where} of {who_of(self)}",
            busy=self.table,
            on_error=failed,
        )
        if not ok or read is None:
            return
        self.show(read)
        self.recent.remember(self.connection.api.host, slug, version)
        if self.recent.error:
            self.notify(self.recent.error, severity="warning", markup=False)
        self.status.ok(f"{where}: {counted(len(self.table.records), 'value')} · {who_of(self)}")

    def show(self, read: IntegrationData) -> None:
        self.data = dict(read.app_data)
        app = f"{read.app_id or self.slug} {read.app_version or self.version}"
        self._header(f"Integration {app} of {who_of(self, with_id=True)} · secrets masked")
        self.table.show(rows(self.data), _cells)

    def action_open_slug(self) -> None:
        from vagent_tui.api.integration_models import name_problem
        from vagent_tui.ui.dialogs import PromptModal

        used = self._used()
        listed = ", ".join(f"{s} {v}" for s, v in used) or "none yet"

        def problem(text: str) -> str | None:
            words = text.split()
            if not words or len(words) > 2:
                return "Type a slug, then its version (v1 when left out)"
            return name_problem("slug", words[0]) or (
                name_problem("version", words[1]) if len(words) == 2 else None
            )

        def opened(text: str | None) -> None:
            if not text:
                return
            words = text.split()
            self.slug, self.version = words[0], words[1] if len(words) == 2 else "v1"
            self.load_data()

        current = f"{self.slug} {self.version}" if self.slug else ""
        self.app.push_screen(
            PromptModal(
                "Open an integration",
                f"The platform lists none: its slug and version (v1 when left out).\n"
                f"Used before here: {listed}",
                value=current or (" ".join(used[0]) if used else ""),
                placeholder="calendar v1",
                confirm_label="Open",
                validate=problem,
            ),
            opened,
        )

    # ------------------------------------------------------------------ editing

    def action_edit(self) -> None:
        if self.data is None:
            self.status.info("Open an integration with data first (o)")
            return
        if not self.busy_writing():
            self.edit(dict(self.data), self.slug, self.version, self.connection)

    @work(group="write-integrations-edit", exit_on_error=False)
    async def edit(self, old: dict[str, Any], slug: str, version: str, start: Connection) -> None:
        """The editor, then the review; what was typed is kept while it is refused (not
        JSON, a secret kept that is not there) or the review is answered no."""
        from vagent_tui.ui.dialogs import TEXT_KEPT, EditorModal

        text, note = editable(old), EDIT_NOTE
        while True:
            typed = await self.app.push_screen_wait(
                EditorModal(f"Edit {slug} {version}", note, text)
            )
            if typed is None:
                self.status.info("Cancelled; nothing was sent.")
                return
            text = typed
            try:
                new = parse_edit(text, old)
            except ValueError as exc:
                note = f"✗ Not sent: {exc}. Your text is kept: fix it and save again."
                continue
            if new == old:
                self.status.info("No change; nothing was sent.")
                return
            declined: list[bool] = []
            await self._put(slug, version, (old, new, text), start, declined)
            if not declined:  # sent, or not sent for a reason its status line says
                return
            note = TEXT_KEPT

    async def _put(
        self,
        slug: str,
        version: str,
        edit: tuple[dict[str, Any], dict[str, Any], str],
        start: Connection,
        declined: list[bool],
    ) -> Written[IntegrationData]:
        """Review the edit (``old``, ``new``, the text typed), read the data again just
        before the PUT, and ask again against it when it moved meanwhile; ``declined``
        gets an entry when the review is answered no (the editor opens again)."""
        from vagent_tui.api.integration_models import IntegrationUpdate
        from vagent_tui.ui.dialogs import ReviewModal

        old, new, text = edit
        who, where = who_of(self, with_id=True), f"{slug}/{version}"
        sending = [new]

        def showing(read: IntegrationData) -> None:
            if (slug, version) == (self.slug, self.version):
                self.show(read)

        async def confirm() -> bool:
            base, moved = old, Text()
            while True:
                review = ReviewModal(
                    f"Replace {where} of {who}?",
                    "The whole appData is replaced by the edited one; secrets are never "
                    "shown (the journal says they were set).",
                    was_becomes_text(changes(base, sending[0])),
                    meanwhile=moved or None,
                    confirm_label="Replace",
                )
                if not await self.app.push_screen_wait(review):
                    self.status.info("Cancelled; nothing was sent.")
                    declined.append(True)
                    return False
                try:
                    fresh = await read_again(
                        start.api, slug, version, text, old, target=start.target_id
                    )
                except PlatformError as exc:
                    self.status.error(exc)
                    return False
                if fresh.sending is None:
                    said = f"Not sent: the data changed meanwhile; {fresh.problem}"
                    self.status.error(said, retry_key="e")
                    showing(fresh.read)
                    return False
                sending[0] = fresh.sending
                if fresh.data == base:
                    return True
                # Someone wrote meanwhile: say what moved, ask again on what is there.
                showing(fresh.read)
                base, moved = fresh.data, was_becomes_text(fresh.moved, "Changed meanwhile:\n")
                if sending[0] == base:
                    self.status.info(f"{where} changed meanwhile to the edit; nothing was sent.")
                    return False

        async def read_back(c: Connection) -> str:
            now = await c.api.get_integration(slug, version, target=c.target_id)
            same = now.app_data == sending[0]
            return "The data is as edited." if same else "The data is not as edited: see it (r)."

        def after(written: Written[IntegrationData]) -> None:
            if written.result is not None and (slug, version) == (self.slug, self.version):
                self.show(written.result)
            elif written.stale:
                self.load_data()

        return await self.written(
            Write["IntegrationData"](
                "integrations-edit",
                f"Replacing the data of {where} for {who}",
                lambda c: c.api.update_integration(
                    slug,
                    version,
                    remembered(IntegrationUpdate(app_data=sending[0])),
                    target=c.target_id,
                ),
                confirm=confirm,
                done=lambda reply: f"{said(reply.message, 'Saved')} · {where} · {who}",
                read_back=read_back,
                retry_key="e",
                after=after,
            ),
            start,
        )


def remembered(update: IntegrationUpdate) -> IntegrationUpdate:
    """``update``, its secrets (kept or typed) masked in any crash report from now on."""
    for secret in secrets_of(update.wire(), update.journal()):
        crash.remember_secret(secret)
    return update


def said(message: object, default: str) -> str:
    """The platform's message as inert text, or ``default`` when it says none."""
    return plain(message) if message not in (None, "") else default


def _cells(row: Row) -> tuple[Text, Text]:
    return safe(row[0], style="bold"), safe(row[1])
