"""One account of the simulator's hierarchy: its fields, and the shapes the API reads it in.

The record alone; `vagent_tui.sim.state.SimState` holds the accounts and decides, from
these fields, what a key may reach.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass
class Account:
    """One account of the hierarchy."""

    id: int
    username: str
    name: str
    account_type: str
    parent_id: int | None
    partner_id: int | None = None
    reseller_id: int | None = None
    organization_id: int | None = None
    permitted_ids: list[int] | None = None
    active: bool = True
    vida_premium: bool = False
    super_admin: bool = False
    plan: str = "pro"
    computer_agent: bool = False
    computer_delegate: int | None = None
    integrations: tuple[str, ...] = ()
    slots: int = 0
    created_at: str = "2024-01-01T00:00:00.000Z"
    email_address: str | None = None
    """A member's email as invited or changed; else one made from the username."""
    role: str = "admin"
    """A member's (``user``'s) role (`vagent_tui.sim.routes_members`)."""
    invited: bool = False
    """A member invited by ``POST /member`` who has not accepted yet."""
    external_account_id: str | None = None
    """The caller's own CRM id (`vagent_tui.sim.routes_provision`); unique in a partner's tree."""
    external_billing_id: str | None = None
    """The caller's billing system's id; shared ids allowed."""
    profile: dict[str, str] = field(default_factory=dict)
    """Details set by ``POST /account`` (`vagent_tui.sim.agent_extras`), read back in
    ``details``."""

    @property
    def email(self) -> str:
        return self.email_address or f"{self.username}@example.com"

    @property
    def paid(self) -> bool:
        return self.plan != "starter"

    @property
    def is_agent(self) -> bool:
        """A voice agent account (not a Computer Agent)."""
        return self.account_type == "account" and not self.computer_agent

    def scope_fields(self) -> dict[str, Any]:
        return {
            "accountType": self.account_type,
            "organizationId": self.organization_id,
            "partnerId": self.partner_id,
            "resellerId": self.reseller_id,
            "permittedAccountIds": list(self.permitted_ids or []),
            "superAdmin": self.super_admin,
            "active": self.active,
            "vidaPremium": self.vida_premium,
        }

    def read(self) -> dict[str, Any]:
        """The account read reply (scope fields at the top level and in ``details``)."""
        scope = self.scope_fields()
        details = {
            **scope,
            "name": self.name,
            "email": self.email,
            "createdAt": self.created_at,
            "plan": self.plan,
            **self.external_ids(),
            **self.profile,
        }
        return {"success": True, "id": self.id, "username": self.username, **scope,
                "details": details}  # fmt: skip

    def member(self) -> dict[str, Any]:
        """The member record of ``GET /members`` and ``GET /member`` (a ``user``)."""
        return {
            "id": self.id,
            "email": self.email,
            "name": self.name,
            "role": self.role,
            "permittedAccountIds": list(self.permitted_ids or []),
            "organizationId": self.organization_id,
            "status": "invited" if self.invited else "active",
        }

    def summary(self) -> dict[str, Any]:
        """The account object of list replies."""
        return {
            "id": self.id,
            "username": self.username,
            "name": self.name,
            "accountType": self.account_type,
            "organizationId": self.organization_id,
            "partnerId": self.partner_id,
            "resellerId": self.reseller_id,
            "parentId": self.parent_id,
            "active": self.active,
            "vidaPremium": self.vida_premium,
            "computerAgent": self.computer_agent,
            **self.external_ids(),
        }

    def external_ids(self) -> dict[str, str]:
        """The external ids that are set (an account without any shows none)."""
        ids = {"externalAccountId": self.external_account_id,
               "externalBillingId": self.external_billing_id}  # fmt: skip
        return {k: v for k, v in ids.items() if v is not None}
