"""API tokens of the acting account: the list (masked), create (value shown once), delete.

A token's full value is held only inside the list's records (needed to delete it) and,
for a new token, by the one-time modal; it is never rendered, notified or logged.
Rows are keyed by a digest of the value so that not even the table's keys hold it.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from functools import partial
from typing import ClassVar

from pydantic import ValidationError
from rich.text import Text
from textual import on, work
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.widget import Widget
from textual.widgets import Button, Input, Label, Select, Static

from vagent_tui.api.errors import PlatformError
from vagent_tui.api.models import TokenRecord, TokenRequest
from vagent_tui.ui.caps import ROW_CAP, left_out
from vagent_tui.ui.dialogs import ConfirmModal
from vagent_tui.ui.format import fmt_datetime, plain
from vagent_tui.ui.safety import DESTRUCTIVE, WRITES, Key
from vagent_tui.ui.screens.base import BaseScreen, who_of
from vagent_tui.ui.text import safe
from vagent_tui.ui.widgets.form import FormField, errors_by_field, first_invalid, show_errors
from vagent_tui.ui.widgets.new_token import NewTokenModal
from vagent_tui.ui.widgets.status import describe_error, outcome_unknown
from vagent_tui.ui.widgets.table_filter import filter_binding
from vagent_tui.ui.widgets.tables import SafeTable, row_table

TOKEN_TYPES = [("admin", "admin")]  # the only type the API documents


def row_key(record: TokenRecord) -> str:
    return "t-" + hashlib.sha256(record.token.encode()).hexdigest()[:16]


class TokensScreen(BaseScreen):
    """The acting account's tokens in a table; a create form below it (``a``)."""

    TITLE: ClassVar[str] = "Tokens"
    BINDINGS: ClassVar[list[BindingType]] = [
        Key("a", "add", "New token", id="tokens.new", tooltip="Create a token", does=WRITES),
        Key(
            "d",
            "delete",
            "Delete",
            id="tokens.delete",
            does=DESTRUCTIVE,
            tooltip="Delete the highlighted token (asks first)",
        ),
        Binding(
            "escape",
            "close_form",
            "Close form",
            show=False,
            id="tokens.close-form",
            tooltip="Close the create form (what you typed is kept)",
        ),
        filter_binding("tokens"),  # last: the footer drops it first
    ]
    CSS_PATH = "tokens.tcss"

    def __init__(self) -> None:
        super().__init__()
        self._records: dict[str, TokenRecord] = {}
        self._order: list[str] = []

    # ------------------------------------------------------------------ layout

    def compose_body(self) -> Iterable[Widget]:
        yield Static("", id="tokens-note", markup=False)
        yield row_table(
            "tokens-table",
            (
                ("Token", "token"),
                ("Description", "description"),
                ("Type", "type"),
                ("Created", "created"),
                ("User", "user"),
            ),
        )
        with Vertical(id="tokens-form", classes="-hidden"):
            yield Label("New token", classes="pane-title")
            with Horizontal(id="tokens-form-row"):
                yield FormField(
                    "Type",
                    Select(TOKEN_TYPES, value="admin", allow_blank=False, id="tokens-type"),
                    name="type",
                )
                description = Input(placeholder="what is it for?", id="tokens-description")
                description.cursor_blink = False
                yield FormField("Description", description, name="description", hint="optional")
                with Horizontal(id="tokens-form-buttons"):
                    yield Button("Create", id="tokens-create", variant="primary")
                    yield Button("Cancel", id="tokens-cancel")
            yield Label(
                "admin is the only documented type · Enter creates · Esc closes the form",
                id="tokens-form-hint",
            )

    @property
    def table(self) -> SafeTable:
        return self.query_one("#tokens-table", SafeTable)

    @property
    def fields(self) -> list[FormField]:
        return list(self.query("#tokens-form FormField").results(FormField))

    @property
    def description_input(self) -> Input:
        return self.query_one("#tokens-description", Input)

    def on_mount(self) -> None:
        self.table.focus()

    # ------------------------------------------------------------------ loading

    def reload(self) -> None:
        self.load_tokens()

    @work(exclusive=True, group="tokens-load", exit_on_error=False)
    async def load_tokens(self, done: str = "") -> None:
        """Read the list; ``done`` is a message to show with the count (after a change)."""
        self.status.busy("Loading tokens")
        ok, records = await self.load(
            lambda c: c.api.list_tokens(target=c.target_id), busy=self.table
        )
        if not ok or records is None:
            return
        self._fill(records)
        self.query_one("#tokens-note", Static).update(
            safe(f"Tokens of {who_of(self, with_id=True)} · masked; a new value is shown once")
        )
        count = f"{len(records)} token{'s' if len(records) != 1 else ''}"
        count += left_out(len(records), "tokens")
        self.status.ok(f"{done} · {count}" if done else count)

    def _fill(self, records: list[TokenRecord]) -> None:
        table = self.table
        keep = self.highlighted_key
        self._records = {row_key(r): r for r in records[:ROW_CAP]}
        self._order = list(self._records)
        with self.app.batch_update():
            table.clear()
            for key, record in self._records.items():
                table.add_row(*self._cells(record), key=key)
            if keep in self._order:
                table.move_to_source(self._order.index(keep))

    @staticmethod
    def _cells(record: TokenRecord) -> list[Text]:
        return [
            Text(record.masked),
            Text(plain(record.description)),
            Text(plain(record.type)),
            Text(fmt_datetime(record.created_at)),
            Text(plain(record.user_id)),
        ]

    @property
    def highlighted_key(self) -> str | None:
        row = self.table.source_row
        if not self._order or not 0 <= row < len(self._order):
            return None
        return self._order[row]

    # ------------------------------------------------------------------ create

    def action_add(self) -> None:
        self.query_one("#tokens-form").remove_class("-hidden")
        self.description_input.focus()

    def action_close_form(self) -> None:
        form = self.query_one("#tokens-form")
        if not form.has_class("-hidden"):
            form.add_class("-hidden")
            self.table.focus()

    @on(Button.Pressed, "#tokens-cancel")
    def _cancel_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        self.action_close_form()

    @on(Button.Pressed, "#tokens-create")
    @on(Input.Submitted, "#tokens-description")
    def _create_requested(self, event: Button.Pressed | Input.Submitted) -> None:
        event.stop()
        self.submit()

    def submit(self) -> None:
        """Validate the form with `TokenRequest`; send only if it is valid."""
        if any(w.group == "write-tokens-create" and w.is_running for w in self.workers):
            # A second Enter must not cancel the first request: its token would be
            # created with a value nobody ever sees.
            return
        kind = self.query_one("#tokens-type", Select).value
        try:
            request = TokenRequest(
                type=kind if isinstance(kind, str) else "",
                description=self.description_input.value,
            )
        except ValidationError as exc:
            errors = errors_by_field(exc)
            rest = show_errors(self.fields, errors)
            self.status.error("; ".join(rest) or "Fix the form: nothing was sent", retry_key=None)
            invalid = first_invalid(self.fields)
            if invalid is not None:
                invalid.widget.focus()
            return
        show_errors(self.fields, {})
        self.create_token(request)

    @work(group="write-tokens-create", exit_on_error=False)
    async def create_token(self, request: TokenRequest) -> None:
        if self.busy_writing():
            return
        target, who = self.connection.target_id, who_of(self, with_id=True)
        button = self.query_one("#tokens-create", Button)
        button.disabled = True
        self.status.busy("Creating a token")
        try:
            record = await self.connection.api.create_token(
                request.description, type=request.type, target=target
            )
        except PlatformError as exc:
            button.disabled = False
            if outcome_unknown(exc):
                # The token may exist now: show what the platform holds, offer no retry.
                await self.load_tokens().wait()
                self.status.error(
                    f"{describe_error(exc)} — the list is reloaded: look for the token "
                    "there before creating another",
                    retry_key=None,
                )
                return
            self.status.error(exc, retry_key="Enter")  # the form keeps what was typed
            return
        finally:
            button.disabled = False
        # Shown once whatever happened to the target meanwhile: the token exists now.
        self.app.push_screen(
            NewTokenModal(record.token, description=request.description, account=who)
        )
        done = f"Token {record.masked} created for {who}"
        del record
        self.description_input.value = ""
        self.action_close_form()
        self.load_tokens(done)

    # ------------------------------------------------------------------ delete

    def action_delete(self) -> None:
        key = self.highlighted_key
        record = self._records.get(key or "")
        if key is None or record is None:
            self.notify("No token highlighted", severity="warning")
            return
        body = (
            f"Delete token {record.masked} "
            f"({record.description or 'no description'}) of {who_of(self, with_id=True)}?\n"
            "Anything using it will get Unauthorized from then on."
        )
        if record.token and self.connection.api.uses_token(record.token):
            body += (
                "\n\n⚠ This is the key this console is using: after deleting it every "
                "request of this session will fail."
            )
        self.app.push_screen(
            ConfirmModal("Delete token?", body, confirm_label="Delete"),
            partial(self._delete_answer, key, self.connection.target_id),
        )

    def _delete_answer(self, key: str, target: int | None, confirmed: bool | None) -> None:
        if not confirmed:
            self.status.info("Delete cancelled: nothing was sent")
            return
        if target != self.connection.target_id or key not in self._records:
            self.status.info("The list changed meanwhile: nothing was sent")
            return
        self.delete_token(key)

    @work(group="write-tokens-delete", exit_on_error=False)
    async def delete_token(self, key: str) -> None:
        if self.busy_writing():
            return
        record = self._records[key]
        target = self.connection.target_id
        masked = record.masked
        self.status.busy(f"Deleting token {masked}")
        try:
            reply = await self.connection.api.delete_token(record.token, target=target)
        except PlatformError as exc:
            self.status.error(exc)
            return
        del record
        self.load_tokens(f"{reply.message or 'Token deleted'}: {masked}")
