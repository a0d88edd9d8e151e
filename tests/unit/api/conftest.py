from __future__ import annotations

import sys
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import pytest

from .helpers import BASE, TOKEN, Recorder

# The project is not installed into the venv: make `pytest tests/unit/api` (not only
# `python -m pytest`) find the package at the repository root.
REPO_ROOT = Path(__file__).resolve().parents[3]
if str(REPO_ROOT) not in sys.path:
    sys.path.insert(0, str(REPO_ROOT))

from vagent_tui.api.client import PlatformClient  # noqa: E402

MakeClient = Callable[..., PlatformClient]


@pytest.fixture
async def make_client() -> AsyncIterator[MakeClient]:
    """Build clients over a Recorder; every client is closed at teardown."""
    clients: list[PlatformClient] = []

    def build(recorder: Recorder, **options: Any) -> PlatformClient:
        options.setdefault("backoff", 0)
        client = PlatformClient(BASE, TOKEN, transport=recorder.transport(), **options)
        clients.append(client)
        return client

    yield build
    for client in clients:
        await client.aclose()
