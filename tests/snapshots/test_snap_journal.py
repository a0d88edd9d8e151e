"""Snapshots of the journal screen at 80x24 and 120x40 (a seeded journal, fixed times)."""

from __future__ import annotations

from typing import Any

import pytest
from textual.pilot import Pilot
from textual.widgets import Select

from tests.helpers import MakeApp, SnapCompare, settle
from tests.snapshots.sizes import Size, size_id, sizes
from vagent_tui.services.journal import Journal, JournalEntry
from vagent_tui.ui.screens.journal import JournalScreen

_ENTRIES = [
    JournalEntry("2025-11-20T11:02:10.120+00:00", "demo · demo-partner", "POST",
                 "/api/v2/sip/ipWhitelist", 1111, {"ip": "203.0.113.9", "label": "office"},
                 201, "IP entry created successfully", 14),
    JournalEntry("2025-11-20T11:05:44.002+00:00", "demo · demo-partner", "POST",
                 "/api/v2/billing/adrExportConfig", 1110,
                 {"deliveryProtocol": "sftp", "rotationMinutes": "60", "host": "sftp.example.com",
                  "port": 22, "username": "cdr", "password": "***"},
                 200, "ADR export configuration saved successfully", 21),
    JournalEntry("2025-11-20T11:31:09.500+00:00", "work", "DELETE",
                 "/api/v2/webhookRelay/legacyCrm", 1111, None, 500, "Internal error", 9),
    JournalEntry("2025-11-20T11:58:00.000+00:00", "work", "DELETE", "/api/v2/sip/ipWhitelist",
                 1111, {"ip": "203.0.113.9"}, 200, "IP entry deleted successfully", 11),
]  # fmt: skip


def _seeded(make_app: MakeApp) -> Any:
    journal = Journal()
    for entry in _ENTRIES:
        journal.append(entry)
    return make_app("journal")


async def _settled(pilot: Pilot[None]) -> None:
    await settle(pilot)


@pytest.mark.parametrize("size", sizes(JournalScreen), ids=size_id)
def test_journal(snap_compare: SnapCompare, make_app: MakeApp, size: Size) -> None:
    assert snap_compare(_seeded(make_app), terminal_size=size, run_before=_settled)


def test_journal_failed_filter_120x40(snap_compare: SnapCompare, make_app: MakeApp) -> None:
    async def run_before(pilot: Pilot[None]) -> None:
        await settle(pilot)
        pilot.app.screen.query_one("#journal-status", Select).value = "failed"
        await settle(pilot)

    assert snap_compare(_seeded(make_app), terminal_size=(120, 40), run_before=run_before)


def test_journal_empty_80x24(snap_compare: SnapCompare, make_app: MakeApp) -> None:
    assert snap_compare(make_app("journal"), terminal_size=(80, 24), run_before=_settled)
