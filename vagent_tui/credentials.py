"""A profile's token and the connection it makes: the credentials file, the token
sources, and the precedence of flag, environment and profile.

A profile names where its token comes from (`vagent_tui.config`): an environment
variable, the credentials file (TOML, ``[tokens] <profile> = "..."``, refused unless its
mode is 0600) or a command whose output is the token (`vagent_tui.token_command`, with
a time and size limit). ``VAGENT_TOKEN`` and ``VAGENT_BASE_URL`` override the profile
for one run (`resolve_connection`). The token is never shown, logged, or put in the
text of an error.
"""

from __future__ import annotations

import os
import shlex
import stat
from dataclasses import dataclass
from pathlib import Path

from vagent_tui import token_command
from vagent_tui.config import (
    Config,
    ConfigError,
    Profile,
    atomic_write,
    base_url_problem,
    credentials_path,
    read_toml,
    toml_text,
)

TOKEN_COMMAND_TIMEOUT = 30.0
"""Seconds a token command may take: a password manager may ask for a passphrase."""
TOKEN_OUTPUT_LIMIT = 64 * 1024
"""Bytes of a token command's output read at most: a token is one short line."""


# --------------------------------------------------------------------------- credentials


def _check_private(path: Path) -> None:
    mode = path.stat().st_mode
    if mode & (stat.S_IRWXG | stat.S_IRWXO):
        raise ConfigError(
            f"{path} may be read by other users (mode {stat.S_IMODE(mode):04o}); "
            f"refusing to use it. Run: chmod 600 {shlex.quote(str(path))}"
        )


def read_credentials(path: Path | None = None) -> dict[str, str]:
    path = path or credentials_path()
    if not path.exists():
        return {}
    _check_private(path)
    data = read_toml(path) or {}
    tokens = data.get("tokens", {})
    if not isinstance(tokens, dict):
        raise ConfigError(f"{path}: [tokens] must map profile names to tokens")
    return {str(k): str(v) for k, v in tokens.items()}


def store_token(profile: str, token: str, path: Path | None = None) -> Path:
    """Keep a profile's token in the credentials file (mode 0600)."""
    path = path or credentials_path()
    tokens = read_credentials(path) if path.exists() else {}
    tokens[profile] = token
    atomic_write(path, toml_text({"tokens": tokens}), mode=0o600)
    return path


def forget_token(profile: str, path: Path | None = None) -> None:
    path = path or credentials_path()
    if not path.exists():
        return
    tokens = read_credentials(path)
    if tokens.pop(profile, None) is not None:
        atomic_write(path, toml_text({"tokens": tokens}), mode=0o600)


def resolve_token(profile: Profile, *, env: dict[str, str] | None = None) -> str:
    """The token of ``profile`` from its source. ``VAGENT_TOKEN`` wins over all."""
    env = dict(os.environ) if env is None else env
    if env.get("VAGENT_TOKEN"):
        return env["VAGENT_TOKEN"]
    if profile.token_env:
        value = env.get(profile.token_env, "").strip()
        if not value:
            raise ConfigError(
                f"profile {profile.name!r}: environment variable {profile.token_env} is not set"
            )
        return value
    if profile.token_command:
        return _token_from_command(profile)
    if profile.token_file:
        path = (
            credentials_path()
            if profile.token_file is True
            else Path(str(profile.token_file)).expanduser()
        )
        token = read_credentials(path).get(profile.name, "").strip()
        if not token:
            raise ConfigError(f"profile {profile.name!r}: no token for it in {path}")
        return token
    raise ConfigError(f"profile {profile.name!r} names no token source")


def _token_from_command(profile: Profile) -> str:
    """The profile's token command's token (`vagent_tui.token_command`), or ConfigError."""
    assert profile.token_command
    try:
        return token_command.run(
            profile.token_command,
            f"profile {profile.name!r}: token command",
            timeout=TOKEN_COMMAND_TIMEOUT,
            output_limit=TOKEN_OUTPUT_LIMIT,
        )
    except token_command.TokenCommandError as exc:
        raise ConfigError(str(exc)) from None


# --------------------------------------------------------------------------- precedence


@dataclass(frozen=True)
class Connection:
    """Where to connect and with what, after flags, environment and profile."""

    base_url: str
    token: str
    profile: Profile | None
    label: str


def resolve_connection(
    config: Config,
    *,
    profile_name: str | None = None,
    base_url: str | None = None,
    token: str | None = None,
    env: dict[str, str] | None = None,
) -> Connection | None:
    """flag > environment > profile > default profile; None when nothing is configured."""
    env = dict(os.environ) if env is None else env
    profile = config.profile(profile_name)
    if profile_name and profile is None:
        raise ConfigError(f"no profile named {profile_name!r} in {config.path}")
    url = base_url or env.get("VAGENT_BASE_URL") or (profile.base_url if profile else None)
    if (
        url and profile is not None and not profile_name
        and _platform(url) != _platform(profile.base_url)
    ):  # fmt: skip
        # The default profile is another platform's: its tier, read-only, target and
        # token do not follow the address the flag or the variable gives.
        profile = None
    if not url:
        return None
    problem = base_url_problem(url)
    if problem:
        # A profile's URL was checked when the file was read: a flag or the variable.
        source = "--base-url" if base_url else "VAGENT_BASE_URL"
        if not base_url and not env.get("VAGENT_BASE_URL") and profile is not None:
            source = f"profile {profile.name!r}"
        raise ConfigError(f"the base URL ({source}) {problem}")
    secret = token or env.get("VAGENT_TOKEN")
    if not secret and profile is not None:
        secret = resolve_token(profile, env=env)
    if not secret:
        raise ConfigError("no token: set VAGENT_TOKEN or give the profile a token source")
    label = profile.name if profile else url
    return Connection(base_url=url, token=secret, profile=profile, label=label)


def _platform(url: str) -> str:
    """A base URL as the client sends to it (no trailing ``/`` or ``/api/v2``, any case
    of scheme and host), to tell two addresses of one platform from two platforms."""
    from urllib.parse import urlsplit

    from vagent_tui.api.outgoing import normalise_base_url

    parts = urlsplit(normalise_base_url(url))
    return f"{parts.scheme.lower()}://{parts.netloc.lower()}{parts.path}"
