"""No module in ``ui/`` or ``services/`` is over `LIMIT` lines unless it is one thing.

A module that long usually holds several jobs (a screen's state with its drawing, a
reply's reading with its reads): cut it by meaning, the state in small typed objects
testable without Textual. A module that truly is one thing says so in its docstring
with the sentence `MARKER`, followed by why (e.g. "This module is one thing: the
simulator's call records and their rules.").
"""

from __future__ import annotations

import ast
from pathlib import Path

from tests import source
from tests.source import PACKAGE

LIMIT = 500
MARKER = "This module is one thing"
WATCHED = ("ui", "services")


def offenders(paths: tuple[Path, ...], root: Path = PACKAGE) -> list[str]:
    """``path (lines)`` (below ``root``) of each module over `LIMIT` lines whose docstring
    lacks `MARKER`."""
    found = []
    for path in paths:
        lines = len(source.text(path).splitlines())
        if lines <= LIMIT:
            continue
        docstring = ast.get_docstring(source.tree(path)) or ""
        if MARKER not in " ".join(docstring.split()):  # the sentence may wrap
            found.append(f"{path.relative_to(root)} ({lines} lines)")
    return found


def test_no_long_module_in_ui_or_services_unless_it_says_it_is_one_thing() -> None:
    paths = tuple(p for part in WATCHED for p in source.python_files(PACKAGE / part))
    found = offenders(paths)
    assert not found, (
        f"over {LIMIT} lines: cut by meaning, or say '{MARKER}: <why>' in the "
        "module's docstring:\n" + "\n".join(found)
    )


def test_the_rule_sees_a_long_module_and_the_marker(tmp_path: Path) -> None:
    long = tmp_path / "long.py"
    body = "x = 1\n" * LIMIT
    long.write_text('"""Many jobs."""\n' + body, encoding="utf-8")
    one = tmp_path / "one.py"
    one.write_text(f'"""A table.\n\n{MARKER}: the\ntable."""\n' + body, encoding="utf-8")
    short = tmp_path / "short.py"
    short.write_text('"""Short."""\n' + "x = 1\n" * (LIMIT - 1), encoding="utf-8")
    assert offenders((long, one, short), tmp_path) == [f"long.py ({LIMIT + 1} lines)"]
