"""Over SSH an animation's frames are bytes for nothing to read: the console draws none
(issue 40), unless the user asks for them with TEXTUAL_ANIMATIONS."""

from __future__ import annotations

import pytest

from vagent_tui.ui.app import VagentApp


def test_the_console_draws_no_animation(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("TEXTUAL_ANIMATIONS", raising=False)
    assert VagentApp(None).animation_level == "none"


def test_animations_asked_for_are_kept(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TEXTUAL_ANIMATIONS", "full")
    assert VagentApp(None).animation_level != "none"
