"""The transport's pressure hook: who hears a 429/503 (the fleet's adaptive limit does)."""

from __future__ import annotations

import asyncio
import contextlib

import httpx

from vagent_tui.api.client import PlatformClient
from vagent_tui.api.errors import ApiError
from vagent_tui.api.transport import listen_for_pressure

from .helpers import BASE, TOKEN, Recorder, ok


def busy(status: int, retry_after: str | None = None) -> httpx.Response:
    headers = {"Retry-After": retry_after} if retry_after is not None else {}
    body = {"success": False, "message": "slow down"}
    return httpx.Response(status, headers=headers, json=body)


def client_for(recorder: Recorder) -> PlatformClient:
    return PlatformClient(
        BASE, TOKEN, transport=recorder.transport(), backoff=0.0, max_retry_after=0.0
    )


async def test_every_attempt_is_heard_retried_or_not() -> None:
    recorder = Recorder(busy(429, "3"), busy(503), ok({"success": True, "voices": []}))
    heard: list[tuple[int, float | None]] = []

    async def ask() -> None:
        listen_for_pressure(lambda status, after: heard.append((status, after)))
        await client.list_voices()

    async with client_for(recorder) as client:
        await asyncio.create_task(ask())
    assert recorder.calls == 3  # the GET retry policy is unchanged
    assert heard == [(429, 3.0), (503, None)]


async def test_only_the_listening_context_hears() -> None:
    recorder = Recorder(busy(429, "1"))
    heard: list[int] = []

    async def listening() -> None:
        listen_for_pressure(lambda status, after: heard.append(status))
        with contextlib.suppress(ApiError):
            await client.list_voices()

    async def other() -> None:
        with contextlib.suppress(ApiError):
            await client.list_voices()

    async with client_for(recorder) as client:
        await asyncio.gather(asyncio.create_task(other()))
        assert heard == [] and recorder.calls == 3
        await asyncio.create_task(listening())
    assert heard == [429, 429, 429]
