"""Stylesheets live in ``.tcss`` files next to the module they style.

A screen names its file in ``CSS_PATH``. A widget (and a dialog whose rules must stay
default rules, which any screen's CSS overrides) cannot: Textual reads a widget's
rules only from ``DEFAULT_CSS``. `stylesheet` fills it from the module's own
``.tcss`` file, so every rule of the console is in a ``.tcss`` file and colours come
only from theme variables.
"""

from __future__ import annotations

from pathlib import Path


def stylesheet(module_file: str, name: str = "") -> str:
    """The text of ``name`` (default: the module's own ``<module>.tcss``) beside it."""
    module = Path(module_file)
    return (module.parent / (name or module.with_suffix(".tcss").name)).read_text(encoding="utf-8")
