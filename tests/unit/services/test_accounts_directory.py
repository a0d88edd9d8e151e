"""The account directory for the keys the scope rules treat specially: a restricted
member (rule 5) and a user whose fields make it an admin (rules 1, 2 and 4)."""

from __future__ import annotations

from collections.abc import Set as AbstractSet
from typing import Any

import pytest

from vagent_tui.api.errors import ApiError
from vagent_tui.api.models import Account, AccountPage
from vagent_tui.api.scope import classify
from vagent_tui.services.accounts import AccountDirectory


class FakeClient:
    """Account reads by target and organization lists; ids in ``refused`` answer 403."""

    def __init__(self, accounts: dict[int, dict[str, Any]], refused: set[int]) -> None:
        self.accounts = accounts
        self.refused = refused
        self.calls: list[tuple[str, int | None]] = []

    async def get_account(self, *, target: int | None = None) -> Account:
        self.calls.append(("account", target))
        if target in self.refused:
            raise ApiError(403, "Target account is outside your hierarchy")
        assert target is not None
        return Account.model_validate(self.accounts[target])

    async def list_accounts(self, organization_id: int, **_: Any) -> AccountPage:
        self.calls.append(("listAccounts", organization_id))
        items = [Account.model_validate(a) for a in self.accounts.values()
                 if a.get("parentId") == organization_id]  # fmt: skip
        return AccountPage(items=items, total=len(items))

    async def list_resellers(self, partner_id: int, **_: Any) -> AccountPage:
        raise AssertionError("no partner here")

    list_organizations = list_resellers


ORG = {"id": 3, "accountType": "organization", "organizationId": 3}
AGENTS = {i: {"id": i, "accountType": "account", "parentId": 3} for i in (5, 6, 7)}


def directory(
    owner: dict[str, Any], refused: AbstractSet[int] = frozenset()
) -> tuple[FakeClient, AccountDirectory]:
    client = FakeClient({3: ORG, **AGENTS}, set(refused))
    account = Account.model_validate(owner)
    return client, AccountDirectory(client, classify(account), account)  # type: ignore[arg-type]


async def test_restricted_member_reads_its_permitted_accounts_and_skips_refused_ones() -> None:
    owner = {"id": 9, "accountType": "user", "organizationId": 3, "permittedAccountIds": [5, 7]}
    client, found = directory(owner, refused={7})
    assert [a.id for a in await found.children(found.owner)] == [5]
    assert ("listAccounts", 3) not in client.calls  # its organization is never listed


@pytest.mark.parametrize("refused", [set(), {3}])
async def test_user_shaped_admin_has_its_scope_account_as_child(refused: set[int]) -> None:
    """Its organization, read as a target; a platform refusing that read gets the list."""
    _, found = directory({"id": 9, "accountType": "user", "organizationId": 3}, refused)
    assert found.scope_account_id() == 3
    children = await found.children(found.owner)
    if refused:
        assert [a.id for a in children] == [5, 6, 7]
    else:
        assert [a.id for a in children] == [3]
        assert [a.id for a in await found.children(children[0])] == [5, 6, 7]


async def test_an_organization_key_lists_its_own_children() -> None:
    client, found = directory(ORG)
    assert found.scope_account_id() is None
    assert [a.id for a in await found.children(found.owner)] == [5, 6, 7]
    assert client.calls == [("listAccounts", 3)]


async def test_a_prefetch_is_read_once_and_its_failure_reaches_the_next_reader() -> None:
    import asyncio

    client, found = directory(ORG)
    both = await asyncio.gather(found.prefetch(found.owner), found.children(found.owner))
    assert [a.id for a in both[1] or []] == [5, 6, 7]  # waited for the prefetch's read
    assert [a.id for a in found.cached_children(found.owner) or []] == [5, 6, 7]
    assert client.calls == [("listAccounts", 3)]

    client, found = directory(ORG)
    real = client.list_accounts

    async def down(*_: Any, **__: Any) -> AccountPage:
        raise ApiError(503, "Service unavailable")

    client.list_accounts = down  # type: ignore[method-assign]
    await found.prefetch(found.owner)  # nobody is waiting: nothing raised here
    assert found.cached_children(found.owner) is None
    client.list_accounts = real  # type: ignore[method-assign]
    with pytest.raises(ApiError, match="unavailable"):
        await found.children(found.owner)  # the failure nobody saw, once
    assert [a.id for a in await found.children(found.owner)] == [5, 6, 7]


async def test_the_tree_changes_in_place_without_reading_again() -> None:
    client, found = directory(ORG)
    org = found.owner
    await found.children(org)
    new = Account.model_validate({"id": 8, "accountType": "account", "name": "New"})
    found.added(org, new)
    assert [a.id for a in await found.children(org)] == [5, 6, 7, 8]
    assert [a.id for a in found.path_of(8)] == [3, 8]
    renamed = new.model_copy(update={"name": "Renamed"})
    found.replaced(renamed)
    assert (await found.children(org))[-1].name == "Renamed" and found.known[8] is renamed
    found.removed(6)
    assert [a.id for a in await found.children(org)] == [5, 7, 8] and 6 not in found.known
    assert client.calls == [("listAccounts", 3)]  # never read again
    found.forget_children(3)
    await found.children(org)
    assert client.calls == [("listAccounts", 3)] * 2
