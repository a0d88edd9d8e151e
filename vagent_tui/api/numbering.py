"""Numbering providers of `PlatformClient` (the vendor's OpenAPI reference, "Phone
Numbers"; reseller or partner keys; CONTRACT choices 95-99): ``GET
/numberingProviders``, ``POST`` and ``PUT /numberingProvider``.

Every request selects the organization with ``targetOrganizationId`` (the reference
requires it on POST and PUT and declares none on GET; the console sends it on the GET
too, so the list is the organization's, `organization_target`). A write's body goes to
the journal with its credentials as ``***`` (`ProviderRequest.journal`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from vagent_tui.api import models as m
from vagent_tui.api.errors import ApiError
from vagent_tui.api.scope import ScopeLevel, classify
from vagent_tui.api.targets import LevelTarget
from vagent_tui.api.transport import ApiTransport

if TYPE_CHECKING:
    from vagent_tui.api.numbering_models import NumberingProvider, ProviderRequest

PROVIDERS = "/numberingProviders"
PROVIDER = "/numberingProvider"


def organization_target(account: m.Account | None) -> LevelTarget | None:
    """The organization whose providers ``account`` stands for: an organization itself,
    an agent account its organization; None for any other (a reseller, a partner)."""
    if account is None:
        return None
    scope = classify(account)
    if scope.level is ScopeLevel.ORGANIZATION:
        org = scope.root_id
    elif scope.level is ScopeLevel.AGENT:
        value = scope.organization_id
        org = value if isinstance(value, int) and not isinstance(value, bool) else None
        if isinstance(value, str) and value.strip().isdecimal():
            org = int(value.strip())
    else:
        return None
    return LevelTarget(ScopeLevel.ORGANIZATION, org) if org is not None else None


class NumberingApi(ApiTransport):
    """``/numberingProviders``, ``/numberingProvider``."""

    async def list_numbering_providers(
        self, *, target: LevelTarget | None = None
    ) -> list[NumberingProvider]:
        """``GET /numberingProviders``: the providers the platform supports, each saying
        whether it is configured for the organization. The reference's 404 "No
        numbering providers configured" is an empty list."""
        from vagent_tui.api.numbering_models import NumberingProvider

        try:
            return await self._get_list(NumberingProvider, PROVIDERS, "numberingProviders",
                                        target=target)  # fmt: skip
        except ApiError as exc:
            if exc.status == 404 and "numbering provider" in exc.message.lower():
                return []
            raise

    async def create_numbering_provider(
        self, request: ProviderRequest, *, target: LevelTarget | None = None
    ) -> m.Envelope:
        """``POST /numberingProvider``: add a provider with its credentials."""
        return await self._envelope("POST", PROVIDER, target=target, json=request.wire(),
                                    journal_body=request.journal())  # fmt: skip

    async def update_numbering_provider(
        self, request: ProviderRequest, *, target: LevelTarget | None = None
    ) -> m.Envelope:
        """``PUT /numberingProvider``: change a provider (default, enabled, credentials:
        each only when set in ``request``)."""
        return await self._envelope("PUT", PROVIDER, target=target, json=request.wire(),
                                    journal_body=request.journal())  # fmt: skip
