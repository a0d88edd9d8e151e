"""Semantic colours come from the theme: every theme defines them, a switch follows."""

from __future__ import annotations

import ast
import re

from rich.color import Color as RichColor
from rich.console import Console
from rich.text import Text

from tests import source
from tests.source import UI
from vagent_tui.ui import colours
from vagent_tui.ui.themes import load_themes, packaged_theme_dir


def test_every_shipped_theme_gives_every_name_a_colour() -> None:
    themes, errors = load_themes((packaged_theme_dir(),))
    assert not errors and len(themes) >= 4
    for theme in themes:
        variables = theme.to_color_system().generate()
        variables.update(theme.variables)
        styles = colours.rich_theme(variables).styles
        for name in colours.NAMES:
            assert styles[name].color is not None, (theme.name, name)


def test_the_ansi_theme_stays_in_the_terminal_s_own_colours() -> None:
    variables = {"status-ok": "ansi_green", "status-failed": "ansi_red", "warning": "ansi_yellow"}
    styles = colours.rich_theme(variables).styles
    assert styles[colours.OK].color == RichColor.parse("color(2)")
    assert styles[colours.FAILED].color == RichColor.parse("color(1)")


def test_a_bad_colour_in_a_theme_gives_no_colour_not_a_crash() -> None:
    styles = colours.rich_theme({"status-ok": "not-a-colour"}).styles
    assert styles[colours.OK].color is None


def test_text_is_drawn_in_the_installed_colour_and_replaced_on_a_switch() -> None:
    console = Console(color_system="truecolor", force_terminal=True, width=20)
    colours.install(console, {"status-ok": "#112233"}, replace=False)
    with console.capture() as first:
        console.print(Text("ok", style=colours.OK))
    colours.install(console, {"status-ok": "#445566"}, replace=True)
    with console.capture() as second:
        console.print(Text("ok", style=colours.OK))
    assert "38;2;17;34;51" in first.get()
    assert "38;2;68;85;102" in second.get() and "38;2;17;34;51" not in second.get()


_COLOUR = re.compile(
    r"(?<![A-Za-z])(bright_)?(red|green|yellow|blue|magenta|cyan|white|black|orange|purple)"
    r"(?![A-Za-z])|#[0-9a-fA-F]{6}(?![\w-])|#[0-9a-fA-F]{3}(?![\w-])|\b(color|rgb)\(\d"
)
"""A colour in a string: a name (``bright_red`` too), ``#rrggbb``, ``color(n)``, ``rgb(``."""


def colour_strings(text: str | ast.Module) -> list[tuple[int, str]]:
    """String constants of a source text (or its tree) that name a colour (docstrings left
    out)."""
    tree = ast.parse(text) if isinstance(text, str) else text
    docstrings = {
        id(node.value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant)
    }
    return [
        (node.lineno, node.value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant) and isinstance(node.value, str)
        and id(node) not in docstrings and _COLOUR.search(node.value)
    ]  # fmt: skip


def test_no_colour_is_written_in_python_under_ui() -> None:
    """Colours come from the theme: colours names in Python, $variables in .tcss."""
    found = []
    for path in source.python_files(UI):
        if path.name in ("themes.py", "colours.py"):  # the defaults, and the names
            continue
        for number, text in colour_strings(source.tree(path)):
            found.append(f"{path.relative_to(UI)}:{number}: {text!r}")
    assert not found, "\n".join(found)


def test_the_colour_check_sees_colours_in_any_quotes_and_forms() -> None:
    planted = (
        "a = 'bright_red'\nb = Text('x', style='bold #ff8800')\nc = \"color(196)\"\n"
        "d = '#voices-table'\ne = 'reduce'\n"
    )
    assert sorted(line for line, _ in colour_strings(planted)) == [1, 2, 3]


def test_no_stylesheet_is_written_in_python_under_ui() -> None:
    found = [
        str(path.relative_to(UI))
        for path in source.python_files(UI)
        if re.search(r'^\s*(DEFAULT_)?CSS\s*[:=][^\n]*"""', source.text(path), re.M)
    ]
    assert not found, found


def test_no_literal_colour_in_the_stylesheets() -> None:
    literal = re.compile(r":[^;{}]*(#[0-9a-fA-F]{3,8}\b|\b(red|green|yellow|blue|white|black)\b)")
    found = []
    for path in sorted(UI.rglob("*.tcss")):
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if literal.search(line) and not line.lstrip().startswith(("/*", "*")):
                found.append(f"{path.relative_to(UI)}:{number}: {line.strip()}")
    assert not found, "\n".join(found)


async def test_the_app_s_colours_follow_a_theme_switch(make_app: object) -> None:
    app = make_app("voices")  # type: ignore[operator]
    async with app.run_test(size=(80, 24)) as pilot:
        app.theme = "vagent-dark"
        await pilot.pause()
        dark = app.console.get_style(colours.FAILED).color
        app.theme = "vagent-high-contrast"
        await pilot.pause()
        contrast = app.console.get_style(colours.FAILED).color
        wanted = RichColor.parse(app.get_css_variables()["status-failed"].lower())
        assert dark != contrast and contrast.triplet == wanted.triplet
