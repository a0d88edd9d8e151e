"""Snapshots of the migration monitor at 80x24 and 120x40: the start form, and a dry
run watched to completion with the watcher's clock frozen (elapsed times read 0s)."""

from __future__ import annotations

from typing import Any

from tests.helpers import settle


def reseller_app(make_app: Any) -> Any:
    app = make_app("migrations", token="demo-reseller", task_seconds=0.3)
    app.watcher.min_interval = 0.05
    app.watcher.clock = lambda: 1000.0
    return app


async def run_before(pilot: Any) -> None:
    await settle(pilot)


async def run_before_dry_run(pilot: Any) -> None:
    await settle(pilot)
    await pilot.press("s")
    app = pilot.app
    for _ in range(200):
        await pilot.pause(0.05)
        if app.watcher.tasks and not app.watcher.active:
            break
    app.clear_notifications()
    await settle(pilot)


def test_migrations_80x24(snap_compare: Any, make_app: Any) -> None:
    app = reseller_app(make_app)
    assert snap_compare(app, terminal_size=(80, 24), run_before=run_before_dry_run)


def test_migrations_120x40(snap_compare: Any, make_app: Any) -> None:
    app = reseller_app(make_app)
    assert snap_compare(app, terminal_size=(120, 40), run_before=run_before_dry_run)


def test_migrations_partner_key_80x24(snap_compare: Any, make_app: Any) -> None:
    app = make_app("migrations")
    assert snap_compare(app, terminal_size=(80, 24), run_before=run_before)
