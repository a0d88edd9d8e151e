"""The organization's delete question names what goes with it (the vendor: deleted
"immediately", nothing kept named), counted and named from its accounts as listed."""

from __future__ import annotations

from typing import Any

import pytest

from vagent_tui.api.models import Account, Member
from vagent_tui.ui.screens.scope_changes import organization_goes


def _account(n: int, **extra: Any) -> Account:
    return Account.model_validate({"id": n, "name": f"Agent {n}", "accountType": "account",
                                   **extra})  # fmt: skip


@pytest.mark.parametrize(
    ("below", "members", "said"),
    [
        ([_account(n) for n in range(1, 6)], None,
         "5 agent accounts (Agent 1, Agent 2, Agent 3 and 2 more), each with its "
         "configuration, versions, tasks and conversations"),
        ([_account(1), _account(2, computerAgent=True)], [],
         "1 agent account (Agent 1) and 1 Computer Agent (Agent 2)"),
        ([_account(1)], [Member.model_validate({"id": 9, "email": "a@b.c"})],
         "its 1 member loses access, their keys stop working"),
        ([], None, "it has no agent account; its members lose access"),
        ([_account(1, name="[b]x\x1b[2J")], None, "([b]x\u241b[2J)"),  # ESC shown inert
    ],
)  # fmt: skip
def test_the_question_names_what_goes(
    below: list[Account], members: list[Member] | None, said: str
) -> None:
    text = organization_goes(below, members)
    assert "at once" in text and said in text and "\x1b" not in text
