"""What an agent knows about a caller (``GET/POST /context``): one text per agent
account and caller (a number in E.164 or a username), personal data.

A POST replaces the text whole (CONTRACT choice 110): the console sends the text as it
will be. The text of a caller never told anything is made from the caller for some of
them (`made`), so the demo has callers the agent knows about without a seed.
"""

from __future__ import annotations

import zlib
from typing import TYPE_CHECKING, Any

from vagent_tui.sim.common import bad
from vagent_tui.sim.outbound import check_target

if TYPE_CHECKING:
    from vagent_tui.sim.state import SimState

MAX_CONTEXT = 10_000
"""Characters of one caller's text (choice 111)."""
_MADE = (
    "Prefers afternoon calls. Last asked about the opening hours.",
    "Customer since 2021.\nSpeaks Spanish; switch language if asked.",
    "Has an open question about an invoice; offer a callback from billing.",
)


def made(who: str) -> str:
    """The text the simulator holds for a caller never told anything: one of `_MADE`
    for a third of the callers (by a hash of ``who``), else none."""
    h = zlib.crc32(who.encode())
    return _MADE[(h >> 2) % len(_MADE)] if h % 3 == 0 else ""


def known(state: SimState, account_id: int, who: str) -> str:
    """What the agent of ``account_id`` knows about ``who`` ("" when nothing)."""
    held = state.caller_context.get((account_id, who))
    return made(who) if held is None else held


def check_who(value: Any) -> str:
    """The ``target`` of a request: E.164 or a username, else 400."""
    return check_target(value)


def replace(state: SimState, account_id: int, who: str, text: Any) -> None:
    """Set what the agent knows about ``who`` to ``text`` whole ("" forgets it)."""
    if not isinstance(text, str):
        raise bad("context is required and must be a string")
    if len(text) > MAX_CONTEXT:
        raise bad(f"context holds more than {MAX_CONTEXT:,} characters")
    state.caller_context[(account_id, who)] = text
