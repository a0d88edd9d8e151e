"""What the fleet matrix holds, without Textual: its rows, columns, widths and view.

`MatrixRows` keeps one row per agent account (its key, its name as shown, the cells
written to it), the columns and their widths (which only grow), the order shown (a
sort, a top N), the ``/`` filter on top of it, and the totals line. It says what
changed (`Put`: a row's cells changed, a column grew) and leaves drawing to
`vagent_tui.ui.widgets.fleet_matrix.FleetMatrix`, which keeps a rendered line per row
and repaints only what a change touches.

Every cell is made inert (`vagent_tui.ui.text.safe_value`) before it is kept.
"""

from __future__ import annotations

from array import array
from bisect import bisect_left
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from itertools import accumulate, pairwise
from typing import Any

from rich.cells import cell_len
from rich.text import Text

from vagent_tui.services.accounts import NamedAccount
from vagent_tui.services.fleet import Question, cell_text
from vagent_tui.ui.colours import ACCENT, OK, WARN
from vagent_tui.ui.format import YES
from vagent_tui.ui.text import inert, safe, safe_value

MAX_TEXT = 48
"""Longer texts (unavailable names, error messages) are cut in the table, not the CSV
nor the detail pane."""

PENDING = Text("…", style="dim")
NOT_ASKED = Text("–", style="dim")
BLANK = Text("")
ANSWERED = Text(YES, style=OK)
MARK = Text("●", style=ACCENT)
PAD = 1
"""Blank cells on each side of a column's text."""
MADE_KEPT = 256
"""Answers whose cells `MatrixRows` keeps to reuse (the distinct answers of a run)."""
FIXED = ("mark", "id", "name", "result")
"""The columns before a question's own."""
NO_ID = -(2**63)
"""`MatrixRows.ids` of an account without an id (its key is ``None``)."""


def cut_text(text: str) -> str:
    """Inert and at most `MAX_TEXT` characters (only the start of a huge text is read)."""
    text = inert(text, limit=MAX_TEXT)
    return text if len(text) <= MAX_TEXT else text[: MAX_TEXT - 1] + "…"


def value_text(key: str, value: Any, values: dict[str, Any]) -> Text:
    """One answer value as a styled cell."""
    if value is None:
        return Text("—", style="dim")
    if key == "allowed":
        return Text(str(value), style=OK if value == values.get("total") else WARN)
    if key == "unread":
        return Text(f"{value:,}", style="bold" if value else "dim")
    return Text(cut_text(cell_text(value)))


@dataclass(frozen=True)
class Put:
    """What writing cells to a row changed: ``index`` is the row's (None: no such row)."""

    index: int | None = None
    changed: bool = False
    grew: bool = False
    """A column is wider now: every row is drawn again."""


@dataclass
class MatrixRows:
    """Accounts × answers of one question: rows, columns, widths, the order and filter."""

    question: Question | None = None
    columns: list[tuple[str, str]] = field(default_factory=list)
    """``(header, key)`` of every column shown, in order."""
    widths: dict[str, int] = field(default_factory=dict)
    ids: array[int] = field(default_factory=lambda: array("q"))
    """The rows' accounts (`NO_ID`: an account without one), in set-up order."""
    names: str = ""
    """Every row's account name, as shown (inert, cut), one after the other (`name`):
    five thousand rows are a few blocks of memory, not an object or two each; the id
    and name cells are made when a row is drawn."""
    name_starts: array[int] = field(default_factory=lambda: array("q", [0]))
    """Where each row's name starts in `names` (and, last, where the last one ends)."""
    by_id: dict[int, int] | None = None
    """An account's row, when the ids are not ascending (else found by bisection)."""
    cells: list[dict[str, Text] | None] = field(default_factory=list)
    """Each row's cells written since `setup` (marks, answers); None: all blank."""
    blank: dict[str, Text] = field(default_factory=dict)
    view: list[int] | None = None
    """The rows shown, in order, while a filter or an order applies (None: every row)."""
    view_at: dict[int, int] | None = None
    """A shown row's index -> its position in `view`; made when first needed (an answer
    written while a sort or filter shows), not on every sort."""
    words: tuple[str, ...] = ()
    order: list[int] | None = None
    """The rows in the order shown (a sort, a top N), before the filter; None: all, as
    set up."""
    totals: dict[str, Text] | None = None
    """A line pinned under the header (the usage table's totals); None: none."""
    made: dict[int, tuple[dict[str, Any], tuple[tuple[str, Text], ...]]] = field(
        default_factory=dict
    )
    """Cells of answers by their values' identity (`answer_cells`), for one setup."""

    # ------------------------------------------------------------------ reading

    def accounts(self) -> list[int | None]:
        """The account of each row, in set-up order: at most the cap of rows, one per
        account (an order over the accounts listed would index past them)."""
        return [None if account == NO_ID else account for account in self.ids]

    @property
    def keys(self) -> list[str]:
        """The rows' keys (account ids as text), in set-up order."""
        return [self.key(index) for index in range(len(self.ids))]

    @property
    def total(self) -> int:
        """Every row, shown or not."""
        return len(self.ids)

    def key(self, index: int) -> str:
        """A row's key: its account id as text."""
        account_id = self.ids[index]
        return "None" if account_id == NO_ID else str(account_id)

    def name(self, index: int) -> str:
        """A row's account name, as shown."""
        return self.names[self.name_starts[index] : self.name_starts[index + 1]]

    def index_of(self, key: str) -> int | None:
        """The row of a key (an account id as text), or None."""
        if key == "None":
            account_id = NO_ID
        else:
            try:
                account_id = int(key)
            except ValueError:
                return None
        if self.by_id is not None:
            return self.by_id.get(account_id)
        index = bisect_left(self.ids, account_id)
        return index if index < len(self.ids) and self.ids[index] == account_id else None

    @property
    def count(self) -> int:
        """The rows shown (all of them unless a filter hides some)."""
        return len(self.ids) if self.view is None else len(self.view)

    @property
    def head(self) -> int:
        """Lines above the rows: the header, and the totals when there are any."""
        return 1 if self.totals is None else 2

    @property
    def total_width(self) -> int:
        return sum(w + 2 * PAD for w in self.widths.values())

    @property
    def shown(self) -> list[int]:
        """The indexes of the rows shown, in order (filter, order)."""
        return list(range(len(self.ids))) if self.view is None else list(self.view)

    def at(self, position: int) -> int:
        """Position among the rows shown -> the row's index."""
        return position if self.view is None else self.view[position]

    def position(self, index: int) -> int | None:
        """A row's index -> its position among the rows shown (None: filtered out)."""
        if self.view is None:
            return index
        if self.view_at is None:
            self.view_at = {index: position for position, index in enumerate(self.view)}
        return self.view_at.get(index)

    def position_of(self, account: int | None) -> int:
        """The position of ``account``'s row among the rows shown; 0 when not shown.

        One look-up: a sort or a filter does not make the index of every row for it."""
        index = self.index_of(str(account)) if account is not None else None
        if index is None:
            return 0
        if self.view is None:
            return index
        if self.view_at is not None:
            return self.view_at.get(index, 0)
        try:
            return self.view.index(index)
        except ValueError:
            return 0

    def account_at(self, position: int) -> int | None:
        """The account of the row at ``position`` (the last row's past the end)."""
        if not self.count:
            return None
        account_id = self.ids[self.at(min(position, self.count - 1))]
        return None if account_id == NO_ID else account_id

    def row(self, index: int) -> dict[str, Text]:
        """Every cell of a row: blank, its id and name, then what was written to it."""
        cells = dict(self.blank, id=Text(self.key(index)), name=Text(self.name(index)))
        cells.update(self.cells[index] or {})
        return cells

    def cell(self, index: int, column: str) -> Text | None:
        """One cell of a row as `row` has it (None: not a column), without the others."""
        written = self.cells[index]
        if written is not None and column in written:
            return written[column]
        if column == "id":
            return Text(self.key(index))
        if column == "name":
            return Text(self.name(index))
        return self.blank.get(column)

    def row_text(self, index: int) -> str:
        return " ".join(text.plain for text in self.row(index).values()).lower()

    # ------------------------------------------------------------------ the view

    def apply_filter(self) -> None:
        """The rows shown: the order's (or all), those holding every filter word."""
        rows: Iterable[int] = range(len(self.ids)) if self.order is None else self.order
        if not self.words:
            self.view = None if self.order is None else list(self.order)
        else:
            self.view = [
                index for index in rows if all(word in self.row_text(index) for word in self.words)
            ]
        self.view_at = None

    def set_filter(self, text: str) -> bool:
        """Filter by the words of ``text`` (any case); False when they are the same."""
        words = tuple(text.lower().split())
        if words == self.words:
            return False
        self.words = words
        self.apply_filter()
        return True

    def set_order(self, order: Sequence[int] | None) -> None:
        self.order = None if order is None else list(order)
        self.apply_filter()

    # ------------------------------------------------------------------ filling

    def setup(self, question: Question, accounts: Sequence[NamedAccount], *, cap: int) -> int:
        """Columns of ``question`` and one blank row per account (in the given order, at
        most ``cap``, one per account); the filter stays on. Returns the rows made."""
        self.question = question
        self.columns = [(" ", "mark"), ("ID", "id"), ("Account", "name"), ("Result", "result")]
        self.columns += [(header, key) for key, header in question.columns]
        self.widths = {key: cell_len(header) for header, key in self.columns}
        self.order, self.totals = None, None
        self.made.clear()
        self.blank = {key: BLANK for _, key in self.columns}
        ids: array[int] = array("q")
        seen: set[int] = set()
        names: list[str] = []
        for account in accounts[:cap]:
            account_id = NO_ID if account.id is None else account.id
            if account_id in seen:
                continue  # one row per account: answers are keyed by account id
            seen.add(account_id)
            ids.append(account_id)
            name = safe(account.display_name)
            name.truncate(MAX_TEXT, overflow="ellipsis")
            names.append(name.plain)
            for key, plain in (("id", str(account.id)), ("name", name.plain)):
                self.widths[key] = max(self.widths[key], cell_len(plain))
        self.ids, self.names = ids, "".join(names)
        self.name_starts = array("q", accumulate((len(n) for n in names), initial=0))
        ascending = all(a < b for a, b in pairwise(ids))
        self.by_id = None if ascending else {a: i for i, a in enumerate(ids)}
        self.cells = [None] * len(ids)
        self.apply_filter()
        return len(ids)

    def set_columns(self, columns: Sequence[tuple[str, str]]) -> None:
        """New ``(header, key)`` columns after the fixed ones, keeping what was written."""
        fixed = [c for c in self.columns if c[1] in FIXED]
        # the usage keys name these columns: outside text, made inert like every cell
        self.columns = [*fixed, *((inert(header, limit=MAX_TEXT), key) for header, key in columns)]
        for header, key in self.columns:
            self.widths[key] = max(self.widths.get(key, 0), cell_len(header))
            self.blank.setdefault(key, BLANK)

    def set_totals(self, cells: dict[str, Text] | None) -> bool:
        """The line pinned under the header (None: none); True when the layout changed
        (the line came or went, or a column grew)."""
        grew = (cells is None) != (self.totals is None)
        if cells is not None:
            cells = {key: safe_value(text) for key, text in cells.items()}
            for key, text in cells.items():
                if key in self.widths and cell_len(text.plain) > self.widths[key]:
                    self.widths[key] = cell_len(text.plain)
                    grew = True
        self.totals = cells
        return grew

    def put(self, row: str, cells: Iterable[tuple[str, Text]], *, made_inert: bool = False) -> Put:
        """Write cells of one row (``made_inert``: through `safe_value` already); only
        the cells written are looked at (an answer costs its own cells)."""
        index = self.index_of(row)
        if index is None:
            return Put()  # an account past the display cap: no row
        written = self.cells[index]
        changed = grew = False
        for column, text in cells:
            old = self.cell(index, column)
            if old is None:
                continue  # not a column of this question
            if old is text:
                continue
            plain = text.plain
            if old.plain == plain and old.style == text.style:
                continue
            if not made_inert:
                text = safe_value(text)
                plain = text.plain
            if written is None:
                written = self.cells[index] = {}
            written[column] = text
            changed = True
            width = cell_len(plain)
            if width > self.widths[column]:
                self.widths[column] = width  # columns only grow: rare
                grew = True
        return Put(index, changed, grew)

    def mark_waiting(self, account_ids: Iterable[int]) -> None:
        """``…`` in the rows of ``account_ids``, their answer cells blank."""
        assert self.question is not None
        cells = {"result": PENDING, **dict.fromkeys(self.question.keys, BLANK)}
        for account_id in account_ids:
            index = self.index_of(str(account_id))
            if index is None:
                continue  # an account past the display cap: no row
            written = self.cells[index]
            self.cells[index] = dict(cells) if written is None else {**written, **cells}

    def answer_cells(self, values: dict[str, Any]) -> tuple[tuple[str, Text], ...]:
        """An answer's cells, made inert; made once for answers that share their values.

        Most accounts of a fleet answer alike and the service hands them one shared
        value (`services.fleet._functions`): its cells are made for the first and
        reused, so a row costs its look-ups, not three texts made and checked again."""
        assert self.question is not None
        made = self.made.get(id(values))
        if made is not None and made[0] is values:  # the same object, not a reused id
            return made[1]
        cells = (
            ("result", ANSWERED),
            *((k, safe_value(value_text(k, values.get(k), values))) for k in self.question.keys),
        )
        if len(self.made) < MADE_KEPT:  # answers all different: no more are kept
            self.made[id(values)] = (values, cells)
        return cells
