"""bench/run_all.py: which scripts it runs, which lines it reads, what it writes."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

BENCH = Path(__file__).resolve().parents[2] / "bench"


@pytest.fixture(scope="module")
def run_all() -> ModuleType:
    spec = importlib.util.spec_from_file_location("bench_run_all", BENCH / "run_all.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up
    spec.loader.exec_module(module)
    return module


def test_it_finds_the_benchmarks_and_leaves_the_helpers(run_all: ModuleType) -> None:
    names = {path.stem for path in run_all.scripts()}
    assert {"startup", "client", "memory"} <= names
    assert not names & {"_common", "run_all", "console_ready", "yardstick_app"}


def test_it_reads_every_figure_line(run_all: ModuleType) -> None:
    output = "\n".join(
        [
            "yardstick: median 597 ms  (625, 635)",
            "until quitting (information): yardstick 393 ms, console 558 ms, ratio 1.42",
            "inbox-rss: ratio 1.00 (target 1.1)",
            "memory-rss: 158.9 MB (target 150 MB)",
            "rollout-memory: +0.28 MB (target 5 MB)",
            "inbox: ratio 1.02 (target 1.2)",
        ]
    )
    found = run_all.figures(output)
    assert [(f.name, f.text, f.target_text, f.met) for f in found] == [
        ("inbox-rss", "1.00", "1.1", True),
        ("memory-rss", "158.9 MB", "150 MB", False),
        ("rollout-memory", "+0.28 MB", "5 MB", True),
        ("inbox", "1.02", "1.2", True),
    ]


def test_the_table_replaces_only_what_the_markers_hold(
    run_all: ModuleType, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    readme = tmp_path / "README.md"
    readme.write_text(f"# x\n\nbefore\n{run_all.BEGIN}\nold table\n{run_all.END}\nafter\n")
    monkeypatch.setattr(run_all, "README", readme)
    run_all.write_readme("| new | table |")
    text = readme.read_text()
    assert "old table" not in text
    assert text == f"# x\n\nbefore\n{run_all.BEGIN}\n| new | table |\n{run_all.END}\nafter\n"


def test_the_readme_has_the_markers(run_all: ModuleType) -> None:
    text = run_all.README.read_text(encoding="utf-8")
    assert text.count(run_all.BEGIN) == 1 and text.count(run_all.END) == 1
