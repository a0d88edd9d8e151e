"""Every bad start-up input: one clear line on stderr, status 2, no traceback.

Warnings about ignored config entries are named (file, key), printed inert, and given
to the app. Before: tracebacks (httpx.InvalidURL, UnicodeDecodeError, RecursionError,
shlex's ValueError) and silence for unknown keys.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from vagent_tui import cli


@pytest.fixture
def started(monkeypatch: pytest.MonkeyPatch) -> list[object]:
    """Apps that `main` would run (not run: the test looks at how they were built)."""
    apps: list[object] = []
    monkeypatch.setattr("vagent_tui.ui.app.VagentApp.run", lambda self: apps.append(self))
    return apps


def _one_line(capsys: pytest.CaptureFixture[str]) -> str:
    captured = capsys.readouterr()
    lines = captured.err.splitlines()
    assert len(lines) == 1, captured.err
    assert lines[0].startswith("vagent-tui: ") and "Traceback" not in captured.err
    assert "\x1b" not in captured.err
    return lines[0]


@pytest.mark.parametrize(
    ("argv", "env", "said"),
    [
        (["--base-url", "http://[::1"], {"VAGENT_TOKEN": "x"}, "(--base-url) cannot be parsed"),
        (["--base-url", "ftp://x"], {"VAGENT_TOKEN": "x"}, "must start with https://"),
        (["--base-url", "http://"], {"VAGENT_TOKEN": "x"}, "names no host"),
        ([], {"VAGENT_TOKEN": "x", "VAGENT_BASE_URL": "http://[::1"}, "(VAGENT_BASE_URL)"),
        (
            ["--base-url", "https://u:pw-SECRET@h:99999", "--token", "x"],
            {},
            "Port out of range",
        ),
    ],
)
def test_unusable_base_url(
    argv: list[str],
    env: dict[str, str],
    said: str,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    started: list[object],
) -> None:
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    assert cli.main(argv) == 2
    line = _one_line(capsys)
    assert said in line and "SECRET" not in line
    assert started == []


_BROKEN = {
    "not-utf8": (b'theme = "\xff"\n', "not UTF-8 text (line 1)"),
    "deep": (b"a=" + b"[" * 5000 + b"]" * 5000 + b"\n", "nested too deeply"),
}


@pytest.mark.parametrize("kind", list(_BROKEN))
@pytest.mark.parametrize(
    "argv", [["profile", "list"], ["profile", "use", "x"], ["profile", "remove", "x"]]
)
def test_unreadable_config_file_for_profile_commands(
    isolated: Path, kind: str, argv: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    content, problem = _BROKEN[kind]
    path = isolated / "config.toml"
    path.write_bytes(content)
    assert cli.main(argv) == 2
    line = _one_line(capsys)
    assert str(path) in line and problem in line and "not changed" in line
    assert path.read_bytes() == content


@pytest.mark.parametrize("kind", list(_BROKEN))
def test_info_prints_the_paths_then_the_problem(
    isolated: Path, kind: str, capsys: pytest.CaptureFixture[str]
) -> None:
    content, problem = _BROKEN[kind]
    (isolated / "config.toml").write_bytes(content)
    assert cli.main(["info"]) == 2
    captured = capsys.readouterr()
    assert "journal" in captured.out
    assert len(captured.err.splitlines()) == 1 and problem in captured.err


@pytest.mark.parametrize("kind", list(_BROKEN))
def test_demo_still_starts_with_an_unreadable_config_and_shows_why(
    isolated: Path, kind: str, started: list[object]
) -> None:
    content, problem = _BROKEN[kind]
    (isolated / "config.toml").write_bytes(content)
    assert cli.main(["--demo"]) == 0
    (app,) = started
    assert problem in app.config_error  # type: ignore[attr-defined]


def test_token_command_with_an_unmatched_quote(
    isolated: Path, capsys: pytest.CaptureFixture[str], started: list[object]
) -> None:
    (isolated / "config.toml").write_text(
        "[profiles.vault]\nbase_url = 'https://x.example'\ntoken_command = \"pass show 'x\"\n"
    )
    assert cli.main([]) == 2
    line = _one_line(capsys)
    assert "profile 'vault': token command cannot be split" in line
    assert started == []


def test_profile_add_refuses_an_unusable_base_url(
    isolated: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["profile", "add", "lab", "--base-url", "http://[::1", "--token-env", "T"]
    assert cli.main(argv) == 2
    assert "--base-url cannot be parsed" in _one_line(capsys)
    assert not (isolated / "config.toml").exists()


_WARNED = (
    "colour = 'red'\n"
    '[profiles."lab\\u001b[2J"]\n'
    "base_url = 'https://x.example'\n"
    "token_env = 'LAB_TOKEN'\n"
    '"bad\\u001b]0;title\\u0007key" = 1\n'
    '[profiles."lab\\u001b[2J".keymap]\n'
    "'goto.scope' = 'F2'\n"
    "'goto.voices' = 3\n"
    "'no.such.binding' = 'f9'\n"
)


def test_console_start_names_each_warning_inert_and_gives_them_to_the_app(
    isolated: Path,
    capsys: pytest.CaptureFixture[str],
    started: list[object],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    (isolated / "config.toml").write_text(_WARNED)
    monkeypatch.setenv("LAB_TOKEN", "tok-lab-1234")
    assert cli.main([]) == 0
    err = capsys.readouterr().err
    assert "\x1b" not in err and "\x07" not in err
    lines = err.splitlines()
    assert all(
        line.startswith(f"vagent-tui: warning: {isolated / 'config.toml'}: ") for line in lines
    )
    assert len(lines) == 4, err
    assert "unknown key 'colour'" in err
    # Names are quoted with repr: their escapes show as text (inert() covers the rest).
    assert "profile 'lab\\x1b[2J': unknown key 'bad\\x1b]0;title\\x07key'" in err
    assert "keymap 'goto.scope' has 'F2', not a key name Textual knows" in err
    assert "keymap: 'goto.voices' must be a key" in err
    (app,) = started
    assert len(app.config_warnings) == 4  # type: ignore[attr-defined]


def test_profile_list_names_warnings_unknown_binding_ids_included(
    isolated: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (isolated / "config.toml").write_text(_WARNED)
    assert cli.main(["profile", "list"]) == 0
    captured = capsys.readouterr()
    assert "\x1b" not in captured.out + captured.err
    assert "lab␛[2J" in captured.out
    assert "unknown binding id 'no.such.binding'" in captured.err
    assert len(captured.err.splitlines()) == 5, captured.err
    assert cli.main(["info"]) == 0
    assert len(capsys.readouterr().err.splitlines()) == 4  # info skips binding ids (slow)
