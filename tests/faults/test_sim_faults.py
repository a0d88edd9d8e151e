"""Fault injection end to end: the simulator's faults as the client sees them.

Timeouts, 5xx/429 envelopes, dropped connections and mangled replies each become the
right `PlatformError` (never holding the token); GET is retried with backoff honouring
``Retry-After``; POST/PUT/DELETE are sent once whatever happens.
"""

from __future__ import annotations

import asyncio
import socket
import threading
import time

import pytest

from tests.faults.helpers import faulty_client
from vagent_tui.api.client import PlatformClient
from vagent_tui.api.errors import (
    ApiError,
    MalformedResponse,
    PlatformError,
    RequestTimeout,
    TransportError,
)
from vagent_tui.cli import build_parser
from vagent_tui.sim import create_app
from vagent_tui.sim.faults import ALL_KINDS, UNKNOWN_STATUS, Faults, from_args, parse_kinds
from vagent_tui.sim.state import SimState

TOKEN = "demo-partner"
EXPECTED: dict[str, type[PlatformError] | None] = {
    "timeout": RequestTimeout,
    "500": ApiError,
    "503": ApiError,
    "429": ApiError,
    "refused": TransportError,
    "malformed": MalformedResponse,
    "truncated": MalformedResponse,
    "cut": TransportError,
    "wrong-types": MalformedResponse,
    "extra-fields": None,
    "unknown-status": None,
}


def sim(client: PlatformClient) -> SimState:
    state: SimState = client.sim_app.state.sim  # type: ignore[attr-defined]
    return state


@pytest.mark.parametrize("kind", ALL_KINDS)
async def test_every_kind_as_the_client_sees_it(kind: str) -> None:
    client = faulty_client()
    sim(client).faults.set(kind)
    expected = EXPECTED[kind]
    started = time.monotonic()
    if expected is None:
        voices = await client.list_voices()
        assert voices
    else:
        with pytest.raises(expected) as info:
            await client.list_voices()
        text = f"{info.value} {info.value!r} {info.value.describe()}"
        assert TOKEN not in text
        assert info.value.__context__ is None or TOKEN not in str(info.value.__context__)
        if kind in ("500", "503", "429"):
            assert info.value.status == int(kind)  # type: ignore[attr-defined]
            assert "simulated" in info.value.message.lower()
    assert time.monotonic() - started < 2.0  # a timeout ends with the client's deadline
    assert sim(client).faults.count(kind) == 1
    sim(client).faults.lift()
    assert await client.list_voices()
    await client.aclose()


async def test_wrong_types_on_an_object_reply() -> None:
    client = faulty_client()
    sim(client).faults.set("wrong-types")
    with pytest.raises(MalformedResponse, match="unexpected type"):
        await client.get_account()
    await client.aclose()


async def test_unknown_status_reaches_the_migration_reply() -> None:
    client = faulty_client("demo-reseller")
    templates = await client.list_templates()
    sim(client).faults.set("unknown-status", path_contains="/migrat")
    task = await client.migrate(templates[0].id)
    assert task.status == UNKNOWN_STATUS
    assert task.task_id
    again = await client.migration_status(task.status_endpoint or "")
    assert again.status == UNKNOWN_STATUS
    await client.aclose()


async def test_timeout_cancels_the_simulated_wait() -> None:
    client = faulty_client()
    sim(client).faults.set("timeout")
    with pytest.raises(RequestTimeout):
        await client.list_tokens()
    # The sleeping handler was cancelled with the request: no reply was ever logged.
    assert sim(client).count("GET", "/api/v2/tokens") == 0
    await client.aclose()


async def test_latency_and_jitter_are_added() -> None:
    client = faulty_client(faults=Faults(latency_ms=40, jitter_ms=40, seed=3))
    started = time.monotonic()
    for _ in range(3):
        await client.list_tokens()
    elapsed = time.monotonic() - started
    assert 0.12 <= elapsed < 1.5
    await client.aclose()


def test_fail_rate_is_a_seeded_fraction() -> None:
    def draws(seed: int) -> list[str | None]:
        faults = Faults(rate=0.3, seed=seed)
        return [faults.pick("GET", "/api/v2/tokens") for _ in range(1000)]

    first = draws(11)
    assert first == draws(11)
    failed = [k for k in first if k is not None]
    assert 240 <= len(failed) <= 360
    assert set(failed) == set(ALL_KINDS)  # no kinds given: a mix of every kind
    only = Faults(kinds=["503", "429"], rate=0.5, seed=1)
    picked = {only.pick("GET", "/x") for _ in range(200)}
    assert picked == {None, "503", "429"}


def test_filters_and_remaining() -> None:
    faults = Faults(kinds=["500"], methods=frozenset({"POST"}), path_contains="/tokens")
    assert faults.pick("GET", "/api/v2/tokens") is None
    assert faults.pick("POST", "/api/v2/sip/ipWhitelist") is None
    assert faults.pick("POST", "/api/v2/tokens") == "500"
    faults.set("503", remaining=1)
    assert faults.pick("GET", "/a") == "503"
    assert faults.pick("GET", "/a") is None
    faults.set("all")
    assert faults.kinds == list(ALL_KINDS)
    faults.lift()
    assert not faults.active
    with pytest.raises(ValueError, match="unknown fault kind"):
        parse_kinds(["bogus"])
    with pytest.raises(ValueError):
        Faults(rate=1.5)


def test_command_line() -> None:
    parser = build_parser()
    args = parser.parse_args(
        ["sim", "--fail-rate", "0.3", "--jitter-ms", "20", "--fault-seed", "4"]
    )
    faults = from_args(args, parser)
    assert faults.effective_rate == 0.3 and faults.kinds == [] and faults.jitter_ms == 20
    args = parser.parse_args(["sim", "--fault", "503", "--fault", "429,malformed"])
    faults = from_args(args, parser)
    assert faults.kinds == ["503", "429", "malformed"] and faults.effective_rate == 1.0
    args = parser.parse_args(["sim"])
    assert not from_args(args, parser).active
    with pytest.raises(SystemExit):
        from_args(parser.parse_args(["sim", "--fault", "nope"]), parser)


# ---------------------------------------------------------------------- retries


async def test_get_is_retried_with_backoff_until_it_answers() -> None:
    client = faulty_client(client_options={"get_retries": 2, "backoff": 0.01})
    sim(client).faults.set("503", "500", "refused", "timeout", remaining=2)
    tokens = await client.list_tokens()
    assert tokens
    assert sim(client).faults.count() == 2
    await client.aclose()


async def test_get_retries_are_bounded() -> None:
    client = faulty_client(client_options={"get_retries": 2, "backoff": 0.01})
    sim(client).faults.set("503")
    with pytest.raises(ApiError) as info:
        await client.list_tokens()
    assert info.value.status == 503
    assert sim(client).count("GET", "/api/v2/tokens") == 3  # 1 + 2 retries
    await client.aclose()


async def test_retry_after_is_honoured() -> None:
    client = faulty_client(client_options={"get_retries": 1, "backoff": 0.0})
    sim(client).faults.set("429", remaining=1, retry_after=1)
    started = time.monotonic()
    assert await client.list_tokens()
    assert time.monotonic() - started >= 0.95
    await client.aclose()


@pytest.mark.parametrize("kind", ["500", "503", "429", "refused", "timeout", "malformed"])
async def test_writes_are_never_retried(kind: str) -> None:
    client = faulty_client(client_options={"get_retries": 3, "backoff": 0.0})
    sim(client).faults.set(kind, methods=frozenset({"POST", "PUT", "DELETE"}))
    with pytest.raises(PlatformError):
        await client.add_sip_entry("203.0.113.77", "fault test")
    with pytest.raises(PlatformError):
        await client.delete_sip_entry("203.0.113.77")
    log = sim(client).requests
    assert [r.method for r in log if r.path == "/api/v2/sip/ipWhitelist"] in (
        ["POST", "DELETE"],  # the fault answered for each, once
        [],  # a timeout: the cancelled requests were never logged
    )
    assert sim(client).faults.count(kind) == 2  # one attempt each, no retry
    await client.aclose()


# ---------------------------------------------------------------------- over loopback


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@pytest.mark.parametrize("transport", ["aiohttp", "httpx"])
async def test_faults_over_loopback(transport: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Each fault, through the default transport (aiohttp's pool) and httpx's own."""
    import uvicorn

    from vagent_tui.api.pool import AiohttpPool

    monkeypatch.setenv("VAGENT_TRANSPORT", transport)

    app = create_app(faults=Faults(seed=2))
    port = _free_port()
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="critical"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    try:
        for _ in range(100):
            if server.started:
                break
            await asyncio.sleep(0.02)
        client = PlatformClient(f"http://127.0.0.1:{port}", TOKEN, timeout=0.5, get_retries=0)
        assert isinstance(client.sender.pool, AiohttpPool) == (transport == "aiohttp")
        faults = app.state.sim.faults
        for kind in ("refused", "truncated", "cut", "malformed", "429", "timeout"):
            faults.set(kind, timeout_seconds=3.0)
            with pytest.raises(EXPECTED[kind]) as info:  # type: ignore[arg-type]
                await client.list_tokens()
            assert TOKEN not in f"{info.value} {info.value!r}"
        faults.lift()
        assert await client.list_tokens()
        await client.aclose()
    finally:
        server.should_exit = True
        thread.join(timeout=10)


@pytest.mark.parametrize("kind", ["truncated", "cut", "malformed", "wrong-types"])
async def test_a_cut_or_garbled_reply_to_a_read_is_asked_again(kind: str) -> None:
    client = faulty_client(client_options={"get_retries": 2, "backoff": 0.0})
    sim(client).faults.set(kind, remaining=1)
    assert await client.list_tokens()
    assert sim(client).faults.count(kind) == 1
    assert sim(client).count("GET", "/api/v2/tokens") == 2  # the garbled one, then the good
    await client.aclose()


def test_keyed_draws_do_not_depend_on_the_order_of_requests() -> None:
    requests = [("GET", "/api/v2/listAccounts", f"page={n}") for n in range(40)] * 3

    def draws(order: list[tuple[str, str, str]]) -> dict[tuple[str, str, str, int], str | None]:
        faults = Faults(rate=0.3, seed=5, keyed=True)
        seen: dict[tuple[str, str, str], int] = {}
        out = {}
        for request in order:
            nth = seen[request] = seen.get(request, -1) + 1
            out[(*request, nth)] = faults.pick(*request)
        return out

    forward = draws(requests)
    assert forward == draws(list(reversed(requests)))
    assert 0 < sum(1 for kind in forward.values() if kind) < len(forward)
