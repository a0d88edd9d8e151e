"""Accounts come by the ten thousand: they share their set of fields sent, and stay frozen."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from vagent_tui.api.models import Account


def test_accounts_sent_the_same_fields_share_one_set() -> None:
    a = Account.model_validate({"id": 1, "name": "A", "accountType": "account"})
    b = Account.model_validate({"id": 2, "name": "B", "accountType": "account"})
    c = Account.model_validate({"id": 3, "username": "c"})
    assert a.model_fields_set is b.model_fields_set
    assert c.model_fields_set is not a.model_fields_set
    # what the server sent is still told apart from the defaults
    assert a.wire() == {"id": 1, "name": "A", "accountType": "account"}
    assert c.wire() == {"id": 3, "username": "c"}


def test_an_account_cannot_be_changed_so_no_shared_set_grows() -> None:
    a = Account.model_validate({"id": 1, "name": "A"})
    b = Account.model_validate({"id": 2, "name": "B"})
    with pytest.raises(ValidationError):
        a.active = True
    assert b.wire() == {"id": 2, "name": "B"}
    assert a.model_copy(update={"active": True}).wire()["active"] is True
    assert b.model_fields_set == {"id", "name"}


def test_extra_fields_are_kept_per_account() -> None:
    a = Account.model_validate({"id": 1, "oddField": "x"})
    b = Account.model_validate({"id": 2})
    assert a.wire() == {"id": 1, "oddField": "x"}
    assert b.wire() == {"id": 2}
