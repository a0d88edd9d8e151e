"""A pcap saved readable by its owner only (services/captures.py)."""

from __future__ import annotations

import stat
from pathlib import Path

import pytest

from vagent_tui.services.captures import save_capture


def test_the_file_is_0600_and_whole(tmp_path: Path) -> None:
    path = tmp_path / "call.pcap"
    path.write_bytes(b"old")
    path.chmod(0o644)
    save_capture(path, b"\xd4\xc3\xb2\xa1 new")
    assert path.read_bytes() == b"\xd4\xc3\xb2\xa1 new"
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert [p.name for p in tmp_path.iterdir()] == ["call.pcap"]


def test_a_folder_that_is_not_there_leaves_nothing(tmp_path: Path) -> None:
    with pytest.raises(OSError):
        save_capture(tmp_path / "nowhere" / "call.pcap", b"x")
    assert not list(tmp_path.iterdir())
