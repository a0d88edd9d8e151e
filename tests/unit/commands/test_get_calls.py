"""``vagent-tui get calls``: the Calls screen's query and export, streamed to stdout."""

from __future__ import annotations

import csv
import io
import json
from collections.abc import AsyncGenerator
from datetime import UTC, datetime
from typing import Any

import pytest

from tests.unit.commands.conftest import RunCli
from vagent_tui.api.transport import ApiTransport
from vagent_tui.commands.shapes_exports import CallItem
from vagent_tui.services import calls_export
from vagent_tui.services.calls_export import CsvRecords


class Counted:
    """Counts the ``GET /logs`` pages the client asks for (the ``page_size=1`` count too)."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        from vagent_tui.api.logs import LogsApi

        self.asked = 0
        real = LogsApi.list_logs

        async def list_logs(client: Any, *args: Any, **kwargs: Any) -> Any:
            self.asked += 1
            return await real(client, *args, **kwargs)

        monkeypatch.setattr(LogsApi, "list_logs", list_logs)


class Recorder(io.StringIO):
    """stdout that notes how many requests had been made when it was first written to,
    and can act after the n-th write (``then``)."""

    def __init__(self, counted: Counted) -> None:
        super().__init__()
        self.counted = counted
        self.first_at: int | None = None
        self.writes = 0
        self.then: tuple[int, Any] | None = None

    def write(self, text: str) -> int:
        if self.first_at is None:
            self.first_at = self.counted.asked
        self.writes += 1
        if self.then is not None and self.writes == self.then[0]:
            self.then[1]()
        return super().write(text)


def test_items_are_entries_as_the_platform_sent_them_in_their_shape(cli: RunCli) -> None:
    ran = cli("get", "calls", "-o", "json", "--account", "1111", "--last", "day")
    assert ran.code == 0, ran.err
    items = ran.items("calls")
    assert items
    for item in items:
        CallItem.model_validate(item)
        assert item["account_id"] == 1111
    lines = cli("get", "calls", "-o", "jsonl", "--account", "1111", "--last", "day")
    assert lines.lines("calls") == items


@pytest.mark.parametrize(
    ("options", "check"),
    [
        (("--status", "failed"), lambda e: e["status"] == "failed"),
        (("--direction", "outbound"), lambda e: e["direction"] == "outbound"),
        (("--type", "sms"), lambda e: e["type"] == "sms"),
        (("--filter", "agentOutcome=voicemail"), lambda e: e["agentOutcome"] == "voicemail"),
        (("--account", "1110"), lambda e: e["org_id"] == 1110),
        (("--columns", "time,route,metadata.tokens"),
         lambda e: {"timestamp", "fromNumber"} <= set(e)
         <= {"timestamp", "fromNumber", "toNumber", "metadata"}),
    ],
)  # fmt: skip
def test_filters_narrow_the_query(cli: RunCli, options: tuple[str, ...], check: Any) -> None:
    every = cli("get", "calls", "-o", "jsonl", "--last", "day").lines("calls")
    ran = cli("get", "calls", "-o", "jsonl", "--last", "day", *options)
    assert ran.code == 0, ran.err
    some = ran.lines("calls")
    assert some and all(check(e) for e in some)
    if options[0] != "--columns":
        assert len(some) < len(every)


def test_a_time_range_and_every_account_below_the_key(cli: RunCli) -> None:
    ran = cli("get", "calls", "-o", "jsonl", "--account", "1111", "--all-accounts",
              "--since", "3h", "--until", "1h")  # fmt: skip
    assert ran.code == 0, ran.err
    items = ran.lines("calls")
    assert len({e["account_id"] for e in items}) > 1  # not only the account acted as
    now = datetime.now(UTC).timestamp()
    for item in items:
        at = datetime.fromisoformat(item["timestamp"].replace("Z", "+00:00")).timestamp()
        assert now - 3 * 3600 - 60 <= at <= now - 3600 + 60
    assert "every account below the key" in ran.err


def test_jsonl_is_written_as_pages_arrive(cli: RunCli, monkeypatch: pytest.MonkeyPatch) -> None:
    counted = Counted(monkeypatch)
    out = Recorder(counted)
    monkeypatch.setattr("sys.stdout", out)
    ran = cli("get", "calls", "-o", "jsonl", "--account", "1111", "--page-size", "20")
    assert ran.code == 0, ran.err
    lines = [json.loads(line)["item"] for line in out.getvalue().splitlines()]
    assert len(lines) > 100
    # A count, then the pages: the first page was on stdout before the second was asked.
    assert counted.asked >= 1 + len(lines) // 20
    assert out.first_at == 2


def test_a_failure_mid_way_exits_1_with_the_items_so_far(
    cli: RunCli, sim_app: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(ApiTransport, "backoff_delay", lambda *_: 0.0)
    counted = Counted(monkeypatch)
    out = Recorder(counted)
    out.then = (2, lambda: sim_app.state.sim.faults.set("500", path_contains="/logs"))
    monkeypatch.setattr("sys.stdout", out)
    ran = cli("get", "calls", "-o", "jsonl", "--account", "1111", "--page-size", "20")
    assert ran.code == 1
    lines = [json.loads(line) for line in out.getvalue().splitlines()]
    assert len(lines) == 40  # two pages written before the platform failed
    for line in lines:
        CallItem.model_validate(line["item"])
    assert "error: Simulated internal server error" in ran.err


def _entry_with(field: str, value: str) -> Any:
    from vagent_tui.sim import call_entries

    real = call_entries.entry

    def entry(*args: Any) -> dict[str, Any]:
        return {**real(*args), field: value}

    return entry


def test_csv_is_formula_safe_and_keeps_numbers(
    cli: RunCli, monkeypatch: pytest.MonkeyPatch
) -> None:
    formula = '=HYPERLINK("http://x.example","click")\nsecond line'
    monkeypatch.setattr("vagent_tui.sim.call_entries.entry", _entry_with("summary", formula))
    ran = cli("get", "calls", "-o", "csv", "--account", "1111", "--last", "day",
              "--columns", "id,summary,fromNumber,duration")  # fmt: skip
    assert ran.code == 0, ran.err
    rows = list(csv.reader(io.StringIO(ran.out)))
    assert rows[0] == ["id", "summary", "fromNumber", "duration"]
    assert len(rows) > 5
    for _, summary, number, duration in rows[1:]:
        assert summary == "'" + formula  # the platform's CSV read row by row, made safe
        assert number.startswith("'+")  # "+1…" would run as a formula
        assert duration.isdecimal()  # a number stays a number


def test_csv_rows_are_written_as_chunks_arrive(
    cli: RunCli, monkeypatch: pytest.MonkeyPatch
) -> None:
    out = io.StringIO()
    seen: list[str] = []

    async def chunks(*_: Any) -> AsyncGenerator[bytes, None]:
        yield b'id,summary\r\n1,"one\r\nrow"\r\n2,t'
        seen.append(out.getvalue())  # what stdout held before the next chunk
        yield b"wo\r\n"

    monkeypatch.setattr(calls_export, "csv_chunks", chunks)
    monkeypatch.setattr("sys.stdout", out)
    ran = cli("get", "calls", "-o", "csv")
    assert ran.code == 0, ran.err
    assert seen == ['id,summary\n1,"one\r\nrow"\n']
    assert out.getvalue().endswith("2,two\n")


@pytest.mark.parametrize("size", [1, 3, 7, 64])
def test_csv_records_reads_rows_across_chunks(size: int) -> None:
    text = 'a,b\r\n"x ""quoted"",\r\nline",2\r\n,=1+1\r\nlast,"row"'
    data = text.encode()
    records = CsvRecords()
    rows: list[list[str]] = []
    for at in range(0, len(data), size):
        rows += records.feed(data[at : at + size])
    rows += records.end()
    assert rows == list(csv.reader(io.StringIO(text)))
    assert records.rows == 4


def test_limit_and_empty_results(cli: RunCli) -> None:
    ran = cli("get", "calls", "-o", "csv", "--limit", "3")
    assert ran.code == 0 and len(ran.out.splitlines()) == 4
    assert len(cli("get", "calls", "-o", "jsonl", "--limit", "5").lines("calls")) == 5
    none = cli("get", "calls", "-o", "json", "--status", "no-such-status")
    assert none.code == 0 and none.items("calls") == []
    assert "no call matches" in none.err
    headed = cli("get", "calls", "-o", "csv", "--status", "nope", "--columns", "id,status")
    assert headed.out == "id,status\n"


@pytest.mark.parametrize(
    "options",
    [("--since", "yesterday"), ("--filter", "token=x"), ("--last", "day", "--since", "2h"),
     ("--since", "1h", "--until", "3h")],
)  # fmt: skip
def test_a_query_that_cannot_be_sent_exits_1_before_any_request(
    cli: RunCli, options: tuple[str, ...]
) -> None:
    ran = cli("get", "calls", *options)
    assert ran.code == 1 and ran.out == ""
    assert "error:" in ran.err


def test_a_csv_number_stays_a_number_and_other_text_is_formula_safe() -> None:
    from vagent_tui.commands.output import Output

    stream = io.StringIO()
    with Output("usage", ("value",), "csv", stream) as out:
        for value in ("-12.50", -3, "12", "-1+2", "=1", "+1555", "-"):
            out.write({"value": value})
    cells = stream.getvalue().splitlines()[1:]
    assert cells == ["-12.50", "-3", "12", "'-1+2", "'=1", "'+1555", "'-"]
