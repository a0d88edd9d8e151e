"""Semantic colours for text built in Python, taken from the theme in force.

Cells and detail panes are Rich `Text`; a colour written there as ``"red"`` would
ignore the theme (and the high-contrast and ANSI themes exist for a reason). Code
uses the names below instead, e.g. ``Text("✓ done", style=OK)``. They are Rich named
styles: Rich resolves them through the app's console when the text is drawn, and
`install` defines them on that console from the theme's variables (``status-ok``,
``status-failed``, ``status-running``, ``warning``, ``accent``, ``secondary``),
again on every change of theme. A monochrome terminal (``NO_COLOR``) drops the colours
and keeps the bold and reverse.
"""

from __future__ import annotations

from collections.abc import Mapping

from rich.color import Color as RichColor
from rich.console import Console
from rich.style import Style
from rich.theme import Theme as RichTheme
from textual.color import Color, ColorParseError

OK = "vt.ok"
"""Success, available, allowed."""
OK_STRONG = "vt.ok.strong"
FAILED = "vt.failed"
"""Failure, unavailable, refused."""
FAILED_STRONG = "vt.failed.strong"
WARN = "vt.warn"
"""Needs attention: restricted, truncated, required, queued."""
WARN_STRONG = "vt.warn.strong"
RUNNING = "vt.running"
"""Under way."""
ACCENT = "vt.accent"
"""A marker the eye should find (unread, a source)."""
HEADING = "vt.heading"
UNKNOWN = "vt.unknown"
"""A value the console does not know (a new status of the platform)."""
BADGE_WARN = "vt.badge.warn"
"""A short label on the warning colour (STAGING)."""
BADGE_OK = "vt.badge.ok"
"""A short label on the success colour (LIVE)."""

NAMES = (
    OK, OK_STRONG, FAILED, FAILED_STRONG, WARN, WARN_STRONG, RUNNING, ACCENT, HEADING,
    UNKNOWN, BADGE_WARN, BADGE_OK,
)  # fmt: skip


def _colour(variables: Mapping[str, str], name: str) -> RichColor | None:
    value = variables.get(name)
    if not value:
        return None
    try:
        return Color.parse(value).rich_color
    except ColorParseError:  # a theme file's typo: no colour rather than a crash
        return None


def rich_theme(variables: Mapping[str, str]) -> RichTheme:
    """The named styles for a theme's CSS variables (``App.get_css_variables()``)."""
    ok = _colour(variables, "status-ok")
    failed = _colour(variables, "status-failed")
    warn = _colour(variables, "warning")
    accent = _colour(variables, "accent")
    styles = {
        OK: Style(color=ok),
        OK_STRONG: Style(color=ok, bold=True),
        FAILED: Style(color=failed),
        FAILED_STRONG: Style(color=failed, bold=True),
        WARN: Style(color=warn),
        WARN_STRONG: Style(color=warn, bold=True),
        RUNNING: Style(color=_colour(variables, "status-running")),
        ACCENT: Style(color=accent),
        HEADING: Style(color=accent, bold=True),
        UNKNOWN: Style(color=_colour(variables, "secondary")),
        # Reverse: the label's background is the colour, its text the terminal's own
        # background, readable in every theme.
        BADGE_WARN: Style(color=warn, bold=True, reverse=True),
        BADGE_OK: Style(color=ok, bold=True, reverse=True),
    }
    return RichTheme(styles)


def install(console: Console, variables: Mapping[str, str], *, replace: bool) -> None:
    """Define the named styles on ``console`` (``replace``: the ones installed before)."""
    if replace:
        console.pop_theme()
    console.push_theme(rich_theme(variables))
