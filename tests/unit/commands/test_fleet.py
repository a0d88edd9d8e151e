"""``vagent-tui fleet``: the Fleet screen's questions over many accounts, a line each."""

from __future__ import annotations

import io
from typing import Any

import pytest

from tests.unit.commands.conftest import RunCli
from vagent_tui.commands import contract
from vagent_tui.commands.fleet import NOT_ASKED, QUESTION_NAMES, kind_of
from vagent_tui.commands.shapes_fleet import SHAPES
from vagent_tui.services import connect
from vagent_tui.services.fleet import QUESTIONS

PARTNER_AGENTS = [1111, 1112, 1113, 1121, 1122, 1211, 1212, 1221, 1222, 1311, 1312, 1321, 1322]
"""The agent accounts below demo-partner (the seed's tree)."""
RESELLER_AGENTS = [1111, 1112, 1113, 1121, 1122]
"""Those below demo-reseller (1100)."""


def asked(sim_app: Any, path: str = "/agent/functions") -> list[int]:
    """The accounts the simulator was asked ``path`` of, in order."""
    return [
        int(r.query["targetAccountId"])
        for r in sim_app.state.sim.requests
        if r.path.endswith(path) and "targetAccountId" in r.query
    ]


def valid(kind: str, items: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """``items``, each checked against its kind's model (no field missing or more)."""
    for item in items:
        SHAPES[kind].model_validate(item)
    return items


def test_the_parser_knows_the_services_questions() -> None:
    assert tuple(QUESTIONS) == QUESTION_NAMES


def test_questions_lists_each_with_its_columns_and_kind(cli: RunCli) -> None:
    ran = cli("fleet", "questions", "-o", "json")
    assert ran.code == contract.DONE
    items = valid("fleet-questions", ran.items("fleet-questions"))
    assert [i["id"] for i in items] == list(QUESTIONS)
    by_id = {i["id"]: i for i in items}
    assert by_id["functions"]["columns"] == ["allowed", "total", "unavailable"]
    assert by_id["usage"]["columns"][-1] == "exact"
    for item in items:  # the columns a question lists are those of its items' model
        fields = set(SHAPES[item["kind"]].model_fields)
        assert fields == {"account_id", "name", "error", *item["columns"]}


@pytest.mark.parametrize("question", QUESTION_NAMES)
def test_every_question_answers_every_agent_account_below_the_key(
    cli: RunCli, question: str
) -> None:
    ran = cli("fleet", "ask", question, "-o", "json")
    assert ran.code == contract.DONE, ran.err
    items = valid(kind_of(question), ran.items(kind_of(question)))
    assert sorted(i["account_id"] for i in items) == PARTNER_AGENTS
    assert all(i["error"] is None and i["name"] for i in items)
    assert "13 of 13 accounts answered" in ran.err


def test_a_chosen_set_is_asked_and_nothing_else(cli: RunCli, sim_app: Any) -> None:
    ran = cli("fleet", "ask", "functions", "--accounts", "1112,1111", "--accounts", "1112",
              "-o", "jsonl")  # fmt: skip
    assert ran.code == contract.DONE
    items = valid("fleet-functions", ran.lines("fleet-functions"))
    assert sorted(i["account_id"] for i in items) == [1111, 1112]
    assert sorted(asked(sim_app)) == [1111, 1112]
    front_desk = next(i for i in items if i["account_id"] == 1111)
    assert front_desk["name"] == "Acme Dental Front Desk"
    assert front_desk["total"] == front_desk["allowed"] + len(front_desk["unavailable"])


class RefusesOne:
    """The simulator, but ``GET /agent/functions`` of one account answers 403 (as the
    platform does for an account it will not show this key)."""

    def __init__(self, app: Any, account_id: int) -> None:
        self.app = app
        self.state = app.state
        self.refused = f"targetAccountId={account_id}".encode()

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        query: bytes = scope.get("query_string", b"")
        functions = scope["type"] == "http" and scope["path"].endswith("/agent/functions")
        if functions and self.refused in query.split(b"&"):
            body = b'{"success": false, "message": "Target account is outside your hierarchy"}'
            headers = [(b"content-type", b"application/json")]
            await send({"type": "http.response.start", "status": 403, "headers": headers})
            await send({"type": "http.response.body", "body": body})
            return
        await self.app(scope, receive, send)


def test_a_failing_account_says_why_in_its_line_the_others_answer_exit_3(
    cli: RunCli, sim_app: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    def refusing(token: str = connect.DEMO_TOKEN, **_: Any) -> connect.SimClient:
        return connect.SimClient(RefusesOne(sim_app, 1112), token)

    monkeypatch.setattr(connect, "demo_client", refusing)
    ran = cli("fleet", "ask", "functions", "-o", "jsonl")
    assert ran.code == contract.PARTIAL
    items = valid("fleet-functions", ran.lines("fleet-functions"))
    by_id = {i["account_id"]: i for i in items}
    assert sorted(by_id) == PARTNER_AGENTS
    failed = by_id.pop(1112)
    assert failed["error"] == "HTTP 403: Target account is outside your hierarchy"
    assert failed["allowed"] is None and failed["name"] == "Acme Dental Spanish Line"
    assert all(i["error"] is None and i["total"] for i in by_id.values())
    assert "12 of 13 accounts answered" in ran.err and "1 did not" in ran.err


def test_a_reseller_key_only_reaches_its_tree(cli: RunCli, sim_app: Any) -> None:
    ran = cli("fleet", "ask", "junk", "-o", "json", token="demo-reseller")
    assert ran.code == contract.DONE
    assert sorted(i["account_id"] for i in ran.items("fleet-junk")) == RESELLER_AGENTS
    # an account of another reseller, chosen: not asked, its line says so
    sim_app.state.sim.clear_log()
    ran = cli("fleet", "ask", "functions", "--accounts", "1211,1111", "-o", "jsonl",
              token="demo-reseller")  # fmt: skip
    assert ran.code == contract.PARTIAL
    items = valid("fleet-functions", ran.lines("fleet-functions"))
    by_id = {i["account_id"]: i for i in items}
    assert by_id[1211]["error"] == NOT_ASKED and by_id[1211]["allowed"] is None
    assert by_id[1111]["error"] is None
    assert asked(sim_app) == [1111]
    # the partner's key below the reseller: the same accounts
    below = cli("fleet", "ask", "junk", "--below", "1100", "-o", "json")
    assert sorted(i["account_id"] for i in below.items("fleet-junk")) == RESELLER_AGENTS
    outside = cli("fleet", "ask", "junk", "--below", "1200", "-o", "json", token="demo-reseller")
    assert outside.code == contract.REFUSED and outside.out == ""
    assert "account 1200 is not below this key" in outside.err


def test_ids_from_stdin_one_a_line(cli: RunCli, sim_app: Any) -> None:
    ids = "1121\n\n# the dental front desk\n1111  # main line\n"
    ran = cli("fleet", "ask", "numbers", "--accounts-file", "-", "-o", "csv", stdin=ids)
    assert ran.code == contract.DONE
    lines = ran.out.splitlines()
    assert lines[0] == "account_id,name,count,numbers,error"
    assert sorted(line.split(",")[0] for line in lines[1:]) == ["1111", "1121"]
    assert sorted(asked(sim_app, "/phoneNumbers")) == [1111, 1121]
    bad = cli("fleet", "ask", "numbers", "--accounts-file", "-", stdin="1111\nacme\n")
    assert bad.code == contract.ERROR and bad.out == ""
    assert "stdin line 2: 'acme' is not an account id" in bad.err


@pytest.mark.parametrize(
    ("argv", "said"),
    [
        (("--below", "1100", "--accounts", "1111"), "--below and --accounts"),
        (("--concurrency", "0"), "--concurrency: '0' is not a number from 1 to 200"),
        (("--accounts", "1111,-3"), "--accounts: '-3' is not an account id"),
        (("--accounts-file", "/nonexistent/ids.txt"), "could not read /nonexistent/ids.txt"),
    ],
)
def test_a_bad_choice_asks_nothing_and_exits_1(
    cli: RunCli, sim_app: Any, argv: tuple[str, ...], said: str
) -> None:
    ran = cli("fleet", "ask", "functions", *argv)
    assert ran.code == contract.ERROR and ran.out == ""
    assert said in ran.err
    assert asked(sim_app) == []


def test_a_reader_that_stops_early_ends_the_run_quietly(
    cli: RunCli, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``vagent-tui fleet ask … | head -1``: the first answer's write fails, the run stops,
    exit 0, no trace (not the group of every answer's failure)."""

    class Closed(io.StringIO):
        def write(self, text: str) -> int:
            raise BrokenPipeError(32, "Broken pipe")

    monkeypatch.setattr("sys.stdout", Closed())
    ran = cli("fleet", "ask", "functions", "-o", "jsonl")
    assert ran.code == contract.DONE
    assert "Traceback" not in ran.err and "Broken pipe" not in ran.err
