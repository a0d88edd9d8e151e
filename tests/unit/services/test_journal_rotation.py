"""The journal rotates past its size cap and reads a page from its end."""

from __future__ import annotations

import os
import stat
from pathlib import Path
from typing import Any

import pytest

from tests.unit.services.test_journal import ex, make_journal
from vagent_tui.services import journal as journal_module
from vagent_tui.services.journal import Journal, default_max_bytes


def fill(journal: Journal, count: int, tag: str = "w") -> None:
    observe = journal.observer(tag)
    for index in range(count):
        observe(ex(body={"ip": f"203.0.113.{index % 250}", "n": index}))


def test_past_the_cap_the_file_rotates_and_keeps_a_few(tmp_path: Path) -> None:
    journal = make_journal(tmp_path)
    journal.max_bytes, journal.keep = 2_000, 2
    fill(journal, 100)
    files = [p for p in journal.files() if p.exists()]
    assert files == [journal.path, journal.rotated(1), journal.rotated(2)]
    assert not journal.rotated(3).exists(), "more files kept than asked"
    for path in files:
        assert path.stat().st_size <= 2_000
        assert stat.S_IMODE(path.stat().st_mode) == 0o600
    numbers = [e.body["n"] for e in journal.read()]
    assert numbers == sorted(numbers) and numbers[-1] == 99, "newest last, across the files"
    assert len(numbers) < 100, "the oldest file was dropped"


def test_two_writers_rotate_once_and_lose_nothing(tmp_path: Path) -> None:
    first, second = make_journal(tmp_path), make_journal(tmp_path)
    for journal in (first, second):
        journal.max_bytes, journal.keep = 3_000, 5
    for index in range(40):
        (first if index % 2 else second).observer("w")(ex(body={"n": index}))
    numbers = sorted(e.body["n"] for e in first.read())
    assert numbers == list(range(40))


def test_a_page_is_read_from_the_end_only(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    journal = make_journal(tmp_path)
    journal.max_bytes = 10**9
    lines = b"".join(
        make_journal(tmp_path).entry_for(ex(body={"n": i}), "w").to_line().encode()
        for i in range(20_000)
    )
    journal.path.write_bytes(lines)
    read_bytes = 0
    real_open = Path.open

    def counting_open(self: Path, *args: Any, **kwargs: Any) -> Any:
        handle = real_open(self, *args, **kwargs)
        real_read = handle.read

        def read(size: int = -1) -> bytes:
            nonlocal read_bytes
            data: bytes = real_read(size)
            read_bytes += len(data)
            return data

        handle.read = read
        return handle

    monkeypatch.setattr(Path, "open", counting_open)
    page = journal.read_page(0, 500)
    assert [e.body["n"] for e in page.entries[:2]] == [19_999, 19_998]
    assert len(page.entries) == 500 and page.has_older
    assert read_bytes < len(lines) / 10
    second = journal.read_page(1, 500)
    assert second.entries[0].body["n"] == 19_499


def test_a_huge_or_broken_line_is_skipped_and_counted(tmp_path: Path) -> None:
    journal = make_journal(tmp_path)
    fill(journal, 2)
    with journal.path.open("ab") as handle:
        handle.write(b'{"method": "' + b"x" * (journal_module.MAX_LINE_BYTES + 10) + b'"}\n')
        handle.write(b"not json\n")
    fill(journal, 1)
    page = journal.read_page(0, 10)
    assert [e.body["n"] for e in page.entries] == [0, 1, 0]
    assert page.unreadable == 2


def test_the_cap_is_five_mib_or_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("VAGENT_JOURNAL_MAX_MB", raising=False)
    assert default_max_bytes() == 5 * 1024 * 1024
    monkeypatch.setenv("VAGENT_JOURNAL_MAX_MB", "1")
    assert default_max_bytes() == 1024 * 1024
    monkeypatch.setenv("VAGENT_JOURNAL_MAX_MB", "nope")
    assert default_max_bytes() == 5 * 1024 * 1024
    assert os.environ["VAGENT_JOURNAL_MAX_MB"] == "nope"
