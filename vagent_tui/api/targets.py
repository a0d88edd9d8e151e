"""Which query parameter selects the account a request acts on (spec rules 7 and 9).

Rule 7: a key acts for an organization or agent of its hierarchy with
``targetAccountId``. Rule 9: ``targetOrganizationId``, ``targetResellerId`` and
``targetPartnerId`` are used by the endpoints whose resource is scoped at those levels.
A resource of a reseller (its templates and their migrations) is therefore reached with
``targetResellerId``, an ADR export configuration (set at partner, reseller or
organization level) with the parameter of its level.

A `Target` is what a request is told to act on: an account id (``targetAccountId``) or
a `LevelTarget` (the parameter of a level). `level_target` chooses for an account.
"""

from __future__ import annotations

from dataclasses import dataclass

from vagent_tui.api.models import Account
from vagent_tui.api.scope import ScopeLevel, classify

LEVEL_PARAMS: dict[ScopeLevel, str] = {
    ScopeLevel.PARTNER: "targetPartnerId",
    ScopeLevel.RESELLER: "targetResellerId",
    ScopeLevel.ORGANIZATION: "targetOrganizationId",
}
"""The levels that have a parameter of their own, and its name."""


@dataclass(frozen=True, slots=True)
class LevelTarget:
    """An account of a level, selected by that level's parameter (rule 9)."""

    level: ScopeLevel
    account_id: int

    def __post_init__(self) -> None:
        if self.level not in LEVEL_PARAMS:
            raise ValueError(f"no target parameter for the {self.level} level")

    @property
    def param(self) -> str:
        """``targetPartnerId``, ``targetResellerId`` or ``targetOrganizationId``."""
        return LEVEL_PARAMS[self.level]


Target = int | LevelTarget
"""An account id (sent as ``targetAccountId``) or an account of a level (its parameter)."""


def target_param(target: Target) -> tuple[str, int]:
    """The query parameter and the id that select ``target``."""
    if isinstance(target, LevelTarget):
        return target.param, target.account_id
    return "targetAccountId", int(target)


def level_target(account: Account | None, *levels: ScopeLevel) -> Target | None:
    """How a request for a resource scoped at ``levels`` selects ``account``.

    None: no account (the key acts as its owner). An account at one of ``levels`` (by
    the scope rules, so a ``user`` whose ``organizationId`` equals its ``resellerId`` is
    a reseller) is selected by that level's parameter, with the id of the level's
    account; any other account by ``targetAccountId``, and the platform answers whether
    the resource exists there.
    """
    if account is None:
        return None
    scope = classify(account)
    if scope.level in levels and scope.level in LEVEL_PARAMS and scope.root_id is not None:
        return LevelTarget(scope.level, scope.root_id)
    if account.id is None:
        return None
    return account.id
