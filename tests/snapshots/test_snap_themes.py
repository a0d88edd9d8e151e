"""Snapshots of each shipped theme on the voices screen at 80x24, the first-run setup
screen, and a prod read-only profile (header colour, marker, no mutating keys)."""

from __future__ import annotations

import pytest
from textual.pilot import Pilot

from tests.helpers import SnapCompare, settle
from vagent_tui import config as cfg
from vagent_tui.services.connect import demo_client
from vagent_tui.ui.app import VagentApp

THEMES = ["vagent-dark", "vagent-light", "vagent-high-contrast", "vagent-ansi"]


async def run_before(pilot: Pilot[None]) -> None:
    await settle(pilot)


@pytest.mark.parametrize("theme", THEMES)
def test_theme_on_voices_80x24(snap_compare: SnapCompare, theme: str) -> None:
    app = VagentApp(
        demo_client(), profile_label="demo · demo-partner", initial_screen="voices", theme=theme
    )
    assert snap_compare(app, terminal_size=(80, 24), run_before=run_before)


def test_setup_screen_80x24(snap_compare: SnapCompare) -> None:
    app = VagentApp(None, config=cfg.load(), theme="vagent-dark")
    assert snap_compare(app, terminal_size=(80, 24), run_before=run_before)


@pytest.mark.parametrize("theme", ["vagent-dark", "vagent-ansi"])
def test_prod_read_only_sip_80x24(snap_compare: SnapCompare, theme: str) -> None:
    profile = cfg.Profile("prod", "http://demo.sim", tier="prod", token_env="X")
    app = VagentApp(
        demo_client(),
        profile_label="prod",
        initial_screen="sip",
        profile=profile,
        theme=theme,
    )
    assert snap_compare(app, terminal_size=(80, 24), run_before=run_before)
