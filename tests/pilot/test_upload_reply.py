"""An upload answered 200 without a JSON object is a success (issue 15, point 8).

The spec: "200 on success. Response body fields: not shown". The simulator's
``malformed`` and ``truncated`` faults carry the upload out and then mangle the reply.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.widgets import Input

from tests.helpers import MakeApp, settle, shown, sim_of
from vagent_tui.ui.screens import computer
from vagent_tui.ui.screens.computer import ComputerScreen

ACCOUNT = 1118
UPLOAD = f"/api/v2/computer/accounts/{ACCOUNT}/workspace/upload"


@pytest.mark.parametrize("fault", ["malformed", "truncated"])
async def test_an_upload_whose_reply_is_not_json_is_reported_done(
    make_app: MakeApp, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, fault: str
) -> None:
    (tmp_path / "hello.txt").write_bytes(b"hello workspace\n")
    monkeypatch.setattr(computer, "TREE_ROOT", tmp_path)
    app = make_app("computer", account=ACCOUNT)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        screen = shown(app, ComputerScreen)
        sim = sim_of(app)
        sim.faults.set(fault, path_contains="/workspace/upload", remaining=1)
        screen.upload_pane.pick_file(tmp_path / "hello.txt")
        await settle(pilot)
        screen.query_one("#computer-path", Input).focus()
        await pilot.press("enter")
        await settle(pilot)
        assert sim.count("POST", UPLOAD) == 1
        assert sim.files[ACCOUNT]["hello.txt"]["size"] == 16
        status = str(screen.status.content)
        assert "Uploaded: hello.txt, 16 B" in status, status
        assert screen.query_one("#computer-path", Input).value == ""  # success resets
