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
    if enabled:
        gc.enable()


def test_pause_then_resume() -> None:
    gc.enable()
    collector.pause()
    assert not gc.isenabled() and collector.paused()
    collector.resume()
    assert gc.isenabled() and not collector.paused()
    assert gc.get_freeze_count() == 0  # nothing frozen: start-up's cycles stay collectable


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
