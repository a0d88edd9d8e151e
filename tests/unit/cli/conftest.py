"""The command-line tests run with a config and state folder of their own, no token."""

from __future__ import annotations

from pathlib import Path

import pytest


@pytest.fixture(autouse=True)
def isolated(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("VAGENT_CONFIG", str(tmp_path / "config.toml"))
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    monkeypatch.delenv("VAGENT_TOKEN", raising=False)
    monkeypatch.delenv("VAGENT_BASE_URL", raising=False)
    return tmp_path
