"""What the Scope screen holds between keys (ui/screens/scope_state.py), without an app."""

from __future__ import annotations

from typing import Any, cast

import pytest

from vagent_tui.api.client import PlatformClient
from vagent_tui.api.models import Account, SettingsChange
from vagent_tui.api.scope import classify
from vagent_tui.services.accounts import AccountDirectory, Matches
from vagent_tui.ui.screens.scope_state import (
    SEARCH_DEBOUNCE,
    FilterState,
    TreeState,
    chain_to,
    delete_parent,
    edited,
    match_count,
)


def _account(n: int, kind: str, **extra: Any) -> Account:
    return Account.model_validate({"id": n, "name": f"{kind} {n}", "accountType": kind, **extra})


RESELLER = _account(1100, "reseller", resellerId=1100)
ORG = _account(1110, "organization", resellerId=1100)
AGENT = _account(1111, "account", organizationId=1110, resellerId=1100)


def _tree() -> TreeState:
    """A reseller's tree with an organization and one of its agent accounts known."""
    directory = AccountDirectory(cast(PlatformClient, object()), classify(RESELLER), RESELLER)
    directory.added(RESELLER, ORG)
    directory.added(ORG, AGENT)
    state = TreeState()
    state.start(directory)
    return state


def test_children_are_shown_once_and_a_read_again_is_quiet_once() -> None:
    state = _tree()
    assert state.shown(1110) and not state.shown(1110)
    assert state.announced(1110)
    state.read_again(1110)
    assert 1110 not in state.loaded
    assert state.shown(1110)
    assert not state.announced(1110)  # the change's line stays…
    assert state.announced(1110)  # …once


def test_a_new_tree_keeps_nothing_of_the_last() -> None:
    state = _tree()
    state.shown(1110)
    state.members[1110] = []
    state.fresh = True
    assert state.directory is not None
    state.start(state.directory)
    assert (state.loaded, state.members, state.fresh) == (set(), {}, False)


@pytest.mark.parametrize(
    ("account", "home", "target"),
    [
        (AGENT, 1110, 1111),  # an agent account names itself
        (ORG, 1110, 1110),  # another home names itself
        (RESELLER, 1100, None),  # the key owner's own home: the key's
    ],
)
def test_the_home_and_the_target_that_reads_its_members(
    account: Account, home: int, target: int | None
) -> None:
    state = _tree()
    assert state.home(account) == home
    assert state.members_target(account, home, RESELLER, ()) == target
    assert state.name_of(1110) == "organization 1110" and state.name_of(9) is None


def test_a_restricted_key_reads_its_owners_members_through_its_first_account() -> None:
    assert _tree().members_target(RESELLER, 1100, RESELLER, (1112, 1113)) == 1112


def test_no_tree_no_home() -> None:
    assert TreeState().home(AGENT) is None and TreeState().name_of(1110) is None


def _matches(query: str, total: int = 1, partial: str = "") -> Matches:
    return Matches(query, (AGENT,), total, "search", partial=partial)


def test_an_enter_waits_for_its_text_only() -> None:
    state = FilterState(pick_pending="pine")
    state.typed("pine")
    assert state.pick_pending == "pine"
    assert not state.take_pick("pin") and state.take_pick("pine")
    assert state.pick_pending is None
    state.pick_pending = "pine"
    state.typed("pinex")  # the text changed: the enter is dropped
    assert state.pick_pending is None


def test_the_answer_is_for_its_own_text() -> None:
    state = FilterState(answer=_matches("petro"))
    assert state.answer_for("petro") is state.answer
    assert state.answer_for("pine") is None
    state.clear()
    assert state.answer is None and state.answer_for("petro") is None


def test_a_key_on_its_own_searches_at_once_a_burst_waits() -> None:
    state = FilterState()
    assert state.debounce(100.0) == 0.0
    assert state.debounce(100.0 + SEARCH_DEBOUNCE / 2) == SEARCH_DEBOUNCE
    assert state.debounce(101.0) == 0.0


@pytest.mark.parametrize(
    ("found", "said"),
    [
        (_matches("x", total=0), "No account matches “x”"),
        (_matches("x"), "1 account matches “x”"),
        (_matches("x", total=1234), "1,234 accounts match “x”, the best 1 shown"),
        (_matches("x", total=0, partial="cut"), "No account matches “x” in the accounts walked"),
    ],
)
def test_the_line_above_the_matches(found: Matches, said: str) -> None:
    assert match_count(found).startswith(said)


def test_the_chain_down_to_an_account_starts_below_the_root() -> None:
    assert chain_to(AGENT, 1100) == [1110, 1111]
    assert chain_to(AGENT, None) == [1100, 1110, 1111]
    assert chain_to(_account(5, "account", organizationId="7"), 99) == [7, 5]


@pytest.mark.parametrize(
    ("account", "parent", "expected"),
    [
        (AGENT, None, 1110),  # from its fields
        (_account(1111, "account"), ORG, 1110),  # else the tree's parent
        (ORG, None, 1100),
        (_account(1110, "organization"), None, None),  # not known
        (RESELLER, None, None),  # not deleted here
    ],
)
def test_the_parent_a_delete_names(
    account: Account, parent: Account | None, expected: int | None
) -> None:
    assert delete_parent(account, parent) == expected


def test_an_edit_applies_what_the_platform_saved_and_names_what_it_refused() -> None:
    sent = {"accountName": "New", "externalAccountId": "AC_1"}
    change = SettingsChange.model_validate(
        {"updatedSettings": ["accountName"], "failedSettings": ["externalAccountId"],
         "failedReasons": {"externalAccountId": "taken"}}
    )  # fmt: skip
    result = edited(AGENT, sent, change)
    assert result.account.name == "New" and result.account.external_account_id is None
    assert (result.saved, result.refused) == ("name", "external id (taken)")
    assert AGENT.name == "account 1111"  # the account read is not changed


def test_a_reply_naming_no_setting_applied_them_all() -> None:
    result = edited(AGENT, {"active": False}, SettingsChange())
    assert result.account.active is False and (result.saved, result.refused) == ("status", "")


def test_a_reply_refusing_every_setting_applied_none() -> None:
    change = SettingsChange.model_validate({"failedSettings": ["accountName"]})
    result = edited(AGENT, {"accountName": "New"}, change)
    assert result.account == AGENT and (result.saved, result.refused) == ("nothing", "name")
