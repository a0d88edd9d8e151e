"""`inert`: outside text that a terminal can only show, never obey."""

from __future__ import annotations

import subprocess
import sys

import pytest

from vagent_tui.inert import DISPLAY_LIMIT, NEWLINE_MARK, inert

PAYLOADS = [
    "\x1b]52;c;SGFja2Vk\x07",  # OSC 52: writes the clipboard
    "\x1b]0;pwned\x07",  # OSC 0: retitles the window
    "\x1b[2J",  # clears the screen
    "\x1b[?1049l",  # leaves the alternate screen
    "\x9b2J",  # C1 CSI
    "\x00\x08\x7f",
]


@pytest.mark.parametrize("payload", PAYLOADS)
def test_no_control_character_survives(payload: str) -> None:
    shown = inert(f"name {payload} end")
    assert shown.isprintable(), repr(shown)
    assert shown.startswith("name ") and shown.endswith(" end")


def test_escape_shows_as_its_control_picture() -> None:
    assert inert("\x1b[2J") == "␛[2J"
    assert inert("a\x07b") == "a␇b"
    assert inert("\x7f") == "␡"
    assert inert("\x9b") == "⟨U+009B⟩"


@pytest.mark.parametrize(
    "char", ["\u202e", "\u202a", "\u2066", "\u200b", "\u200f", "\ufeff", "\u2028", "\u2029"]
)
def test_bidi_and_zero_width_are_made_visible(char: str) -> None:
    assert inert(f"a{char}b") == f"a⟨U+{ord(char):04X}⟩b"


def test_newlines_are_marked_on_one_line_and_kept_in_a_block() -> None:
    assert inert("one\ntwo") == f"one{NEWLINE_MARK}two"
    assert inert("one\ntwo\tx", multiline=True) == "one\ntwo\tx"
    assert inert("one\r\ntwo", multiline=True) == "one␍\ntwo"


def test_long_values_are_cut_with_a_mark_saying_how_much() -> None:
    shown = inert("x" * (DISPLAY_LIMIT + 12_345))
    assert shown.startswith("x" * DISPLAY_LIMIT)
    assert shown.endswith("…(+12,345 characters)")
    assert len(inert("x" * 50_000_000)) < DISPLAY_LIMIT + 40
    assert inert("y" * 10, limit=4) == "yyyy…(+6 characters)"
    assert inert("z" * 5000, limit=0) == "z" * 5000


def test_plain_text_is_unchanged() -> None:
    for text in ("Northwind Support", "é 漢字 [bold]x[/]", "a\u00a0b", ""):
        assert inert(text) == text
    assert inert(None) == ""
    assert inert(42) == "42"


def test_lone_surrogates_are_shown_not_written() -> None:
    shown = inert("a\ud800b")
    assert shown == "a⟨U+D800⟩b"
    shown.encode("utf-8")  # writable to a terminal


def test_headless() -> None:
    code = "import sys, vagent_tui.inert; assert 'textual' not in sys.modules"
    subprocess.run([sys.executable, "-c", code], check=True)
