"""Usage across the fleet: one line per agent account, a column per usage key found.

The accounts are asked through Fleet's fan-out (`vagent_tui.services.fleet.ask_fleet`,
its adaptive limit, one account's failure its own answer) with `usage_question`, which
asks ``GET /stats/usage`` of the query chosen and ``GET /product/currentPlan`` of each
account (`vagent_tui.services.account_usage.fleet_usage_line`). `FleetUsage` keeps the answers as
lines of exact numbers (`Decimal`): the columns are the keys the platform sent (in the
order first met; ``cost:`` keys are costs) and the cost total. Sort keys are kept per
column as the answers arrive, so a sort of ten thousand lines is one ``list.sort`` on
keys already made; totals, the top N and the CSV (every digit, no separators) work on
line indexes in the order the screen shows them.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from functools import partial
from pathlib import Path
from typing import Any

from vagent_tui.api.client import PlatformClient
from vagent_tui.api.usage_models import UsageQuery
from vagent_tui.config import atomic_write
from vagent_tui.inert import csv_cell
from vagent_tui.services.accounts import NamedAccount
from vagent_tui.services.fleet import FleetAnswer, Question, Values
from vagent_tui.services.usage import UsageReport, exact, fmt_number, unit_of

ID, NAME, PLAN, TOTAL = "id", "name", "plan", "cost_total"
"""The columns every table has; the usage keys sit between ``plan`` and ``cost_total``."""
TOP_N = 10
"""The rows the top-N view keeps."""
KEY_COLUMNS = 200
"""Usage keys made columns, the first met; an account's other keys are counted
(`UsageLine.not_shown`), not kept."""
SortKey = Decimal | int | str


def column_of(key: str) -> str:
    """The column of a usage key: the key, or ``key (usage key)`` for a key named as a
    column every table has (a reply's ``plan`` is not the plan's column)."""
    return f"{key} (usage key)" if key in (ID, NAME, PLAN, TOTAL) else key


@dataclass(slots=True)
class UsageLine:
    """One account: its plan, each key's exact value, the cost total; or its error."""

    account_id: int
    name: str
    plan: str = ""
    values: dict[str, Decimal] = field(default_factory=dict)
    total: Decimal | None = None
    currency: str | None = None
    unread: int = 0
    not_shown: int = 0
    """Keys of the account's reply in no column (past `KEY_COLUMNS`, or not read)."""
    error: str | None = None
    cause: BaseException | None = None
    answered: bool = False


def usage_question(query: UsageQuery) -> Question:
    """Fleet's "usage" question with ``query`` (the period, range, costs) for every
    account; no series (a fleet table shows totals)."""
    asked = query.model_copy(update={"timeseries": False})
    return Question(
        "usage",
        "Usage",
        (("plan", "Plan"), ("costs", "Costs")),
        partial(_ask_with, asked),
    )


async def _ask_with(query: UsageQuery, client: PlatformClient, account_id: int) -> Values:
    from vagent_tui.services.account_usage import fleet_usage_line

    return await fleet_usage_line(client, account_id, query)


def accounts_below(
    accounts: Sequence[NamedAccount], parents: Mapping[int, int], root: int | None
) -> list[NamedAccount]:
    """The accounts whose chain of parents passes ``root`` (all of them when None)."""
    if root is None:
        return list(accounts)
    inside: dict[int, bool] = {root: True}

    def below(account_id: int) -> bool:
        chain: list[int] = []
        current: int | None = account_id
        found = False
        while current is not None:
            if current in inside:
                found = inside[current]
                break
            chain.append(current)
            current = parents.get(current)
        for seen in chain:
            inside[seen] = found
        return found

    return [a for a in accounts if a.id is not None and a.id != root and below(a.id)]


class FleetUsage:
    """The answers of one run, exact, with a sort key per line and column."""

    def __init__(self, accounts: Sequence[NamedAccount]) -> None:
        self.lines: list[UsageLine] = []
        self.index: dict[int, int] = {}
        for account in accounts:
            if account.id is None or account.id in self.index:
                continue
            self.index[account.id] = len(self.lines)
            self.lines.append(UsageLine(account.id, account.display_name))
        self.keys: list[str] = []
        """The usage keys met, in the order first met (costs among them)."""
        self.currencies: set[str] = set()
        self._all_totals: dict[str, Decimal] | None = None
        size = len(self.lines)
        self._sort: dict[str, list[SortKey | None]] = {
            ID: [line.account_id for line in self.lines],
            NAME: [line.name.casefold() for line in self.lines],
            PLAN: [None] * size,
            TOTAL: [None] * size,
        }
        self._fast: dict[str, list[float | None]] = {TOTAL: [None] * size}
        """The numbers of each numeric column as floats, made as the answers arrive: a
        sort compares floats, several times faster than Decimals, in the same order (see
        `_as_float`)."""
        self._exact_only: set[str] = set()
        """Columns holding a number no float keeps apart from its neighbours: sorted
        by the Decimals themselves."""
        self._orders: dict[tuple[str, bool], list[int]] = {}
        """Orders made since the last answer (``O`` twice costs one sort)."""

    def __len__(self) -> int:
        return len(self.lines)

    # ------------------------------------------------------------------ answers

    def take(self, answer: FleetAnswer) -> bool:
        """Keep one answer. Returns True when it brought a key not met before."""
        at = self.index.get(answer.account_id)
        if at is None:
            return False
        line = self.lines[at]
        line.answered = True
        self._all_totals = None
        self._orders.clear()
        if answer.error is not None:
            line.error, line.cause = answer.error, answer.cause
            line.values, line.total, line.plan, line.not_shown = {}, None, "", 0
            self._clear(at)
            return False
        line.error, line.cause = None, None
        report = answer.values.get("report")
        plan = answer.values.get("plan")
        line.plan = plan if isinstance(plan, str) else ""
        self._sort[PLAN][at] = line.plan.casefold() or None
        line.unread = int(answer.values.get("unread") or 0)
        if not isinstance(report, UsageReport):
            return False
        new = False
        line.values = {}
        line.not_shown = report.left_out.entries
        for row in report.rows:
            if row.value is None:
                continue
            key = column_of(row.key)
            if key not in self._sort:
                if len(self.keys) >= KEY_COLUMNS:
                    line.not_shown += 1
                    continue
                self._sort[key] = [None] * len(self.lines)
                self._fast[key] = [None] * len(self.lines)
                self.keys.append(key)
                new = True
            line.values[key] = row.value
            self._put(key, at, row.value)
        line.currency = report.currency
        if report.currency and report.costs:
            self.currencies.add(report.currency)
        line.total = report.cost_total
        self._put(TOTAL, at, line.total)
        for key in self.keys:
            if key not in line.values:
                self._put(key, at, None)
        return new

    def _put(self, column: str, at: int, value: Decimal | None) -> None:
        """A numeric column's sort keys of line ``at``: the number, and as a float."""
        self._sort[column][at] = value
        fast = None if value is None else _as_float(value)
        if fast is None and value is not None:
            self._exact_only.add(column)
        self._fast[column][at] = fast

    def _clear(self, at: int) -> None:
        """Line ``at`` has no value any more (its id and name stay)."""
        self._sort[PLAN][at] = None
        for column in (*self.keys, TOTAL):
            self._put(column, at, None)

    def forget(self, account_ids: Iterable[int]) -> None:
        """Those accounts are asked again: their lines back to not answered."""
        for account_id in account_ids:
            at = self.index.get(account_id)
            if at is None:
                continue
            line = self.lines[at]
            self.lines[at] = UsageLine(line.account_id, line.name)
            self._all_totals = None
            self._orders.clear()
            self._clear(at)

    @property
    def failed(self) -> list[int]:
        return [line.account_id for line in self.lines if line.error is not None]

    @property
    def answered(self) -> int:
        return sum(line.answered for line in self.lines)

    @property
    def with_keys_not_shown(self) -> int:
        """The accounts whose reply held keys in no column."""
        return sum(line.not_shown > 0 for line in self.lines)

    # ------------------------------------------------------------------ columns

    def is_cost(self, column: str) -> bool:
        return column == TOTAL or column.lower().startswith("cost:")

    @property
    def columns(self) -> list[str]:
        """Every column in display order: id, name, plan, each key, the cost total."""
        return [ID, NAME, PLAN, *self.keys, TOTAL]

    @property
    def currency(self) -> str | None:
        """The one currency every answer with costs stated, else None."""
        return next(iter(self.currencies)) if len(self.currencies) == 1 else None

    def header(self, column: str) -> str:
        """A column's title: the key, with its unit or the currency where stated."""
        if column in (ID, NAME, PLAN):
            return {ID: "ID", NAME: "Account", PLAN: "Plan"}[column]
        title = "Total cost" if column == TOTAL else column
        if self.is_cost(column):
            return f"{title} ({self.currency})" if self.currency else title
        unit = unit_of(column)
        return f"{title} ({unit})" if unit else title

    def text(self, at: int, column: str) -> str:
        """A cell for reading: thousands separators, costs with two decimals (and their
        currency when it is not the column's)."""
        line = self.lines[at]
        if column == ID:
            return str(line.account_id)
        if column == NAME:
            return line.name
        if column == PLAN:
            return line.plan
        value = line.total if column == TOTAL else line.values.get(column)
        if value is None:
            return ""
        if not self.is_cost(column):
            return fmt_number(value)
        text = fmt_number(value, places=2)
        if line.currency and line.currency != self.currency:
            return f"{line.currency} {text}"
        return text

    # ------------------------------------------------------------------ order, totals

    def order(self, column: str, *, reverse: bool = False) -> list[int]:
        """Line indexes sorted by ``column`` (ties in the accounts' order); lines without
        a value (failed, not asked, the key not sent) last either way."""
        keys: list[Any] | None = self._sort.get(column)  # one type per column
        if keys is None:
            return list(range(len(self.lines)))
        made = self._orders.get((column, reverse))
        if made is None:
            if column in self._fast and column not in self._exact_only:
                fast: list[Any] = self._fast[column]  # the same order, compared faster
                keys = fast
            present = [at for at, key in enumerate(keys) if key is not None]
            present.sort(key=keys.__getitem__, reverse=reverse)  # stable both ways
            present.extend(at for at, key in enumerate(keys) if key is None)
            made = self._orders[(column, reverse)] = present
        return list(made)

    def totals(self, rows: Sequence[int]) -> dict[str, Decimal]:
        """Each numeric column's sum over ``rows`` (a column no row has is left out).

        The sums of every line are kept until the next answer: a sort changes the order
        of the rows, not their sums."""
        everyone = len(rows) == len(self.lines)
        if everyone and self._all_totals is not None:
            return self._all_totals
        out: dict[str, Decimal] = {}
        for column in (*self.keys, TOTAL):
            numbers: list[Any] = self._sort[column]  # Decimals (or None) in these columns
            values = [v for v in map(numbers.__getitem__, rows) if v is not None]
            if values:
                out[column] = sum(values, Decimal(0))
        if everyone:
            self._all_totals = out
        return out

    def total_text(self, column: str, value: Decimal) -> str:
        return fmt_number(value, places=2) if self.is_cost(column) else fmt_number(value)

    # ------------------------------------------------------------------ export

    def to_csv(self, rows: Iterable[int]) -> str:
        """``rows`` as CSV: account, name, plan, each key and the cost total exact (no
        separators, every digit sent), the currency, status and error. Nothing of the
        key is written."""
        out = io.StringIO()
        writer = csv.writer(out, lineterminator="\n")
        # Platform text (names, plans, keys, messages) quoted where a spreadsheet would
        # run it; the numbers exact as sent.
        writer.writerow(["account_id", "account_name", "plan", *map(csv_cell, self.keys),
                         "cost_total", "currency", "status", "error"])  # fmt: skip
        for at in rows:
            line = self.lines[at]
            status = "error" if line.error else ("ok" if line.answered else "not asked")
            writer.writerow([
                line.account_id, csv_cell(line.name), csv_cell(line.plan or ""),
                *(exact(line.values.get(key)) for key in self.keys),
                exact(line.total), csv_cell(line.currency or ""), status,
                csv_cell(line.error or ""),
            ])  # fmt: skip
        return out.getvalue()


def _as_float(value: Decimal) -> float | None:
    """``value`` as a float that sorts as it does among other such floats, or None.

    A finite Decimal of at most 15 significant digits (and an exponent far from a
    float's limits) is the only Decimal of that many digits its nearest float rounds
    back to (IEEE 754 doubles keep 15 decimal digits), so two such values compare as
    their floats do: in the same order, equal only when equal. Others are None: the
    column is sorted by its Decimals."""
    if not value.is_finite() or len(value.as_tuple().digits) > 15:
        return None
    if not -300 < value.adjusted() < 300:
        return None
    return float(value)


def write_private(path: Path, text: str) -> None:
    """Write an export readable by its owner only (0600), replacing a file in one step."""
    atomic_write(path, text, mode=0o600)
