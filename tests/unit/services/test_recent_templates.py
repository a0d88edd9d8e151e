"""Recent template ids: kept per platform host in the state folder, newest first, no
secret, a broken file taken as empty, a failed write said."""

from __future__ import annotations

import json
import os
import stat
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from vagent_tui.config import paths, state_dir
from vagent_tui.services.migrations import RecentTemplates, template_id_problem


class Clock:
    def __init__(self) -> None:
        self.now = datetime(2025, 11, 20, 12, 0, tzinfo=UTC)

    def __call__(self) -> datetime:
        self.now += timedelta(minutes=1)
        return self.now


def recent(path: Path, keep: int = 10) -> RecentTemplates:
    return RecentTemplates(path=path, keep=keep, clock=Clock())


def test_kept_in_the_state_folder_next_to_the_journal() -> None:
    store = RecentTemplates()
    assert store.path == state_dir() / "recent-templates.json"
    assert paths()["recent template ids"] == store.path  # `vagent-tui info` lists it
    assert store.load("api.vida.dev") == []


def test_newest_first_per_host_and_an_id_used_again_moves_up(tmp_path: Path) -> None:
    store = recent(tmp_path / "recent.json", keep=3)
    for template_id in ("tpl-a", "tpl-b", "tpl-c"):
        store.remember("api.vida.dev", template_id, 1100)
    store.remember("127.0.0.1:8765", "tpl-sim", None)
    store.remember("api.vida.dev", "tpl-a", 1200)
    ids = [e.template_id for e in store.load("api.vida.dev")]
    assert ids == ["tpl-a", "tpl-c", "tpl-b"]
    assert store.load("api.vida.dev")[0].target == 1200
    store.remember("api.vida.dev", "tpl-d", 1100)  # past keep: the oldest goes
    assert [e.template_id for e in store.load("api.vida.dev")] == ["tpl-d", "tpl-a", "tpl-c"]
    (sim,) = store.load("127.0.0.1:8765")
    assert (sim.template_id, sim.target) == ("tpl-sim", None)
    assert sim.used_at.startswith("2025-11-20T12:")
    # Another console reads what this one kept.
    assert [e.template_id for e in recent(store.path).load("127.0.0.1:8765")] == ["tpl-sim"]


def test_the_file_holds_ids_hosts_targets_and_times_only(tmp_path: Path) -> None:
    store = recent(tmp_path / "state" / "recent.json")
    store.remember("api.vida.dev", "tpl-dental-reception", 1100)
    raw = store.path.read_text()
    data = json.loads(raw)
    assert data["version"] == 1
    assert data["recent"] == [{"templateId": "tpl-dental-reception", "host": "api.vida.dev",
                               "target": 1100, "usedAt": "2025-11-20T12:01:00+00:00"}]  # fmt: skip
    assert stat.S_IMODE(os.stat(store.path).st_mode) == 0o600
    assert [p.name for p in store.path.parent.iterdir()] == ["recent.json"]  # no temp file


@pytest.mark.parametrize(
    "content",
    [b"", b"{", b"[]", b'{"recent": 5}', b'{"recent": [1, {"templateId": 2}]}', b"x" * 300_000],
)
def test_a_file_that_is_not_ours_reads_as_empty_and_is_replaced_whole(
    tmp_path: Path, content: bytes
) -> None:
    path = tmp_path / "recent.json"
    path.write_bytes(content)
    store = recent(path)
    assert store.load("api.vida.dev") == []
    store.remember("api.vida.dev", "tpl-a", None)
    assert [e.template_id for e in recent(path).load("api.vida.dev")] == ["tpl-a"]


def test_entries_that_are_not_ids_are_skipped(tmp_path: Path) -> None:
    path = tmp_path / "recent.json"
    entries = [
        {"templateId": "tpl ok", "host": "h", "usedAt": "t"},
        {"templateId": "tpl-\x1b[2J", "host": "h", "usedAt": "t"},
        {"templateId": "tpl-good", "host": "h", "usedAt": "t", "target": True},
    ]
    path.write_text(json.dumps({"recent": entries}))
    (entry,) = recent(path).load("h")
    assert (entry.template_id, entry.target) == ("tpl-good", None)


def test_a_failed_write_is_said_and_nothing_breaks(tmp_path: Path) -> None:
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("")
    store = recent(blocker / "recent.json")
    store.remember("h", "tpl-a", None)
    assert store.error is not None and "could not be kept" in store.error
    assert store.load("h") == []


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("", "Pick a template first"),
        ("tpl dental", "no spaces"),
        ("tpl-\x1b]0;x\x07", "control characters"),
        ("t" * 201, "at most 200"),
        ("tpl-dental-reception", None),
        ("模板-7", None),
    ],
)
def test_what_cannot_be_a_template_id(text: str, problem: str | None) -> None:
    found = template_id_problem(text)
    assert (found is None) if problem is None else (found is not None and problem in found)
