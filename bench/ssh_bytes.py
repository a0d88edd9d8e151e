"""Bytes a key sends to the terminal, against the ideal cell diff (issue 40, over SSH).

Over a slow link what a key costs is the bytes the console writes for it. For each key
of `KEYS`, at 120x40 and at 80x24, a fresh console runs as a user runs it (``python -m
vagent_tui --demo --screen NAME``, ``--account ID`` for a screen that shows an
account's rows, ``TERM=xterm-256color``, a state and config folder of this run's own) on
a pseudo-terminal of that size (one console per screen and account: the keys of one
share it). Everything it writes is fed to a terminal emulator (pyte). Once the screen
has loaded and the console has written nothing for a while, the key is sent
``--presses`` times; after each press the bytes the console writes until it is quiet
again (`QUIET` without a byte) are the key's bytes: intermediate frames (a "reading…"
before the data, a tab's underline drawn a frame later) count. A key with an ``undo``
(Up after a Down, Escape after a key that opens a panel or a prompt) has it sent after
each press, unmeasured, so that every press acts from the same state. Journal has one
entry (the migration's, run first at each size): its Down has nothing to move to;
Inboxes has no agent selected: ``n`` has no page to go to.

The yardstick, measured in the same run: the ideal, a cell-diff encoder of this
script's own (`encode`; it shares no code with the console or Textual) given the
emulator's screen before and after the press. It writes only the cells that changed, in
runs, with the cheapest cursor move to each run (or the few unchanged cells between two
runs when that is cheaper), an SGR only when the style changes and then only the
attributes that change (or a reset when shorter; the pen starts at the terminal's
default, where a console leaves it after a frame), and an erase-to-end-of-line for a
blank tail; colours as the shortest SGR giving the emulator's colour (a 256-colour
index when there is one). Each encoding is checked by replaying it onto a second
emulator holding the "before" screen and comparing every cell with "after": a mismatch
fails the run.

A running migration (``demo-reseller``, a dry run of the first template, ``s``) is
measured without a key: the bytes written over `--window` seconds while the monitor's
once-a-second tick updates the screen, against the ideal diffs from one quiet frame to
the next, per second.

Per key and size: the console's bytes (median over the presses), the ideal's (median),
and their ratio. Figures: for each key its worst ratio over the two sizes (target 2.0;
a key whose presses change nothing shows its median bytes instead, target 0 B).

Usage: ``python bench/ssh_bytes.py [--presses N] [--sizes 120x40,80x24] [--only KEY ...]
[--window S] [--truecolor]`` (needs pyte: ``pip install ".[bench]"``; ``--truecolor``
adds ``COLORTERM=truecolor``, which SSH does not pass on by default)
"""

from __future__ import annotations

import argparse
import contextlib
import fcntl
import itertools
import os
import pty
import select
import shutil
import signal
import statistics
import struct
import sys
import tempfile
import termios
import time
from dataclasses import dataclass
from pathlib import Path

import pyte
from pyte import graphics
from pyte.screens import Char

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import ROOT

QUIET = 0.4
"""Seconds without a byte after which a key's output is over."""
FIRST_BYTE = 1.0
"""Seconds a key may take before its first byte; none by then: it wrote nothing."""
TARGET = 2.0


@dataclass(frozen=True)
class Key:
    name: str
    screen: str
    key: bytes
    ready: str
    """Text on the screen once it has loaded what the key acts on."""
    token: str = "demo-partner"
    args: tuple[str, ...] = ()
    """More of the console's flags (``--account ID``: an account the key has rows on)."""
    undo: bytes = b""
    """Sent after each press, not measured, once its bytes are counted: the key acts
    from the same state every press (Up after Down, Escape after a key opening a panel)."""


DOWN = b"\x1b[B"
UP = b"\x1b[A"
ESC = b"\x1b"
TAB, BACKTAB = b"\t", b"\x1b[Z"
AGENT = ("--account", "1111")  # Acme Dental Front Desk: an agent account with a bit of all
KEYS = (
    Key("scope-down", "scope", DOWN, "accounts under"),
    Key("calls-down", "calls", DOWN, "page 1 of"),
    Key("calls-n", "calls", b"n", "page 1 of"),
    Key("voices-down", "voices", DOWN, "voices for"),
    Key("usage-down", "usage", DOWN, "Usage of"),
    Key("fleet-down", "fleet", DOWN, "agent accounts"),
    Key("journal-down", "journal", DOWN, "Journal"),
    Key("inbox-n", "inbox", b"n", "No agent account selected"),
    # The screens added since (issues 41 and 42, and the older ones no key measured).
    Key("usage-p", "usage", b"p", "Usage of", undo=ESC),
    Key("numbers-down", "numbers", DOWN, "2 phone numbers held", args=("--account", "1112"),
        undo=UP),
    Key("numbers-s", "numbers", b"s", "2 phone numbers held", args=("--account", "1112"),
        undo=ESC),
    Key("sip-down", "sip", DOWN, "whitelisted addresses for", args=AGENT, undo=UP),
    Key("sip-t", "sip", b"t", "whitelisted addresses for", args=AGENT),
    Key("numbering-down", "numbering", DOWN, "numbering providers, 1 configured",
        args=("--account", "1110"), undo=UP),
    Key("integrations-o", "integrations", b"o", "No integration opened", args=AGENT, undo=ESC),
    Key("billing-tab", "billing", TAB, "fill in and save", undo=BACKTAB),
    Key("tokens-down", "tokens", DOWN, "3 tokens", args=AGENT, undo=UP),
    Key("members-down", "members", DOWN, "2 members of the organization", args=AGENT, undo=UP),
    Key("webhooks-t", "webhooks", b"t", "2 destinations", args=AGENT),
    Key("functions-down", "functions", DOWN, "configured functions", args=AGENT, undo=UP),
)  # fmt: skip
MIGRATION = "migration-idle-per-s"


# ------------------------------------------------------------------ the ideal encoder

_ANSI = {name: code - 30 for code, name in graphics.FG_ANSI.items() if name != "default"}
_BRIGHT = {name: code - 90 for code, name in graphics.FG_AIXTERM.items()}
_INDEX: dict[str, int] = {}
for _i, _hex in enumerate(graphics.FG_BG_256):
    _INDEX.setdefault(_hex, _i)

_FLAGS = (
    ("bold", "1", "22"),
    ("italics", "3", "23"),
    ("underscore", "4", "24"),
    ("blink", "5", "25"),
    ("reverse", "7", "27"),
    ("strikethrough", "9", "29"),
)


def _colour(value: str, background: bool) -> str:
    """The shortest SGR parameter that makes pyte store ``value``."""
    base = 40 if background else 30
    if value == "default":
        return str(base + 9)
    if value in _ANSI:
        return str(base + _ANSI[value])
    if value in _BRIGHT:
        return str(base + 60 + _BRIGHT[value])
    if value in _INDEX:
        return f"{base + 8};5;{_INDEX[value]}"
    r, g, b = (int(value[i : i + 2], 16) for i in (0, 2, 4))
    return f"{base + 8};2;{r};{g};{b}"


def _style(cell: Char) -> tuple[object, ...]:
    return tuple(cell)[1:]


def _sgr(pen: Char, cell: Char) -> str:
    """The shortest SGR taking the pen from ``pen``'s style to ``cell``'s ('' if equal)."""
    if _style(pen) == _style(cell):
        return ""
    changed = []
    if pen.fg != cell.fg:
        changed.append(_colour(cell.fg, False))
    if pen.bg != cell.bg:
        changed.append(_colour(cell.bg, True))
    for name, on, off in _FLAGS:
        if getattr(pen, name) != getattr(cell, name):
            changed.append(on if getattr(cell, name) else off)
    fresh = [] if cell.fg == "default" else [_colour(cell.fg, False)]
    if cell.bg != "default":
        fresh.append(_colour(cell.bg, True))
    fresh += [on for name, on, _ in _FLAGS if getattr(cell, name)]
    reset = ";".join(["0", *fresh]) if fresh else ""
    delta = ";".join(changed)
    return f"\x1b[{delta if len(delta) < len(reset) + 1 else reset}m"


def _move(cursor: tuple[int, int] | None, to_row: int, to_col: int) -> str:
    """The shortest way to move the cursor from ``cursor`` (None: unknown) to a cell."""
    if cursor == (to_row, to_col):
        return ""
    options = [f"\x1b[{to_row + 1};{to_col + 1}H" if to_col else f"\x1b[{to_row + 1}H"]
    if to_row == 0 and to_col == 0:
        options.append("\x1b[H")
    if cursor is not None:
        row, col = cursor
        if row == to_row:
            if to_col == 0:
                options.append("\r")
            elif to_col > col:
                step = to_col - col
                options.append(f"\x1b[{step}C" if step > 1 else "\x1b[C")
            else:
                step = col - to_col
                options.append(f"\x1b[{step}D" if step > 1 else "\b")
        elif to_row == row + 1 and to_col == 0:
            options.append("\r\n")
    return min(options, key=len)


def _cells(screen: pyte.Screen) -> list[list[Char]]:
    return [[screen.buffer[y][x] for x in range(screen.columns)] for y in range(screen.lines)]


def _changed(old: list[Char], new: list[Char]) -> list[bool]:
    """Which cells of a row to write: those that differ, with both halves of a wide one."""
    columns = len(new)
    changed = [old[x] != new[x] for x in range(columns)]
    for x in range(columns - 1, 0, -1):
        # A right half is written with its left half; a narrow cell replacing a right
        # half leaves the left half blank in a real terminal (pyte keeps it): rewrite it.
        if changed[x] and (new[x].data == "" or old[x].data == ""):
            changed[x - 1] = True
    for x in range(columns - 1):
        if changed[x] and new[x + 1].data == "":
            changed[x + 1] = True
    return changed


class _Writer:
    """Terminal output being built, with where the cursor and the pen then are."""

    def __init__(self, columns: int) -> None:
        self.columns = columns
        self.out: list[str] = []
        self.cursor: tuple[int, int] | None = None  # unknown at the start
        # The terminal's default pen at the start: where a console leaves it after a
        # frame, as Textual does.
        self.pen = Char(" ")

    def style(self, cell: Char) -> None:
        self.out.append(_sgr(self.pen, cell))
        self.pen = cell

    def go(self, row: int, col: int, cells: list[Char]) -> None:
        """Move to (row, col); on the same row, write the unchanged ``cells[col_now:col]``
        again instead when that is shorter."""
        move = _move(self.cursor, row, col)
        if move and self.cursor is not None and self.cursor[0] == row:
            start = self.cursor[1]
            if start < col:
                pen, parts = self.pen, []
                for cell in cells[start:col]:
                    if cell.data:
                        parts.append(_sgr(pen, cell) + cell.data)
                        pen = cell
                again = "".join(parts)
                if len(again.encode()) < len(move):
                    self.out.append(again)
                    self.pen, self.cursor = pen, (row, col)
                    return
        self.out.append(move)
        self.cursor = (row, col)

    def put(self, row: int, col: int, cells: list[Char]) -> None:
        """Write ``cells[col]`` (the left half of a wide one covers the next cell too)."""
        self.style(cells[col])
        self.out.append(cells[col].data)
        end = col + (2 if col + 1 < self.columns and cells[col + 1].data == "" else 1)
        # Past the last column a terminal holds a pending wrap: where is unclear.
        self.cursor = (row, end) if end < self.columns else None


def encode(before: list[list[Char]], after: list[list[Char]]) -> str:
    """Minimal-ish terminal output turning screen ``before`` into ``after`` (cell grids of
    pyte `Char`: a wide character's right half holds ``data == ''``).

    The cursor is unknown at the start (the first move is absolute), the pen the
    terminal's default; both are left wherever the last run ends.
    """
    columns = len(after[0]) if after else 0
    writer = _Writer(columns)
    for y, (old, new) in enumerate(zip(before, after, strict=True)):
        changed = _changed(old, new)
        x = 0
        while x < columns:
            if not changed[x]:
                x += 1
                continue
            tail = new[x]
            if (
                tail.data == " "
                and sum(changed[x:]) > 3
                and all(_style(c) == _style(tail) and c.data == " " for c in new[x:])
            ):
                writer.go(y, x, new)
                writer.style(tail)
                writer.out.append("\x1b[K")  # pyte, like a terminal, fills with the pen
                break
            writer.go(y, x, new)
            while x < columns and changed[x]:
                if new[x].data:  # a right half is written with its left half
                    writer.put(y, x, new)
                x += 1
    return "".join(writer.out)


def replay_check(size: tuple[int, int], before: list[list[Char]], after: list[list[Char]]) -> int:
    """Encode the change, replay it onto ``before``: the encoded size; raise on a mismatch."""
    text = encode(before, after)
    columns, lines = size
    screen = pyte.Screen(columns, lines)
    for y, row in enumerate(before):
        for x, cell in enumerate(row):
            screen.buffer[y][x] = cell
    pyte.Stream(screen).feed(text)
    got = _cells(screen)
    if got != after:
        bad = [(y, x) for y in range(lines) for x in range(columns) if got[y][x] != after[y][x]]
        y, x = bad[0]
        raise SystemExit(
            f"the ideal encoder's replay differs in {len(bad)} cells, first at row {y} col {x}:"
            f" {got[y][x]} != {after[y][x]}"
        )
    return len(text.encode("utf-8"))


# ------------------------------------------------------------------ the console on a pty


class PtyConsole:
    """The console on a pseudo-terminal, its output fed to a pyte screen."""

    def __init__(self, size: tuple[int, int], args: list[str], home: str, truecolor: bool) -> None:
        columns, lines = size
        self.size = size
        self.screen = pyte.Screen(columns, lines)
        self.stream = pyte.ByteStream(self.screen)
        env = {
            key: value
            for key, value in os.environ.items()
            if not key.startswith(("TEXTUAL", "VAGENT", "COLORTERM", "NO_COLOR"))
        }
        env.update(
            TERM="xterm-256color",
            XDG_CONFIG_HOME=f"{home}/config",
            XDG_STATE_HOME=f"{home}/state",
            PYTHONPATH=ROOT,
        )
        if truecolor:
            env["COLORTERM"] = "truecolor"
        argv = [sys.executable, "-m", "vagent_tui", "--demo", *args]
        self.pid, self.fd = pty.fork()
        if self.pid == 0:  # the child
            os.chdir(ROOT)
            os.execvpe(argv[0], argv, env)
        fcntl.ioctl(self.fd, termios.TIOCSWINSZ, struct.pack("HHHH", lines, columns, 0, 0))

    def cells(self) -> list[list[Char]]:
        return _cells(self.screen)

    def text(self) -> str:
        return "\n".join(self.screen.display)

    def read(self, quiet: float, first: float) -> list[tuple[float, bytes]]:
        """Read until ``quiet`` s pass without a byte (``first`` s before the first one)."""
        chunks: list[tuple[float, bytes]] = []
        last = time.monotonic()
        while True:
            wait = (quiet if chunks else first) - (time.monotonic() - last)
            if wait <= 0:
                return chunks
            if select.select([self.fd], [], [], wait)[0]:
                try:
                    chunk = os.read(self.fd, 1 << 16)
                except OSError:
                    chunk = b""
                if not chunk:
                    raise SystemExit(f"the console ended; its screen:\n{self.text()}")
                last = time.monotonic()
                chunks.append((last, chunk))
                self.stream.feed(chunk)

    def wait_for(self, text: str, limit: float = 60.0) -> None:
        """Read until ``text`` is on the screen and the console is quiet for 1 s."""
        deadline = time.monotonic() + limit
        while text not in self.text():
            if time.monotonic() > deadline:
                raise SystemExit(f"{text!r} never shown; the screen:\n{self.text()}")
            self.read(0.1, 0.2)
        self.read(0.6, 0.6)

    def press(self, key: bytes) -> int:
        os.write(self.fd, key)
        return sum(len(chunk) for _, chunk in self.read(QUIET, FIRST_BYTE))

    def close(self) -> None:
        with contextlib.suppress(ProcessLookupError, ChildProcessError):
            os.kill(self.pid, signal.SIGKILL)
            os.waitpid(self.pid, 0)
        os.close(self.fd)


@dataclass
class Row:
    name: str
    size: tuple[int, int]
    console: float
    ideal: float

    @property
    def ratio(self) -> float:
        if self.ideal:
            return self.console / self.ideal
        return 0.0 if not self.console else float("inf")


def measure_screen(
    keys: list[Key], size: tuple[int, int], presses: int, home: str, tc: bool
) -> list[Row]:
    """Each key's presses in turn, on one console opened on their screen."""
    args = ["--demo-token", keys[0].token, "--screen", keys[0].screen, *keys[0].args]
    console = PtyConsole(size, args, home, tc)
    rows = []
    try:
        console.wait_for(keys[0].ready)
        for key in keys:
            written, ideal = [], []
            for _ in range(presses):
                before = console.cells()
                written.append(console.press(key.key))
                ideal.append(replay_check(size, before, console.cells()))
                if key.undo:
                    console.press(key.undo)
            rows.append(Row(key.name, size, statistics.median(written), statistics.median(ideal)))
    finally:
        console.close()
    return rows


def measure_migration(size: tuple[int, int], window: float, home: str, tc: bool) -> Row:
    args = ["--demo-token", "demo-reseller", "--screen", "migrations", "--task-seconds", "30"]
    console = PtyConsole(size, args, home, tc)
    try:
        console.wait_for("templates")
        console.press(b"s")
        console.wait_for("running", limit=30)
        frames = [console.cells()]
        chunks: list[tuple[float, bytes]] = []
        started = time.monotonic()
        while time.monotonic() - started < window:
            got = console.read(0.15, max(0.05, window - (time.monotonic() - started)))
            if got:
                chunks += got
                frames.append(console.cells())
        seconds = time.monotonic() - started
        if "running" not in console.text():
            raise SystemExit(f"the migration ended before the window did:\n{console.text()}")
    finally:
        console.close()
    ideal = sum(replay_check(size, a, b) for a, b in itertools.pairwise(frames))
    written = sum(len(chunk) for _, chunk in chunks)
    return Row(MIGRATION, size, written / seconds, ideal / seconds)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--presses", type=int, default=5, help="presses per key (5)")
    parser.add_argument("--sizes", default="120x40,80x24", help="terminal sizes (120x40,80x24)")
    parser.add_argument("--window", type=float, default=4.0, help="migration window, s (4)")
    parser.add_argument("--only", nargs="+", metavar="KEY", help="measure only these keys")
    parser.add_argument("--truecolor", action="store_true", help="COLORTERM=truecolor")
    args = parser.parse_args()
    sizes = [tuple(int(n) for n in s.split("x")) for s in args.sizes.split(",")]
    names = [k.name for k in KEYS] + [MIGRATION]
    chosen = args.only or names
    if unknown := set(chosen) - set(names):
        raise SystemExit(f"no such key: {', '.join(sorted(unknown))}; keys: {', '.join(names)}")
    rows: list[Row] = []
    for columns, lines in sizes:
        size = (columns, lines)
        # A journal, config and state of each size's own: the migration (first) leaves
        # one entry in the journal, whose Down then has nothing to move to.
        home = tempfile.mkdtemp(prefix="ssh-bytes-")
        try:
            if MIGRATION in chosen:
                rows.append(measure_migration(size, args.window, home, args.truecolor))
                print_row(rows[-1])
            for console in dict.fromkeys((k.screen, k.token, k.args) for k in KEYS):
                keys = [k for k in KEYS if (k.screen, k.token, k.args) == console]
                keys = [k for k in keys if k.name in chosen]
                if keys:
                    mine = measure_screen(keys, size, args.presses, home, args.truecolor)
                    for row in mine:
                        print_row(row)
                    rows += mine
        finally:
            shutil.rmtree(home, ignore_errors=True)
    for name in names:
        mine = [row for row in rows if row.name == name]
        if not mine:
            continue
        if all(row.ideal == 0 for row in mine):
            worst = max(row.console for row in mine)
            print(f"ssh-{name}: {worst:.0f} B (target 0 B)")
        else:
            worst_ratio = max(row.ratio for row in mine)
            print(f"ssh-{name}: ratio {worst_ratio:.2f} (target {TARGET})")


def print_row(row: Row) -> None:
    unit = " B/s" if row.name == MIGRATION else " B"
    print(
        f"  {row.name:<22} {row.size[0]}x{row.size[1]:<3} console {row.console:>8,.0f}{unit}"
        f"  ideal {row.ideal:>6,.0f}{unit}  ratio {row.ratio:.1f}",
        flush=True,
    )


if __name__ == "__main__":
    main()
