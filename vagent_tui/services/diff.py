"""What differs between two agent configurations: field by field, entry by entry, line by line.

Both sides are wire dicts (camelCase, as the platform sends them: `AgentConfig.wire()` or
a saved version's ``snapshot``). The lists that replace whole on a staging write are
compared entry by entry under a key (``actions`` by function name and occurrence,
``reportingFields`` by ``key``, ``apps`` by ``appId``, ``skills`` by ``slug``); long or
multi-line text is compared line by line. What the platform computes for itself (an
action's ``allowed``/``reason``/``missingRequirement``, ``effectiveReportingFields``) is
not a difference anyone made, and is left out.
"""

from __future__ import annotations

import difflib
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from vagent_tui.words import counted

Kind = Literal["changed", "added", "removed"]

ENTRY_KEYS: dict[str, str] = {
    "actions": "name",
    "reportingFields": "key",
    "apps": "appId",
    "skills": "slug",
}
"""The entry lists of a configuration and the field that names an entry."""

COMPUTED_ENTRY_FIELDS = frozenset({"allowed", "reason", "missingRequirement"})
"""Fields of an ``actions`` entry the platform evaluates on every read."""

IGNORED_FIELDS = frozenset({"effectiveReportingFields"})
"""Fields derived by the platform from others (and from other levels)."""

LONG_TEXT = 60
"""Text longer than this (or on several lines) is compared line by line."""


@dataclass(frozen=True)
class FieldDiff:
    """One difference: a setting, or one entry of a list, from ``old`` to ``new``.

    ``path`` is the wire name (``speakingTimeout``) or the list and entry
    (``actions[bookAppointment]``); ``lines`` holds the line-by-line comparison of long
    text (``- ``/``+ ``/``  `` prefixed), or of an entry's fields.
    """

    path: str
    kind: Kind
    old: Any = None
    new: Any = None
    lines: tuple[str, ...] = field(default=())


def show(value: Any) -> str:
    """A value on one line, as JSON would write it (``null``, ``true``, ``"text"``)."""
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)
    return json.dumps(value, ensure_ascii=False, sort_keys=True, separators=(", ", ": "))


def is_long(value: Any) -> bool:
    return isinstance(value, str) and ("\n" in value or len(value) > LONG_TEXT)


def text_lines(old: str, new: str) -> tuple[str, ...]:
    """Changed lines with one line of context, ``- `` removed and ``+ `` added."""
    a, b = old.splitlines() or [""], new.splitlines() or [""]
    if len(a) == 1 and len(b) == 1:
        first, second = around_change(a[0], b[0])
        return ("- " + first, "+ " + second)
    out: list[str] = []
    for group in difflib.SequenceMatcher(None, a, b, autojunk=False).get_grouped_opcodes(1):
        if out:
            out.append("  …")
        for tag, i1, i2, j1, j2 in group:
            if tag == "equal":
                out.extend("  " + line for line in a[i1:i2])
                continue
            out.extend("- " + line for line in a[i1:i2])
            out.extend("+ " + line for line in b[j1:j2])
    return tuple(out)


CONTEXT = 30
"""Characters kept on each side of a change inside one long line."""


def around_change(old: str, new: str) -> tuple[str, str]:
    """Both lines cut to what differs, with `CONTEXT` characters around it (``…`` marks).

    A long line changed near its end would otherwise read the same on both sides.
    """
    prefix = 0
    while prefix < min(len(old), len(new)) and old[prefix] == new[prefix]:
        prefix += 1
    suffix = 0
    while (suffix < min(len(old), len(new)) - prefix
           and old[-1 - suffix] == new[-1 - suffix]):  # fmt: skip
        suffix += 1
    start = max(0, prefix - CONTEXT)
    head = "…" if start else ""

    def cut(text: str) -> str:
        end = min(len(text), len(text) - suffix + CONTEXT)
        return head + text[start:end] + ("…" if end < len(text) else "")

    return cut(old), cut(new)


def _entry(entry: Any, list_name: str) -> Any:
    if list_name == "actions" and isinstance(entry, Mapping):
        return {k: v for k, v in entry.items() if k not in COMPUTED_ENTRY_FIELDS}
    return entry


def _keyed(list_name: str, entries: Sequence[Any]) -> dict[str, Any]:
    """Entries under their names; a repeated name gets ``#2``, ``#3``... in order."""
    key = ENTRY_KEYS[list_name]
    seen: dict[str, int] = {}
    out: dict[str, Any] = {}
    for index, entry in enumerate(entries):
        name = entry.get(key) if isinstance(entry, Mapping) else None
        base = str(name) if name not in (None, "") else f"#{index + 1}"
        seen[base] = seen.get(base, 0) + 1
        out[base if seen[base] == 1 else f"{base} #{seen[base]}"] = _entry(entry, list_name)
    return out


def field_change_lines(name: str, old: Any, new: Any) -> list[str]:
    """One field's change as a list entry shows it: ``name: old → new``, or a long text's
    changed lines below its name."""
    if is_long(old) or is_long(new):
        return [
            f"  {name}:",
            *("    " + line for line in text_lines(str(old or ""), str(new or ""))),
        ]
    return [f"  {name}: {show(old)} → {show(new)}"]


def _entry_lines(old: Mapping[str, Any], new: Mapping[str, Any]) -> tuple[str, ...]:
    lines: list[str] = []
    for name in [*old.keys(), *(k for k in new if k not in old)]:
        if old.get(name) != new.get(name):
            lines.extend(field_change_lines(name, old.get(name), new.get(name)))
    return tuple(lines)


def _list_diffs(name: str, old: Sequence[Any], new: Sequence[Any]) -> list[FieldDiff]:
    before, after = _keyed(name, old), _keyed(name, new)
    diffs: list[FieldDiff] = []
    for key in [*before, *(k for k in after if k not in before)]:
        path = f"{name}[{key}]"
        if key not in after:
            diffs.append(FieldDiff(path, "removed", old=before[key]))
        elif key not in before:
            diffs.append(FieldDiff(path, "added", new=after[key]))
        elif before[key] != after[key]:
            a, b = before[key], after[key]
            lines = _entry_lines(a, b) if isinstance(a, Mapping) and isinstance(b, Mapping) else ()
            diffs.append(FieldDiff(path, "changed", old=a, new=b, lines=lines))
    if not diffs and list(before) != list(after):
        diffs.append(FieldDiff(f"{name} (order)", "changed", old=list(before), new=list(after)))
    return diffs


_MISSING: Any = object()
"""A field's value when the configuration does not hold it (unequal to any value)."""


def diff_configs(old: Mapping[str, Any] | None, new: Mapping[str, Any] | None) -> list[FieldDiff]:
    """Every difference from ``old`` to ``new``, in the order of ``old``'s fields."""
    old, new = old or {}, new or {}
    diffs: list[FieldDiff] = []
    # The fields that differ are picked out first, each compared whole (in C): configurations
    # of 70 fields mostly differ in one or two, and the loop below is what costs.
    missing = _MISSING
    names = [k for k, a in old.items() if new.get(k, missing) != a]
    names.extend(k for k in new if k not in old)
    for name in names:
        if name in IGNORED_FIELDS:
            continue
        a, b = old.get(name), new.get(name)
        if name in ENTRY_KEYS and isinstance(a or [], list) and isinstance(b or [], list):
            diffs.extend(_list_diffs(name, a or [], b or []))
        elif name not in new:
            diffs.append(FieldDiff(name, "removed", old=a))
        elif name not in old:
            diffs.append(FieldDiff(name, "added", new=b))
        elif is_long(a) or is_long(b):
            lines = text_lines(str(a or ""), str(b or ""))
            diffs.append(FieldDiff(name, "changed", old=a, new=b, lines=lines))
        else:
            diffs.append(FieldDiff(name, "changed", old=a, new=b))
    return diffs


def holds(config: Mapping[str, Any] | None, settings: Mapping[str, Any]) -> bool:
    """Whether ``config`` has every one of ``settings`` (a write's body) as written,
    the platform's own fields of list entries aside: how a write is read back."""
    if config is None:
        return False
    return not diff_configs({k: config.get(k) for k in settings}, settings)


def summary(diffs: Sequence[FieldDiff]) -> str:
    """``3 settings, 1 function`` style count of what a diff touches."""
    if not diffs:
        return "no difference"
    lists = {name: 0 for name in ENTRY_KEYS}
    settings = 0
    for diff in diffs:
        name = diff.path.split("[", 1)[0].split(" ", 1)[0]
        if name in lists:
            lists[name] += 1
        else:
            settings += 1
    parts = [counted(settings, "setting")] if settings else []
    nouns = {"actions": "function", "reportingFields": "reporting field", "apps": "app",
             "skills": "skill"}  # fmt: skip
    for name, count in lists.items():
        if count:
            parts.append(counted(count, nouns[name]))
    return ", ".join(parts)
