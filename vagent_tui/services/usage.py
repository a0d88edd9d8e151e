"""Usage as the platform sends it: rows of keys and numbers, guessing no shape.

``GET /stats/usage`` is published only as "an object", so `read_usage` walks whatever
comes back and keeps what it can read without knowing the keys:

* a number (or a numeric string) is a row, named by its path (``usage.minutes``);
* a list of numbers, an object keyed by dates, or a list of objects that each carry a
  date (``{"date": ..., "minutes": 3}`` or ``{"date": ..., "key": "minutes",
  "value": 3}``) is a series of each numeric key; a row with only a series gets its sum;
* a key that starts with ``cost:`` (or sits below a ``cost``/``costs`` object) is a cost;
* a ``currency`` string is the currency the costs are in (no currency is assumed);
* the names of wrappers (``usage``, ``data``, ``items``, ``timeseries``...) are dropped
  from the front of a path, so totals and their series meet in one row;
* any other text is kept as a note, and what could not be read (a list of mixed
  things, a list of lists) is named in ``unread``.

Numbers are `Decimal`, made from the text of the number sent: the export is exact.
Also here: the formatting (`fmt_number`, `unit_of`) and the CSV. The plan's fields are
`vagent_tui.services.plans`; the reads that put usage and plan together (the Usage
screen's, the fleet's) are `vagent_tui.services.account_usage`.
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from decimal import Decimal, InvalidOperation
from typing import Any

from vagent_tui.api.bounded import LeftOut
from vagent_tui.api.usage_models import OpenReply

WRAPPERS = frozenset(
    {"usage", "data", "stats", "items", "result", "results", "totals", "total_usage",
     "timeseries", "series", "values", "metrics"}
)  # fmt: skip
"""Names of containers dropped from the front of a row's path (never the last name)."""
DATE_FIELDS = ("date", "day", "period", "time", "timestamp", "start", "startDate", "bucket")
NAME_FIELDS = ("key", "name", "metric", "type", "item")
VALUE_FIELDS = ("value", "amount", "count", "quantity", "total", "usage")
ENVELOPE = frozenset({"success", "message"})
_DATE = re.compile(r"^\d{4}-\d{2}(-\d{2})?([T ][\d:.]+Z?([+-]\d{2}:?\d{2})?)?$")
_NUMBER = re.compile(r"^-?\d+(\.\d+)?$")
UNITS = (("minute", "min"), ("second", "s"), ("hour", "h"), ("byte", "B"), ("token", "tokens"))


def as_number(value: Any) -> Decimal | None:
    """A number sent (a JSON number or a numeric string) as a Decimal; else None."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return Decimal(value)
    if isinstance(value, float):
        try:
            return Decimal(repr(value)) if value == value and abs(value) != float("inf") else None
        except InvalidOperation:
            return None
    if isinstance(value, str) and _NUMBER.match(value.strip()):
        return Decimal(value.strip())
    return None


def _is_date(text: Any) -> bool:
    return isinstance(text, str) and bool(_DATE.match(text.strip()))


@dataclass(frozen=True)
class UsageRow:
    """One usage key: its value, whether it is a cost, its series (label, value)."""

    key: str
    value: Decimal | None
    cost: bool
    series: tuple[tuple[str, Decimal], ...] = ()
    summed: bool = False
    """``value`` is the sum of the series (the platform sent no total for the key)."""


@dataclass(frozen=True)
class UsageReport:
    """What `read_usage` could read of one reply."""

    rows: tuple[UsageRow, ...] = ()
    currency: str | None = None
    notes: tuple[tuple[str, str], ...] = ()
    """Text values sent beside the numbers (``period.start``...), path and text."""
    unread: tuple[str, ...] = ()
    """Paths of what could not be read as numbers, a series or a note."""
    left_out: LeftOut = field(default_factory=LeftOut)
    """What the reply held past the bounds it was read within (`OpenReply.left_out`),
    and the rows `first` dropped (as keys)."""
    total: Decimal | None = None
    """The cost total of the rows before `first` cut them (None: made from the rows)."""

    @property
    def usage(self) -> tuple[UsageRow, ...]:
        return tuple(r for r in self.rows if not r.cost)

    @property
    def costs(self) -> tuple[UsageRow, ...]:
        return tuple(r for r in self.rows if r.cost)

    @property
    def cost_total(self) -> Decimal | None:
        """A ``cost:total`` the platform sent, else the sum of the cost rows (None: none)."""
        if self.total is not None:
            return self.total
        for row in self.costs:
            if row.key.lower() in ("cost:total", "total") and row.value is not None:
                return row.value
        values = [r.value for r in self.costs if r.value is not None]
        return sum(values, Decimal(0)) if values else None

    def row(self, key: str) -> UsageRow | None:
        return next((r for r in self.rows if r.key == key), None)

    def first(self, count: int) -> UsageReport:
        """The report with its first ``count`` rows, notes and parts not read (what a
        fleet keeps of each account); the rows dropped are counted in `left_out`.

        The cost total is the one of the whole report, made before the cut.
        """
        if len(self.rows) <= count and len(self.notes) <= count and len(self.unread) <= count:
            return self
        total = self.cost_total
        dropped = max(0, len(self.rows) - count)
        return replace(
            self,
            rows=self.rows[:count],
            notes=self.notes[:count],
            unread=self.unread[:count],
            left_out=replace(self.left_out, keys=self.left_out.keys + dropped),
            total=total,
        )


@dataclass
class _Walk:
    """What a walk through a usage reply has collected so far."""

    scalars: dict[tuple[str, ...], Decimal] = field(default_factory=dict)
    series: dict[tuple[str, ...], dict[str, Decimal]] = field(default_factory=dict)
    notes: list[tuple[str, str]] = field(default_factory=list)
    unread: list[str] = field(default_factory=list)
    currency: str | None = None

    def point(self, path: tuple[str, ...], label: str, value: Decimal) -> None:
        points = self.series.setdefault(path, {})
        points[label] = points.get(label, Decimal(0)) + value

    def walk(self, node: Any, path: tuple[str, ...]) -> None:
        number = as_number(node)
        if number is not None:
            self.scalars[path] = number
        elif isinstance(node, Mapping):
            self.mapping(node, path)
        elif isinstance(node, list):
            self.listing(node, path)
        elif isinstance(node, str):
            if path and path[-1].lower() == "currency" and 0 < len(node.strip()) <= 8:
                self.currency = node.strip()
            else:
                self.notes.append((".".join(path), node))
        elif node is not None and not isinstance(node, bool):
            self.unread.append(".".join(path) or "(reply)")

    def mapping(self, node: Mapping[Any, Any], path: tuple[str, ...]) -> None:
        keys = [str(k) for k in node]
        if keys and all(_is_date(k) for k in keys):
            for label, value in node.items():
                self.dated(value, path, str(label))
            return
        for key, value in node.items():
            if not path and key in ENVELOPE:
                continue
            self.walk(value, (*path, str(key)))

    def dated(self, value: Any, path: tuple[str, ...], label: str) -> None:
        number = as_number(value)
        if number is not None:
            self.point(path, label, number)
        elif isinstance(value, Mapping):
            for key, inner in value.items():
                self.dated(inner, (*path, str(key)), label)
        elif value is not None:
            self.unread.append(".".join(path) or "(reply)")

    def listing(self, node: list[Any], path: tuple[str, ...]) -> None:
        if not node:
            return
        numbers = [as_number(v) for v in node]
        if all(n is not None for n in numbers):
            for index, n in enumerate(numbers, 1):
                assert n is not None
                self.point(path, str(index), n)
            return
        if not all(isinstance(v, Mapping) for v in node):
            self.unread.append(".".join(path) or "(reply)")
            return
        for index, item in enumerate(node, 1):
            self.record(item, path, index)

    def record(self, item: Mapping[str, Any], path: tuple[str, ...], index: int) -> None:
        date_field = next((f for f in DATE_FIELDS if _is_date(item.get(f))), None)
        if date_field is None:
            date_field = next((k for k, v in item.items() if _is_date(v)), None)
        label = str(item[date_field]).strip() if date_field else str(index)
        name_field = next((f for f in NAME_FIELDS if isinstance(item.get(f), str)), None)
        value_field = next((f for f in VALUE_FIELDS if as_number(item.get(f)) is not None), None)
        used = {date_field, name_field, value_field}
        if name_field and value_field:
            value = as_number(item[value_field])
            assert value is not None
            self.point((*path, str(item[name_field])), label, value)
        else:
            used = {date_field}
        for key, value in item.items():
            if key in used:
                continue
            number = as_number(value)
            if number is not None:
                self.point((*path, str(key)), label, number)
            elif isinstance(value, Mapping):
                self.dated(value, (*path, str(key)), label)
            elif isinstance(value, str):
                if key.lower() == "currency":
                    self.currency = value.strip()
            elif value is not None and not isinstance(value, bool):
                self.unread.append(".".join((*path, str(key))))


def _trimmed(path: tuple[str, ...]) -> tuple[str, ...]:
    out = list(path)
    while len(out) > 1 and out[0].lower() in WRAPPERS:
        out.pop(0)
    return tuple(out)


def _is_cost(path: tuple[str, ...]) -> bool:
    return path[-1].lower().startswith("cost:") or any(
        p.lower() in ("cost", "costs") for p in path[:-1]
    )


def _key(path: tuple[str, ...]) -> str:
    """The row's name: its trimmed path; a cost below a ``costs`` object reads ``cost:x``."""
    trimmed = list(_trimmed(path))
    if _is_cost(path) and not trimmed[-1].lower().startswith("cost:"):
        rest = [p for p in trimmed if p.lower() not in ("cost", "costs")]
        return "cost:" + ".".join(rest or trimmed)
    return ".".join(trimmed)


def read_usage(payload: Mapping[str, Any], *, left_out: LeftOut | None = None) -> UsageReport:
    """Every number of a usage reply as rows (see the module's docstring); ``left_out``:
    the entries the reply held beyond what was read (kept in the report)."""
    walk = _Walk()
    walk.mapping(payload, ())
    values: dict[str, Decimal] = {}
    series: dict[str, dict[str, Decimal]] = {}
    costs: dict[str, bool] = {}
    order: list[str] = []
    for path, value in walk.scalars.items():
        key = _key(path)
        if key not in values:
            values[key] = value
        else:
            values[key] += value
        costs[key] = _is_cost(path)
        order.append(key)
    for path, points in walk.series.items():
        key = _key(path)
        merged = series.setdefault(key, {})
        for label, value in points.items():
            merged[label] = merged.get(label, Decimal(0)) + value
        costs.setdefault(key, _is_cost(path))
        order.append(key)
    rows = []
    for key in dict.fromkeys(order):
        line = tuple(sorted(series.get(key, {}).items()))
        if key in values:
            rows.append(UsageRow(key, values[key], costs[key], line))
        else:
            total = sum((v for _, v in line), Decimal(0))
            rows.append(UsageRow(key, total, costs[key], line, summed=True))
    return UsageReport(
        rows=tuple(rows),
        currency=walk.currency,
        notes=tuple(walk.notes),
        unread=tuple(dict.fromkeys(walk.unread)),
        left_out=left_out or LeftOut(),
    )


def read_reply(reply: OpenReply) -> UsageReport:
    """`read_usage` of a usage reply, with the entries it left out."""
    return read_usage(reply.body(), left_out=reply.left_out)


# --------------------------------------------------------------------------- formatting


def unit_of(key: str) -> str:
    """The unit a key's name states (``minutes`` -> ``min``), or ""."""
    name = key.lower().removeprefix("cost:")
    return next((unit for word, unit in UNITS if word in name), "")


def fmt_number(value: Decimal | None, *, places: int | None = None) -> str:
    """For reading: thousands separators, at most ``places`` decimals (default: those
    sent, at most 4). None: an em dash."""
    if value is None:
        return "—"
    if places is None:
        exponent = value.as_tuple().exponent
        places = min(4, -exponent) if isinstance(exponent, int) and exponent < 0 else 0
    quantum = Decimal(1).scaleb(-places)
    return f"{value.quantize(quantum):,}"


def fmt_value(row: UsageRow, currency: str | None) -> str:
    """A row's value for reading: costs with two decimals and the currency if stated."""
    if row.cost:
        text = fmt_number(row.value, places=2)
        return f"{currency} {text}" if currency and row.value is not None else text
    unit = unit_of(row.key)
    text = fmt_number(row.value)
    return f"{text} {unit}" if unit and row.value is not None else text


def exact(value: Decimal | None) -> str:
    """A value as the export writes it: every digit, no separators."""
    return "" if value is None else format(value, "f")


def usage_csv(report: UsageReport, *, label: str = "") -> str:
    """One row per key: ``key, kind, value, unit, currency, summed_from_series``; then one
    row per series point (``key, point, label, value``); every value exact."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(["key", "kind", "value", "unit", "currency", "point", "period"])
    for row in report.rows:
        kind = "cost" if row.cost else "usage"
        currency = (report.currency or "") if row.cost else ""
        period = label + (" (sum of series)" if row.summed else "")
        unit = "" if row.cost else unit_of(row.key)
        writer.writerow([row.key, kind, exact(row.value), unit, currency, "",
                         period.strip()])  # fmt: skip
        for point, value in row.series:
            writer.writerow([row.key, kind, exact(value), unit, currency, point,
                             ""])  # fmt: skip
    return out.getvalue()


# --------------------------------------------------------------------------- plan, today
