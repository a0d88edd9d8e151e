"""The Calls table's columns: which exist, what each reads, and the choice per profile.

A column is either one of the console's own (`BUILT_IN`: time, account, direction,
``from → to``, duration, outcome, summary; each reads one or two wire fields) or any
field the platform names in a page's ``schema`` (``includeFields``), dotted for nested
ones (``metadata.tokens``), shown as it came. The choice is kept per profile in
``<state dir>/calls-columns.json`` (mode 0600): column names only.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from vagent_tui.config import state_dir
from vagent_tui.services.profile_file import ProfileFile

COLUMNS_NAME = "calls-columns.json"
READ_LIMIT = 256 * 1024
"""A larger file is not this console's: taken as empty (never read whole)."""
MAX_COLUMNS = 24
"""Columns kept per profile (a table wider than this is not read)."""


@dataclass(frozen=True)
class Column:
    """A column of the Calls table: its name (kept), its header, the wire fields it reads."""

    name: str
    label: str
    reads: tuple[str, ...]
    """The wire fields the column shows (what `offered` leaves out of the schema's)."""
    width: int | None = None


BUILT_IN: dict[str, Column] = {
    c.name: c
    for c in (
        Column("time", "Time", ("timestamp",), 17),
        Column("account", "Account", ("account_id",), 7),
        Column("direction", "Dir", ("direction", "type"), 6),
        Column("route", "From → To", ("fromNumber", "toNumber"), 27),
        Column("duration", "Dur", ("duration",), 5),
        Column("outcome", "Outcome", ("agentOutcome", "status"), 18),
        Column("summary", "Summary", ("summary",)),
    )
}
DEFAULT_COLUMNS: tuple[str, ...] = tuple(BUILT_IN)


def column(name: str) -> Column:
    """The column named ``name``: a built-in one, else the wire field of that name."""
    known = BUILT_IN.get(name)
    if known is not None:
        return known
    return Column(name, name, (name.partition(".")[0],))


def clean(names: Iterable[Any]) -> tuple[str, ...]:
    """Column names as they may be kept: text, once each, at most `MAX_COLUMNS`."""
    out: list[str] = []
    for name in names:
        if isinstance(name, str) and name.strip() and name not in out and len(name) <= 200:
            out.append(name.strip())
    return tuple(out[:MAX_COLUMNS])


def offered(schema: Sequence[str]) -> list[str]:
    """The columns to choose from: the built-in ones, then the schema's fields that no
    built-in column shows already (in the schema's order)."""
    shown = {read for c in BUILT_IN.values() for read in c.reads}
    return [*BUILT_IN, *(f for f in schema if f not in shown and f not in BUILT_IN)]


@dataclass
class ColumnStore(ProfileFile):
    """The columns chosen per profile (``None``: the console without a profile)."""

    path: Path = field(default_factory=lambda: state_dir() / COLUMNS_NAME)
    what: str = "columns"
    read_limit: int = READ_LIMIT

    def load(self, profile: str | None) -> tuple[str, ...]:
        """The columns kept for ``profile``; the defaults when none are."""
        kept = clean(self.value(profile) or ())
        return kept or DEFAULT_COLUMNS

    def keep(self, profile: str | None, names: Sequence[str]) -> None:
        """Keep ``names`` for ``profile`` (the defaults: forget the choice)."""
        chosen = clean(names)
        self.put(profile, None if chosen == DEFAULT_COLUMNS or not chosen else list(chosen))


__all__ = [
    "BUILT_IN",
    "DEFAULT_COLUMNS",
    "Column",
    "ColumnStore",
    "column",
    "offered",
]
