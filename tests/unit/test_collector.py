"""The cycle collector paused while the console starts (`vagent_tui.collector`)."""

from __future__ import annotations

import argparse
import gc
from collections.abc import Iterator

import pytest

from tests.helpers import MakeApp
from vagent_tui import cli, collector


@pytest.fixture(autouse=True)
def collector_as_it_was() -> Iterator[None]:
    enabled = gc.isenabled()
    yield
    collector.resume()
    collector.release()
    if enabled:
        gc.enable()


def test_pause_then_resume() -> None:
    gc.enable()
    collector.pause()
    assert not gc.isenabled() and collector.paused()
    collector.resume()
    assert gc.isenabled() and not collector.paused()
    assert gc.get_freeze_count() == 0  # nothing frozen: start-up's cycles stay collectable


def test_a_started_console_collects_its_youngest_less_often_until_released() -> None:
    found = gc.get_threshold()
    gc.enable()
    collector.pause()
    assert gc.get_threshold() == found  # nothing collects while paused: left as found
    collector.resume()
    assert gc.get_threshold() == collector.RUNNING_THRESHOLDS
    collector.release()
    assert gc.get_threshold() == found


def test_only_a_pause_made_here_is_resumed() -> None:
    collector.resume()  # never paused: nothing happens
    assert gc.isenabled()
    gc.disable()  # off for another reason: left off
    collector.pause()
    collector.resume()
    assert not gc.isenabled()


def test_the_console_starts_with_the_collector_paused(monkeypatch: pytest.MonkeyPatch) -> None:
    gc.enable()
    seen: list[bool] = []

    def run(_args: argparse.Namespace) -> int:
        seen.append(gc.isenabled())
        return 0

    monkeypatch.setattr(cli, "_run_console", run)
    assert cli.run_console(argparse.Namespace()) == 0
    assert seen == [False]  # while the console's modules are imported and the app runs
    assert gc.isenabled()  # and on again after, whatever the app did


async def test_the_app_resumes_it_once_started(
    make_app: MakeApp, monkeypatch: pytest.MonkeyPatch
) -> None:
    from vagent_tui.ui import app as app_module

    monkeypatch.setattr(app_module, "STARTED_SECONDS", 1.0)
    gc.enable()
    collector.pause()
    app = make_app("scope")
    async with app.run_test(size=(80, 24)) as pilot:
        assert collector.paused()  # mounted: still paused
        await pilot.pause(1.5)
        assert not collector.paused() and gc.isenabled()


def test_set_aside_and_give_back_only_in_a_console_that_paused_here() -> None:
    gc.enable()
    collector.set_aside()
    assert gc.get_freeze_count() == 0  # an app run by the tests: nothing frozen
    collector.pause()
    collector.set_aside()
    assert gc.get_freeze_count() == 0  # paused (starting): nothing set aside yet
    collector.resume()
    collector.set_aside()
    assert gc.get_freeze_count() > 0
    collector.give_back()
    assert gc.get_freeze_count() == 0
    collector.set_aside()
    collector.release()
    assert gc.get_freeze_count() == 0


def test_a_cycle_set_aside_is_collected_once_given_back() -> None:
    class Cycle:
        def __init__(self) -> None:
            self.me = self

    gc.enable()
    collector.pause()
    collector.resume()
    cycle = Cycle()
    import weakref

    gone: list[object] = []

    ref = weakref.ref(cycle, gone.append)
    collector.set_aside()
    del cycle
    gc.collect()
    assert ref() is not None  # set aside: not walked by a collection
    collector.give_back()
    gc.collect()
    assert ref() is None and gone  # walked again: collected


async def test_the_app_sets_aside_after_a_key_and_gives_back_when_typing_stops(
    make_app: MakeApp, monkeypatch: pytest.MonkeyPatch
) -> None:
    calls: list[str] = []
    monkeypatch.setattr(collector, "set_aside", lambda: calls.append("set aside"))
    monkeypatch.setattr(collector, "give_back", lambda: calls.append("give back"))
    app = make_app("scope")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause(1.2)
        assert calls == []  # no input: no timer runs at all (an idle console spends nothing)
        await pilot.press("down")
        await pilot.pause(0.5)
        assert calls == ["set aside"]  # a pause after the key, typing not over
        await pilot.press("down")  # another key restarts both
        await pilot.pause(0.5)
        assert calls == ["set aside", "set aside"]
        await pilot.pause(0.8)
        assert calls[-1] == "give back" and calls.count("give back") == 1


def test_the_program_leaves_its_objects_to_the_system_once_main_has_returned(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The entry point (the script and ``python -m vagent_tui``) freezes what exists after
    `cli.main` returned: the interpreter's last collections then skip it. `main` itself
    (what tests call) leaves the collector be."""
    import tomllib
    from pathlib import Path

    done: list[str] = []

    def main() -> int:
        done.append("main")
        return 3

    monkeypatch.setattr(cli, "main", main)
    monkeypatch.setattr(gc, "freeze", lambda: done.append("freeze"))
    assert cli.entry() == 3
    assert done == ["main", "freeze"]
    root = Path(__file__).resolve().parents[2]
    project = tomllib.loads((root / "pyproject.toml").read_text(encoding="utf-8"))
    assert project["project"]["scripts"]["vagent-tui"] == "vagent_tui.cli:entry"
    assert "raise SystemExit(entry())" in (root / "vagent_tui" / "__main__.py").read_text()


def test_a_command_connects_with_the_collector_paused_and_runs_as_a_console_does(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """`cli.main` with a command line: no collections while it imports and connects, the
    console's running thresholds while the command runs, and as found once it returns."""
    from vagent_tui.commands import get_accounts, runner

    gc.enable()
    found = gc.get_threshold()
    seen: list[tuple[str, bool, tuple[int, int, int]]] = []
    connect = runner.connect

    async def connecting(*args: object) -> object:
        seen.append(("connect", gc.isenabled(), gc.get_threshold()))
        return await connect(*args)  # type: ignore[arg-type]

    async def command(_ctx: object) -> int:
        seen.append(("run", gc.isenabled(), gc.get_threshold()))
        return 0

    monkeypatch.setattr(runner, "connect", connecting)
    monkeypatch.setattr(get_accounts, "run", command)
    assert cli.main(["get", "accounts", "--demo", "-q"]) == 0
    assert seen == [("connect", False, found), ("run", True, collector.RUNNING_THRESHOLDS)]
    assert gc.isenabled() and gc.get_threshold() == found
