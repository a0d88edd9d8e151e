"""What the agent knows about a caller (``GET/POST /context``), shown and edited from a
call: Calls (the highlighted call) and the call view share the key ``K``.

The text is read, opened in an editor, and what will be sent is reviewed as a diff
before it is: the whole text, which replaces what the agent knew (sim/CONTRACT.md,
choice 110; the vendor does not say whether a POST replaces or adds). After the write
the text is read back; a platform that holds something else than what was sent (one
that adds) is said on the status line. The text is personal data: it is read only when
the key asks for it; the journal records the request as sent, as for every write.
"""

from __future__ import annotations

from rich.text import Text
from textual.binding import BindingType

from vagent_tui.api.context_models import MAX_CONTEXT, CallerContext, ContextRequest, check_caller
from vagent_tui.api.log_models import LogEntry
from vagent_tui.api.models import Envelope
from vagent_tui.inert import MULTILINE_LIMIT
from vagent_tui.services.diff import FieldDiff, text_lines
from vagent_tui.services.session import Connection
from vagent_tui.ui.failures import WRITE_GROUP_PREFIX
from vagent_tui.ui.safety import WRITES, Key
from vagent_tui.ui.screens.call_capture import ShowsCalls, account_of
from vagent_tui.ui.text import inert, safe
from vagent_tui.ui.writes import Write, Written

WRITE_GROUP = WRITE_GROUP_PREFIX + "caller-context"
NOT_SAID = ("The platform's reference does not say whether this adds to what the agent knew "
            "or replaces it: the console sends the whole text as it will be, and reads it "
            "back after.")  # fmt: skip


def context_key(screen: str) -> BindingType:
    """The key of ``screen`` (``calls``, ``call``) that shows and edits the text."""
    return Key("K", "caller_context", "Knows", id=f"{screen}.caller-context",
               tooltip="What the agent knows about the caller: shown, edited, reviewed",
               does=WRITES)  # fmt: skip


def caller_of(entry: LogEntry) -> str | None:
    """The other party of a call: who called in (``fromNumber``), who was called
    (``toNumber``); None when the entry names no number or username the platform takes."""
    inbound = str(entry.direction or "").lower() == "inbound"
    for value in (entry.from_number, entry.to_number) if inbound else (entry.to_number,):
        if isinstance(value, str):
            try:
                return check_caller(value)
            except ValueError:
                continue
    return None


def context_diff(old: str, new: str) -> list[FieldDiff]:
    """The review's diff: the text line by line ("" before: all of it added)."""
    if old == new:
        return []
    if not old:
        return [
            FieldDiff(
                "context", "added", new=new, lines=tuple("+ " + n for n in new.splitlines() or [""])
            )
        ]
    if not new:
        return [
            FieldDiff(
                "context",
                "removed",
                old=old,
                lines=tuple("- " + o for o in old.splitlines() or [""]),
            )
        ]
    return [FieldDiff("context", "changed", old=old, new=new, lines=text_lines(old, new))]


def as_it_will_be(text: str, diff: Text) -> Text:
    """The review's body: the whole text as it will be, then the change."""
    out = Text("The text as it will be:\n", style="bold")
    if text:
        out.append_text(safe(text, multiline=True, limit=max(len(text), MULTILINE_LIMIT)))
    else:
        out.append("(empty: the agent will know nothing about this caller)", style="italic")
    out.append("\n\nThe change:\n", style="bold")
    out.append_text(diff)
    return out


def held_line(caller: str, sent: str, held: CallerContext | None) -> tuple[bool, str]:
    """After a write: whether the platform holds what was sent, and the sentence."""
    now = "" if held is None else held.context
    if now == sent:
        return True, f"The agent now knows about {caller}: the text as sent"
    if sent and now.endswith(sent):
        return False, (f"The platform holds more than was sent for {caller}: it seems to add "
                       "to what was there rather than replace it (K shows it)")  # fmt: skip
    return False, f"The platform holds another text than was sent for {caller} (K shows it)"


class CallerContextFlow(ShowsCalls):
    """The ``K`` key of a screen that shows calls: `call_in_view` says which."""

    def action_caller_context(self) -> None:
        entry, fallback = self.call_in_view()
        caller = caller_of(entry) if entry is not None else None
        if entry is None or caller is None:
            self.status.info(
                "No call highlighted" if entry is None else "This call names no caller"
            )
            return
        if not self.busy_writing():
            # A write- worker (never cancelled by leaving the screen, never two at once),
            # started here rather than by a decorated method: the call view that holds
            # this key is opened by Calls' Enter, which reads (the key is K's, declared).
            self.run_worker(
                self.edit_caller_context(account_of(entry, fallback), caller),
                group=WRITE_GROUP, exit_on_error=False,
            )  # fmt: skip

    async def edit_caller_context(self, account: int | None, caller: str) -> None:
        """Read, edit, review, send once, read back."""
        from vagent_tui.ui.dialogs import TEXT_KEPT, EditorModal, TextModal

        start = self.connection
        ok, read = await self.load(
            lambda c: c.api.get_caller_context(caller, target=account),
            note=f"Reading what the agent knows about {caller}",
            follows_target=False,
            on_error=lambda exc: self.status.error(exc, retry_key="K"),
        )
        if not ok:
            return
        self.status.clear()
        old = "" if read is None else read.context
        whose = f"the agent of account #{account}" if account is not None else "the agent"
        if inert(old, multiline=True, limit=max(len(old), MULTILINE_LIMIT)) != old:
            # The editor would show, and send back, the inert picture of such text.
            self.app.push_screen(TextModal(
                f"What {whose} knows about {caller}", old,
                note="It holds control or invisible characters: shown, not editable here.",
            ))  # fmt: skip
            return
        if read is None:
            note = "Nothing known yet (the platform answered 404)."
        else:
            note = "What the agent is given now." if old else "Nothing known yet."
        note += " Ctrl+S reviews the change before it is sent; ESC sends nothing."
        text = old
        while True:
            typed = await self.app.push_screen_wait(
                EditorModal(
                    f"What {whose} knows about {caller}",
                    note,
                    text,
                    placeholder="e.g. Name: Dana Lee. Prefers texts.",
                )
            )
            if typed is None:
                self.status.info("Cancelled; nothing was sent.")
                return
            text = typed
            if text == old:
                self.status.info("No change; nothing was sent.")
                return
            if len(text) > MAX_CONTEXT:
                note = f"✗ Not sent: more than {MAX_CONTEXT:,} characters. Your text is kept."
                continue
            written = await self._send(account, caller, whose, old, text, start)
            if written.outcome != "cancelled":
                break
            note = TEXT_KEPT
        if written.outcome != "done":
            return
        ok, held = await self.load(
            lambda c: c.api.get_caller_context(caller, target=account),
            follows_target=False,
            on_error=lambda exc: self.status.error(exc, retry_key="K"),
        )
        if ok:
            same, line = held_line(caller, text, held)
            (self.status.ok if same else self.status.info)(line)

    async def _send(
        self, account: int | None, caller: str, whose: str, old: str, text: str, start: Connection
    ) -> Written[Envelope]:
        """``text`` reviewed against ``old`` (the whole text as it will be, then the
        diff), then sent once through the connection the user saw."""
        from vagent_tui.ui.dialogs import ReviewModal
        from vagent_tui.ui.diff_text import diff_text

        request = ContextRequest(target=caller, context=text)
        review = ReviewModal(
            f"What {whose} will know about {caller}",
            NOT_SAID,
            as_it_will_be(text, diff_text(context_diff(old, text))),
            confirm_label="Send",
        )

        async def read_back(c: Connection) -> str:
            held = await c.api.get_caller_context(caller, target=account)
            return held_line(caller, text, held)[1]

        return await self.written(
            Write[Envelope](
                "caller-context",
                f"Sending what the agent knows about {caller}",
                lambda c: c.api.update_caller_context(request, target=account),
                confirm=review,
                done=lambda reply: (
                    f"{reply.message or 'Saved'}: what the agent knows about {caller}"
                ),
                read_back=read_back,
                retry_key="K",
            ),
            start,
        )
