"""The target of a level-scoped resource, from the connection to the journal (point 12)."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

from vagent_tui.api.client import Exchange
from vagent_tui.api.models import Account
from vagent_tui.api.scope import ScopeLevel
from vagent_tui.api.targets import LevelTarget
from vagent_tui.services.journal import Journal, to_curl
from vagent_tui.services.session import Connection

RESELLER = Account.model_validate(
    {"id": 1100, "accountType": "reseller", "resellerId": 1100, "partnerId": 1000}
)
AGENT = Account.model_validate({"id": 1111, "accountType": "account", "organizationId": 1110})


def test_the_connection_selects_a_reseller_target_by_its_level() -> None:
    owner = Account.model_validate({"id": 1000, "accountType": "partner", "partnerId": 1000})
    conn = Connection(owner=owner)
    assert conn.target_at(ScopeLevel.RESELLER) is None  # the key owner: nothing sent
    acting = conn.with_target(RESELLER)
    assert acting.target_at(ScopeLevel.RESELLER) == LevelTarget(ScopeLevel.RESELLER, 1100)
    assert acting.target_id == 1100  # screens of an account still send targetAccountId
    assert conn.with_target(AGENT).target_at(ScopeLevel.RESELLER) == 1111


def test_the_journal_keeps_the_parameter_and_curl_uses_it(tmp_path: Path) -> None:
    journal = Journal(
        path=tmp_path / "journal.jsonl", clock=lambda: datetime(2025, 1, 1, tzinfo=UTC)
    )
    exchange = Exchange("POST", "/api/v2/templates/tpl-1/migrate", 1100, {"dryRun": True}, 200,
                        "queued", 0.01, "targetResellerId")  # fmt: skip
    journal.record(exchange, "p")
    [entry] = journal.read()
    assert entry.target == 1100 and entry.target_param == "targetResellerId"
    command, _ = to_curl(entry)
    assert "&targetResellerId=1100" in command and "targetAccountId" not in command


def test_an_old_journal_line_reads_as_target_account_id(tmp_path: Path) -> None:
    path = tmp_path / "journal.jsonl"
    path.write_text(
        '{"time":"2025-01-01T00:00:00.000+00:00","profile":"p","method":"POST",'
        '"path":"/api/v2/x","target":7,"body":null,"status":200,"message":null,'
        '"elapsed_ms":1}\n'
    )
    [entry] = Journal(path=path).read()
    assert entry.target_param == "targetAccountId"
    assert "&targetAccountId=7" in to_curl(entry)[0]
