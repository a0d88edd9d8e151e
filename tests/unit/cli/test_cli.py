"""The command line: parsing, profile commands, and refusing to start without a platform."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from vagent_tui import cli
from vagent_tui import config as cfg


@pytest.fixture(autouse=True)
def isolated(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("VAGENT_CONFIG", str(tmp_path / "config.toml"))
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    monkeypatch.delenv("VAGENT_TOKEN", raising=False)
    monkeypatch.delenv("VAGENT_BASE_URL", raising=False)
    return tmp_path


def test_parser_knows_every_screen_and_option() -> None:
    args = cli.build_parser().parse_args(
        ["--profile", "lab", "--screen", "inbox", "--account", "1111"]
    )
    assert (args.profile, args.screen, args.account) == ("lab", "inbox", 1111)
    with pytest.raises(SystemExit):
        cli.build_parser().parse_args(["--screen", "nowhere"])


def test_no_platform_is_a_clear_refusal(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main([]) == 2
    assert "--demo" in capsys.readouterr().err


def test_profile_add_list_use_remove(
    isolated: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("sys.stdin", __import__("io").StringIO("tok-abcdefgh-1234\n"))
    assert (
        cli.main(
            [
                "profile",
                "add",
                "prod",
                "--base-url",
                "https://api.example",
                "--tier",
                "prod",
                "--token-stdin",
            ]
        )
        == 0
    )
    assert (
        cli.main(
            [
                "profile",
                "add",
                "lab",
                "--base-url",
                "http://127.0.0.1:8765",
                "--token-env",
                "LAB_TOKEN",
            ]
        )
        == 0
    )
    creds = isolated / "credentials.toml"
    assert stat.S_IMODE(os.stat(creds).st_mode) == 0o600
    assert "tok-abcdefgh-1234" not in (isolated / "config.toml").read_text()
    capsys.readouterr()
    assert cli.main(["profile", "list"]) == 0
    listing = capsys.readouterr().out
    assert "* prod" in listing and "read-only" in listing and "LAB_TOKEN" in listing
    assert "tok-abcdefgh" not in listing
    assert cli.main(["profile", "use", "lab"]) == 0
    assert cfg.load().default_profile == "lab"
    assert cli.main(["profile", "remove", "prod"]) == 0
    assert "prod" not in cfg.load().profiles and cfg.read_credentials() == {}
    assert cli.main(["profile", "remove", "nope"]) == 1


def test_malformed_config_is_not_overwritten(
    isolated: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = isolated / "config.toml"
    path.write_text("[profiles\n")
    assert cli.main(["profile", "list"]) == 1
    err = capsys.readouterr().err
    assert str(path) in err and "line 1" in err
    assert path.read_text() == "[profiles\n"


def test_info_prints_every_path(capsys: pytest.CaptureFixture[str], isolated: Path) -> None:
    assert cli.main(["info"]) == 0
    out = capsys.readouterr().out
    assert str(isolated / "config.toml") in out and "journal" in out
