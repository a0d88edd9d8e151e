"""The fleet matrix's rows without Textual (`vagent_tui.ui.widgets.matrix_rows`)."""

from __future__ import annotations

from dataclasses import dataclass

from rich.text import Text

from vagent_tui.services.fleet import Question
from vagent_tui.ui.widgets.matrix_rows import BLANK, MAX_TEXT, PENDING, MatrixRows


@dataclass(frozen=True)
class _Account:
    id: int | None
    display_name: str
    username: str | None = None


async def _never(client: object, account_id: int) -> dict[str, object]:
    raise AssertionError("not asked here")


QUESTION = Question("q", "Q", (("total", "Total"), ("allowed", "Allowed")), _never)


def _rows(*names: str, cap: int = 100) -> MatrixRows:
    rows = MatrixRows()
    rows.setup(QUESTION, [_Account(i + 1, n) for i, n in enumerate(names)], cap=cap)
    return rows


def test_setup_makes_one_row_per_account_up_to_the_cap() -> None:
    rows = MatrixRows()
    accounts = [_Account(1, "a"), _Account(1, "again"), _Account(2, "b"), _Account(3, "c")]
    assert rows.setup(QUESTION, accounts, cap=3) == 2  # the duplicate is no row
    assert rows.keys == ["1", "2"]
    assert [key for _, key in rows.columns] == ["mark", "id", "name", "result", "total", "allowed"]
    assert rows.row(0)["name"].plain == "a" and rows.row(0)["total"] is BLANK


def test_a_name_is_made_inert_and_cut() -> None:
    rows = _rows("[b]x[/b]" + "y" * 100)
    name = rows.row(0)["name"].plain
    assert name.startswith("[b]x[/b]") and len(name) == MAX_TEXT


def test_put_says_what_changed_and_columns_only_grow() -> None:
    rows = _rows("a", "b")
    unchanged = rows.put("1", [("total", Text(""))])
    assert unchanged.index == 0 and not unchanged.changed
    small = rows.put("1", [("total", Text("5"))])
    assert small.changed and not small.grew
    wide = rows.put("2", [("total", Text("12345678"))])
    assert wide.changed and wide.grew and rows.widths["total"] == 8
    assert rows.put("9", [("total", Text("1"))]).index is None  # no such row
    assert not rows.put("1", [("nope", Text("1"))]).changed  # no such column
    rows.put("2", [("total", Text("1"))])
    assert rows.widths["total"] == 8


def test_filter_and_order_keep_positions_and_the_cursor_account() -> None:
    rows = _rows("alpha", "beta", "gamma")
    rows.set_order([2, 0, 1])
    assert rows.shown == [2, 0, 1] and rows.account_at(0) == 3
    assert rows.set_filter("A") and rows.shown == [2, 0, 1]  # every name has an a
    assert not rows.set_filter("a")  # the same words: nothing to do
    assert rows.set_filter("ta") and rows.shown == [1]  # beta
    assert rows.position(1) == 0 and rows.position(0) is None
    assert rows.position_of(2) == 0 and rows.position_of(1) == 0  # not shown: 0
    rows.set_order(None)
    rows.set_filter("")
    assert rows.shown == [0, 1, 2] and rows.count == 3


def test_waiting_then_an_answer_shared_by_many_accounts_is_made_once() -> None:
    rows = _rows("a", "b")
    rows.mark_waiting([1, 2, 99])
    assert rows.row(0)["result"] is PENDING and rows.row(1)["result"] is PENDING
    values: dict[str, object] = {"total": 3, "allowed": 2}
    first = rows.answer_cells(values)
    assert rows.answer_cells(values) is first
    assert dict(first)["allowed"].plain == "2"


def test_totals_change_the_layout_only_when_they_come_go_or_grow() -> None:
    rows = _rows("a")
    assert rows.head == 1
    assert rows.set_totals({"total": Text("1")}) and rows.head == 2
    assert not rows.set_totals({"total": Text("2")})
    assert rows.set_totals({"total": Text("123456789")})
    assert rows.set_totals(None) and rows.head == 1


def test_rows_are_found_by_account_in_any_order_and_without_an_id() -> None:
    rows = MatrixRows()
    accounts = [_Account(30, "c"), _Account(None, "no id"), _Account(10, "a"), _Account(20, "b")]
    assert rows.setup(QUESTION, accounts, cap=10) == 4
    assert rows.keys == ["30", "None", "10", "20"]
    assert [rows.index_of(k) for k in ("10", "20", "30", "None", "40", "x")] == [
        2, 3, 0, 1, None, None
    ]  # fmt: skip
    assert [rows.account_at(p) for p in range(4)] == [30, None, 10, 20]
    assert rows.put("20", [("total", Text("7"))]).index == 3
    assert rows.row(3)["name"].plain == "b" and rows.row(3)["total"].plain == "7"
    assert rows.position_of(10) == 2 and rows.row(1)["id"].plain == "None"

    ascending = _rows("a", "b", "c")  # ids 1, 2, 3: found by bisection
    assert [ascending.index_of(k) for k in ("1", "3", "4")] == [0, 2, None]
    assert ascending.cell(1, "name") is not None and ascending.name(1) == "b"


def test_an_order_is_made_over_the_rows_held_not_every_account_listed() -> None:
    """The matrix holds at most its cap of rows: an order made over the accounts listed
    (more than the cap) indexed past them when the phone numbers question ended."""
    from vagent_tui.services.fleet import QUESTIONS, FleetAnswer, first_order

    rows = MatrixRows()
    accounts = [_Account(i, f"agent {i}") for i in range(1, 8)]
    assert rows.setup(QUESTION, accounts, cap=4) == 4
    assert rows.accounts() == [1, 2, 3, 4]
    answers = {i: FleetAnswer(i, {"count": 0 if i in (3, 6) else 1}) for i in range(1, 8)}
    order = first_order(QUESTIONS["numbers"], rows.accounts(), answers)
    assert order == [2, 0, 1, 3]
    rows.set_order(order)
    assert [rows.account_at(p) for p in range(4)] == [3, 1, 2, 4]
