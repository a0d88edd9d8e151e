"""ui/frame_diff.py: only the cells that changed are written, and they show the frame."""

from __future__ import annotations

import pyte
import pytest
from rich.color import ColorSystem
from rich.console import Console
from rich.segment import Segment
from rich.style import Style
from textual.strip import Strip

from vagent_tui.ui.frame_diff import Frame, Piece

SIZE = (20, 3)
RED = Style(color="red", bgcolor="blue")
BOLD = Style(bold=True, color="red", bgcolor="blue")
GREEN = Style(color="green", bgcolor="blue")


def strip(*parts: tuple[str, Style | None]) -> Strip:
    return Strip([Segment(text, style) for text, style in parts])


def textual(pieces: list[Piece]) -> str:
    """What Textual writes for the pieces: a move, then each segment whole."""
    console = Console(color_system="256", force_terminal=True)
    return "".join(f"\x1b[{y + 1};{x + 1}H{s.render(console)}" for x, y, s in pieces)


def shown(*streams: str) -> list[str]:
    screen = pyte.Screen(*SIZE)
    for text in streams:
        pyte.Stream(screen).feed(text)
    return [
        "".join(
            f"{c.data}{c.fg}{c.bg}{int(c.bold)}"
            for c in (screen.buffer[y][x] for x in range(SIZE[0]))
        )
        for y in range(SIZE[1])
    ]


def write(frame: Frame, pieces: list[Piece]) -> str:
    text, keep = frame.prepare(*SIZE, pieces, ColorSystem.EIGHT_BIT)
    keep()
    return text


FIRST: list[Piece] = [
    (0, 0, strip(("ab", RED), ("cd", BOLD), ("漢字", RED), ("e\u0301f", None))),
    (0, 1, strip(("plain line", None))),
    (10, 1, strip(("beside", GREEN))),
]
CHANGES: list[list[Piece]] = [
    [(0, 0, strip(("ab", RED), ("cX", BOLD), ("漢字", RED), ("e\u0301f", None)))],  # one cell
    [(0, 0, strip(("ab", RED), ("cd", RED), ("漢x ", RED), ("e\u0301f", None)))],  # style, wide
    [(10, 1, strip(("BESIDE", GREEN)))],  # beside another piece
    [(0, 2, strip(("new row", BOLD), ("   ", None)))],
]


@pytest.mark.parametrize("change", CHANGES)
def test_a_change_shows_what_a_full_write_shows_in_fewer_bytes(change: list[Piece]) -> None:
    frame = Frame()
    first = write(frame, FIRST)
    assert shown(first) == shown(textual(FIRST))
    diff = write(frame, change)
    assert shown(first, diff) == shown(textual(FIRST), textual(change))
    assert 0 < len(diff) < len(textual(change))


def test_nothing_changed_writes_nothing() -> None:
    frame = Frame()
    write(frame, FIRST)
    assert write(frame, FIRST) == ""
    assert write(frame, [FIRST[2]]) == ""


def test_one_cell_is_a_move_and_the_cell() -> None:
    frame = Frame()
    write(frame, FIRST)
    assert write(frame, [(10, 1, strip(("bEside", GREEN)))]) == "\x1b[2;12H\x1b[32;44mE\x1b[m"


def test_an_update_not_written_is_not_taken_for_shown() -> None:
    frame = Frame()
    write(frame, FIRST)
    frame.prepare(*SIZE, CHANGES[0], ColorSystem.EIGHT_BIT)  # Textual dropped it
    assert write(frame, CHANGES[0]) != ""


def test_a_forgotten_frame_and_a_new_size_write_everything_again() -> None:
    frame = Frame()
    whole = write(frame, FIRST)
    frame.forget(0, 0)
    assert write(frame, FIRST) == whole
    text, _ = frame.prepare(SIZE[0] + 1, SIZE[1], FIRST, ColorSystem.EIGHT_BIT)
    assert text == whole


def test_a_strip_shown_again_where_another_overwrote_it_is_written() -> None:
    """The very strip object at its place is skipped only while nothing overwrote it."""
    frame = Frame()
    wide = (0, 1, strip(("x" * SIZE[0], RED)))
    steps = [FIRST, [wide], [FIRST[2]]]
    ours = [write(frame, pieces) for pieces in steps]
    assert shown(*ours) == shown(*(textual(pieces) for pieces in steps))
    assert write(frame, [FIRST[2]]) == ""


UNDERLINED = Style(underline=True, bgcolor="blue")


@pytest.mark.parametrize(
    ("tail", "erased"),
    [
        (RED, True),
        (BOLD, True),
        (None, True),
        (UNDERLINED, False),
        (RED + Style(reverse=True), False),
    ],
)
def test_a_row_ending_blank_is_erased_to_its_end_when_the_blank_shows_only_a_background(
    tail: Style | None, erased: bool
) -> None:
    """A pane's blank rows: a few bytes (CSI K fills with the background), not a space
    per column; an underline or a reverse would not show on erased cells."""
    frame = Frame()
    first = write(frame, FIRST)
    change = [(0, 1, strip(("new", GREEN), (" " * (SIZE[0] - 3), tail)))]
    diff = write(frame, change)
    assert shown(first, diff) == shown(textual(FIRST), textual(change))
    assert diff.endswith("\x1b[K\x1b[m" if tail else "\x1b[K") is erased
    assert (" " * 4 in diff) is not erased


def test_a_short_blank_tail_is_written_as_spaces() -> None:
    frame = Frame()
    write(frame, FIRST)
    change = [(0, 1, strip(("x" * (SIZE[0] - 2), GREEN), ("  ", RED)))]
    assert "\x1b[K" not in write(frame, change)
