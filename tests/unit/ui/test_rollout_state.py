"""What the Rollout screen holds between keys and its header lines, without an app
(ui/screens/rollout_state.py)."""

from __future__ import annotations

import pytest

from vagent_tui.api.agent_extras_models import ModelCatalog
from vagent_tui.services.bulk import AccountResult
from vagent_tui.services.changes import Change
from vagent_tui.services.rollout import AccountPlan, FolderPlan, RolloutPlan
from vagent_tui.services.rollout_pick import AccountFilter
from vagent_tui.ui.screens.rollout_state import (
    RolloutView,
    change_line,
    chosen_text,
    plan_line,
)
from vagent_tui.ui.widgets.rollout_form import Catalog, RolloutRequest, check_request

ROWS = [AccountPlan(1, "one", "change"), AccountPlan(2, "two", "refused"),
        AccountPlan(3, "three", "change")]  # fmt: skip
RESULTS = {(3, "write"): AccountResult(3, "write", "failed", "no"),
           (1, "write"): AccountResult(1, "write", "written")}  # fmt: skip


@pytest.mark.parametrize(
    ("shown", "ids"),
    [("all", [1, 2, 3]), ("change", [1, 3]), ("refused", [2]), ("trouble", [3])],
)
def test_o_shows_some_rows(shown: str, ids: list[int]) -> None:
    view = RolloutView(shown=shown)
    assert [p.account_id for p in ROWS if view.keeps(p, RESULTS)] == ids


def test_o_goes_round_the_choices() -> None:
    view = RolloutView()
    said = [view.show_next() for _ in range(6)]
    assert said[0] == "will change" and said[-1] == "all accounts" and view.shown == "all"


def test_fleets_marks_hold_for_the_key_they_were_made_with_only() -> None:
    client, other = object(), object()
    view = RolloutView(marked=(5, 6), marked_with=client)
    assert view.marks_for(client) == (5, 6) and view.marks_for(other) == ()


def test_what_waits_for_the_listing_is_taken_once() -> None:
    view = RolloutView(choose_when_listed=True, fresh=True)
    assert view.take_choose() and not view.take_choose()
    assert view.take_fresh() and not view.take_fresh()


def test_the_accounts_chosen_in_words() -> None:
    request = RolloutRequest(marked_only=True, account_filter=AccountFilter.parse("acme"))
    assert chosen_text(request, "Bluebird", 3) == ("marked in Fleet (3), matching acme")
    assert chosen_text(RolloutRequest(only_ids=(1, 2)), "X", 9) == (
        "below X, the 2 accounts of the loaded plan"
    )


def test_the_header_lines() -> None:
    assert change_line(None, RolloutRequest(), "below X") == "Change: none yet · c chooses one"
    assert plan_line(None, None, "all") == ""
    plan = RolloutPlan(RolloutRequest().change, ROWS, chosen="below X")
    assert change_line(plan, RolloutRequest(), "ignored").endswith(" · accounts below X")
    line = plan_line(plan, None, "trouble")
    assert line.startswith(f"Plan: {plan.summary()}")
    assert line.endswith(" · showing a write or publish that did not go through")
    folder = FolderPlan(Change(), ROWS, chosen="folder fleet")  # a plan of edited files
    assert change_line(folder, RolloutRequest(), "") == (
        "Change: each account's edits in folder fleet · accounts folder fleet"
    )


@pytest.mark.parametrize(
    ("settings", "error"),
    [("agentModel=gpt-4.1", None),
     ("speakingTimeout=900; agentModel=gpt-9", "agentModel: gpt-9 is not a model the platform"),
     ("agentThinkingModel=o9", "agentThinkingModel: o9 is not a model the platform")],
)  # fmt: skip
def test_the_form_refuses_a_model_the_platform_does_not_offer(
    settings: str, error: str | None
) -> None:
    models = ModelCatalog.of_reply({"gpt-4.1": {"provider": "openai"}})
    errors, request = check_request("", "", settings, "", Catalog(models=models))
    assert (request is None) == (error is not None)
    assert errors.get("settings", "").startswith(error or "")
