"""The connection: one immutable value for whom the app talks to, and as which account.

`Connection` is the app's one piece of shared state (``VagentApp.connection``, a
reactive). Nothing changes it in place: connecting, switching the target or the
profile makes a new value, and everything that follows the connection (screens, the
context bar) reacts to the new value. A worker compares the value it started with to
the current one (`Connection.same_context`) and drops a result that is no longer wanted.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from vagent_tui import config as cfg
from vagent_tui.api.client import PlatformClient
from vagent_tui.api.errors import PlatformError
from vagent_tui.api.models import Account
from vagent_tui.api.scope import Scope, ScopeLevel, classify
from vagent_tui.api.targets import Target, level_target
from vagent_tui.services.accounts import AccountDirectory


@dataclass(frozen=True)
class Connection:
    """A client, its profile, the key owner's scope and the target account in force.

    ``target`` is None while the key acts as its owner; every request of the screens
    then goes without ``targetAccountId``. ``client`` is None only before the first
    profile exists (the setup screen makes one).
    """

    client: PlatformClient | None = None
    label: str = "setup"
    """What the header and the journal call this connection (profile name or host)."""
    profile: cfg.Profile | None = None
    tier: str = ""
    read_only: bool = False
    owner: Account | None = None
    scope: Scope | None = None
    target: Account | None = None
    error: BaseException | None = None
    """Why the last attempt to connect failed; None after a success."""
    directory: AccountDirectory | None = field(default=None, compare=False, repr=False)
    """The key's accounts as read so far, made on connecting: the app reads the first
    level into it while the first screen is built, and Scope's tree starts from it."""

    # ------------------------------------------------------------------ state

    @property
    def connected(self) -> bool:
        """The key owner has been read: screens may load."""
        return self.client is not None and self.scope is not None

    @property
    def api(self) -> PlatformClient:
        """The client, for code that only runs while connected."""
        if self.client is None:
            raise RuntimeError("no connection yet")
        return self.client

    def same_context(self, other: Connection) -> bool:
        """Same client and same target: a reply for one is still good for the other."""
        return self.client is other.client and self.target_id == other.target_id

    # ------------------------------------------------------------------ new values

    async def connect(self) -> Connection:
        """Read the key owner (no target) and classify its scope: the connected value."""
        owner = await self.api.get_account()
        scope = classify(owner)
        directory = AccountDirectory(self.api, scope, owner)
        return replace(self, owner=owner, scope=scope, error=None, directory=directory)

    def failed(self, error: BaseException) -> Connection:
        """This value, with the reason the last attempt to connect failed."""
        return replace(self, error=error)

    def retrying(self) -> Connection:
        """This value, its last failure forgotten (a new attempt is under way)."""
        return replace(self, error=None)

    def with_target(self, account: Account | None) -> Connection:
        """Act as ``account`` (None or the owner: act as the key owner)."""
        if account is not None and self.owner is not None and account.id == self.owner.id:
            account = None
        # Acting as an account now: a failure to pick the one asked for earlier is old.
        return replace(self, target=account, error=None if self.connected else self.error)

    async def resolve(self, account_id: int) -> Account:
        """Read an account as a target; raises if the key may not act on it."""
        if self.owner is not None and account_id == self.owner.id:
            return self.owner
        if self.scope is not None and self.scope.restricted and not self.scope.permits(account_id):
            raise PlatformError(
                f"This key is restricted to accounts "
                f"{', '.join(map(str, self.scope.permitted_account_ids))}"
            )
        return await self.api.get_account(target=account_id)

    # ------------------------------------------------------------------ reading

    @property
    def target_id(self) -> int | None:
        """The ``targetAccountId`` to send, None when acting as the key owner."""
        return self.target.id if self.target is not None else None

    def target_at(self, *levels: ScopeLevel) -> Target | None:
        """How a request for a resource scoped at ``levels`` selects the target.

        A target of one of those levels goes by that level's parameter (a reseller's
        templates: ``targetResellerId``, rule 9); any other by ``targetAccountId``;
        None while acting as the key owner (`vagent_tui.api.targets.level_target`).
        """
        return level_target(self.target, *levels)

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

    @property
    def reseller_or_partner_key(self) -> bool:
        """Whether the key may use what the vendor's reference says is "Reseller/Partner
        only" (``getAccountByExternalId``): a partner or reseller key (scope rules 1
        and 2) not restricted to accounts, or a super admin's (vida-skill: a super admin
        "is not limited by the returned accountType"). Unknown before connecting."""
        if self.scope is None:
            return False
        if self.owner is not None and self.owner.super_admin is True:
            return True
        levels = (ScopeLevel.PARTNER, ScopeLevel.RESELLER)
        return self.scope.level in levels and not self.scope.restricted

    def context_line(self) -> str:
        """``acting as X via key of Y`` for the header."""
        owner = self.owner.display_name if self.owner else "?"
        if self.target is None:
            return f"acting as key owner {owner}"
        return f"acting as {self.target.display_name} (#{self.target.id}) via key of {owner}"


def origin_of(connection: Connection) -> str:
    """Where a plan (a rollout's, a file's onboarding, a folder's) and its log belong: the
    platform's identity (`PlatformClient.platform_id`: its address; the embedded demo's
    own run) and the key owner (never the key, nor a password the base URL may carry)."""
    owner = connection.owner.id if connection.owner is not None else None
    platform = connection.client.platform_id if connection.client is not None else ""
    return f"{platform} · key of account {owner}"


async def open_connection(
    client: PlatformClient,
    *,
    label: str,
    profile: cfg.Profile | None = None,
    tier: str = "",
    read_only: bool = False,
    target_account: int | None = None,
) -> Connection:
    """Connect with ``client`` and act as ``target_account`` if given; raises on failure."""
    connection = Connection(client, label=label, profile=profile, tier=tier, read_only=read_only)
    connection = await connection.connect()
    if target_account is not None:
        connection = connection.with_target(await connection.resolve(target_account))
    return connection
