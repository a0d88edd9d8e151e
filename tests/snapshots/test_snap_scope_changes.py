"""Snapshots of Scope's dialogs that change the tree (demo-reseller): the create form
(a bad email refused at its field), the review of an edit, the delete's typed name."""

from __future__ import annotations

import pytest
from textual.pilot import Pilot

from tests.helpers import MakeApp, SnapCompare, settle
from tests.snapshots.sizes import size_id, sizes
from vagent_tui.ui.screens.scope import ScopeScreen

SIZES = sizes(ScopeScreen)
"""Scope has no breakpoint and a dialog is 70 columns wide at either size: one size."""


@pytest.mark.parametrize("size", SIZES, ids=size_id)
def test_scope_create_organization(
    snap_compare: SnapCompare, make_app: MakeApp, size: tuple[int, int]
) -> None:
    async def run_before(pilot: Pilot[None]) -> None:
        await settle(pilot)
        await pilot.press("home", "a")
        await settle(pilot)
        await pilot.press(*"Orbit Clinic", "tab", *"nobody", "enter")
        await settle(pilot)

    app = make_app("scope", token="demo-reseller")
    assert snap_compare(app, terminal_size=size, run_before=run_before)


@pytest.mark.parametrize("size", SIZES, ids=size_id)
def test_scope_edit_review(
    snap_compare: SnapCompare, make_app: MakeApp, size: tuple[int, int]
) -> None:
    async def run_before(pilot: Pilot[None]) -> None:
        await settle(pilot)
        await pilot.press("home", "down", "e")
        await settle(pilot)
        await pilot.press(*"Acme Dental Care", "enter")
        await settle(pilot)

    app = make_app("scope", token="demo-reseller")
    assert snap_compare(app, terminal_size=size, run_before=run_before)


@pytest.mark.parametrize("size", SIZES, ids=size_id)
def test_scope_delete_typed_name(
    snap_compare: SnapCompare, make_app: MakeApp, size: tuple[int, int]
) -> None:
    async def run_before(pilot: Pilot[None]) -> None:
        await settle(pilot)
        await pilot.press("home", "down", "down", "d")
        await settle(pilot)
        await pilot.press(*"Harbor", "enter")
        await settle(pilot)

    app = make_app("scope", token="demo-reseller")
    assert snap_compare(app, terminal_size=size, run_before=run_before)
