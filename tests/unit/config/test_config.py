"""Profiles: TOML round trips, precedence, credentials file mode, malformed files."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

from vagent_tui import config as cfg
from vagent_tui import credentials


@pytest.fixture(autouse=True)
def config_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("VAGENT_CONFIG", str(tmp_path / "conf" / "config.toml"))
    monkeypatch.delenv("VAGENT_TOKEN", raising=False)
    monkeypatch.delenv("VAGENT_BASE_URL", raising=False)
    return tmp_path / "conf"


def test_paths_follow_vagent_config(config_home: Path) -> None:
    assert cfg.config_path() == config_home / "config.toml"
    assert cfg.credentials_path() == config_home / "credentials.toml"
    assert set(cfg.paths()) >= {"config file", "credentials file", "journal"}


def test_paths_follow_xdg(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.delenv("VAGENT_CONFIG")
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "xdg"))
    assert cfg.config_path() == tmp_path / "xdg" / "vagent-tui" / "config.toml"


def test_round_trip_is_atomic_and_faithful(config_home: Path) -> None:
    config = cfg.Config(path=cfg.config_path())
    config.profiles["prod"] = cfg.Profile(
        name="prod",
        base_url="https://api.vida.dev",
        tier="prod",
        target_account=1111,
        theme="vagent-light",
        token_env="VIDA_PROD",
        keymap={"goto.scope": "f2"},
    )
    config.profiles["lab"] = cfg.Profile(
        name="lab", base_url="http://127.0.0.1:8765", read_only=False, token_file=True
    )
    config.default_profile = "prod"
    cfg.save(config)
    again = cfg.load()
    assert again.default_profile == "prod"
    assert again.profiles["prod"] == config.profiles["prod"]
    assert again.profiles["lab"] == config.profiles["lab"]
    assert not [p for p in config_home.iterdir() if p.name.startswith(".")]  # no temp left


def test_prod_is_read_only_unless_the_profile_says_otherwise() -> None:
    assert cfg.Profile(name="p", base_url="https://x", tier="prod").is_read_only
    assert not cfg.Profile(
        name="p", base_url="https://x", tier="prod", read_only=False
    ).is_read_only
    assert not cfg.Profile(name="d", base_url="https://x").is_read_only
    assert cfg.Profile(name="d", base_url="https://x", read_only=True).is_read_only


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("default_profile = \n", "line 1"),
        ("[profiles.a]\nbase_url = 'ftp://x'\n", "base_url"),
        ("[profiles.a]\nbase_url = 'https://x'\ntier = 'live'\n", "tier"),
        ("[profiles.a]\nbase_url = 'https://x'\ntarget_account = 'ten'\n", "target_account"),
        ("default_profile = 'zz'\n[profiles.a]\nbase_url = 'https://x'\n", "zz"),
    ],
)
def test_malformed_file_is_named_and_left_untouched(text: str, problem: str) -> None:
    path = cfg.config_path()
    path.parent.mkdir(parents=True)
    path.write_text(text)
    with pytest.raises(cfg.ConfigError) as info:
        cfg.load()
    assert str(path) in str(info.value) and problem in str(info.value)
    assert path.read_text() == text


def test_credentials_file_is_0600_and_refused_when_readable(config_home: Path) -> None:
    where = credentials.store_token("lab", "tok-123456789")
    assert os.stat(where).st_mode & 0o777 == 0o600
    assert credentials.read_credentials() == {"lab": "tok-123456789"}
    os.chmod(where, 0o644)
    with pytest.raises(cfg.ConfigError, match="chmod 600"):
        credentials.read_credentials()
    os.chmod(where, 0o600)
    credentials.forget_token("lab")
    assert credentials.read_credentials() == {}


def test_token_sources() -> None:
    env_profile = cfg.Profile(name="e", base_url="https://x", token_env="MY_TOKEN")
    assert credentials.resolve_token(env_profile, env={"MY_TOKEN": "from-env"}) == "from-env"
    with pytest.raises(cfg.ConfigError, match="MY_TOKEN is not set"):
        credentials.resolve_token(env_profile, env={})
    cmd = f"{sys.executable} -c \"print('from-command')\""
    cmd_profile = cfg.Profile(name="c", base_url="https://x", token_command=cmd)
    assert credentials.resolve_token(cmd_profile, env={}) == "from-command"
    failing = cfg.Profile(
        name="f",
        base_url="https://x",
        token_command=(
            f"{sys.executable} -c "
            "\"import sys; print('SECRET-ECHO', file=sys.stderr); sys.exit(3)\""
        ),
    )
    with pytest.raises(cfg.ConfigError) as info:
        credentials.resolve_token(failing, env={})
    assert "status 3" in str(info.value) and "SECRET-ECHO" not in str(info.value)
    credentials.store_token("s", "from-file")
    file_profile = cfg.Profile(name="s", base_url="https://x", token_file=True)
    assert credentials.resolve_token(file_profile, env={}) == "from-file"
    assert credentials.resolve_token(file_profile, env={"VAGENT_TOKEN": "override"}) == "override"


def test_precedence_flag_env_profile_default() -> None:
    config = cfg.Config(path=cfg.config_path(), default_profile="a")
    config.profiles["a"] = cfg.Profile(name="a", base_url="https://a", token_env="A_TOKEN")
    config.profiles["b"] = cfg.Profile(name="b", base_url="https://b", token_env="B_TOKEN")
    env = {"A_TOKEN": "ta", "B_TOKEN": "tb"}
    default = credentials.resolve_connection(config, env=env)
    assert default is not None and (default.base_url, default.token) == ("https://a", "ta")
    named = credentials.resolve_connection(config, profile_name="b", env=env)
    assert named is not None and (named.base_url, named.token) == ("https://b", "tb")
    env_over = credentials.resolve_connection(
        config, env={**env, "VAGENT_BASE_URL": "https://env", "VAGENT_TOKEN": "te"}
    )
    assert env_over is not None and (env_over.base_url, env_over.token) == ("https://env", "te")
    # The default profile is another platform's: none of it applies (a prod default made
    # every write to the address in the environment read-only, under its name).
    assert env_over.profile is None and env_over.label == "https://env"
    same = credentials.resolve_connection(
        config, env={**env, "VAGENT_BASE_URL": "HTTPS://A/api/v2/", "VAGENT_TOKEN": "te"}
    )
    assert same is not None and same.profile is config.profiles["a"] and same.token == "te"
    named_env = credentials.resolve_connection(
        config, profile_name="b", env={**env, "VAGENT_BASE_URL": "https://env"}
    )
    assert named_env is not None and named_env.profile is config.profiles["b"]
    flags = credentials.resolve_connection(
        config,
        base_url="https://flag",
        token="tf",
        env={**env, "VAGENT_BASE_URL": "https://env", "VAGENT_TOKEN": "te"},
    )
    assert flags is not None and (flags.base_url, flags.token) == ("https://flag", "tf")
    assert credentials.resolve_connection(cfg.Config(path=cfg.config_path()), env={}) is None
    with pytest.raises(cfg.ConfigError, match="no profile named"):
        credentials.resolve_connection(config, profile_name="zz", env=env)
