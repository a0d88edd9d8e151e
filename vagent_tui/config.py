"""Profiles and settings: a TOML file read with tomllib and written with tomli-w.

The file lives at ``$XDG_CONFIG_HOME/vagent-tui/config.toml`` (``~/.config`` when the
variable is unset); ``VAGENT_CONFIG`` names another file. Writes are atomic (a
temporary file in the same folder, then a rename) and never happen after a failed
read, so a malformed file is never overwritten.

Tokens never live in this file. A profile names where its token comes from:

* ``token_env = "NAME"``: an environment variable;
* ``token_file = true`` (or a path): the credentials file, a TOML file of mode 0600
  holding ``[tokens] <profile> = "..."``, refused when others may read it;
* ``token_command = "pass show vida/prod"``: a command whose output is the token.

``VAGENT_TOKEN`` and ``VAGENT_BASE_URL`` override the profile for one run.
"""

from __future__ import annotations

import os
import shlex
import stat
import subprocess
import tempfile
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import tomli_w

TIERS = ("prod", "staging", "dev")
APP_DIR = "vagent-tui"


class ConfigError(Exception):
    """A problem with a configuration or credentials file, said for a person."""


# --------------------------------------------------------------------------- paths


def config_dir() -> Path:
    override = os.environ.get("VAGENT_CONFIG")
    if override:
        return Path(override).expanduser().parent
    base = os.environ.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
    return Path(base).expanduser() / APP_DIR


def config_path() -> Path:
    override = os.environ.get("VAGENT_CONFIG")
    if override:
        return Path(override).expanduser()
    return config_dir() / "config.toml"


def credentials_path() -> Path:
    return config_dir() / "credentials.toml"


def state_dir() -> Path:
    base = os.environ.get("XDG_STATE_HOME") or str(Path.home() / ".local" / "state")
    return Path(base).expanduser() / APP_DIR


def user_themes_dir() -> Path:
    return config_dir() / "themes"


def paths() -> dict[str, Path]:
    """Every path the app uses, for ``vagent-tui info``."""
    return {
        "config file": config_path(),
        "credentials file": credentials_path(),
        "user themes": user_themes_dir(),
        "state folder": state_dir(),
        "journal": state_dir() / "journal.jsonl",
    }


# --------------------------------------------------------------------------- model


@dataclass
class Profile:
    """A named platform connection and its safety settings."""

    name: str
    base_url: str
    """Base URL of the platform (``https://api.vida.dev``)."""
    target_account: int | None = None
    """Account selected as target when the profile opens."""
    theme: str | None = None
    """Theme name; None lets the terminal decide."""
    tier: str = "dev"
    """prod, staging or dev: prod shows a banner and is read-only by default."""
    read_only: bool | None = None
    """None: read-only when the tier is prod."""
    token_env: str | None = None
    token_file: bool | str | None = None
    token_command: str | None = None
    keymap: dict[str, str] = field(default_factory=dict)
    """Binding id -> keys, e.g. ``{"goto.scope" = "f2"}``."""

    @property
    def is_read_only(self) -> bool:
        return self.read_only if self.read_only is not None else self.tier == "prod"

    def token_source(self) -> str:
        if self.token_env:
            return f"environment variable {self.token_env}"
        if self.token_command:
            return f"command {self.token_command!r}"
        if self.token_file:
            where = credentials_path() if self.token_file is True else self.token_file
            return f"credentials file {where}"
        return "none"

    def to_toml(self) -> dict[str, Any]:
        out: dict[str, Any] = {"base_url": self.base_url, "tier": self.tier}
        for key in (
            "target_account",
            "theme",
            "read_only",
            "token_env",
            "token_file",
            "token_command",
        ):
            value = getattr(self, key)
            if value is not None:
                out[key] = value
        if self.keymap:
            out["keymap"] = dict(self.keymap)
        return out

    @classmethod
    def from_toml(cls, name: str, data: Any, where: str) -> Profile:
        if not isinstance(data, dict):
            raise ConfigError(f"{where}: profile {name!r} must be a table")
        base_url = data.get("base_url")
        if not isinstance(base_url, str) or not base_url.startswith(("http://", "https://")):
            raise ConfigError(f'{where}: profile {name!r} needs base_url = "https://..."')
        tier = data.get("tier", "dev")
        if tier not in TIERS:
            raise ConfigError(
                f"{where}: profile {name!r} has tier {tier!r}; use one of {', '.join(TIERS)}"
            )
        target = data.get("target_account")
        if target is not None and (not isinstance(target, int) or isinstance(target, bool)):
            raise ConfigError(f"{where}: profile {name!r}: target_account must be an integer")
        keymap = data.get("keymap", {})
        if not isinstance(keymap, dict) or not all(isinstance(v, str) for v in keymap.values()):
            raise ConfigError(f"{where}: profile {name!r}: keymap must map binding ids to keys")
        read_only = data.get("read_only")
        if read_only is not None and not isinstance(read_only, bool):
            raise ConfigError(f"{where}: profile {name!r}: read_only must be true or false")
        return cls(
            name=name,
            base_url=base_url,
            target_account=target,
            theme=_opt_str(data, "theme", name, where),
            tier=tier,
            read_only=read_only,
            token_env=_opt_str(data, "token_env", name, where),
            token_file=data.get("token_file"),
            token_command=_opt_str(data, "token_command", name, where),
            keymap=dict(keymap),
        )


def _opt_str(data: dict[str, Any], key: str, name: str, where: str) -> str | None:
    value = data.get(key)
    if value is not None and not isinstance(value, str):
        raise ConfigError(f"{where}: profile {name!r}: {key} must be text")
    return value


@dataclass
class Config:
    """The whole configuration file."""

    profiles: dict[str, Profile] = field(default_factory=dict)
    default_profile: str | None = None
    theme: str | None = None
    """Theme used when a profile names none (set from the palette)."""
    path: Path = field(default_factory=config_path)

    def profile(self, name: str | None = None) -> Profile | None:
        name = name or self.default_profile
        if name is None:
            return next(iter(self.profiles.values()), None) if len(self.profiles) == 1 else None
        return self.profiles.get(name)

    def to_toml(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        if self.default_profile:
            out["default_profile"] = self.default_profile
        if self.theme:
            out["theme"] = self.theme
        out["profiles"] = {name: p.to_toml() for name, p in self.profiles.items()}
        return out


# --------------------------------------------------------------------------- read / write


def load(path: Path | None = None) -> Config:
    """Read the configuration; a missing file is an empty configuration.

    Raises `ConfigError` naming the file, the line and the problem.
    """
    path = path or config_path()
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return Config(path=path)
    except OSError as exc:
        raise ConfigError(f"{path}: cannot be read: {exc.strerror}") from None
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{path}: {exc}") from None
    profiles_data = data.get("profiles", {})
    if not isinstance(profiles_data, dict):
        raise ConfigError(f"{path}: [profiles] must be a table of profiles")
    where = str(path)
    profiles = {
        name: Profile.from_toml(name, value, where) for name, value in profiles_data.items()
    }
    default = data.get("default_profile")
    if default is not None and default not in profiles:
        raise ConfigError(f"{path}: default_profile {default!r} is not a profile")
    theme = data.get("theme")
    return Config(
        profiles=profiles,
        default_profile=default,
        theme=theme if isinstance(theme, str) else None,
        path=path,
    )


def atomic_write(path: Path, text: str, *, mode: int = 0o644) -> None:
    """Write ``text`` to a temporary file beside ``path``, then rename it into place."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
    try:
        os.fchmod(fd, mode)
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def save(config: Config) -> None:
    atomic_write(config.path, tomli_w.dumps(config.to_toml()))


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
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{path}: {exc}") from None
    tokens = data.get("tokens", {})
    if not isinstance(tokens, dict):
        raise ConfigError(f"{path}: [tokens] must map profile names to tokens")
    return {str(k): str(v) for k, v in tokens.items()}


def store_token(profile: str, token: str, path: Path | None = None) -> Path:
    """Keep a profile's token in the credentials file (mode 0600)."""
    path = path or credentials_path()
    tokens = read_credentials(path) if path.exists() else {}
    tokens[profile] = token
    atomic_write(path, tomli_w.dumps({"tokens": tokens}), mode=0o600)
    return path


def forget_token(profile: str, path: Path | None = None) -> None:
    path = path or credentials_path()
    if not path.exists():
        return
    tokens = read_credentials(path)
    if tokens.pop(profile, None) is not None:
        atomic_write(path, tomli_w.dumps({"tokens": tokens}), mode=0o600)


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
    assert profile.token_command
    try:
        done = subprocess.run(
            shlex.split(profile.token_command),
            capture_output=True,
            text=True,
            timeout=30,
            check=False,
        )
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise ConfigError(
            f"profile {profile.name!r}: token command failed: {type(exc).__name__}"
        ) from None
    token = done.stdout.strip().splitlines()[0] if done.stdout.strip() else ""
    if done.returncode != 0 or not token:
        # stderr may echo the secret: never repeat it, only the exit status.
        raise ConfigError(
            f"profile {profile.name!r}: token command exited with status {done.returncode} "
            "and no token"
        )
    return token


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
    if not url:
        return None
    secret = token or env.get("VAGENT_TOKEN")
    if not secret and profile is not None:
        secret = resolve_token(profile, env=env)
    if not secret:
        raise ConfigError("no token: set VAGENT_TOKEN or give the profile a token source")
    label = profile.name if profile else url
    return Connection(base_url=url, token=secret, profile=profile, label=label)
