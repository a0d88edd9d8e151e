"""Theme files (TOML) turned into Textual `Theme` objects, and the choice of a default.

Shipped themes live in the top-level ``themes/`` folder, installed as the
``vagent_tui.themes`` package data; users add their own in the config folder's
``themes/``. A theme file holds the `Theme` fields (name, dark, colours) and a
``[variables]`` table of semantic variables such as ``status-ok`` and ``tier-prod``.
"""

from __future__ import annotations

import importlib.resources
import os
import tomllib
from collections.abc import Iterable, Mapping, MutableMapping
from pathlib import Path
from typing import Any

from textual.theme import Theme

DEFAULT_DARK = "vagent-dark"
ANSI = "vagent-ansi"
SEMANTIC_DEFAULTS = {
    "status-ok": "green",
    "status-failed": "red",
    "status-running": "blue",
    "tier-prod": "darkred",
    "tier-staging": "darkorange",
    "tier-dev": "darkgreen",
}
_FIELDS = {
    "primary", "secondary", "warning", "error", "success", "accent", "foreground",
    "background", "surface", "panel", "boost", "dark", "luminosity_spread", "text_alpha",
    "ansi",
}  # fmt: skip


class ThemeFileError(Exception):
    pass


def packaged_theme_dir() -> Path:
    """The shipped themes: package data when installed, else the source tree's folder."""
    try:
        folder = importlib.resources.files("vagent_tui.themes")
        path = Path(str(folder))
        if path.is_dir() and any(path.glob("*.toml")):
            return path
    except (ModuleNotFoundError, TypeError):
        pass
    return Path(__file__).resolve().parents[2] / "themes"


def parse_theme(data: Mapping[str, Any], where: str) -> Theme:
    name = data.get("name")
    if not isinstance(name, str) or not name:
        raise ThemeFileError(f"{where}: a theme needs a name")
    if not isinstance(data.get("primary"), str):
        raise ThemeFileError(f"{where}: a theme needs a primary colour")
    unknown = set(data) - _FIELDS - {"name", "variables"}
    if unknown:
        raise ThemeFileError(f"{where}: unknown keys {', '.join(sorted(unknown))}")
    variables = data.get("variables", {})
    if not isinstance(variables, dict):
        raise ThemeFileError(f"{where}: [variables] must be a table")
    kwargs = {k: v for k, v in data.items() if k in _FIELDS}
    theme = Theme(
        name=name,
        variables={**SEMANTIC_DEFAULTS, **{str(k): str(v) for k, v in variables.items()}},
        **kwargs,
    )
    try:
        theme.to_color_system()
    except Exception as exc:  # a bad colour: say which file
        raise ThemeFileError(f"{where}: {exc}") from None
    return theme


def load_theme_file(path: Path) -> Theme:
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, tomllib.TOMLDecodeError) as exc:
        raise ThemeFileError(f"{path}: {exc}") from None
    return parse_theme(data, str(path))


def load_themes(folders: Iterable[Path]) -> tuple[list[Theme], list[str]]:
    """Every theme of ``folders`` (later folders override earlier names) and the errors."""
    themes: dict[str, Theme] = {}
    errors: list[str] = []
    for folder in folders:
        if not folder.is_dir():
            continue
        for path in sorted(folder.glob("*.toml")):
            try:
                theme = load_theme_file(path)
            except ThemeFileError as exc:
                errors.append(str(exc))
                continue
            themes[theme.name] = theme
    return list(themes.values()), errors


def no_color_wanted(env: Mapping[str, str] | None = None) -> bool:
    """Whether the terminal asked for no colour: ``NO_COLOR`` set and not empty.

    no-color.org's rule. Textual strips colours whenever ``NO_COLOR`` is present, even
    empty; `honour_empty_no_color` removes an empty one first, so that Textual and the
    console agree (they once did not: an empty ``NO_COLOR`` with the ANSI theme gave
    Textual's monochrome filter the theme's "terminal default" colours, which it turns
    into black on black).
    """
    env = os.environ if env is None else env
    return bool(env.get("NO_COLOR"))


def honour_empty_no_color(env: MutableMapping[str, str] | None = None) -> None:
    """Drop an empty ``NO_COLOR`` (it means nothing, no-color.org) before Textual reads it."""
    env = os.environ if env is None else env
    if env.get("NO_COLOR") == "":
        del env["NO_COLOR"]


def terminal_default(env: Mapping[str, str] | None = None) -> str:
    """The theme to use when nobody chose one.

    Over SSH without true colour (``COLORTERM`` not truecolor/24bit), or with
    ``NO_COLOR`` set, the ANSI theme, which uses only the terminal's own colours.
    """
    env = os.environ if env is None else env
    if no_color_wanted(env):
        return ANSI
    truecolor = env.get("COLORTERM", "").lower() in ("truecolor", "24bit")
    over_ssh = bool(env.get("SSH_CONNECTION") or env.get("SSH_TTY") or env.get("SSH_CLIENT"))
    if over_ssh and not truecolor:
        return ANSI
    return DEFAULT_DARK
