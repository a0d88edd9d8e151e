"""API tokens of the acting account: the list (masked), create (value shown once), delete.

A token's full value is held only inside the list's records (needed to delete it) and,
for a new token, by the one-time modal; it is never rendered, notified or logged.
Rows are keyed by a digest of the value so that not even the table's keys hold it.
``a`` opens the create form (`TokenForm`, validated like every add form); ``d`` deletes
the highlighted token after a confirmation naming it. Both go through the write path
(`vagent_tui.ui.writes`): to the account the user saw, never resent when the reply is
lost (the list is read back instead), and a token deleted elsewhere is said to be gone.
"""

from __future__ import annotations

import hashlib
from collections.abc import Awaitable, Iterable
from typing import ClassVar, cast

from rich.text import Text
from textual import work
from textual.binding import BindingType
from textual.widget import Widget
from textual.widgets import Static

from vagent_tui.api.models import Envelope, TokenRecord, TokenRequest
from vagent_tui.services.session import Connection
from vagent_tui.ui.caps import ROW_CAP, left_out
from vagent_tui.ui.dialogs import ConfirmModal
from vagent_tui.ui.format import fmt_datetime, plain
from vagent_tui.ui.safety import DESTRUCTIVE, WRITES, Key
from vagent_tui.ui.screens.base import BaseScreen, who_of
from vagent_tui.ui.text import safe
from vagent_tui.ui.widgets.entry_forms import TokenForm
from vagent_tui.ui.widgets.new_token import NewTokenModal
from vagent_tui.ui.widgets.record_table import RecordTable, record_table
from vagent_tui.ui.widgets.table_filter import filter_binding
from vagent_tui.ui.writes import Write, Written, listed
from vagent_tui.words import counted


def row_key(record: TokenRecord) -> str:
    return "t-" + hashlib.sha256(record.token.encode()).hexdigest()[:16]


def token_cells(record: TokenRecord) -> list[Text]:
    return [
        safe(record.masked),
        Text(plain(record.description)),
        Text(plain(record.type)),
        Text(fmt_datetime(record.created_at)),
        Text(plain(record.user_id)),
    ]


class TokensScreen(BaseScreen):
    """The acting account's tokens in a table; ``a`` creates one, ``d`` deletes one."""

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
        filter_binding("tokens"),  # last: the footer drops it first
    ]
    CSS_PATH = "tokens.tcss"

    # ------------------------------------------------------------------ layout

    def compose_body(self) -> Iterable[Widget]:
        yield Static("", id="tokens-note", markup=False)
        yield record_table(
            "tokens-table",
            (
                ("Token", "token"),
                ("Description", "description"),
                ("Type", "type"),
                ("Created", "created"),
                ("User", "user"),
            ),
            key=row_key,
        )

    @property
    def table(self) -> RecordTable[TokenRecord]:
        return cast("RecordTable[TokenRecord]", self.query_one("#tokens-table", RecordTable))

    def on_mount(self) -> None:
        self.table.focus()

    @property
    def highlighted_key(self) -> str | None:
        """The row key of the highlighted token (a digest: never the value)."""
        record = self.table.highlighted_record
        return row_key(record) if record is not None else None

    # ------------------------------------------------------------------ loading

    def reload(self) -> None:
        self.load_tokens()

    @work(exclusive=True, group="tokens-load", exit_on_error=False)
    async def load_tokens(self, done: str = "", *, quiet: bool = False) -> None:
        """Read the list; ``done`` is a message to show with the count (after a change);
        ``quiet`` leaves the status line to the write that asked."""
        if not quiet:
            self.status.busy("Loading tokens")
        ok, records = await self.load(
            lambda c: c.api.list_tokens(target=c.target_id), busy=self.table
        )
        if not ok or records is None:
            return
        self.table.show(records[:ROW_CAP], token_cells)
        self.query_one("#tokens-note", Static).update(
            safe(f"Tokens of {who_of(self, with_id=True)} · masked; a new value is shown once")
        )
        if quiet:
            return
        count = counted(len(records), "token") + left_out(len(records), "token")
        self.status.ok(f"{done} · {count}" if done else count)

    # ------------------------------------------------------------------ create

    def action_add(self) -> None:
        who = who_of(self, with_id=True)

        async def send(c: Connection, request: TokenRequest) -> TokenRecord:
            return await c.api.create_token(
                request.description, type=request.type, target=c.target_id
            )

        def read_back(c: Connection, request: TokenRequest) -> Awaitable[str]:
            return listed(
                c.api.list_tokens(target=c.target_id),
                lambda r: r.description == request.description,
                present="a token with this description exists now: look for it in the list "
                "before creating another.",
                absent="no token with this description: it was not created.",
            )

        def done(result: tuple[TokenRequest, TokenRecord] | None) -> None:
            if result is None:
                return
            request, record = result
            # Shown once whatever happened to the target meanwhile: the token exists now.
            self.app.push_screen(
                NewTokenModal(record.token, description=request.description, account=who)
            )
            line = f"Token {record.masked} created for {who}"
            del record, result
            self.load_tokens(line)

        form = TokenForm(
            send, subtitle=f"For {who}", read_back=read_back,
            after_unknown=lambda: self.load_tokens(quiet=True),
        )  # fmt: skip
        self.app.push_screen(form, done)

    # ------------------------------------------------------------------ delete

    def action_delete(self) -> None:
        record = self.table.highlighted_record
        if record is None:
            self.status.info("No token highlighted: nothing to delete")
            return
        masked, token = record.masked, record.token
        body = (
            f"Delete token {masked} "
            f"({record.description or 'no description'}) of {who_of(self, with_id=True)}?\n"
            "Anything using it will get Unauthorized from then on."
        )
        if token and self.connection.api.uses_token(token):
            body += (
                "\n\n⚠ This is the key this console is using: after deleting it every "
                "request of this session will fail."
            )

        def after(written: Written[Envelope]) -> None:
            if written.result is not None:
                self.load_tokens(f"{written.result.message or 'Token deleted'}: {masked}")
            elif written.stale:
                self.load_tokens(quiet=True)

        self.write(
            Write[Envelope](
                "tokens-delete",
                f"Deleting token {masked}",
                lambda c: c.api.delete_token(token, target=c.target_id),
                confirm=ConfirmModal("Delete token?", body, confirm_label="Delete"),
                cancelled="Delete cancelled: nothing was sent",
                gone=f"token {masked} was already gone; the list is refreshed",
                read_back=lambda c: listed(
                    c.api.list_tokens(target=c.target_id),
                    lambda r: r.token == token,
                    present=f"token {masked} still exists.",
                    absent=f"token {masked} is deleted.",
                ),
                retry_key="d",
                after=after,
            )
        )
