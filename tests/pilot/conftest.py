"""Pilot tests run in a folder of their own: a form that writes a file (an export) to a
relative path, typed by a burst or a typed-ahead test, writes it there, never into the
work tree the suite runs from."""

from __future__ import annotations

import pytest


@pytest.fixture(autouse=True)
def _own_folder(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path_factory.mktemp("cwd"))
