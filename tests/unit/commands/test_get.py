"""``vagent-tui get KIND`` for the screens' lists: shapes, filters, paging, exit codes."""

from __future__ import annotations

import json
import unicodedata
from typing import Any

import pytest

from tests.unit.commands.conftest import Ran, RunCli
from vagent_tui.commands import get
from vagent_tui.commands.schemas import shapes

AGENT = "1111"
"""Acme Dental Front Desk: an agent account below demo-partner's key."""
ELSEWHERE = "9001"
"""An account of another partner: beyond demo-partner's reach."""

KINDS: dict[str, tuple[str, ...]] = {
    "agents": (),
    "config": ("--account", AGENT),
    "voices": ("--account", AGENT),
    "functions": ("--account", AGENT),
    "members": ("--account", AGENT),
    "numbers": ("--account", AGENT),
    "tasks": (),
    "journal": (),
    "tokens": ("--account", AGENT),
    "webhooks": ("--account", AGENT),
    "sip-whitelist": ("--account", AGENT),
    "sip-routes": ("--account", AGENT),
}
"""Each kind, and the options that make its list non-empty on the demo."""

COLUMNS = {
    "agents": "id,name,username,parent_id,path",
    "config": "account_id,slot,staging_is_empty,id,title,differing_fields",
    "voices": "id,name,provider,languages,s2s_engines,standard_tts,available",
    "functions": "name,label,allowed,limit,require_paid,require_computer,configured,staged",
    "members": "id,email,name,role,status,permitted_account_ids",
    "numbers": "number,locality,region,country,source,monthly_price,currency,since",
    "tasks": "id,account_id,type,state,target,scheduled_for,updated_at",
    "journal": "time,source,method,path,target,status,message,profile",
    "tokens": "token,description,type,created_at,user_id",
    "webhooks": "url,label,type,added_at,user_id",
    "sip-whitelist": "ip,label,added_at,user_id",
    "sip-routes": "route",
}

PATHS = {
    "agents": "/listAccounts",
    "config": "/agentEventRules",
    "voices": "/agent/voices",
    "functions": "/agent/functions",
    "members": "/members",
    "numbers": "/phoneNumbers",
    "tasks": "/tasks",
    "tokens": "/tokens",
    "webhooks": "/webhooks",
    "sip-whitelist": "/sip/ipWhitelist",
    "sip-routes": "/sip/outboundRoutes",
}
"""What each kind asks the platform for (the journal asks nothing)."""

CONNECTED = sorted(PATHS)


def _journal_entries() -> None:
    """Two lines in the test's own journal: a console write and a command's."""
    from vagent_tui.services.journal import Journal, JournalEntry

    journal = Journal()
    if journal.path.exists():
        return  # written already in this test
    for source, status in (("console", 200), ("cli", 500)):
        journal.append(
            JournalEntry(
                time="2026-12-07T09:00:00Z",
                profile="demo",
                method="POST",
                path="/api/v2/webhooks",
                target=1111,
                body={"url": "https://x", "token": "s3"},
                status=status,
                message=f"sent by {source}",
                source=source,
            )
        )


def _second_number(sim_app: Any) -> None:
    """A number brought from elsewhere beside the one the demo agent bought."""
    held = sim_app.state.sim.numbers[1111]
    if len(held) == 1:
        held.append({**held[0], "number": "+15125550100", "locality": "Austin",
                     "source": "byo", "monthlyPrice": 0})  # fmt: skip


def run_kind(cli: RunCli, kind: str, *more: str, fmt: str = "json") -> Ran:
    if kind == "journal":
        _journal_entries()
    return cli("get", kind, *KINDS[kind], *more, "-o", fmt)


@pytest.mark.parametrize("kind", sorted(KINDS))
def test_each_kind_writes_items_of_its_model_in_json_and_jsonl(cli: RunCli, kind: str) -> None:
    model = shapes()[kind]
    ran = run_kind(cli, kind)
    assert ran.code == 0, ran.err
    items = ran.items(kind)
    assert items
    for item in items:
        model.model_validate(item)
    lines = run_kind(cli, kind, fmt="jsonl").lines(kind)
    assert lines == items
    for item in lines:
        model.model_validate(item)


@pytest.mark.parametrize("kind", sorted(KINDS))
def test_csv_starts_with_the_kinds_columns(cli: RunCli, kind: str) -> None:
    ran = run_kind(cli, kind, fmt="csv")
    assert ran.code == 0, ran.err
    lines = ran.out.splitlines()
    assert lines[0] == COLUMNS[kind]
    assert len(lines) > 1


FILTERS: dict[str, tuple[tuple[str, ...], str, Any]] = {
    "agents": (("--below", "1110"), "parent_id", 1110),
    "config": (("--live",), "slot", "live"),
    "voices": (("--language", "es-US"), "languages", "es-US"),
    "functions": (("--view", "unavailable"), "allowed", False),
    "members": (("--filter", "DANA"), "email", "dana.whitfield@example.com"),
    "numbers": (("--filter", "dallas"), "locality", "Dallas"),
    "tasks": (("--state", "finished"), "state", "finished"),
    "journal": (("--source", "cli"), "source", "cli"),
    "tokens": (("--filter", "crm"), "description", "CRM sync"),
    "webhooks": (("--filter", "contact"), "type", "contact"),
    "sip-whitelist": (("--filter", "pbx"), "label", "Office PBX"),
    "sip-routes": (
        ("--filter", "TCP"),
        "route",
        "sip5.carrier.example.net;transport=tcp;proxyAddress=198.51.100.9:5080",
    ),
}
"""Per kind: a screen's filter, and the field every item it keeps has (or holds)."""


@pytest.mark.parametrize("kind", sorted(FILTERS))
def test_a_filter_narrows_the_list(cli: RunCli, sim_app: Any, kind: str) -> None:
    _second_number(sim_app)
    options, field, value = FILTERS[kind]
    every = run_kind(cli, kind).items(kind)
    ran = run_kind(cli, kind, *options)
    assert ran.code == 0, ran.err
    kept = ran.items(kind)
    assert 0 < len(kept) < len(every)
    for item in kept:
        assert value in item[field] if isinstance(item[field], list) else item[field] == value


def test_a_number_brought_has_its_price_as_text(cli: RunCli, sim_app: Any) -> None:
    _second_number(sim_app)
    ran = cli("get", "numbers", "--account", AGENT, "--filter", "austin")
    (number,) = ran.items("numbers")
    assert (number["source"], number["monthly_price"]) == ("byo", "0")


@pytest.mark.parametrize("kind", CONNECTED)
def test_an_account_beyond_the_keys_scope_is_refused(cli: RunCli, kind: str) -> None:
    ran = cli("get", kind, "--account", ELSEWHERE, "-o", "json")
    assert ran.code == 4, ran.err
    assert ran.out == ""
    assert "error:" in ran.err


@pytest.mark.parametrize("kind", CONNECTED)
def test_a_platform_error_exits_1_with_its_message(
    cli: RunCli, sim_app: Any, monkeypatch: pytest.MonkeyPatch, kind: str
) -> None:
    from vagent_tui.api.transport import ApiTransport

    monkeypatch.setattr(ApiTransport, "backoff_delay", lambda *_a, **_k: 0.0)
    sim_app.state.sim.faults.set("500", path_contains=PATHS[kind], methods=frozenset({"GET"}))
    ran = run_kind(cli, kind)
    assert ran.code == 1, ran.err
    assert "Simulated internal server error" in ran.err
    assert ran.out == "" or isinstance(ran.document(kind)["items"], list)


def test_agents_below_an_account_beyond_the_key_are_refused(cli: RunCli) -> None:
    ran = cli("get", "agents", "--below", ELSEWHERE)
    assert ran.code == 4 and ran.out == ""
    assert "not below this key" in ran.err


def test_agents_below_an_organization_and_limited(cli: RunCli) -> None:
    below = cli("get", "agents", "--below", "1110").items("agents")
    assert [a["id"] for a in below] == [1111, 1112, 1113]
    assert below[0]["path"] == ["Northwind Voice Partners", "Bluebird Telecom",
                                "Acme Dental Group"]  # fmt: skip
    assert len(cli("get", "agents", "--limit", "2").items("agents")) == 2
    words = cli("get", "agents", "--filter", "acme after").items("agents")
    assert [a["id"] for a in words] == [1113]


def test_config_masks_secrets_and_says_what_staging_changes(cli: RunCli, sim_app: Any) -> None:
    state = sim_app.state.sim
    state.live[1111]["apiKey"] = "sk-live-secret-123456"
    state.edit_staging(1111, title="Renamed in staging")
    ran = cli("get", "config", "--account", AGENT)
    assert ran.code == 0, ran.err
    assert "sk-live-secret" not in ran.out
    staging, live = ran.items("config")
    assert (staging["slot"], live["slot"]) == ("staging", "live")
    assert staging["title"] == "Renamed in staging"
    assert "title" in staging["differing_fields"] and live["differing_fields"] == []
    assert live["config"]["apiKey"] != "sk-live-secret-123456"


def test_config_of_an_account_that_is_no_agent_is_an_error(cli: RunCli) -> None:
    ran = cli("get", "config", "--account", "1110")
    assert ran.code == 1
    assert "agent account" in ran.err and ran.out == ""


def test_config_with_empty_staging_shows_live_there(cli: RunCli, sim_app: Any) -> None:
    sim_app.state.sim.staging[1111] = None
    staging, live = cli("get", "config", "--account", AGENT).items("config")
    assert staging["staging_is_empty"] and staging["config"] == live["config"]


def test_functions_of_an_agent_count_live_and_staging(cli: RunCli) -> None:
    items = cli("get", "functions", "--account", AGENT, "--view", "configured").items("functions")
    assert items and all(f["configured"] > 0 for f in items)
    org = cli("get", "functions", "--account", "1110")  # an organization: no agent to check
    assert org.code == 0, org.err
    assert all(f["configured"] is None and f["staged"] is None for f in org.items("functions"))


def test_tasks_are_paged_to_the_end_and_cut_at_the_limit(
    cli: RunCli, monkeypatch: pytest.MonkeyPatch
) -> None:
    every = cli("get", "tasks").items("tasks")
    assert len(every) > 4
    monkeypatch.setattr("vagent_tui.services.tasks.PAGE_SIZE", 2)
    paged = cli("get", "tasks", "-o", "jsonl").lines("tasks")
    assert [t["id"] for t in paged] == [t["id"] for t in every]
    cut = cli("get", "tasks", "--limit", "3").items("tasks")
    assert [t["id"] for t in cut] == [t["id"] for t in every[:3]]


def test_journal_needs_no_connection_and_keeps_secrets_masked(cli: RunCli) -> None:
    _journal_entries()
    ran = cli("get", "journal", "--status", "failed")
    assert ran.code == 0, ran.err
    (entry,) = ran.items("journal")
    assert entry["source"] == "cli" and entry["ok"] is False
    assert "s3" not in json.dumps(entry["body"])


def test_tokens_are_never_written_whole(cli: RunCli, sim_app: Any) -> None:
    ran = cli("get", "tokens", "--account", AGENT, "-o", "csv")
    assert "demo-agent" not in ran.out
    assert all(t["token"].startswith("•" * 8) for t in
               cli("get", "tokens", "--account", AGENT).items("tokens"))  # fmt: skip


def test_task_states_and_views_are_the_screens() -> None:
    from vagent_tui.api.task_models import TASK_STATES
    from vagent_tui.services.agents import FUNCTION_VIEWS
    from vagent_tui.services.tasks import WINDOWS

    assert get.TASK_STATES == TASK_STATES
    assert get.FUNCTION_VIEWS == FUNCTION_VIEWS
    assert len(get.TASK_WINDOWS) == len(WINDOWS)


def _shown_raw(text: str) -> list[str]:
    """Characters a terminal would act on rather than show."""
    return [c for c in text if c != "\n" and unicodedata.category(c) in ("Cc", "Cf", "Zl", "Zp")]


class TestHostile:
    """A platform that answers with escape sequences, bidi controls and markup."""

    @pytest.fixture
    def sim_app(self) -> Any:
        from vagent_tui.sim import create_app

        return create_app(hostile=True)

    @pytest.mark.parametrize("kind", sorted(KINDS))
    def test_hostile_text_never_reaches_a_table_raw(self, cli: RunCli, kind: str) -> None:
        ran = run_kind(cli, kind, fmt="table")
        assert ran.code == 0, ran.err
        assert len(ran.out.splitlines()) > 1
        assert _shown_raw(ran.out) == []
