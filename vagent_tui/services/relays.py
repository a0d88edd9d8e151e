"""The Webhooks screen's relays: the relay types and the configured relays of one account,
read as one answer (a key whose plan has no relays is refused the second read)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from vagent_tui.api.errors import ApiError

if TYPE_CHECKING:
    from vagent_tui.api.client import PlatformClient
    from vagent_tui.api.models import RelayConfig, RelayType


async def read_relays(
    client: PlatformClient, target: int | None
) -> tuple[list[RelayType], list[RelayConfig] | None, str | None]:
    """The relay types, the relays configured (None when refused: HTTP 403) and the
    platform's message of that refusal. Any other failure is raised."""
    types = await client.list_relay_types(target=target)
    try:
        return types, await client.list_relays(target=target), None
    except ApiError as exc:
        if exc.status != 403:
            raise
        return types, None, exc.message
