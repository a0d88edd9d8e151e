"""Snapshots of the Voices browser at 80x24 and 120x40 (a starter-plan agent: some
voices are unavailable, so the glyph and the reason show)."""

from __future__ import annotations

from textual.pilot import Pilot

from tests.helpers import MakeApp, SnapCompare, settle


async def run_before(pilot: Pilot[None]) -> None:
    await settle(pilot)


async def run_before_unavailable(pilot: Pilot[None]) -> None:
    await settle(pilot)
    await pilot.press("slash", *"sonic", "enter")  # focus returns to the table
    await settle(pilot)


def test_voices_80x24(snap_compare: SnapCompare, make_app: MakeApp) -> None:
    assert snap_compare(make_app("voices"), terminal_size=(80, 24), run_before=run_before)


def test_voices_120x40(snap_compare: SnapCompare, make_app: MakeApp) -> None:
    assert snap_compare(make_app("voices"), terminal_size=(120, 40), run_before=run_before)


def test_voices_unavailable_80x24(snap_compare: SnapCompare, make_app: MakeApp) -> None:
    app = make_app("voices", account=1113)
    assert snap_compare(app, terminal_size=(80, 24), run_before=run_before_unavailable)


def test_voices_unavailable_120x40(snap_compare: SnapCompare, make_app: MakeApp) -> None:
    app = make_app("voices", account=1113)
    assert snap_compare(app, terminal_size=(120, 40), run_before=run_before_unavailable)
