"""The journal service: lines, masking, file mode, filters, curl."""

from __future__ import annotations

import json
import os
import stat
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from vagent_tui.api.transport import Exchange
from vagent_tui.config import state_dir
from vagent_tui.services.journal import Journal, JournalFilter, mask_body, to_curl

FIXED = datetime(2025, 11, 20, 12, 0, 3, tzinfo=UTC)


def make_journal(tmp_path: Path) -> Journal:
    return Journal(path=tmp_path / "journal.jsonl", clock=lambda: FIXED)


def ex(method: str = "POST", path: str = "/api/v2/sip/ipWhitelist", target: int | None = 1111,
       body: Any = None, status: int | None = 201,
       message: str | None = "IP entry created successfully") -> Exchange:  # fmt: skip
    return Exchange(method, path, target, body, status, message, 0.012)


def test_default_path_follows_xdg_state_home(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "xdg"))
    assert Journal().path == tmp_path / "xdg" / "vagent-tui" / "journal.jsonl"
    assert state_dir() == tmp_path / "xdg" / "vagent-tui"


def test_record_appends_one_private_json_line(tmp_path: Path) -> None:
    journal = make_journal(tmp_path)
    observe = journal.observer("work")
    observe(ex(body={"ip": "203.0.113.9", "label": "office"}))
    observe(ex(method="GET", body=None))  # reads are not journaled
    observe(ex(method="DELETE", body={"ip": "203.0.113.9"}, status=404, message="IP not found"))
    lines = journal.path.read_text().splitlines()
    assert len(lines) == 2
    first = json.loads(lines[0])
    assert first == {
        "time": "2025-11-20T12:00:03.000+00:00",
        "profile": "work",
        "method": "POST",
        "path": "/api/v2/sip/ipWhitelist",
        "target": 1111,
        "body": {"ip": "203.0.113.9", "label": "office"},
        "status": 201,
        "message": "IP entry created successfully",
        "elapsed_ms": 12,
    }
    assert stat.S_IMODE(os.stat(journal.path).st_mode) == 0o600
    entries = journal.read()
    assert [e.ok for e in entries] == [True, False]


def test_existing_file_with_loose_mode_is_tightened(tmp_path: Path) -> None:
    journal = make_journal(tmp_path)
    journal.path.write_text("")
    os.chmod(journal.path, 0o644)
    journal.record(ex(), "p")
    assert stat.S_IMODE(os.stat(journal.path).st_mode) == 0o600


def test_secrets_are_masked() -> None:
    body = {
        "password": "hunter2",
        "token": "vgt-SENTINEL-4242-abcdef",
        "headers": {"Authorization": "Bearer x"},
        "nested": [{"apiKey": "k"}],
        "note": "see ?token=abcdef123",
    }
    masked = mask_body(body)
    text = json.dumps(masked)
    assert "hunter2" not in text and "SENTINEL" not in text and "Bearer" not in text
    assert masked["note"] == "see ?token=***"
    # a token already shown by its last four characters keeps them
    assert mask_body({"token": "\u2022" * 8 + "cdef"}) == {"token": "\u2022" * 8 + "cdef"}
    # the published relay headers, a list of single-key objects: names kept, values masked
    published = {"headers": [{"Authorization": "Bearer SECRET"}, {"X-Key": "k2"}]}
    assert mask_body(published) == {"headers": [{"Authorization": "***"}, {"X-Key": "***"}]}


def test_unreadable_lines_are_skipped(tmp_path: Path) -> None:
    journal = make_journal(tmp_path)
    journal.record(ex(), "p")
    with journal.path.open("a") as handle:
        handle.write("not json\n[1, 2]\n\n")
    journal.record(ex(method="DELETE"), "p")
    assert [e.method for e in journal.read()] == ["POST", "DELETE"]


def test_write_failure_is_kept_not_raised(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("")
    journal = Journal(path=blocker / "journal.jsonl")
    journal.record(ex(), "p")
    assert journal.error and "could not be written" in journal.error


@pytest.mark.parametrize(
    ("flt", "expected"),
    [
        (JournalFilter(), 3),
        (JournalFilter(method="delete"), 1),
        (JournalFilter(status="ok"), 2),
        (JournalFilter(status="failed"), 1),
        (JournalFilter(profile="prod"), 1),
        (JournalFilter(text="webhooks example"), 1),
        (JournalFilter(text="nothing-like-this"), 0),
    ],
)
def test_filters(tmp_path: Path, flt: JournalFilter, expected: int) -> None:
    journal = make_journal(tmp_path)
    journal.record(ex(), "demo")
    journal.record(ex(method="DELETE", status=500, message="boom"), "demo")
    journal.record(ex(path="/api/v2/webhooks", body={"url": "https://example.com"}), "prod")
    assert len(journal.read(flt)) == expected


def test_curl_of_a_delete(tmp_path: Path) -> None:
    journal = make_journal(tmp_path)
    entry = journal.record(ex(method="DELETE", body={"ip": "203.0.113.9"}, status=200), "p")
    command, note = to_curl(entry)
    assert command == (
        'curl -X DELETE "$VAGENT_BASE_URL/api/v2/sip/ipWhitelist?token=$VAGENT_TOKEN'
        "&targetAccountId=1111\" -H 'Content-Type: application/json' "
        '--data \'{"ip":"203.0.113.9"}\''
    )
    assert note is None


def test_curl_keeps_masks_with_a_note_and_quotes_the_body(tmp_path: Path) -> None:
    journal = make_journal(tmp_path)
    body = {"host": "h.example", "password": "s3cr3t", "path": "it's"}
    entry = journal.record(ex(path="/api/v2/billing/adrExportConfig", body=body), "p")
    command, note = to_curl(entry)
    assert "s3cr3t" not in command and '"password":"***"' in command
    assert note and "masked" in note
    assert "'\"'\"'" in command or "'\\''" in command  # the single quote survives shell quoting


def test_curl_of_an_upload_uses_form_fields(tmp_path: Path) -> None:
    journal = make_journal(tmp_path)
    body = {"path": "notes/a.txt", "overwrite": "false", "file": "<5 bytes>"}
    entry = journal.record(
        ex(path="/api/v2/computer/accounts/1118/workspace/upload", target=None, body=body), "p"
    )
    command, note = to_curl(entry)
    assert "targetAccountId" not in command
    assert "-F path=notes/a.txt" in command and "-F file=@FILE" in command
    assert note and "FILE" in note


def test_curl_of_a_get_that_writes_puts_its_query_back(tmp_path: Path) -> None:
    journal = make_journal(tmp_path)
    exchange = Exchange(
        "GET", "/api/v2/auth/account/oneTimeAuthToken", None,
        {"email": "a+b@acme.test", "externalAccountId": "crm 1"}, 200, "Success", 0.01,
        writes=True,
    )  # fmt: skip
    entry = journal.record(exchange, "p")
    command, _ = to_curl(entry)
    assert command == (
        'curl -X GET "$VAGENT_BASE_URL/api/v2/auth/account/oneTimeAuthToken'
        '?token=$VAGENT_TOKEN&email=a%2Bb%40acme.test&externalAccountId=crm%201"'
    )
