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

``VAGENT_TOKEN`` and ``VAGENT_BASE_URL`` override the profile for one run. The token
sources, the credentials file and that precedence are `vagent_tui.credentials`.
"""

from __future__ import annotations

import os
import tempfile
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

TIERS = ("prod", "staging", "dev")
APP_DIR = "vagent-tui"

FILE_SIZE_LIMIT = 1024 * 1024
"""Bytes of a configuration or credentials file read at most (``VAGENT_CONFIG=/dev/zero``)."""

_TOP_KEYS = frozenset({"default_profile", "theme", "profiles"})
_PROFILE_KEYS = frozenset(
    {
        "base_url",
        "target_account",
        "theme",
        "tier",
        "read_only",
        "token_env",
        "token_file",
        "token_command",
        "keymap",
    }
)


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
        "recent template ids": state_dir() / "recent-templates.json",
    }


def base_url_problem(url: str) -> str | None:
    """What makes ``url`` unusable as a platform base URL; None when it is usable.

    The answer never repeats the URL: it may carry a password (``https://user:pw@host``).
    """
    if not url:
        return "is empty"
    if any(c.isspace() or not c.isprintable() for c in url):
        return "holds spaces or control characters"
    try:
        parts = urlsplit(url)
        parts.port  # noqa: B018  (parsing the port is what raises on a bad one)
    except ValueError as exc:
        return f"cannot be parsed ({exc})"
    if parts.scheme not in ("http", "https"):
        return "must start with https:// (or http://)"
    if not parts.hostname:
        return "names no host"
    return None


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
    def from_toml(
        cls, name: str, data: Any, where: str, warnings: list[str] | None = None
    ) -> Profile:
        """The profile ``name`` of a file; raises `ConfigError` on a value it cannot use.

        What can be ignored safely (an unknown key, a keymap entry that is not a key) is
        dropped and said in ``warnings``, naming the file, the profile and the key.
        """
        warnings = [] if warnings is None else warnings
        if not isinstance(data, dict):
            raise ConfigError(f"{where}: profile {name!r} must be a table")
        base_url = data.get("base_url")
        if not isinstance(base_url, str):
            raise ConfigError(f'{where}: profile {name!r} needs base_url = "https://..."')
        problem = base_url_problem(base_url)
        if problem:
            raise ConfigError(f"{where}: profile {name!r}: base_url {problem}")
        for key in data:
            if key not in _PROFILE_KEYS:
                warnings.append(f"{where}: profile {name!r}: unknown key {key!r}, ignored")
        tier = data.get("tier", "dev")
        if tier not in TIERS:
            raise ConfigError(
                f"{where}: profile {name!r} has tier {tier!r}; use one of {', '.join(TIERS)}"
            )
        target = data.get("target_account")
        if target is not None and (not isinstance(target, int) or isinstance(target, bool)):
            raise ConfigError(f"{where}: profile {name!r}: target_account must be an integer")
        keymap = data.get("keymap", {})
        if not isinstance(keymap, dict):
            raise ConfigError(f"{where}: profile {name!r}: keymap must map binding ids to keys")
        keymap = _usable_keymap(keymap, f"{where}: profile {name!r}: keymap", warnings)
        token_file = data.get("token_file")
        if token_file is not None and not isinstance(token_file, bool | str):
            raise ConfigError(
                f"{where}: profile {name!r}: token_file must be true or the path of a file"
            )
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
            token_file=token_file,
            token_command=_opt_str(data, "token_command", name, where),
            keymap=dict(keymap),
        )


def _usable_keymap(keymap: dict[str, Any], where: str, warnings: list[str]) -> dict[str, str]:
    """The entries of ``keymap`` whose value is a key string; the others said and dropped.

    Textual would crash on a value that is not a string and ignores an empty one (the
    binding keeps its key without a word). Whether a string names a key Textual knows is
    checked by `vagent_tui.ui.keyspec` (it needs Textual).
    """
    usable: dict[str, str] = {}
    for binding_id, keys in keymap.items():
        if not isinstance(keys, str):
            warnings.append(f'{where}: {binding_id!r} must be a key like "f2", ignored')
        elif not keys.strip():
            warnings.append(f"{where}: {binding_id!r} is empty, ignored")
        else:
            usable[binding_id] = keys
    return usable


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
    warnings: list[str] = field(default_factory=list, compare=False)
    """What `load` ignored (unknown keys, keymap values that are not keys), one line each."""

    def profile(self, name: str | None = None) -> Profile | None:
        name = name or self.default_profile
        if name is None:
            return next(iter(self.profiles.values()), None) if len(self.profiles) == 1 else None
        return self.profiles.get(name)

    def remember_theme(self, theme: str, profile: str | None) -> str:
        """Keep ``theme`` in ``profile`` when the file has it, else as the file's own
        theme; says where (for "Theme x remembered in ..."). Nothing is written here."""
        kept = self.profiles.get(profile) if profile is not None else None
        if kept is not None:
            kept.theme = theme
            return f"profile {kept.name}"
        self.theme = theme
        return "the config file"

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
    data = read_toml(path)
    if data is None:
        return Config(path=path)
    profiles_data = data.get("profiles", {})
    if not isinstance(profiles_data, dict):
        raise ConfigError(f"{path}: [profiles] must be a table of profiles")
    where = str(path)
    warnings = [f"{where}: unknown key {key!r}, ignored" for key in data if key not in _TOP_KEYS]
    profiles = {
        name: Profile.from_toml(name, value, where, warnings)
        for name, value in profiles_data.items()
    }
    default = data.get("default_profile")
    if default is not None and (not isinstance(default, str) or default not in profiles):
        raise ConfigError(f"{path}: default_profile {default!r} is not a profile")
    theme = data.get("theme")
    if theme is not None and not isinstance(theme, str):
        warnings.append(f"{where}: theme must be the name of a theme, ignored")
    return Config(
        profiles=profiles,
        default_profile=default,
        theme=theme if isinstance(theme, str) else None,
        path=path,
        warnings=warnings,
    )


def read_toml(path: Path) -> dict[str, Any] | None:
    """The TOML table of ``path``; None when there is no such file.

    Every way a file can be unreadable (not UTF-8, too large, nested too deeply for
    tomllib, not TOML at all) is a `ConfigError` naming the file, never a traceback.
    """
    try:
        with path.open("rb") as handle:
            raw = handle.read(FILE_SIZE_LIMIT + 1)
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise ConfigError(f"{path}: cannot be read: {exc.strerror or type(exc).__name__}") from None
    if len(raw) > FILE_SIZE_LIMIT:
        raise ConfigError(f"{path}: larger than {FILE_SIZE_LIMIT // 1024} KiB, not read")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw[: exc.start].count(b"\n") + 1
        raise ConfigError(f"{path}: not UTF-8 text (line {line}); save it as UTF-8") from None
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{path}: {exc}") from None
    except RecursionError:
        raise ConfigError(f"{path}: nested too deeply to be read") from None


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


def toml_text(data: dict[str, Any]) -> str:
    """``data`` as TOML (the writer is imported when a file is first written)."""
    import tomli_w

    return tomli_w.dumps(data)


def save(config: Config) -> None:
    atomic_write(config.path, toml_text(config.to_toml()))
