"""The session: who the key belongs to, its scope, and the target account in force."""

from __future__ import annotations

from collections.abc import Callable

from vagent_tui.api.client import PlatformClient
from vagent_tui.api.models import Account
from vagent_tui.api.scope import Scope, ScopeLevel, classify


class Session:
    """One connection to the platform with a key, and the account it acts as.

    ``target`` is None while the key acts as its owner; every request of the screens
    then goes without ``targetAccountId``. Listeners hear every change of target.
    """

    def __init__(self, client: PlatformClient, *, profile: str = "default") -> None:
        self.client = client
        self.profile = profile
        self.owner: Account | None = None
        self.scope: Scope | None = None
        self.target: Account | None = None
        self.listeners: list[Callable[[Session], None]] = []

    async def connect(self) -> Scope:
        """Read the key owner (no target) and classify its scope."""
        owner = await self.client.get_account()
        self.owner = owner
        self.scope = classify(owner)
        return self.scope

    async def resolve(self, account_id: int) -> Account:
        """Read an account as a target; raises if the key may not act on it."""
        if self.owner is not None and account_id == self.owner.id:
            return self.owner
        if self.scope is not None and self.scope.restricted and not self.scope.permits(account_id):
            from vagent_tui.api.errors import PlatformError

            raise PlatformError(
                f"This key is restricted to accounts "
                f"{', '.join(map(str, self.scope.permitted_account_ids))}"
            )
        return await self.client.get_account(target=account_id)

    def set_target(self, account: Account | None) -> None:
        """Act as ``account`` (None or the owner: act as the key owner)."""
        if account is not None and self.owner is not None and account.id == self.owner.id:
            account = None
        self.target = account
        for listener in list(self.listeners):
            listener(self)

    @property
    def target_id(self) -> int | None:
        """The ``targetAccountId`` to send, None when acting as the key owner."""
        return self.target.id if self.target is not None else None

    @property
    def acting_as(self) -> Account | None:
        return self.target or self.owner

    @property
    def acting_id(self) -> int | None:
        account = self.acting_as
        return account.id if account is not None else None

    @property
    def acting_type(self) -> str:
        account = self.acting_as
        return str(account.scope_field("accountType") or "") if account else ""

    @property
    def is_agent_selected(self) -> bool:
        """Agent screens need an agent account: the target, or an agent-level key."""
        if self.target is not None:
            return self.acting_type == "account"
        return self.scope is not None and self.scope.level is ScopeLevel.AGENT

    def context_line(self) -> str:
        """``acting as X via key of Y`` for the header."""
        owner = self.owner.display_name if self.owner else "?"
        if self.target is None:
            return f"acting as key owner {owner}"
        return f"acting as {self.target.display_name} (#{self.target.id}) via key of {owner}"
