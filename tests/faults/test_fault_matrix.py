"""The fault matrix: every screen under every fault kind of the simulator.

For each (screen, fault): the screen loads cleanly, the fault is switched on
(``state.faults.set(kind)``, every request), ``r`` reloads; then

* the app is alive and no worker failed unexpectedly;
* a failure is shown where it happened (the screen's status line) with the server's
  message (5xx/429 envelopes) or a plain description (timeout, dropped connection,
  malformed/truncated reply, fields of the wrong type); replies that are odd but usable
  (unknown extra fields, unknown status values) show no error at all;
* the fault is lifted, ``r`` again, and the screen shows what it showed before.

Every screen of the registry, at the key owner or the demo's first voice agent account,
where its load reads more, with no setup per screen: a new screen is in
the matrix by being registered. Screens that read nothing from the
platform on their own (the journal, the ADR export form) must simply stay clean. Forms
are covered by ``test_fault_forms.py``.
The client is fast here: 0.15 s timeout (0.3 s per attempt overall), no GET retries.
A screen module that does not exist (yet) is skipped.
"""

from __future__ import annotations

import importlib
import time
from typing import Any

import pytest
from textual.pilot import Pilot
from textual.widgets import Input, TextArea

from tests.faults.helpers import faulty_app
from tests.helpers import shown, sim_of
from vagent_tui.sim.faults import ALL_KINDS, ERROR_MESSAGES
from vagent_tui.ui.registry import SCREENS
from vagent_tui.ui.screens.base import BaseScreen

SIM_OPTIONS: dict[str, Any] = {"rooms": 30}
"""Small data where its size is not the point: 30 inbox rooms (one page and a bit)."""


def targets() -> list[int]:
    """The demo's first voice agent account, where every screen has something of its own
    to show, then the accounts above it, nearest first (from the simulator's tree)."""
    from vagent_tui.sim import create_app

    sim = create_app(rooms=0, calls=0).state.sim
    agent = min(
        (a for a in sim.accounts.values() if a.account_type == "account" and not a.computer_agent),
        key=lambda a: a.id,
    )
    return [agent.id, *(a.id for a in sim.ancestors(agent))]


async def reads_at(screen: str, account: int | None) -> int | None:
    """How many requests the screen's load sends at ``account`` (None: the key owner);
    None when the platform refuses the screen there (403)."""
    app = faulty_app(screen, account=account, **SIM_OPTIONS)
    async with app.run_test(size=(120, 40)) as pilot:
        await idle(pilot)
        text, failed = status_of(app)
        if failed and "HTTP 403" in text:
            return None
        return len(sim_of(app).requests)


PLAIN: dict[str, tuple[str, ...]] = {
    "timeout": ("did not answer in time",),
    "refused": ("Could not reach the platform",),
    "malformed": ("not JSON",),
    "truncated": ("not JSON",),
    "cut": ("Could not reach the platform",),
    "wrong-types": ("unexpected type", "not a list", "not an object", "not JSON"),
    **{kind: (ERROR_MESSAGES[int(kind)],) for kind in ("500", "503", "429")},
}
TOLERATED = ("extra-fields", "unknown-status")


def _available(name: str, target: str) -> bool:
    module = target.partition(":")[0]
    try:
        importlib.import_module(module)
    except ModuleNotFoundError:
        return False
    return True


CASES = [
    pytest.param(
        info.name,
        id=info.name,
        marks=()
        if _available(info.name, info.target)
        else pytest.mark.skip(reason=f"no module for {info.name} yet"),
    )
    for info in SCREENS
]


async def idle(pilot: Pilot[None], limit: float = 6.0) -> None:
    """Until no worker of the app runs (migration watchers aside), bounded in time."""
    app = pilot.app
    end = time.monotonic() + limit
    await pilot.pause()
    while time.monotonic() < end:
        busy = [w for w in app.workers if w.is_running and not w.group.startswith("watch-")]
        if not busy:
            await pilot.pause()
            await pilot.pause()
            return
        await pilot.pause(0.02)
    raise AssertionError(f"still busy after {limit} s: {[w.group for w in busy]}")


def status_of(app: Any) -> tuple[str, bool]:
    status = shown(app, BaseScreen).status
    return str(status.content), status.has_class("-error")


async def press_reload(pilot: Pilot[None]) -> None:
    """``r`` with the focus off text fields (there ``r`` is a letter)."""
    screen = pilot.app.screen
    if isinstance(screen.focused, Input | TextArea):
        screen.set_focus(None)
        await pilot.pause()
    await pilot.press("r")
    await idle(pilot)


def unexpected_errors(app: Any) -> list[str]:
    return [n.message for n in app._notifications if "Unexpected error" in n.message]


async def one_fault(pilot: Pilot[None], kind: str, before: str) -> list[str]:
    """Switch ``kind`` on, reload, check; lift it, reload, check. Returns the problems."""
    app = pilot.app
    faults = sim_of(app).faults
    shown = type(app.screen).__name__
    problems: list[str] = []
    injected = faults.count()

    faults.set(kind)
    await press_reload(pilot)
    text, failed = status_of(app)
    if type(app.screen).__name__ != shown:
        problems.append(f"left the screen for {type(app.screen).__name__}")
    requests = faults.count() - injected
    if kind in TOLERATED or requests == 0:
        if failed:
            problems.append(f"error shown for a usable reply: {text!r}")
    elif failed:
        if not any(p in text for p in PLAIN[kind]):
            problems.append(f"no server message or plain description: {text!r}")
        if "press r to retry" not in text:
            problems.append(f"no retry key shown: {text!r}")
    elif kind != "wrong-types":  # tolerating fields of the wrong type is fine
        problems.append(f"fault not shown: {text!r}")

    faults.lift()
    await press_reload(pilot)
    after, failed = status_of(app)
    if failed or after != before:
        problems.append(f"after the fault was lifted and r: {after!r} (before: {before!r})")
    problems.extend(f"notified: {message}" for message in unexpected_errors(app))
    return [f"{kind}: {p}" for p in problems]


class Elsewhere(Exception):
    """The screen's load reads less here than at another place, or is refused here."""


async def under_faults(screen: str, account: int | None, *, reads_more_than: int = -1) -> list[str]:
    """The screen at ``account`` under every fault kind: the problems found. Raises
    `Elsewhere` before the faults when the platform refuses the screen there (403) or
    when its load sent no more than ``reads_more_than`` requests."""
    app = faulty_app(screen, account=account, **SIM_OPTIONS)
    problems: list[str] = []
    async with app.run_test(size=(120, 40), notifications=True) as pilot:
        await idle(pilot)
        assert app.connection.connected, status_of(app)
        before, failed = status_of(app)
        if failed and "HTTP 403" in before:
            raise Elsewhere(f"{account}: {before}")
        assert not failed, before
        if len(sim_of(app).requests) <= reads_more_than:
            raise Elsewhere(f"{account}: reads less than the key owner's own")
        for kind in ALL_KINDS:
            problems += await one_fault(pilot, kind, before)
        assert app.is_running
    return problems


@pytest.mark.parametrize("screen", CASES)
async def test_screen_under_every_fault(screen: str) -> None:
    """Where the screen's load reads the most, with no list per screen: the demo's agent
    account (where every screen has something of its own), unless the key owner's own
    account reads more (Usage sums every account there; Agent reads nothing there); for a
    screen refused at both (templates are a reseller's), the nearest account above."""
    agent, *above = targets()
    own = await reads_at(screen, None)
    places: list[tuple[int | None, int]] = [(agent, own if own is not None else -1)]
    places += [(None, -1)] if own is not None else []
    places += [(account, -1) for account in above]
    tried: list[str] = []
    for account, reads_more_than in places:
        try:
            problems = await under_faults(screen, account, reads_more_than=reads_more_than)
        except Elsewhere as reason:
            tried.append(str(reason))
            continue
        assert not problems, "\n".join(problems)
        return
    raise AssertionError(f"{screen} refused everywhere: {tried}")
