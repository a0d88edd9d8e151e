"""Each screen finishes its job on a flaky link: 15 % of the requests meet a fault of any
kind of the simulator (keyed draws: the same requests fail on every run), and Rollout
lists, plans and writes 200 accounts, Fleet answers for every account, Scope lists its
tree, Voices and Functions fill, the inbox pages to its end (issue 24, section 4).

The client keeps its retry budget with no pauses and a short deadline
(`tests.faults.test_flaky_link.FLAKY_CLIENT`). A write is never sent again by itself: as
a user would, the test presses ``A`` again while accounts are left, and ``p`` then ``A``
for accounts whose staging looked moved since the plan.
"""

from __future__ import annotations

from typing import Any

from textual.widgets import DataTable, Input

from tests.faults.helpers import faulty_app
from tests.faults.test_flaky_link import FLAKY_CLIENT, RATE
from tests.helpers import settle, wait_for
from tests.pilot.test_rollout import confirm_review, fill_form, run_done, status_text
from tests.pilot.test_scope import expand, node_of
from vagent_tui.services.bulk import DONE
from vagent_tui.sim.faults import Faults
from vagent_tui.sim.fleet import ORG_BASE
from vagent_tui.ui.dialogs import ReviewModal
from vagent_tui.ui.widgets.rollout_form import RolloutForm

LONG = 90.0
"""Seconds a step may take on a loaded machine (a bound, not a measure)."""


def flaky_app(screen: str, *, seed: int = 24, account: int | None = None, **sim: Any) -> Any:
    faults = Faults(rate=RATE, seed=seed, keyed=True, retry_after=0, timeout_seconds=30.0)
    return faulty_app(screen, account=account, faults=faults, client_options=FLAKY_CLIENT, **sim)


def sim_of(app: Any) -> Any:
    return app.connection.api.sim_app.state.sim


def failed(app: Any) -> bool:
    return bool(app.screen.status.has_class("-error"))


async def test_rollout_of_200_accounts_lists_plans_and_writes_every_one() -> None:
    app = flaky_app("rollout", accounts=200)
    sim = sim_of(app)
    for account_id in list(sim.staging):
        sim.staging[account_id] = None  # no unpublished drafts: every account takes it
    async with app.run_test(size=(120, 40)) as pilot:
        screen = app.screen
        await wait_for(pilot, lambda: screen.accounts is not None or failed(app), LONG)
        assert screen.accounts is not None and len(screen.accounts) == 200, status_text(app)
        assert "200 agent accounts" in status_text(app)

        await fill_form(pilot, settings="speakingTimeout=901")
        await wait_for(pilot, lambda: not isinstance(app.screen, RolloutForm))
        await wait_for(pilot, lambda: screen.plan is not None and not screen.phase, LONG)
        first = screen.plan
        assert first.counts()["change"] == 200, first.summary()  # none unreadable

        plans = 0
        while plans < 3:
            plans += 1
            for _ in range(6):
                log = screen.results_log
                if len(log.written()) == len(screen.plan.changing()):
                    break
                await pilot.press("A")
                await wait_for(pilot, lambda: isinstance(app.screen, ReviewModal))
                await confirm_review(pilot)
                await run_done(pilot)
                left = [r for r in log.results.values() if r.result not in DONE]
                if any(r.result in ("failed", "unknown") for r in left):
                    assert "not written again (each read first)" in status_text(app)
                if left and all(r.result == "changed-meanwhile" for r in left):
                    assert "changed since the plan: p plans again" in status_text(app)
                    break
            if len(screen.results_log.written()) == len(screen.plan.changing()):
                break
            await pilot.press("p")
            old = screen.plan

            def planned_again(old: Any = old) -> bool:
                return bool(screen.plan is not old and not screen.phase)

            await wait_for(pilot, planned_again, LONG)

        assert all(sim.staging[a]["speakingTimeout"] == 901 for a in first.changing())
        posts = [r for r in sim.requests if r.method == "POST" and r.path == "/api/v2/agent"]
        carried_out = [r.query.get("targetAccountId") for r in posts if r.status == 200]
        assert len(carried_out) == len(set(carried_out)) == 200  # each once, never twice
        assert sim.faults.count() > 100
        assert app.is_running


async def test_fleet_answers_for_every_account() -> None:
    app = flaky_app("fleet", accounts=200)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = app.screen
        await wait_for(pilot, lambda: screen.accounts or failed(app), LONG)
        assert len(screen.accounts) == 200, str(screen.status.content)
        await pilot.press("s")
        await wait_for(pilot, lambda: len(screen.answers) == 200 or failed(app), LONG)
        await settle(pilot)
        assert screen.errors == 0 and not failed(app), str(screen.status.content)
        assert "200 answered" in str(screen.status.render())
        assert sim_of(app).faults.count() > 10


async def test_scope_lists_the_tree_down_to_an_agent() -> None:
    app = flaky_app("scope", accounts=200)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot, rounds=400)
        screen = app.screen
        assert not failed(app), str(screen.status.content)
        for account_id in (1100, 1110):
            await expand(pilot, screen, account_id)
            assert not failed(app), str(screen.status.content)
        assert node_of(screen, 1111) is not None


async def test_voices_and_functions_fill() -> None:
    for name, table_id, seed in (
        ("voices", "#voices-table", 3),
        ("functions", "#functions-table", 4),
    ):
        app = flaky_app(name, account=1111, seed=seed)
        async with app.run_test(size=(120, 40)) as pilot:
            await settle(pilot, rounds=400)
            assert not failed(app), str(app.screen.status.content)
            assert app.screen.query_one(table_id, DataTable).row_count > 0


async def test_the_inbox_pages_to_its_end() -> None:
    app = flaky_app("inbox", account=1111, rooms=200)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot, rounds=400)
        screen = app.screen
        if isinstance(screen.focused, Input):
            screen.set_focus(None)
        seen: set[str] = set()
        while True:
            assert not failed(app), str(screen.status.content)
            page = screen.pager.shown
            seen |= {room.room_id or "" for room in page.items}
            if page.page >= page.last_page:
                break
            wanted = page.page + 1
            await pilot.press("n")

            def paged(wanted: int = wanted) -> bool:
                shown = screen.pager.shown
                return bool((shown.page == wanted and screen.pager.answered) or failed(app))

            await wait_for(pilot, paged, LONG)
        assert screen.pager.total == 200 and len(seen) == 200


async def test_a_page_that_keeps_failing_says_which_and_r_lists_the_rest() -> None:
    app = flaky_app("rollout", accounts=200)
    faults = sim_of(app).faults
    faults.rate = 0.0
    broken = [True]
    original = faults.pick

    def pick(method: str, path: str, query: str = "") -> str | None:
        if broken[0] and path.endswith("/listAccounts") and f"={ORG_BASE + 3}&" in query + "&":
            return "truncated"
        fault: str | None = original(method, path, query)
        return fault

    faults.pick = pick
    async with app.run_test(size=(120, 40)) as pilot:
        screen = app.screen
        await wait_for(pilot, lambda: failed(app), LONG)
        message = status_text(app)
        assert f"Could not read page 1 of the accounts below {ORG_BASE + 3}" in message
        assert "not JSON" in message and "press r to retry" in message
        sim = sim_of(app)
        sim.clear_log()
        broken[0] = False
        await pilot.press("r")
        await wait_for(pilot, lambda: screen.accounts is not None or failed(app), LONG)
        assert len(screen.accounts) == 200, status_text(app)
        listed = {r.query.get("targetOrganizationId") for r in sim.requests
                  if r.path.endswith("/listAccounts")}  # fmt: skip
        assert listed == {str(ORG_BASE + 3)}  # the others' pages were kept
