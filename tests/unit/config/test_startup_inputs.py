"""Bad start-up inputs are `ConfigError`s naming the problem; ignorable ones are warnings.

Unreadable files (not UTF-8, nested too deeply for tomllib, too large), unusable base
URLs, token commands that cannot be split, never end, or print too much.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from vagent_tui import config as cfg
from vagent_tui import credentials


@pytest.fixture(autouse=True)
def config_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    path = tmp_path / "conf" / "config.toml"
    path.parent.mkdir()
    monkeypatch.setenv("VAGENT_CONFIG", str(path))
    monkeypatch.delenv("VAGENT_TOKEN", raising=False)
    monkeypatch.delenv("VAGENT_BASE_URL", raising=False)
    return path


@pytest.mark.parametrize(
    ("content", "problem"),
    [
        (b'theme = "\xff\xfe"\n', "not UTF-8 text (line 1)"),
        (b"# ok\n\n" + b"\x80" * 3, "not UTF-8 text (line 3)"),
        (b"a=" + b"[" * 5000 + b"]" * 5000 + b"\n", "nested too deeply"),
        (b"# " + b"x" * (cfg.FILE_SIZE_LIMIT + 10), "larger than"),
    ],
    ids=["latin-1", "late-bad-byte", "deep-nesting", "huge"],
)
def test_unreadable_file_is_a_config_error_naming_it(
    config_file: Path, content: bytes, problem: str
) -> None:
    config_file.write_bytes(content)
    with pytest.raises(cfg.ConfigError) as info:
        cfg.load()
    assert str(config_file) in str(info.value) and problem in str(info.value)
    assert config_file.read_bytes() == content


def test_unreadable_credentials_file_is_a_config_error(config_file: Path) -> None:
    creds = cfg.credentials_path()
    creds.write_bytes(b"[tokens]\nlab = '\xff'\n")
    creds.chmod(0o600)
    with pytest.raises(cfg.ConfigError, match="not UTF-8"):
        credentials.read_credentials()


@pytest.mark.parametrize(
    ("url", "problem"),
    [
        ("http://[::1", "cannot be parsed"),
        ("https://user:pw-SECRET@[::1", "cannot be parsed"),
        ("https://host:99999", "cannot be parsed"),
        ("https://host:port", "cannot be parsed"),
        ("ftp://host", "must start with https://"),
        ("host.example", "must start with https://"),
        ("http://", "names no host"),
        ("https://:8080/x", "names no host"),
        ("https://ho st", "spaces or control characters"),
        ("https://host\x1b[2J", "spaces or control characters"),
        ("", "is empty"),
    ],
)
def test_unusable_base_url_is_said_without_repeating_it(url: str, problem: str) -> None:
    said = cfg.base_url_problem(url)
    assert said is not None and problem in said
    assert "SECRET" not in said and "\x1b" not in said
    assert not url or url not in said


@pytest.mark.parametrize(
    "url", ["https://api.example", "http://127.0.0.1:8765", "http://[::1]:80/v1", "HTTPS://A.B"]
)
def test_usable_base_url(url: str) -> None:
    assert cfg.base_url_problem(url) is None


def test_profile_with_unusable_base_url_names_file_and_profile(config_file: Path) -> None:
    config_file.write_text("[profiles.lab]\nbase_url = 'http://[::1'\ntoken_env = 'T'\n")
    with pytest.raises(cfg.ConfigError) as info:
        cfg.load()
    assert str(config_file) in str(info.value) and "'lab'" in str(info.value)
    assert "base_url cannot be parsed" in str(info.value)


def test_unusable_base_url_from_flag_or_environment_says_where_it_came_from() -> None:
    empty = cfg.Config(path=cfg.config_path())
    with pytest.raises(cfg.ConfigError, match=r"\(--base-url\) cannot be parsed"):
        credentials.resolve_connection(empty, base_url="http://[::1", token="t", env={})
    with pytest.raises(cfg.ConfigError, match=r"\(VAGENT_BASE_URL\) names no host"):
        credentials.resolve_connection(
            empty, env={"VAGENT_BASE_URL": "http://", "VAGENT_TOKEN": "t"}
        )


def test_unknown_keys_and_unusable_keymap_values_are_named_warnings(config_file: Path) -> None:
    config_file.write_text(
        "colour = 'red'\n"
        "theme = 7\n"
        "[profiles.lab]\n"
        "base_url = 'https://x.example'\n"
        "token_env = 'T'\n"
        "tokn_command = 'pass show x'\n"
        "[profiles.lab.keymap]\n"
        "'goto.scope' = 'f2'\n"
        "'goto.voices' = 3\n"
        "'goto.inbox' = ''\n"
        "'goto.sip' = { key = 'f4' }\n"
    )
    config = cfg.load()
    assert config.profiles["lab"].keymap == {"goto.scope": "f2"}
    assert config.theme is None
    where = str(config_file)
    assert all(w.startswith(f"{where}: ") for w in config.warnings)
    text = "\n".join(config.warnings)
    assert "unknown key 'colour'" in text
    assert "theme must be the name of a theme" in text
    assert "profile 'lab': unknown key 'tokn_command'" in text
    assert "profile 'lab': keymap: 'goto.voices' must be a key" in text
    assert "profile 'lab': keymap: 'goto.inbox' is empty" in text
    assert "profile 'lab': keymap: 'goto.sip' must be a key" in text
    assert len(config.warnings) == 6


def test_a_clean_file_has_no_warnings(config_file: Path) -> None:
    config = cfg.Config(path=config_file, default_profile="lab", theme="vagent-dark")
    config.profiles["lab"] = cfg.Profile(
        "lab", "https://x.example", token_command="pass x", keymap={"goto.scope": "f2"}
    )
    cfg.save(config)
    assert cfg.load().warnings == []


def test_token_file_of_the_wrong_type_is_an_error(config_file: Path) -> None:
    config_file.write_text("[profiles.lab]\nbase_url = 'https://x.example'\ntoken_file = 5\n")
    with pytest.raises(cfg.ConfigError, match="token_file must be true or the path"):
        cfg.load()


# ------------------------------------------------------------------ token_command


def _profile(command: str) -> cfg.Profile:
    return cfg.Profile(name="vault", base_url="https://x.example", token_command=command)


def _python(code: str) -> str:
    return f'{sys.executable} -c "{code}"'


@pytest.mark.parametrize("command", ["pass show 'vida", 'get "token', "x \\"])
def test_token_command_that_cannot_be_split_names_the_profile(command: str) -> None:
    with pytest.raises(cfg.ConfigError) as info:
        credentials.resolve_token(_profile(command), env={})
    assert "profile 'vault': token command cannot be split" in str(info.value)
    assert "check its quotes" in str(info.value)


def test_empty_token_command() -> None:
    with pytest.raises(cfg.ConfigError, match="profile 'vault': token command is empty"):
        credentials.resolve_token(_profile("   "), env={})


def test_token_command_that_cannot_start() -> None:
    with pytest.raises(cfg.ConfigError, match="could not start: No such file"):
        credentials.resolve_token(_profile("/nonexistent/vagent-pass show x"), env={})


def test_token_command_output_is_capped_and_never_repeated() -> None:
    # Endless output: without the cap this fills memory (and then the time limit).
    endless = _python("import sys; [sys.stdout.write('TOKENLIKE' * 999) for _ in iter(int, 1)]")
    with pytest.raises(cfg.ConfigError) as info:
        credentials.resolve_token(_profile(endless), env={})
    message = str(info.value)
    assert "profile 'vault'" in message and "more than 64 KiB" in message
    assert "TOKENLIKE" not in message


def test_token_command_has_a_time_limit(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(credentials, "TOKEN_COMMAND_TIMEOUT", 0.3)
    with pytest.raises(cfg.ConfigError, match=r"profile 'vault': .* did not finish within 0\.3"):
        credentials.resolve_token(_profile(_python("import time; time.sleep(60)")), env={})


def test_token_command_stderr_is_drained_not_shown() -> None:
    # 1 MB on stderr before the token: an undrained pipe would block the command.
    chatty = _python("import sys; sys.stderr.write('E' * 1000000); print('tok-ok')")
    assert credentials.resolve_token(_profile(chatty), env={}) == "tok-ok"
    failing = _python("import sys; sys.stderr.write('SECRET-ECHO ' * 9000); sys.exit(4)")
    with pytest.raises(cfg.ConfigError) as info:
        credentials.resolve_token(_profile(failing), env={})
    message = str(info.value)
    assert "status 4" in message and "108,000 bytes on stderr" in message
    assert "SECRET-ECHO" not in message


def test_token_command_first_line_is_the_token() -> None:
    two_lines = _python("print('  tok-1  '); print('ignored')")
    assert credentials.resolve_token(_profile(two_lines), env={}) == "tok-1"
