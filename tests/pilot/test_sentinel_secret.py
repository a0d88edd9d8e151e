"""A sentinel token through every screen and operation: it leaks nowhere.

Not in a log (every logger at DEBUG), a notification, an exception text, a screenshot,
the journal, the state folder or the config file; only in its 0600 credentials file.
Every URL logged has ``token=`` redacted. A token just created is shown once and never
written anywhere by the app.
"""

from __future__ import annotations

import logging
import os
import re
import stat
from pathlib import Path

from textual.widgets import Input

from tests.helpers import settle, shown
from vagent_tui import config, credentials
from vagent_tui.api.errors import PlatformError
from vagent_tui.api.models import AdrExportConfig
from vagent_tui.services.connect import demo_client
from vagent_tui.sim import create_app
from vagent_tui.ui.app import VagentApp
from vagent_tui.ui.registry import SCREENS
from vagent_tui.ui.screens.base import BaseScreen
from vagent_tui.ui.screens.tokens import TokensScreen
from vagent_tui.ui.widgets.entry_forms import TokenForm
from vagent_tui.ui.widgets.new_token import NewTokenModal

SENTINEL = "vgt-SENTINEL-4242-abcdef"
UNREDACTED = re.compile(r"token=(?!\*\*\*|\$VAGENT_TOKEN)[^&\s'\"]+", re.I)


class Collect(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.lines: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.lines.append(self.format(record))


def files_under(root: Path) -> dict[Path, str]:
    if not root.exists():
        return {}
    return {p: p.read_text(errors="replace") for p in root.rglob("*") if p.is_file()}


async def test_sentinel_token_leaks_nowhere(tmp_path: Path) -> None:
    handler = Collect()
    root = logging.getLogger()
    old_level = root.level
    root.addHandler(handler)
    root.setLevel(logging.DEBUG)
    for name in list(logging.root.manager.loggerDict):
        logging.getLogger(name).setLevel(logging.DEBUG)

    # The token lives in the credentials file of a profile, as a user would keep it.
    cfg = config.Config(
        profiles={"work": config.Profile("work", "http://demo.sim", token_file=True)}
    )
    config.save(cfg)
    kept = credentials.store_token("work", SENTINEL)

    sim_app = create_app()
    sim = sim_app.state.sim
    sim.tokens[SENTINEL] = {"token": SENTINEL, "description": "sentinel", "type": "admin",
                            "timestamp": "1750194180352", "userId": 1000}  # fmt: skip
    client = demo_client(SENTINEL, sim_app=sim_app)
    app = VagentApp(client, profile_label="work")
    shots: list[str] = []
    created: list[str] = []
    errors: list[str] = []
    try:
        async with app.run_test(size=(120, 40), notifications=True) as pilot:
            await settle(pilot)
            for info in SCREENS:
                app.action_show(info.name)
                await settle(pilot)
                shown(app, BaseScreen).action_reload()
                await settle(pilot)
                shots.append(app.export_screenshot())
                for key in ("j", "k", "question_mark", "question_mark"):
                    await pilot.press(key)
                await settle(pilot)
            for target in (1111, 1110):
                app.select_target(target)
                await settle(pilot)
                shots.append(app.export_screenshot())
            # every kind of write, successes and failures, through the client
            calls = [
                client.add_sip_entry("203.0.113.9", "x", target=1111),
                client.add_sip_entry("203.0.113.9", "x", target=1111),  # 409
                client.delete_sip_entry("203.0.113.9", target=1111),
                client.add_webhook("https://h.example/x", "incoming", target=1111),
                client.delete_webhook("https://h.example/x", target=1111),
                client.delete_relay("legacyCrm", target=1111),  # 500
                client.set_adr_export(AdrExportConfig(delivery_protocol="sftp", host="h.example",
                                      port=22, username="u", password="pw-secret"), target=1110),
                client.start_recording(1118, 0),
                client.upload_file(1118, "notes/x.txt", b"hi"),
                client.migrate("tpl-dental-reception", target=1100),
                client.rename_version("cfg-1111", 999, "t", target=1111),  # 404
                client.delete_token("vt_not_a_token"),  # 404
            ]  # fmt: skip
            for call in calls:
                try:
                    await call
                except PlatformError as exc:
                    errors += [str(exc), repr(exc), exc.describe()]
            # a token created through the tokens screen: shown once
            app.action_show("tokens")
            await settle(pilot)
            shown(app, TokensScreen).action_add()
            await settle(pilot)
            form = shown(app, TokenForm)  # the create form (a dialog)
            form.query_one("#form-description", Input).value = "sentinel run"
            form.submit()
            await settle(pilot)
            modal = shown(app, NewTokenModal)
            created.append(modal._value)
            shots.append(app.export_screenshot())
            modal.action_close()
            await settle(pilot)
            shots.append(app.export_screenshot())
            # a 401: a bad token (containing the sentinel's shape) fails without echoing it
            sim.tokens.pop(SENTINEL)
            shown(app, BaseScreen).action_reload()
            await settle(pilot)
            shots.append(app.export_screenshot())
            try:
                await client.list_tokens()
            except PlatformError as exc:
                assert getattr(exc, "status", None) == 401
                errors += [str(exc), repr(exc)]
            notes = [n.message for n in app._notifications]
            errors += [str(w.error) for w in app.workers if w.error is not None]
            errors.append(repr(client))
    finally:
        root.removeHandler(handler)
        root.setLevel(old_level)

    everything = {
        "logs": "\n".join(handler.lines),
        "notifications": "\n".join(notes),
        "errors": "\n".join(errors),
        "screenshots": "\n".join(shots),
        "journal+state": "\n".join(files_under(config.state_dir()).values()),
        "config": config.config_path().read_text(),
    }
    for where, text in everything.items():
        assert SENTINEL not in text, f"the sentinel leaked into {where}"
        assert "SENTINEL" not in text, f"part of the sentinel leaked into {where}"
        assert "pw-secret" not in text, f"the ADR password leaked into {where}"
    assert handler.lines, "logging was not captured"
    assert not UNREDACTED.search(everything["logs"]), UNREDACTED.search(everything["logs"])
    assert "token=***" in everything["logs"]  # the sender logged URLs, redacted

    # the new token: on its modal once, nowhere else, never written by the app
    (value,) = created
    assert value and value in shots[-3]
    assert all(value not in shot for shot in shots[:-3] + shots[-2:])
    for where, text in everything.items():
        if where != "screenshots":
            assert value not in text, f"the new token leaked into {where}"
    for text in files_under(config.state_dir()).values():
        assert value not in text

    # only the credentials file holds the sentinel, and it is private
    assert SENTINEL in kept.read_text()
    assert stat.S_IMODE(os.stat(kept).st_mode) == 0o600
    homes = {config.config_dir(), config.state_dir()}
    for home in homes:
        for path, text in files_under(home).items():
            if path != kept:
                assert SENTINEL not in text, path
