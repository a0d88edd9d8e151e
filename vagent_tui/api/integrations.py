"""An integration's data (``GET``/``PUT /integration/{slug}/{version}``; CONTRACT
choices 135-137). The reference documents the GET with the PUT's body and summary: it is
sent without a body, and read as the PUT's reply (``appId``, ``appVersion``,
``appData``)."""

from __future__ import annotations

from typing import TYPE_CHECKING
from urllib.parse import quote

from vagent_tui.api.replies import Json
from vagent_tui.api.transport import ApiTransport

if TYPE_CHECKING:  # the models load with their first use, not at start-up
    from vagent_tui.api import integration_models as i


def _path(slug: str, version: str) -> str:
    return f"/integration/{quote(slug, safe='')}/{quote(version, safe='')}"


class IntegrationsApi(ApiTransport):
    """An integration's ``appData``, read and replaced."""

    async def get_integration(
        self, slug: str, version: str = "v1", *, target: int | None = None
    ) -> i.IntegrationData:
        """``GET /integration/{slug}/{version}``: its data (404: none)."""
        from vagent_tui.api.integration_models import IntegrationData

        path = _path(slug, version)

        def parse(payload: Json) -> i.IntegrationData:
            return self._parse(IntegrationData, payload, url=path)

        return await self.get(path, parse, target=target)

    async def update_integration(
        self, slug: str, version: str, update: i.IntegrationUpdate, *, target: int | None = None
    ) -> i.IntegrationData:
        """``PUT /integration/{slug}/{version}``: replace its ``appData``."""
        from vagent_tui.api.integration_models import IntegrationData

        path = _path(slug, version)
        payload = await self.request("PUT", path, target=target, json=update.wire(),
                                     journal_body=update.journal())  # fmt: skip
        return self._parse(IntegrationData, payload, method="PUT", url=path)
