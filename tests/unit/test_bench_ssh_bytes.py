"""bench/ssh_bytes.py's ideal encoder: its output turns "before" into "after"."""

from __future__ import annotations

import importlib.util
import random
import sys
from pathlib import Path
from types import ModuleType

import pyte
import pytest

BENCH = Path(__file__).resolve().parents[2] / "bench"
SIZE = (12, 4)


@pytest.fixture(scope="module")
def bench() -> ModuleType:
    sys.path.insert(0, str(BENCH))
    spec = importlib.util.spec_from_file_location("bench_ssh_bytes", BENCH / "ssh_bytes.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up
    spec.loader.exec_module(module)
    return module


def screen_of(text: str) -> list[list[pyte.screens.Char]]:
    screen = pyte.Screen(*SIZE)
    pyte.Stream(screen).feed(text)
    return [[screen.buffer[y][x] for x in range(SIZE[0])] for y in range(SIZE[1])]


STYLES = ["\x1b[0m", "\x1b[1;31m", "\x1b[0;38;5;123;48;5;17m", "\x1b[7m", "\x1b[38;2;1;2;3m"]
TEXTS = ["ab", "漢", " ", "xyz", "é", "  "]


def random_screen(rng: random.Random) -> list[list[pyte.screens.Char]]:
    parts = []
    for y in range(SIZE[1]):
        parts.append(f"\x1b[{y + 1};{rng.randrange(SIZE[0] - 3) + 1}H")
        for _ in range(rng.randrange(4)):
            parts.append(rng.choice(STYLES) + rng.choice(TEXTS))
    return screen_of("".join(parts))


def test_the_replay_of_random_changes_shows_the_after_screen(bench: ModuleType) -> None:
    rng = random.Random(40)
    for _ in range(200):
        before, after = random_screen(rng), random_screen(rng)
        bench.replay_check(SIZE, before, after)  # raises on a mismatch


def test_no_change_encodes_to_nothing_and_one_cell_to_a_move_and_it(bench: ModuleType) -> None:
    before = screen_of("\x1b[2;3Hhello")
    assert bench.replay_check(SIZE, before, before) == 0
    after = screen_of("\x1b[2;3Hhellp")
    assert bench.encode(before, after) == "\x1b[2;7Hp"


def test_every_key_opens_a_screen_of_the_console_and_one_console_waits_for_one_text(
    bench: ModuleType,
) -> None:
    from vagent_tui.ui.registry import BY_NAME

    consoles: dict[tuple[object, ...], str] = {}
    for key in bench.KEYS:
        assert key.screen in BY_NAME, key.name
        # The keys of one console (screen, token, flags) are measured after one wait.
        ready = consoles.setdefault((key.screen, key.token, key.args), key.ready)
        assert ready == key.ready, key.name
    assert len({key.name for key in bench.KEYS}) == len(bench.KEYS)
