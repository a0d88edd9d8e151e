"""The spec's key-scope rules (Authentication 4 and 5) as a table."""

from __future__ import annotations

from typing import Any

import pytest

from vagent_tui.api.models import Account
from vagent_tui.api.scope import Scope, ScopeLevel, classify

PA, RE, AG, OR, UN = (
    ScopeLevel.PARTNER,
    ScopeLevel.RESELLER,
    ScopeLevel.AGENT,
    ScopeLevel.ORGANIZATION,
    ScopeLevel.UNKNOWN,
)

RULES: list[Any] = [
    # --- rule 1
    pytest.param({"accountType": "partner"}, PA, 1, id="1-type-partner"),
    pytest.param({"accountType": "PARTNER"}, PA, 1, id="1-type-partner-upper"),
    pytest.param({"organizationId": 10, "partnerId": 10}, PA, 1, id="1-org-eq-partner"),
    pytest.param(
        {"accountType": "user", "organizationId": "10", "partnerId": 10},
        PA,
        1,
        id="1-org-eq-partner-text-vs-int",
    ),
    # --- rule 2
    pytest.param({"accountType": "reseller"}, RE, 2, id="2-type-reseller"),
    pytest.param(
        {"accountType": "user", "organizationId": 20, "resellerId": 20}, RE, 2, id="2-org-eq-res"
    ),
    pytest.param(
        {"accountType": "user", "organizationId": 20, "resellerId": "20"},
        RE,
        2,
        id="2-org-eq-reseller-int-vs-text",
    ),
    # --- rule 3
    pytest.param({"accountType": "account"}, AG, 3, id="3-type-account"),
    pytest.param(
        {"accountType": "account", "organizationId": 30, "resellerId": 20, "partnerId": 10},
        AG,
        3,
        id="3-account-in-hierarchy",
    ),
    # --- rule 4
    pytest.param({"accountType": "organization"}, OR, 4, id="4-type-organization"),
    pytest.param(
        {"accountType": "organization", "organizationId": 30, "resellerId": 20},
        OR,
        4,
        id="4-organization-with-ids",
    ),
    pytest.param({"accountType": "user", "organizationId": 30}, OR, 4, id="4-user-with-org"),
    pytest.param({"accountType": "user", "organizationId": "30"}, OR, 4, id="4-user-org-text"),
    # --- precedence: the first matching rule wins
    pytest.param(
        {"accountType": "reseller", "organizationId": 7, "partnerId": 7},
        PA,
        1,
        id="prec-reseller-type-but-org-eq-partner",
    ),
    pytest.param(
        {"accountType": "account", "organizationId": 8, "resellerId": 8},
        RE,
        2,
        id="prec-account-type-but-org-eq-reseller",
    ),
    pytest.param(
        {"accountType": "account", "organizationId": 9, "partnerId": 9},
        PA,
        1,
        id="prec-account-type-but-org-eq-partner",
    ),
    pytest.param(
        {"accountType": "partner", "organizationId": 4, "resellerId": 4},
        PA,
        1,
        id="prec-partner-type-over-org-eq-reseller",
    ),
    pytest.param(
        {"accountType": "organization", "organizationId": 5, "resellerId": 5},
        RE,
        2,
        id="prec-organization-type-but-org-eq-reseller",
    ),
    pytest.param(
        {"accountType": "user", "organizationId": 6, "partnerId": 6, "resellerId": 6},
        PA,
        1,
        id="prec-org-eq-both",
    ),
    # --- fields read from details when absent at the top level
    pytest.param({"id": 1, "details": {"accountType": "reseller"}}, RE, 2, id="details-type"),
    pytest.param(
        {"id": 1, "details": {"organizationId": "12", "partnerId": 12}},
        PA,
        1,
        id="details-org-eq-partner",
    ),
    pytest.param(
        {"accountType": "user", "organizationId": 13, "details": {"resellerId": "13"}},
        RE,
        2,
        id="mixed-top-and-details",
    ),
    pytest.param(
        {"accountType": "account", "details": {"accountType": "partner"}},
        AG,
        3,
        id="top-level-wins-over-details",
    ),
    pytest.param(
        {"details": {"accountType": "user", "organizationId": 14}}, OR, 4, id="details-user-org"
    ),
    # --- no rule
    pytest.param({"accountType": "user"}, UN, None, id="none-user-without-org"),
    pytest.param({"accountType": "user", "organizationId": ""}, UN, None, id="none-empty-org"),
    pytest.param({}, UN, None, id="none-empty"),
    pytest.param({"accountType": "account", "partnerId": None}, AG, 3, id="absent-never-equal"),
    pytest.param({"accountType": "guest", "organizationId": 3}, UN, None, id="none-unknown-type"),
    pytest.param({"organizationId": 3, "partnerId": 4, "resellerId": 5}, OR, 4, id="typeless-org"),
    pytest.param({"organizationId": "", "partnerId": ""}, UN, None, id="empty-ids-never-equal"),
]


@pytest.mark.parametrize(("account", "level", "rule"), RULES)
def test_scope_rules(account: dict[str, Any], level: ScopeLevel, rule: int | None) -> None:
    scope = classify(account)

    assert (scope.level, scope.rule) == (level, rule)
    assert classify(Account.model_validate(account)) == scope  # dict or model alike


@pytest.mark.parametrize(
    ("account", "restricted", "ids"),
    [
        pytest.param({"accountType": "user", "organizationId": 1}, False, (), id="absent"),
        pytest.param(
            {"accountType": "user", "organizationId": 1, "permittedAccountIds": []},
            False,
            (),
            id="empty",
        ),
        pytest.param(
            {"accountType": "user", "organizationId": 1, "permittedAccountIds": None},
            False,
            (),
            id="null",
        ),
        pytest.param(
            {"accountType": "user", "organizationId": 1, "permittedAccountIds": [31, 32]},
            True,
            (31, 32),
            id="present",
        ),
        pytest.param(
            {"accountType": "reseller", "details": {"permittedAccountIds": ["41", 42]}},
            True,
            (41, 42),
            id="in-details-numeric-text",
        ),
    ],
)
def test_permitted_account_ids_restriction(
    account: dict[str, Any], restricted: bool, ids: tuple[int, ...]
) -> None:
    scope = classify(account)

    assert scope.restricted is restricted
    assert scope.permitted_account_ids == ids


def test_restriction_does_not_change_the_rule() -> None:
    scope = classify({"accountType": "reseller", "permittedAccountIds": [5]})

    assert (scope.level, scope.rule) == (ScopeLevel.RESELLER, 2)
    assert scope.restricted


def test_permits() -> None:
    restricted = classify({"accountType": "organization", "permittedAccountIds": [31, 32]})
    open_scope = classify({"accountType": "organization", "permittedAccountIds": []})

    assert restricted.permits(31) and restricted.permits(32)
    assert not restricted.permits(33)
    assert open_scope.permits(33)


@pytest.mark.parametrize(
    ("account", "fragments"),
    [
        ({"accountType": "partner"}, ["Partner Admin", "rule 1", "accountType is partner"]),
        (
            {"organizationId": 12, "partnerId": 12},
            ["Partner Admin", "rule 1", "organizationId equals partnerId", "12"],
        ),
        (
            {"accountType": "account", "organizationId": 8, "resellerId": 8},
            ["Reseller Admin", "rule 2", "organizationId equals resellerId"],
        ),
        ({"accountType": "account"}, ["rule 3", "accountType is account"]),
        ({"accountType": "user", "organizationId": 9}, ["Organization Admin", "rule 4", "9"]),
        ({"accountType": "user"}, ["no rule matched"]),
        (
            {"accountType": "reseller", "permittedAccountIds": [5, 6]},
            ["rule 2", "restricted", "5, 6"],
        ),
    ],
)
def test_summary_names_rule_and_reason(account: dict[str, Any], fragments: list[str]) -> None:
    summary = classify(account).summary()

    for fragment in fragments:
        assert fragment in summary


def test_unrestricted_summary_does_not_claim_restriction() -> None:
    assert "restricted" not in classify({"accountType": "partner"}).summary()


@pytest.mark.parametrize(
    ("account", "root"),
    [
        ({"id": 1, "accountType": "partner", "partnerId": 100}, 100),
        ({"id": 2, "accountType": "reseller", "resellerId": "200"}, 200),
        ({"id": 3, "accountType": "organization", "organizationId": 300}, 300),
        ({"id": 4, "accountType": "account", "organizationId": 300}, 4),
        ({"id": 5, "accountType": "partner"}, 5),
    ],
)
def test_root_id(account: dict[str, Any], root: int) -> None:
    assert classify(account).root_id == root


def test_scope_keeps_ids_and_label() -> None:
    scope = classify({"id": 77, "accountType": "user", "organizationId": 70, "partnerId": 1})

    assert isinstance(scope, Scope)
    assert scope.account_id == 77
    assert scope.organization_id == 70
    assert scope.label == "Organization Admin"
