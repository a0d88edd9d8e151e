"""``S`` on the Calls screen and on a call: the call's SIP capture (``GET /sip/captures``).

Only an entry that carries a SIP Call-ID has one (`LogEntry.sip_call_id`). A dialog asks
the format; the window asked is the call's time, five minutes either side
(`CaptureQuery.around`), for the call's own account. Text, JSON and transactions are
shown as inert text (never markup); a pcap is written to the file named, mode 0600
(`services.captures.save_capture`), after asking before it replaces a file. A read:
allowed on a read-only profile, as the export is.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from textual import work

from vagent_tui.ui.screens.base import BaseScreen
from vagent_tui.ui.text import inert
from vagent_tui.words import counted

if TYPE_CHECKING:
    from vagent_tui.api.capture_models import CaptureFormat, CaptureQuery
    from vagent_tui.api.log_models import LogEntry

CAPTURE_GROUP = "call-capture"


def account_of(entry: LogEntry | None, fallback: int | None) -> int | None:
    """The entry's account (``account_id``), else ``fallback`` (the query's)."""
    account = entry.account_id if entry is not None else None
    if isinstance(account, int) and not isinstance(account, bool):
        return account
    if isinstance(account, str) and account.isascii() and account.isdecimal():
        return int(account)
    return fallback


def file_stem(entry: LogEntry) -> str:
    """A file name's stem for the entry's capture: its id, kept to safe characters."""
    ident = "".join(c for c in str(entry.id or "") if c.isascii() and (c.isalnum() or c in "-_."))
    return f"capture-{ident.strip('.')[:80] or 'call'}"


class ShowsCalls(BaseScreen):
    """A screen that shows calls (the Calls list, a call): its keys act on `call_in_view`."""

    def call_in_view(self) -> tuple[LogEntry | None, int | None]:
        """The call a key acts on (None: none highlighted) and the account the calls
        were read for (None: the key's own; `account_of` prefers the call's own)."""
        raise NotImplementedError


class CaptureFetching(ShowsCalls):
    """``S`` (``action_capture``, bound by each screen after its own keys): the SIP
    capture of the call `call_in_view` names."""

    def action_capture(self) -> None:
        entry, fallback = self.call_in_view()
        account = account_of(entry, fallback)
        if entry is None:
            self.status.info("No call highlighted")
            return
        call_id = entry.sip_call_id
        if call_id is None:
            self.status.info(
                "This entry carries no SIP Call-ID: the platform keeps no capture of it"
            )
            return
        from vagent_tui.ui.widgets.call_forms import CaptureChoice, CaptureModal

        def chosen(choice: CaptureChoice | None) -> None:
            if choice is None:
                return
            if choice.format == "pcap" and choice.path.exists():
                from vagent_tui.ui.dialogs import ConfirmModal

                def replace_it(yes: bool | None) -> None:
                    if yes:
                        self._capture(entry, call_id, choice.format, choice.path, account)

                self.app.push_screen(
                    ConfirmModal(
                        "Replace the file?",
                        f"{choice.path} exists: replace it?",
                        confirm_label="Replace",
                    ),
                    replace_it,
                )
                return
            self._capture(entry, call_id, choice.format, choice.path, account)

        self.app.push_screen(CaptureModal(call_id, f"{file_stem(entry)}.pcap"), chosen)

    def _capture(
        self, entry: LogEntry, call_id: str, fmt: str, path: Path, account: int | None
    ) -> None:
        from vagent_tui.api.capture_models import CAPTURE_FORMATS, CaptureQuery

        chosen: CaptureFormat = next((f for f in CAPTURE_FORMATS if f == fmt), "text")
        try:
            query = CaptureQuery.around(call_id, chosen, entry.at, entry.seconds)
        except ValueError:
            self.status.info("This entry's SIP Call-ID is not one the platform can be asked for")
            return
        self._fetch_capture(query, path, account)

    @work(exclusive=True, group=CAPTURE_GROUP, exit_on_error=False)
    async def _fetch_capture(self, query: CaptureQuery, path: Path, account: int | None) -> None:
        ok, capture = await self.load(
            lambda c: c.api.get_sip_capture(query, target=account),
            note=f"Fetching the SIP capture ({query.format})",
            follows_target=False,
            on_error=lambda exc: self.status.error(exc, retry_key="S"),
        )
        if not ok or capture is None:
            return
        if capture.is_binary:
            from vagent_tui.services.captures import save_capture

            try:
                save_capture(path, capture.content)
            except OSError as exc:
                self.status.error(
                    f"Could not write {inert(str(path))}: {exc.strerror or exc}",
                    retry_key="S",
                    cause=exc,
                )
                return
            self.status.ok(
                f"SIP capture written to {inert(str(path))} "
                f"({counted(len(capture.content), 'byte')}, readable by you only)"
            )
            return
        from vagent_tui.ui.dialogs import TextModal

        text = capture.text
        self.app.push_screen(
            TextModal(
                f"SIP capture ({query.format})", text, note=f"SIP Call-ID {query.sip_call_id}"
            ),
        )
        self.status.ok(f"SIP capture ({query.format}): {counted(len(text.splitlines()), 'line')}")
