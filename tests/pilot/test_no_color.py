"""NO_COLOR in a real terminal: the terminal's own colours, and cursors in reverse video.

The ANSI theme (chosen for NO_COLOR) names the terminal's "default" colours; Textual's
monochrome filter once turned those into black on black, so the whole console was
unreadable. The bytes written to a pseudo-terminal are checked, not the widget tree.
"""

from __future__ import annotations

import os
import re
import sys

import pytest

from tests.terminal import console_on_pty

SGR = re.compile(rb"\x1b\[([0-9;:]*)m")
COLOUR_PARAMS = {"38", "48", *map(str, range(30, 38)), *map(str, range(40, 48)),
                 *map(str, range(90, 98)), *map(str, range(100, 108))}  # fmt: skip


def _sgr_params(written: bytes) -> list[list[str]]:
    return [m.group(1).decode().replace(":", ";").split(";") for m in SGR.finditer(written)]


@pytest.mark.skipif(sys.platform != "linux", reason="drives a real pseudo-terminal")
def test_no_color_writes_no_colour_and_shows_the_cursor() -> None:
    env = {**os.environ, "TERM": "xterm-256color", "COLORTERM": "truecolor", "NO_COLOR": "1"}
    args = ["--demo", "--screen", "voices", "--account", "1111"]
    with console_on_pty(args, env, rows=24, columns=80) as term:
        assert term.read_until("voices for"), "the voices never loaded"
        term.send(b"\x11")  # ctrl+q
        term.read_for(0.5)
    written = term.written
    params = _sgr_params(bytes(written))
    coloured = [p for p in params if COLOUR_PARAMS & set(p)]
    assert not coloured, f"colour written despite NO_COLOR: {coloured[:3]}"
    assert any("7" in p for p in params), "no cursor or highlight in reverse video"
