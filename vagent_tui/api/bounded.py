"""Replies of open shape, bounded before anything reads them.

A reply published only as "an object" (usage, plans, add-ons, today's counts:
`vagent_tui.api.usage_models.OpenReply`) has no model to bound it: its objects may hold
any number of keys, its strings any length, up to the transport's size limit (16 MiB).
Read as sent, 100,000 usage keys and an 8 MiB plan name cost the console hundreds of MB
and seconds of its event loop on every screen that walks them. `bounded` keeps the
first entries of each object and list and the start of each string, and counts what it
left out (`LeftOut`), so the screens can say so:

* an object or a list keeps its first `ENTRIES` entries (a three-year series by day is
  1,096 points);
* the reply keeps `VALUES` values in all, in the order sent (after that, every entry
  is left out);
* a string (a value or a key) longer than `TEXT` characters keeps its start and a mark
  saying how much was cut (`vagent_tui.inert.cut`), short enough to be shown as it is;
* an object or a list nested deeper than `DEPTH` is kept empty.

What was left out is counted as keys of objects and items of lists, the reply's own
terms: a screen says "98,000 more keys of the reply not read".
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from vagent_tui.inert import DISPLAY_LIMIT, cut

ENTRIES = 2_000
"""Entries kept of one object or list."""
VALUES = 20_000
"""Values kept of one reply, nested ones included."""
TEXT = DISPLAY_LIMIT
"""Characters of one string (its cut mark included)."""
DEPTH = 32
"""Objects and lists nested deeper than this are left out."""


@dataclass(frozen=True)
class LeftOut:
    """What `bounded` did not keep of one reply."""

    keys: int = 0
    """Keys of objects left out (with their values, however much those held)."""
    items: int = 0
    """Items of lists left out."""
    texts: int = 0
    """Strings (values or keys) cut to `TEXT` characters."""

    @property
    def entries(self) -> int:
        """Keys and items left out."""
        return self.keys + self.items

    def __bool__(self) -> bool:
        return bool(self.entries or self.texts)


class _Count:
    def __init__(self) -> None:
        self.keys = self.items = self.texts = 0


class _Bound:
    def __init__(self) -> None:
        self.left = _Count()
        self.budget = VALUES

    def text(self, value: str) -> str:
        if len(value) <= TEXT:
            return value
        self.left.texts += 1
        return cut(value, TEXT)

    def value(self, value: Any, depth: int) -> Any:
        if isinstance(value, str):
            return self.text(value)
        if isinstance(value, Mapping):
            return self.mapping(value, depth + 1)
        if isinstance(value, list):
            return self.listing(value, depth + 1)
        return value

    def room(self, size: int, depth: int) -> int:
        """How many of ``size`` entries are kept (the caller counts the others)."""
        kept = 0 if depth > DEPTH else min(size, ENTRIES, self.budget)
        self.budget -= kept
        return kept

    def mapping(self, node: Mapping[Any, Any], depth: int) -> dict[Any, Any]:
        kept = self.room(len(node), depth)
        self.left.keys += len(node) - kept
        out: dict[Any, Any] = {}
        for index, (key, value) in enumerate(node.items()):
            if index >= kept:
                break
            name = self.text(key) if isinstance(key, str) else key
            if name in out:  # two long keys alike once cut: the second is left out
                self.left.keys += 1
                continue
            out[name] = self.value(value, depth)
        return out

    def listing(self, node: list[Any], depth: int) -> list[Any]:
        kept = self.room(len(node), depth)
        self.left.items += len(node) - kept
        return [self.value(item, depth) for item in node[:kept]]


def bounded(value: Any) -> tuple[Any, LeftOut]:
    """``value`` (decoded JSON) bounded as the module says, and what was left out.

    A value within the bounds comes back equal to itself (a copy of its objects and lists).
    """
    bound = _Bound()
    kept = bound.value(value, 0)
    return kept, LeftOut(bound.left.keys, bound.left.items, bound.left.texts)
