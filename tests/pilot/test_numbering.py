"""The numbering providers screen and the calls' SIP capture key: their wiring.

Add a provider with credentials typed masked (sent as typed; nowhere else: not the
screen, the journal, the logs, the clipboard), make it the default; fetch a call's
capture as text (shown) and as pcap (a 0600 file). The rules are the unit tests'.
"""

from __future__ import annotations

import logging
import stat
from pathlib import Path

from textual.widgets import Input, Select

from tests.helpers import MakeApp, settle, shown, sim_of
from vagent_tui import config
from vagent_tui.api.capture_models import pcap_problem
from vagent_tui.ui.dialogs import ConfirmModal, TextModal
from vagent_tui.ui.screens.calls import CallsScreen
from vagent_tui.ui.screens.numbering import NumberingScreen
from vagent_tui.ui.widgets.call_forms import CaptureModal
from vagent_tui.ui.widgets.provider_form import ProviderForm

SECRET = "cred-SECRET-7e57"


class Collect(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.lines: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.lines.append(self.format(record))


def _state_text() -> str:
    root = config.state_dir()
    files = root.rglob("*") if root.exists() else []
    return "\n".join(p.read_text(errors="replace") for p in files if p.is_file())


async def test_add_a_provider_then_make_it_the_default(make_app: MakeApp) -> None:
    handler, root = Collect(), logging.getLogger()
    old_level = root.level
    root.addHandler(handler)
    root.setLevel(logging.DEBUG)
    app = make_app("numbering", account=1110)
    try:
        async with app.run_test(size=(120, 40)) as pilot:
            await settle(pilot)
            screen = shown(app, NumberingScreen)
            assert [p.provider_id for p in screen.table.records] == ["Twilio", "Telnyx",
                                                                      "Bandwidth"]  # fmt: skip
            await pilot.press("j", "a")
            await settle(pilot)
            form = shown(app, ProviderForm)
            first = form.query_one("#form-secret-0", Input)
            second = form.query_one("#form-secret-1", Input)
            assert first.password and second.password
            first.value, second.value = SECRET, "conn-42"
            first.select_all()
            first.action_copy()
            first.action_cut()
            assert first.value == SECRET and SECRET not in app.clipboard
            shots = [app.export_screenshot()]
            second.focus()
            await pilot.press("enter")
            await settle(pilot)
            shown(app, NumberingScreen)
            held = sim_of(app).numbering[1110]["Telnyx"]
            assert held["config"] == {"apiKey": SECRET, "connectionId": "conn-42"}
            shots.append(app.export_screenshot())
            telnyx = screen.table.record("Telnyx")
            assert telnyx is not None and telnyx.config_set == ["apiKey", "connectionId"]
            await pilot.press("m")
            await settle(pilot)
            shown(app, ConfirmModal)
            await pilot.press("y")
            await settle(pilot)
            assert sim_of(app).numbering[1110]["Telnyx"]["default"] is True
            assert sim_of(app).numbering[1110]["Twilio"]["default"] is False
    finally:
        root.removeHandler(handler)
        root.setLevel(old_level)
    journal = _state_text()
    assert '"config":{"apiKey":"***","connectionId":"***"}' in journal.replace(" ", "")
    for where, text in {"screen": "\n".join(shots), "journal": journal,
                        "logs": "\n".join(handler.lines)}.items():  # fmt: skip
        assert SECRET not in text and "conn-42" not in text, where


async def test_a_calls_capture_as_text_and_as_a_0600_pcap(make_app: MakeApp) -> None:
    app = make_app("calls", account=1111)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        screen = shown(app, CallsScreen)
        records = screen.table.records
        row = next(i for i, e in enumerate(records) if e.sip_call_id)
        screen.table.move_cursor(row=row)
        sms = next(i for i, e in enumerate(records) if not e.sip_call_id)
        screen.table.move_cursor(row=sms)
        await pilot.press("S")
        await settle(pilot)
        assert "no SIP Call-ID" in str(screen.status.content)
        screen.table.move_cursor(row=row)
        await pilot.press("S")
        await settle(pilot)
        shown(app, CaptureModal)
        await pilot.press("ctrl+s")
        await settle(pilot)
        text = shown(app, TextModal)
        assert "INVITE sip:" in text.text and f"Call-ID: {records[row].sip_call_id}" in text.text
        await pilot.press("escape")
        await pilot.press("S")
        await settle(pilot)
        modal = shown(app, CaptureModal)
        modal.query_one("#calls-capture-format", Select).value = "pcap"
        modal.query_one("#calls-capture-path", Input).value = "call.pcap"
        await pilot.press("ctrl+s")
        await settle(pilot)
        shown(app, CallsScreen)
        path = Path("call.pcap")
        assert pcap_problem(path.read_bytes()) is None
        assert stat.S_IMODE(path.stat().st_mode) == 0o600
        assert "readable by you only" in str(screen.status.content)
        sent = [r for r in sim_of(app).requests if r.path.endswith("/sip/captures")]
        assert [r.query["format"] for r in sent] == ["text", "pcap"]
        assert {r.query["targetAccountId"] for r in sent} == {"1111"}
