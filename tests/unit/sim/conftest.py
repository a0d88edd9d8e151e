"""Fixtures for the simulator tests: a fake clock and a raw httpx client on a fresh sim."""

from __future__ import annotations

from collections.abc import AsyncIterator

import httpx
import pytest

from vagent_tui.sim import create_app

from .helpers import FakeClock, Sim


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
async def sim(clock: FakeClock) -> AsyncIterator[Sim]:
    app = create_app(clock=clock, task_seconds=10.0)
    transport = httpx.ASGITransport(app=app)
    async with httpx.AsyncClient(transport=transport, base_url="http://sim") as client:
        yield Sim(client, app.state.sim)
