"""Make the SVG screenshots of README from the running app, on the embedded simulator.

    python screenshots/make.py            # every screen, 120x40
    python screenshots/make.py voices     # one screen

Relative times are pinned with ``VAGENT_NOW`` so the pictures are the same on every run.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

os.environ.setdefault("VAGENT_NOW", "2025-11-20T12:00:00+00:00")
os.environ["TZ"] = "UTC"  # local times (Calls) read the same wherever the pictures are made
time.tzset()
FIXED_CLOCK = 1_763_640_000.0
"""VAGENT_NOW as epoch seconds: the simulator's clock of the Calls picture."""
# The pictures never read or write the user's own configuration or journal.
_SCRATCH = tempfile.mkdtemp(prefix="vagent-shots-")
os.environ["XDG_STATE_HOME"] = os.path.join(_SCRATCH, "state")
os.environ["VAGENT_CONFIG"] = os.path.join(_SCRATCH, "config", "config.toml")

HERE = Path(__file__).resolve().parent
SIZE = (120, 40)

Steps = Callable[[Any], Awaitable[None]]


async def _idle(pilot: Any) -> None:
    for _ in range(60):
        await pilot.pause(0.05)
        if not any(w.is_running and not w.group.startswith("watch-") for w in pilot.app.workers):
            break
    await pilot.pause(0.2)


async def _keys(pilot: Any, *keys: str) -> None:
    for key in keys:
        await pilot.press(key)
        await _idle(pilot)


async def _scope(pilot: Any) -> None:
    await _keys(pilot, "down", "space", "down", "space", "down", "down")


async def _migrations(pilot: Any) -> None:
    app = pilot.app
    app.watcher.min_interval = 0.2
    await _keys(pilot, "s")
    for _ in range(100):
        await pilot.pause(0.1)
        if app.watcher.tasks and not app.watcher.active:
            break
    app.clear_notifications()
    await _idle(pilot)


async def _room(pilot: Any) -> None:
    # 1111:230, a long thread: the second page, a message with attachments highlighted
    await _keys(pilot, *["down"] * 10, "enter", "n", *["down"] * 14)


async def _calls(pilot: Any) -> None:
    # the simulator's clock at the pictures' fixed time: the same calls on every run
    await _keys(pilot, "down", "down")


async def _caller_context(pilot: Any) -> None:
    # K on a call: the text in the editor, then its review (the text as it will be, the diff)
    from textual.widgets import TextArea

    await _keys(pilot, "down", "down", "K")
    area = pilot.app.screen.query_one(TextArea)
    area.text = (area.text + "\n" if area.text else "") + "Name: Dana Lee\nPrefers texts"
    await _keys(pilot, "ctrl+s")


async def _webhooks_relays(pilot: Any) -> None:
    await _keys(pilot, "t")


# name -> (screen, demo key, account, extra steps)
async def _fleet(pilot: Any) -> None:
    app = pilot.app
    await _keys(pilot, "s")
    for _ in range(200):
        await pilot.pause(0.1)
        if not any(w.is_running for w in app.workers if w.node is app.screen):
            break
    app.clear_notifications()
    await _idle(pilot)


async def _fleet_usage(pilot: Any) -> None:
    await _keys(pilot, "v", "v", "v", "v")  # functions, voice, junk, calls -> usage
    await _fleet(pilot)


async def _journal(pilot: Any) -> None:
    """A few changes first, so the journal has something to show."""
    from vagent_tui.api.errors import PlatformError

    client = pilot.app.connection.api
    await client.add_sip_entry("203.0.113.50", "Branch office", target=1111)
    await client.add_webhook("https://hooks.example.com/leads", "contact", "Leads", target=1111)
    await client.delete_sip_entry("203.0.113.50", target=1111)
    # The simulator's documented 500: it shows as a failed entry.
    with contextlib.suppress(PlatformError):
        await client.delete_relay("legacyCrm")
    await _keys(pilot, "r")


async def _use_voice(pilot: Any) -> None:
    table = pilot.app.screen.query_one("#voices-table")
    table.move_cursor(row=[str(k.value) for k in table.rows].index("openai-ash"))
    await _keys(pilot, "u")


async def _settings(pilot: Any) -> None:
    await _keys(pilot, "E")
    screen = pilot.app.screen
    screen.query_one("#set-speakingTimeout").value = "900"
    screen.query_one("#set-speakingTimeout").focus()
    screen.query_one("#field-speakingTimeout").scroll_visible(animate=False, top=True)
    await _idle(pilot)


async def _publish(pilot: Any) -> None:
    await _keys(pilot, "P")


async def _rollout(pilot: Any) -> None:
    """A voice planned for the demo partner's agents, applied, and a first wave published
    (one account's staging changed by someone else meanwhile, to show that result)."""
    app = pilot.app

    async def until(check: Callable[[], object]) -> None:
        for _ in range(200):
            if check():
                return
            await pilot.pause(0.05)

    async def field(selector: str, value: str) -> None:
        await until(lambda: app.screen.query(selector))
        app.screen.query_one(selector).value = value
        await pilot.press("enter")
        await _idle(pilot)

    sim = app.connection.api.sim_app.state.sim
    for account_id in list(sim.staging):  # one agent keeps an unpublished draft of its own
        if account_id != 1111:
            sim.staging[account_id] = None
    await _keys(pilot, "c")
    await field("#rollout-voice", "elevenlabs-antoni")
    await until(lambda: getattr(app.screen, "plan", None) is not None)
    sim.edit_staging(1212, agentLang="es-MX")
    await _keys(pilot, "A", "y")
    await until(lambda: not app.screen.phase)
    await _keys(pilot, "P")
    await field("#prompt-input", "2")
    await field("#review-word", "publish")
    await until(lambda: not app.screen.phase)
    app.clear_notifications()
    await _idle(pilot)


async def _members_pane(pilot: Any) -> None:
    # Bluebird's organizations, Acme Dental opened, its Spanish line highlighted.
    await _keys(pilot, "down", "space", "down", "down")


async def _member_dana(pilot: Any) -> None:
    await _keys(pilot, "down")


async def _members_picker(pilot: Any) -> None:
    await _keys(pilot, "down", "e")
    await pilot.click("#form-pick-accounts")
    await _idle(pilot)


async def _members_login(pilot: Any) -> None:
    await _keys(pilot, "down", "L", "enter")


async def _sip_registration(pilot: Any) -> None:
    await _keys(pilot, "t", "t")


SHOTS: dict[str, tuple[str, str, int | None, Steps | None]] = {
    "scope": ("scope", "demo-partner", None, _scope),
    "agent": ("agent", "demo-partner", 1111, None),
    "voices": ("voices", "demo-partner", 1113, None),
    "functions": ("functions", "demo-partner", 1113, None),
    "inbox": ("inbox", "demo-partner", 1111, None),
    "room": ("inbox", "demo-partner", 1111, _room),
    "calls": ("calls", "demo-partner", 1111, _calls),
    "caller-context": ("calls", "demo-partner", 1111, _caller_context),
    "migrations": ("migrations", "demo-partner", 1100, _migrations),
    "tokens": ("tokens", "demo-partner", None, None),
    "billing": ("billing", "demo-partner", 1100, None),
    "sip": ("sip", "demo-partner", None, None),
    "numbering": ("numbering", "demo-partner", 1110, None),
    "sip-registration": ("sip", "demo-partner", 1111, _sip_registration),
    "webhooks": ("webhooks", "demo-partner", None, _webhooks_relays),
    "computer": ("computer", "demo-partner", 1118, None),
    "fleet": ("fleet", "demo-partner", None, _fleet),
    "usage": ("usage", "demo-partner", 1111, None),
    "fleet-usage": ("fleet", "demo-partner", None, _fleet_usage),
    "journal": ("journal", "demo-partner", None, _journal),
    "rollout": ("rollout", "demo-partner", None, _rollout),
    "change-voice": ("voices", "demo-partner", 1111, _use_voice),
    "change-settings": ("agent", "demo-partner", 1112, _settings),
    "change-publish": ("agent", "demo-partner", 1112, _publish),
    "theme-dark": ("voices", "demo-partner", 1113, None),
    "theme-light": ("voices", "demo-partner", 1113, None),
    "theme-high-contrast": ("voices", "demo-partner", 1113, None),
    "theme-ansi": ("voices", "demo-partner", 1113, None),
    "prod-read-only": ("sip", "demo-partner", None, None),
    "setup": ("scope", "", None, None),
    "scope-members": ("scope", "demo-reseller", None, _members_pane),
    "members": ("members", "demo-org", 1110, _member_dana),
    "members-picker": ("members", "demo-org", 1110, _members_picker),
    "members-login": ("members", "demo-reseller", 1110, _members_login),
}


def _options(name: str) -> dict[str, Any]:
    """Extra `VagentApp` options of the theme, tier and setup shots."""
    from vagent_tui import config as cfg

    if name.startswith("theme-"):
        return {"theme": "vagent-" + name.removeprefix("theme-")}
    if name == "prod-read-only":
        profile = cfg.Profile("prod", "https://api.example.com", tier="prod", token_env="X")
        return {"profile": profile, "profile_label": "prod"}
    if name == "setup":
        return {"config": cfg.Config(path=Path("/nonexistent/config.toml"))}
    return {}


async def shoot(name: str) -> Path:
    from vagent_tui.services.connect import demo_client
    from vagent_tui.ui.app import VagentApp

    screen, token, account, steps = SHOTS[name]
    options: dict[str, Any] = {
        "profile_label": f"demo · {token}",
        "initial_screen": screen,
        "initial_account": account,
        **_options(name),
    }
    # The call log and usage move with the simulator's clock: pinned for its picture (the
    # migrations' tasks need theirs to run).
    pinned = ("calls", "caller-context", "usage", "fleet-usage")
    clock = {"clock": lambda: FIXED_CLOCK} if name in pinned else {}
    client = demo_client(token, task_seconds=3, **clock) if token else None
    app = VagentApp(client, **options)
    async with app.run_test(size=SIZE) as pilot:
        await _idle(pilot)
        if steps is not None:
            await steps(pilot)
        svg = app.export_screenshot(title=f"vagent-tui — {name}")
    path = HERE / f"{name}.svg"
    path.write_text(svg, encoding="utf-8")
    return path


def main(argv: list[str]) -> int:
    names = argv or list(SHOTS)
    for name in names:
        print(asyncio.run(shoot(name)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
