"""Text built from a value goes through the inert function: a rule over ``vagent_tui/ui``.

`test_safe_path_rules` keeps markup out; this rule catches what it lets through: a
`Text` (or a cell, a label, an option, a field's value) built from a value that may be
outside text, not passed through `inert` first. That is how a template's ``revision``
reached the terminal raw (issue 24): ``text.append(f" · rev {template.revision}")``.

What it reads as *a value that may be outside text*: an attribute (``template.revision``),
an item (``row["name"]``), a call other than the ones below, a name bound to one of
those in the same function, or a parameter not annotated as a number. What makes it
inert: `inert`, `safe`, `safe_value`, `safe_rich`, `safe_markup`, `plain`, `joined`,
the formatters of `ui/format.py`, a number's format (``{count:,}``, ``{x:.1f}``), ``len``
and other calls that give a number. A literal needs nothing.

Toasts are not read here: `ConnectionApp.notify` is the one way to show one, and it
makes the message inert whatever it is given. Nor is an assignment to a widget's
``.value`` (a Select's or a Checkbox's value is no text): an Input filled from a reply
is what the hostile walks read on screen.

A static rule cannot know every type: what it flags that is not outside text is named in
`TRUSTED` with the reason, one line each. Keep that list short: wrapping a value in
`inert` costs nothing when it is plain text (it comes back unchanged).
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from tests import source
from tests.source import UI

SOURCES = source.python_files(UI)

CLEANERS = frozenset(
    {
        "inert", "safe", "safe_value", "safe_rich", "safe_markup", "plain", "joined",
        "fmt_datetime", "fmt_duration", "fmt_counting", "elapsed_cell", "humanize_age",
        "fmt_size", "flag", "escape",
        "len", "int", "float", "round", "abs", "sum", "min", "max", "bool", "id",
        "status_text", "delivery_text", "run_text", "kind_name", "left_out", "explain", "cells",
        # helpers of ui/ that return inert text (each calls inert, or gives a number's text)
        "truncate", "literal", "_cut", "when", "saved_line", "_pairs", "_count", "_extras",
        "strftime", "cut_cell", "cut_text",
        # the console's own words around a number or an error's kind (vagent_tui.words,
        # ui/failures.py; ui/caps.py: what a screen left out of a list or a reply)
        "counted", "noun_for", "next_step", "not_shown", "not_read", "left_out_of",
    }
)  # fmt: skip
"""Calls whose result is inert text (or a number, or a `Text` built inert)."""

TRANSPARENT = frozenset(
    {"Text", "Content", "assemble", "str", "repr", "sorted", "list", "tuple", "reversed"}
)
"""Calls that show what they are given: outside text in, outside text out."""
STR_METHODS = frozenset(
    {"join", "strip", "lstrip", "rstrip", "lower", "upper", "title", "capitalize", "replace",
     "format", "ljust", "rjust", "center", "removeprefix", "removesuffix", "split"}
)  # fmt: skip
"""Methods of a string: outside text stays outside."""


def _text_builders() -> frozenset[str]:
    """Functions of ``ui/`` that return a renderable: they build it under this rule too."""
    kinds = ("Text", "RenderableType", "Content", "Group", "Table", "Strip")
    names = set()
    for path in SOURCES:
        for node in ast.walk(source.tree(path)):
            returns = getattr(node, "returns", None)
            if returns is not None and any(kind in ast.unparse(returns) for kind in kinds):
                names.add(getattr(node, "name", ""))
    return frozenset(names)


NUMBER_TYPES = frozenset({"int", "float", "bool", "Decimal"})

SINK_CALLS = frozenset({"Text", "Static", "Label", "Button", "Option", "Checkbox", "Input"})
"""Widgets and renderables whose first argument is shown (an Input shows its value raw)."""
ROW_CALLS = frozenset({"add_row", "assemble"})
"""Calls whose every argument is shown (a rich table parses a str cell as markup)."""
SHOWN_ATTRIBUTES = frozenset({"border_title", "border_subtitle", "tooltip", "label"})
"""Attributes whose value is shown, markup parsed (`.value` of an Input is shown raw)."""

TEXT_BUILDERS = _text_builders()

# fmt: off
TRUSTED: dict[str, str] = {
    "ui/screens/fleet.py: (f'{account_id} ', 'bold')": "an account id: an int",
    "ui/screens/fleet.py: f' · Enter opens {opens}'": "the name of one of the screens",
    "ui/screens/fleet.py: f'{allowed} of {total} allowed; unavailable ({len(unavailable)}):'":
        "counts",
    "ui/screens/functions.py: f'{count}→{staged}'": "counts",
    "ui/screens/functions.py: f'{count} ⚠' if problem else str(count) if count else ''": "a count",
    "ui/widgets/record_table.py: str(shown)": "a column's label through safe_cell: inert",
    "ui/widgets/record_table.py: str(cell)": "a cell through safe_cell: inert already",
    "ui/screens/inbox.py: f' · → {want.title.lower()}'": "the inbox's title (INBOX_TITLES)",
    "ui/screens/migrations.py: e.label": "a line built inert (TemplateChoices.entries)",
    "ui/screens/inbox.py: f' · {pager.size}/page'": "an int the console chose",
    "ui/screens/inbox.py: '…' if waiting or shown is None else shown.label": "a page range of ints",
    "ui/screens/inbox.py: shown_query.title.split()[0]": "the inbox's title (INBOX_TITLES)",
    "ui/screens/room.py: f' · {thread.label} messages'": "a page range of ints",
    "ui/screens/calls_state.py: shown.label": "a page range of ints (Page.label)",
    "ui/screens/calls_state.py: f' · {pager.size}/page'": "an int the console chose",
    "ui/widgets/call_rows.py: f'Message {number}'": "a count",
    "ui/widgets/call_rows.py: label": "the console's own row labels (conversation_view)",
    "ui/widgets/call_rows.py: status_label(entry)": "'Call status', 'SMS status' or 'Entry status'",
    "ui/widgets/account_info.py: f' — to act as {level} #{inert(scope.root_id)}, pick it below'":
        "a scope level's name (ScopeLevel)",
    "ui/widgets/account_info.py: f'every child account ({below})'": "a scope level's name",
    "ui/widgets/account_info.py: f'every child account of {scope.level.value} #{inert(root)} "
    "({below})'": "scope levels' names",
    "ui/widgets/account_tree.py: text_of(a)": "the screen's Text builder (safe)",
    "ui/widgets/agent_view.py: key": "a setting's wire name from GROUPS (the code's own list)",
    "ui/widgets/matrix_rows.py: self.name(index)": "names made inert when the rows are set up",
    "ui/widgets/matrix_rows.py: self.key(index)": "an account id",
    "ui/footer.py: f' {item.display} '": "made inert where the item is built",
    "ui/footer.py: f'{item.description} '": "a binding's description: the code's own",
    "ui/footer.py: item.tooltip if item is not None else None": "a binding's tooltip",
    "ui/widgets/status.py: inert(message) + self._empty_note()": "a count in the code's words",
    "ui/widgets/status.py: '✓ ' + inert(message) + self._empty_note()": "the same",
    "ui/widgets/status.py: self._empty_note().removeprefix(' · ')": "the same",
}
# fmt: on
"""``"path: expression"`` flagged but not outside text, and why."""

_NUMERIC_SPEC = re.compile(r"[,_]|[bcdeEfFgGnoxX%]$")


def _name(node: ast.AST) -> str:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return node.attr
    return ""


def _annotation_is_number(node: ast.expr | None) -> bool:
    if node is None:
        return False
    text = ast.unparse(node)
    parts = {p.strip() for p in text.replace("|", ",").split(",")} - {"None"}
    return bool(parts) and parts <= NUMBER_TYPES


class _Function:
    """Names in one function: those bound to a value that may be outside text."""

    def __init__(self, node: ast.AST) -> None:
        self.tainted: set[str] = set()
        self.texts: set[str] = set()
        """Names bound to a `Text` (their ``.append`` shows what it is given)."""
        # Twice: a name bound from another bound later in the source.
        for _ in range(2):
            for sub in _own_nodes(node):
                if isinstance(sub, ast.Assign | ast.AnnAssign) and sub.value is not None:
                    targets = sub.targets if isinstance(sub, ast.Assign) else [sub.target]
                    annotation = sub.annotation if isinstance(sub, ast.AnnAssign) else None
                    for target in targets:
                        self._bind(target, sub.value, annotation)
                elif isinstance(sub, ast.For | ast.comprehension):
                    if self.outside(sub.iter):
                        self._bind_all(sub.target)
                elif isinstance(sub, ast.NamedExpr):
                    self._bind(sub.target, sub.value, None)

    def _bind(self, target: ast.expr, value: ast.expr, annotation: ast.expr | None) -> None:
        if isinstance(target, ast.Name):
            if isinstance(value, ast.Call) and _name(value.func) in ("Text", "safe", "assemble"):
                self.texts.add(target.id)
            if not _annotation_is_number(annotation) and self.outside(value):
                self.tainted.add(target.id)
        elif isinstance(target, ast.Tuple) and self.outside(value):
            self._bind_all(target)

    def _bind_all(self, target: ast.expr) -> None:
        for name in ast.walk(target):
            if isinstance(name, ast.Name):
                self.tainted.add(name.id)

    def outside(self, node: ast.expr | None) -> bool:
        """Whether ``node`` may be (or hold) outside text not made inert."""
        if node is None or isinstance(node, ast.Constant):
            return False
        if isinstance(node, ast.Name):
            return node.id in self.tainted
        if isinstance(node, ast.Call):
            name = _name(node.func)
            if name in CLEANERS or name in TEXT_BUILDERS or name.isupper():
                return False
            if name in TRANSPARENT or name in STR_METHODS:
                receiver = [node.func.value] if isinstance(node.func, ast.Attribute) else []
                parts = [*node.args, *(k.value for k in node.keywords)]
                if name in STR_METHODS:
                    parts += receiver
                return any(self.outside(a) for a in parts)
            return True
        if isinstance(node, ast.JoinedStr):
            return any(self._formatted_outside(v) for v in node.values)
        if isinstance(node, ast.BinOp):
            return self.outside(node.left) or self.outside(node.right)
        if isinstance(node, ast.BoolOp):
            return any(self.outside(v) for v in node.values)
        if isinstance(node, ast.IfExp):
            return self.outside(node.body) or self.outside(node.orelse)
        if isinstance(node, ast.Attribute):
            # CONSTANTS of a class or module are the code's own words; what the screen
            # keeps on itself (``self.x``) was checked where it came in.
            owner = node.value
            while isinstance(owner, ast.Attribute):
                owner = owner.value
            if isinstance(owner, ast.Call):  # ``value_text(x).plain``: as the call is
                return self.outside(owner)
            own = isinstance(owner, ast.Name) and owner.id in ("self", "cls")
            return not (node.attr.isupper() or own)
        if isinstance(node, ast.Subscript):
            return self.outside(node.value) or not isinstance(node.value, ast.Name)
        if isinstance(node, ast.Tuple | ast.List):
            return any(self.outside(e) for e in node.elts)
        return False

    def _formatted_outside(self, value: ast.expr) -> bool:
        if not isinstance(value, ast.FormattedValue):
            return False
        spec = value.format_spec
        if isinstance(spec, ast.JoinedStr) and spec.values:
            last = spec.values[-1]
            if isinstance(last, ast.Constant) and _NUMERIC_SPEC.search(str(last.value)):
                return False  # a number's format: a string there would raise
        return self.outside(value.value)


def _own_nodes(node: ast.AST) -> list[ast.AST]:
    """The nodes of a function, not those of the functions defined in it."""
    out: list[ast.AST] = []
    todo = list(ast.iter_child_nodes(node))
    while todo:
        sub = todo.pop()
        if isinstance(sub, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda | ast.ClassDef):
            continue
        out.append(sub)
        todo.extend(ast.iter_child_nodes(sub))
    return out


def _shown(call: ast.Call, scope: _Function) -> list[ast.expr]:
    """The arguments of ``call`` that are shown, if it shows any."""
    name = _name(call.func)
    if name in SINK_CALLS:
        value = [k.value for k in call.keywords if k.arg == "value" and name == "Input"]
        return value if name == "Input" else call.args[:1]
    if name in ROW_CALLS:
        return list(call.args)
    if name == "append" and isinstance(call.func, ast.Attribute):
        receiver = call.func.value
        text = isinstance(receiver, ast.Name) and receiver.id in scope.texts
        styled = len(call.args) == 2 or any(k.arg == "style" for k in call.keywords)
        return call.args[:1] if text or styled else []
    return []


def problems(path: Path, root: Path = UI.parent, *, trusted: bool = False) -> list[str]:
    tree = source.tree(path)
    found: list[tuple[int, str]] = []
    scopes: list[ast.AST] = [tree]
    scopes += [n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef)]
    for scope_node in scopes:
        scope = _Function(scope_node)
        for node in _own_nodes(scope_node):
            shown: list[ast.expr] = []
            if isinstance(node, ast.Call):
                shown = _shown(node, scope)
            elif isinstance(node, ast.Assign):
                for target in node.targets:
                    if isinstance(target, ast.Attribute) and target.attr in SHOWN_ATTRIBUTES:
                        shown = [node.value]
            for value in shown:
                inner = isinstance(value, ast.Call) and _name(value.func) in SINK_CALLS
                if inner or not scope.outside(value):
                    continue  # a Text(...) given to a widget: its own argument is checked
                what = f"{path.relative_to(root)}: {ast.unparse(value)}"
                if trusted or what not in TRUSTED:
                    found.append((value.lineno, what))
    return [what for _, what in sorted(found)]


@pytest.mark.parametrize("path", SOURCES, ids=[str(p.relative_to(UI)) for p in SOURCES])
def test_text_from_a_value_is_inert(path: Path) -> None:
    found = problems(path)
    advice = "shown without inert (wrap it in inert()/safe(), or name it in TRUSTED):"
    assert not found, "\n".join([advice, *found])


def test_every_trusted_entry_is_still_flagged() -> None:
    """A line that changed (or went) takes its entry with it: the list stays short."""
    flagged = {what for path in SOURCES for what in problems(path, trusted=True)}
    assert set(TRUSTED) <= flagged, sorted(set(TRUSTED) - flagged)


def test_the_rule_catches_the_template_revision(tmp_path: Path) -> None:
    """The line of issue 24, and its kin; the inert spellings pass."""
    bad = tmp_path / "bad.py"
    bad.write_text(
        "def label(template, count: int):\n"
        "    text = safe(template.name)\n"
        '    text.append(f" · rev {template.revision}", style="dim")\n'
        '    Text(f"{count:,} of {template.total}")\n'
        "    name = template.name\n"
        "    Static(Text(name))\n"
        "    table.add_row(name, safe(name))\n"
        '    field.label = f"{name}"\n'
        '    node.border_title = f"gone: {name}"\n'
        "    Input(value=template.id)\n",
        encoding="utf-8",
    )
    found = [line.split(": ", 1)[1] for line in problems(bad, tmp_path)]
    assert found == [
        "f' · rev {template.revision}'",
        "f'{count:,} of {template.total}'",
        "name",
        "name",
        "f'{name}'",
        "f'gone: {name}'",
        "template.id",
    ], found
    good = tmp_path / "good.py"
    good.write_text(
        "def label(template, count: int):\n"
        "    text = safe(template.name)\n"
        '    text.append(f" · rev {inert(template.revision)}", style="dim")\n'
        '    Text(f"{count:,} of {len(template.items)}")\n'
        '    Static(Text("literal"))\n'
        "    table.add_row(safe(template.name), plain(template.id))\n"
        '    node.border_title = f"gone: {inert(template.name)}"\n'
        "    Static(Text(safe_value(template.id)))\n",
        encoding="utf-8",
    )
    assert problems(good, tmp_path) == []
