"""Helpers of the simulator tests: a fake clock, a raw httpx client wrapper, envelopes."""

from __future__ import annotations

from typing import Any

import httpx

from vagent_tui.sim import SimState

API = "/api/v2"


class FakeClock:
    """A clock that only moves when told to."""

    def __init__(self, now: float = 1_800_000_000.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


class Sim:
    """A raw httpx client on a fresh simulator with helpers for the token query."""

    def __init__(self, client: httpx.AsyncClient, state: SimState) -> None:
        self.client = client
        self.state = state

    async def call(
        self,
        method: str,
        path: str,
        token: str | None = "demo-partner",
        *,
        params: dict[str, Any] | None = None,
        **kwargs: Any,
    ) -> httpx.Response:
        query = dict(params or {})
        if token is not None:
            query["token"] = token
        return await self.client.request(method, API + path, params=query, **kwargs)

    async def get(self, path: str, token: str | None = "demo-partner", **params: Any) -> Any:
        return await self.call("GET", path, token, params=params)


def envelope(response: httpx.Response, status: int, message: str | None = None) -> None:
    """Assert ``response`` is an error envelope with ``status`` (and ``message``)."""
    assert response.status_code == status, response.text
    body = response.json()
    assert body["success"] is False
    assert isinstance(body["message"], str) and body["message"]
    if message is not None:
        assert body["message"] == message
