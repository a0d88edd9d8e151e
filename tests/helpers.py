"""Helpers for pilot tests, and the types of the suite's fixtures."""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable, Iterable
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

import pytest
from textual.app import App
from textual.pilot import Pilot
from textual.screen import ModalScreen, Screen
from textual.widget import Widget
from textual.worker import Worker

if TYPE_CHECKING:
    from vagent_tui.api.client import PlatformClient
    from vagent_tui.sim.state import SimState
    from vagent_tui.ui.app import VagentApp


S = TypeVar("S", bound=Screen[Any])
T = TypeVar("T")


def console(pilot: Pilot[Any]) -> VagentApp:
    """The app a pilot drives: the console."""
    return _console(pilot.app)


def shown(app: App[Any], kind: type[S]) -> S:
    """The screen on show, which the test expects to be a ``kind``."""
    screen = app.screen
    assert isinstance(screen, kind), f"{type(screen).__name__} on show, not {kind.__name__}"
    return screen


def focus_of(screen: Screen[Any]) -> Widget | None:
    """The widget with the focus on ``screen`` now.

    A call, not ``screen.focused``: mypy keeps a type an earlier assert narrowed that
    attribute to, across the key presses that move the focus.
    """
    return screen.focused


def known(value: T | None) -> T:
    """``value``, which the test expects is there by now (not None)."""
    assert value is not None, "None where the test expects a value"
    return value


class _Identified(Protocol):
    @property
    def id(self) -> int | None: ...


def id_of(thing: _Identified) -> int:
    """The id of an account (or anything with an optional ``id``) the test expects it has."""
    assert thing.id is not None, f"{thing!r} has no id"
    return thing.id


class MakeApp(Protocol):
    """The ``make_app`` fixture (tests/conftest.py): the console on its own simulator."""

    def __call__(
        self,
        screen: str = "scope",
        *,
        token: str = "demo-partner",
        account: int | None = None,
        **sim_options: Any,
    ) -> VagentApp: ...


class SnapCompare(Protocol):
    """pytest-textual-snapshot's ``snap_compare`` fixture, as it is called here."""

    def __call__(
        self,
        app: str | App[Any],
        press: Iterable[str] = (),
        terminal_size: tuple[int, int] = (80, 24),
        run_before: Callable[[Pilot[Any]], Awaitable[None] | None] | None = None,
    ) -> bool: ...


DEMO_ACCOUNT_FOR: dict[str, int] = {
    "agent": 1111,
    "voices": 1111,
    "functions": 1111,
    "inbox": 1111,
    "migrations": 1100,
    "computer": 1118,
    "numbers": 1111,
    "numbering": 1110,
}
"""The demo account a screen shows best (an agent, a reseller, a computer agent), by
``--screen`` name; the other screens start at the key owner."""


PERPETUAL = frozenset({"_loader", "calls-follow"})
"""Worker groups that never finish while their widget lives (DirectoryTree's loader)."""


async def settle(pilot: Pilot[Any], *, rounds: int = 40) -> None:
    """Let workers finish: pause until no worker is running (bounded)."""
    app = pilot.app

    def working(worker: Worker[Any]) -> bool:
        # A write waiting for the user's answer in a dialog is idle until it is answered.
        asking = isinstance(app.screen, ModalScreen) and worker.group.startswith("write-")
        return worker.is_running and worker.group not in PERPETUAL and not asking

    for _ in range(rounds):
        await pilot.pause()
        if not any(working(w) for w in app.workers):
            await pilot.pause()
            return
        await pilot.pause(0.02)


async def wait_for(pilot: Pilot[Any], check: Callable[[], object], seconds: float = 10.0) -> None:
    """Pause until ``check()`` is true; fail with a clear message after ``seconds``."""
    deadline = time.monotonic() + seconds
    while not check():
        assert time.monotonic() < deadline, f"still not true after {seconds} s"
        await pilot.pause(0.02)


def fail_once(
    monkeypatch: pytest.MonkeyPatch, owner: object, name: str, error: BaseException
) -> dict[str, int]:
    """Make ``owner.name`` raise ``error`` on its first call, then behave; counts calls."""
    real = getattr(owner, name)
    calls = {"n": 0}

    async def flaky(*args: Any, **kwargs: Any) -> Any:
        calls["n"] += 1
        if calls["n"] == 1:
            raise error
        return await real(*args, **kwargs)

    monkeypatch.setattr(owner, name, flaky)
    return calls


def _console(app: App[Any]) -> VagentApp:
    from vagent_tui.ui.app import VagentApp

    assert isinstance(app, VagentApp)
    return app


def client_of(app: App[Any]) -> PlatformClient:
    """The client of the console's connection in force."""
    return _console(app).connection.api


def sim_of(app: App[Any]) -> SimState:
    """The embedded simulator's state behind a demo console (``Sim``)."""
    sim: SimState = _console(app).connection.api.sim_app.state.sim  # type: ignore[attr-defined]
    return sim


def original_key(key: str | None) -> str | None:
    """The key a table row was added with, without the suffix SafeTable gives a repeat."""
    from vagent_tui.ui.widgets.tables import DUPLICATE_MARK

    return key.partition(DUPLICATE_MARK)[0] if key is not None else None
