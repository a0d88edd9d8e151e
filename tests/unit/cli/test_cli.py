"""The command line: parsing, profile commands, and refusing to start without a platform."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from vagent_tui import cli, credentials
from vagent_tui import config as cfg


def test_parser_knows_every_screen_and_option() -> None:
    args = cli.build_parser().parse_args(
        ["--profile", "lab", "--screen", "inbox", "--account", "1111"]
    )
    assert (args.profile, args.screen, args.account) == ("lab", "inbox", 1111)
    with pytest.raises(SystemExit):
        cli.build_parser().parse_args(["--screen", "nowhere"])


def test_console_parser_reads_the_console_options_and_shows_the_whole_usage(
    capsys: pytest.CaptureFixture[str],
) -> None:
    # The console's start builds its own options only; a usage error still shows every
    # command, and a command line naming a command or asking for help gets them all.
    console = cli.build_parser(subcommands=False)
    args = console.parse_args(["--demo", "--screen", "fleet", "--rooms", "3"])
    assert (args.demo, args.screen, args.rooms, args.command) == (True, "fleet", 3, None)
    with pytest.raises(SystemExit) as ended:
        cli.main(["--demo", "--no-such-option"])
    assert ended.value.code == 2
    err = capsys.readouterr().err
    assert "unrecognized arguments: --no-such-option" in err
    assert "{sim,serve,profile" in err.replace("\n", "").replace(" ", "")
    with pytest.raises(SystemExit):
        cli.main(["--help"])
    assert "rollout" in capsys.readouterr().out


@pytest.fixture
def started(monkeypatch: pytest.MonkeyPatch) -> list[object]:
    """Apps that `main` would run (not run: the test looks at how they were built)."""
    apps: list[object] = []
    monkeypatch.setattr("vagent_tui.ui.app.VagentApp.run", lambda self: apps.append(self))
    return apps


def test_first_run_opens_the_setup_screen(started: list[object]) -> None:
    assert cli.main([]) == 0
    (app,) = started
    assert app.connection.client is None and app.config is not None  # type: ignore[attr-defined]


def test_malformed_config_still_starts_with_the_problem(
    isolated: Path, started: list[object]
) -> None:
    path = isolated / "config.toml"
    path.write_text("[profiles\n")
    assert cli.main(["--demo"]) == 0
    (app,) = started
    assert app.config is None  # type: ignore[attr-defined]
    assert str(path) in app.config_error and "line 1" in app.config_error  # type: ignore[attr-defined]
    assert path.read_text() == "[profiles\n"


def test_prod_profile_is_read_only_and_flag_forces_it(
    isolated: Path, started: list[object], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("P_TOKEN", "tok-p")
    config = cfg.Config(path=isolated / "config.toml")
    config.profiles["p"] = cfg.Profile("p", "https://api.example", tier="prod", token_env="P_TOKEN")
    config.profiles["d"] = cfg.Profile("d", "https://api.example", tier="dev", token_env="P_TOKEN")
    config.default_profile = "p"
    cfg.save(config)
    assert cli.main([]) == 0
    assert cli.main(["--profile", "d"]) == 0
    assert cli.main(["--profile", "d", "--read-only"]) == 0
    assert cli.main(["--demo"]) == 0
    flags = [(a.connection.tier, a.read_only, a.connection.client.read_only) for a in started]  # type: ignore[attr-defined]
    assert flags == [
        ("prod", True, True),
        ("dev", False, False),
        ("dev", True, True),
        ("", False, False),
    ]


def test_serve_without_the_extra_says_how_to_install(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import builtins

    real_import = builtins.__import__

    def no_serve(name: str, *args: object, **kwargs: object) -> object:
        if name.startswith("textual_serve"):
            raise ImportError(name)
        return real_import(name, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(builtins, "__import__", no_serve)
    assert cli.main(["serve", "--port", "8999"]) == 2
    assert 'pip install "vagent-tui[serve]"' in capsys.readouterr().err


def test_serve_binds_loopback_and_forwards_console_options(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    pytest.importorskip("textual_serve")
    from vagent_tui.serve_web import ConsoleServer

    seen: dict[str, object] = {}

    def fake_serve(self: ConsoleServer) -> None:
        seen.update(command=self.command, host=self.host, port=self.port, served=True)

    monkeypatch.setattr(ConsoleServer, "serve", fake_serve)
    assert cli.main(["serve", "--port", "8999", "--", "--demo", "--screen", "voices"]) == 0
    assert seen["host"] == "127.0.0.1" and seen["port"] == 8999 and seen["served"]
    assert str(seen["command"]).endswith("-m vagent_tui --demo --screen voices")


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
    assert "prod" not in cfg.load().profiles and credentials.read_credentials() == {}
    assert cli.main(["profile", "remove", "nope"]) == 1


def test_malformed_config_is_not_overwritten(
    isolated: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = isolated / "config.toml"
    path.write_text("[profiles\n")
    assert cli.main(["profile", "list"]) == 2
    err = capsys.readouterr().err
    assert str(path) in err and "line 1" in err and len(err.splitlines()) == 1
    assert path.read_text() == "[profiles\n"


def test_info_prints_every_path(capsys: pytest.CaptureFixture[str], isolated: Path) -> None:
    assert cli.main(["info"]) == 0
    out = capsys.readouterr().out
    assert str(isolated / "config.toml") in out and "journal" in out


def test_keys_lists_every_binding_id(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["keys"]) == 0
    out = capsys.readouterr().out
    rows = {line.split()[0]: line.split()[1] for line in out.splitlines()[1:]}
    # The app's, every screen's (imported on demand), and widgets' bindings.
    assert rows["goto.voices"] == "3" and rows["app.quit"] == "ctrl+q"
    assert rows["sip.add"] == "a" and rows["inbox.last_page"] == "G"
    assert rows["scope.expand"] == "space" and rows["new-token.copy"] == "y"
    assert rows["goto.fleet"] == "(none)"  # the palette's, or a keymap's
    assert len(rows) > 60


@pytest.mark.parametrize(
    ("variable", "value", "left"),
    [("TEXTUAL_LOG", "/tmp/textual.log", None), ("TEXTUAL", "debug,devtools", "debug")],
)
def test_textuals_developer_logs_are_turned_off_and_said(
    started: list[object],
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    variable: str,
    value: str,
    left: str | None,
) -> None:
    """Textual's log and devtools record every key typed, a password too: the console
    starts without them (before Textual reads them) and says why on stderr."""
    monkeypatch.setenv(variable, value)
    assert cli.main(["--demo"]) == 0
    assert os.environ.get(variable) == left
    assert f"{variable}" in capsys.readouterr().err
