"""The key-scope rules of the spec (Authentication, rules 4 and 5), as pure functions.

The scope of a key is found by reading the account without ``targetAccountId`` and
applying the first matching rule:

1. ``accountType`` is partner, or ``organizationId`` equals ``partnerId`` -> Partner Admin
2. ``accountType`` is reseller, or ``organizationId`` equals ``resellerId`` -> Reseller Admin
3. ``accountType`` is account -> that Agent account
4. ``accountType`` is organization, or a remaining user account with an
   ``organizationId`` -> Organization Admin

If ``permittedAccountIds`` is present and nonempty, the member is restricted to those
child accounts. Nothing broader is inferred from any other attribute.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from vagent_tui.api.models import Account


class ScopeLevel(StrEnum):
    PARTNER = "partner"
    RESELLER = "reseller"
    AGENT = "agent"
    ORGANIZATION = "organization"
    UNKNOWN = "unknown"

    @property
    def label(self) -> str:
        return {
            ScopeLevel.PARTNER: "Partner Admin",
            ScopeLevel.RESELLER: "Reseller Admin",
            ScopeLevel.AGENT: "Agent account",
            ScopeLevel.ORGANIZATION: "Organization Admin",
            ScopeLevel.UNKNOWN: "No recognised scope",
        }[self]


@dataclass(frozen=True, slots=True)
class Scope:
    """The verdict of the scope rules for one key owner."""

    level: ScopeLevel
    rule: int | None
    """Number of the rule that matched (1-4), None when none did."""
    reason: str
    """Why that rule matched, in the terms of the returned account."""
    account_id: int | None
    organization_id: Any
    partner_id: Any
    reseller_id: Any
    permitted_account_ids: tuple[int, ...] = ()

    @property
    def label(self) -> str:
        return self.level.label

    @property
    def restricted(self) -> bool:
        return bool(self.permitted_account_ids)

    @property
    def root_id(self) -> int | None:
        """The account whose children this key may list first."""
        if self.level is ScopeLevel.PARTNER:
            return _as_int(self.partner_id) or self.account_id
        if self.level is ScopeLevel.RESELLER:
            return _as_int(self.reseller_id) or self.account_id
        if self.level is ScopeLevel.ORGANIZATION:
            return _as_int(self.organization_id) or self.account_id
        return self.account_id

    def permits(self, account_id: int) -> bool:
        """Whether a restricted member may select this child account."""
        return not self.restricted or account_id in self.permitted_account_ids

    def summary(self) -> str:
        text = f"{self.label} (rule {self.rule}: {self.reason})" if self.rule else self.reason
        if self.restricted:
            ids = ", ".join(str(i) for i in self.permitted_account_ids)
            text += f"; restricted to accounts {ids}"
        return text


def _as_int(value: Any) -> int | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, str) and value.strip().lstrip("-").isdecimal():
        return int(value)
    return None


def _same(a: Any, b: Any) -> bool:
    """Ids compare equal across int and numeric-text spellings; absent never matches."""
    if a is None or b is None or a == "" or b == "":
        return False
    return str(a).strip() == str(b).strip()


def _ids(value: Any) -> tuple[int, ...]:
    if not isinstance(value, Iterable) or isinstance(value, str | bytes):
        return ()
    out = [_as_int(v) for v in value]
    return tuple(v for v in out if v is not None)


def classify(account: Account | dict[str, Any]) -> Scope:
    """Apply the spec's ordered rules to the key owner's account read."""
    if not isinstance(account, Account):
        account = Account.model_validate(account)
    kind = str(account.scope_field("accountType") or "").strip().lower()
    org = account.scope_field("organizationId")
    partner = account.scope_field("partnerId")
    reseller = account.scope_field("resellerId")
    permitted = _ids(account.scope_field("permittedAccountIds"))
    account_id = (
        _as_int(account.id) if account.id is not None else _as_int(account.scope_field("id"))
    )

    def verdict(level: ScopeLevel, rule: int | None, reason: str) -> Scope:
        return Scope(level, rule, reason, account_id, org, partner, reseller, permitted)

    # A rule met by the ids, not the type (a user admin of a partner or a reseller), says
    # what the account is, so that the verdict does not read as a contradiction.
    who = f"a {kind} account" if kind else "an account without accountType"
    if kind == "partner":
        return verdict(ScopeLevel.PARTNER, 1, "accountType is partner")
    if _same(org, partner):
        reason = f"{who} whose organizationId equals partnerId ({org})"
        return verdict(ScopeLevel.PARTNER, 1, reason)
    if kind == "reseller":
        return verdict(ScopeLevel.RESELLER, 2, "accountType is reseller")
    if _same(org, reseller):
        reason = f"{who} whose organizationId equals resellerId ({org})"
        return verdict(ScopeLevel.RESELLER, 2, reason)
    if kind == "account":
        return verdict(ScopeLevel.AGENT, 3, "accountType is account")
    if kind == "organization":
        return verdict(ScopeLevel.ORGANIZATION, 4, "accountType is organization")
    if kind in ("user", "") and org not in (None, ""):
        return verdict(ScopeLevel.ORGANIZATION, 4, f"a user account with organizationId {org}")
    return verdict(ScopeLevel.UNKNOWN, None, f"no rule matched (accountType {kind or 'absent'})")
