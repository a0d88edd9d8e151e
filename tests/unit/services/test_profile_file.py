"""A value per profile in a 0600 file of the state folder: what the Calls columns and the
test number are kept in."""

from __future__ import annotations

import stat
from pathlib import Path

import pytest

from vagent_tui.services.call_test_numbers import NumberStore
from vagent_tui.services.profile_file import ProfileFile


def test_kept_per_profile_in_a_private_file(tmp_path: Path) -> None:
    store = ProfileFile(tmp_path / "state" / "x.json", "choice")
    store.put("a", [1, 2])
    store.put(None, "no profile")
    again = ProfileFile(store.path, "choice")
    assert again.value("a") == [1, 2] and again.value(None) == "no profile"
    assert stat.S_IMODE(store.path.stat().st_mode) == 0o600
    assert stat.S_IMODE(store.path.parent.stat().st_mode) == 0o700
    store.put("a", None)
    assert ProfileFile(store.path, "choice").value("a") is None


@pytest.mark.parametrize(
    "content",
    [b"not json", b"[1, 2]", b'{"profiles": [1]}', b"[" * 100_000, b" " * 70_000],
)
def test_a_file_of_another_shape_reads_as_empty(tmp_path: Path, content: bytes) -> None:
    path = tmp_path / "x.json"
    path.write_bytes(content)
    assert ProfileFile(path, "choice").read() == {}


def test_what_could_not_be_written_is_said(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("")
    store = NumberStore(blocker / "n.json")  # its folder is a file
    store.keep("p", "+15551230001")
    assert store.error is not None and "The number could not be remembered" in store.error
    assert store.load("p") == ""


def test_only_a_number_is_kept(tmp_path: Path) -> None:
    store = NumberStore(tmp_path / "n.json")
    store.keep("p", "call me")
    assert not store.path.exists()
    store.keep("p", "+15551230001")
    assert NumberStore(store.path).load("p") == "+15551230001"
