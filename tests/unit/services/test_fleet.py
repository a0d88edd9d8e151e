"""The fleet service: bounded concurrency, answers as they arrive, errors per account, cancel."""

from __future__ import annotations

import asyncio
import csv
import io
import random
from collections.abc import Set as AbstractSet

import httpx
import pytest

from tests.helpers import id_of
from vagent_tui.api.client import PlatformClient
from vagent_tui.api.errors import ApiError
from vagent_tui.api.models import Account, FunctionDescriptor, JunkRoomPage
from vagent_tui.services.accounts import AccountDirectory
from vagent_tui.services.agent_listing import fleet_accounts
from vagent_tui.services.fleet import (
    QUESTIONS,
    AdaptiveLimit,
    FleetAnswer,
    ask_fleet,
    first_order,
    start_of,
    to_csv,
)
from vagent_tui.services.session import open_connection


class FakeClient:
    """Answers after a random short delay; tracks the requests in flight."""

    def __init__(self, *, fail: AbstractSet[int] = frozenset(), seed: int = 1) -> None:
        self.fail = set(fail)
        self.rnd = random.Random(seed)
        self.in_flight = 0
        self.max_in_flight = 0
        self.asked: list[int] = []
        self.finished: list[int] = []

    async def _call(self, account_id: int) -> None:
        self.asked.append(account_id)
        self.in_flight += 1
        self.max_in_flight = max(self.max_in_flight, self.in_flight)
        try:
            await asyncio.sleep(self.rnd.random() * 0.004)
            if account_id in self.fail:
                raise ApiError(403, "Target account is outside your hierarchy")
        finally:
            self.in_flight -= 1
        self.finished.append(account_id)

    async def list_functions(
        self, target: int, *, shared: bool = False
    ) -> list[FunctionDescriptor]:
        await self._call(target)
        return [
            FunctionDescriptor(name="transferCall", allowed=True),
            FunctionDescriptor(name="sendSms", allowed=target % 2 == 0),
            FunctionDescriptor(name="legacy", allowed=False),
        ]

    async def list_junk_rooms(self, *, unread: bool, page_size: int, target: int) -> JunkRoomPage:
        assert unread and page_size == 1
        await self._call(target)
        return JunkRoomPage(total_rooms=target * 2)

    async def get_live(self, *, target: int) -> None:
        await self._call(target)
        return None


IDS = list(range(1, 101))


async def test_every_account_answered_once_with_bounded_concurrency() -> None:
    client = FakeClient()
    seen: list[FleetAnswer] = []
    answers = await ask_fleet(client, IDS, "functions", concurrency=5, on_answer=seen.append)  # type: ignore[arg-type]
    assert client.max_in_flight == 5
    assert sorted(a.account_id for a in answers) == IDS
    assert seen == answers
    # replies arrive out of order (random delays) and are handed over as they come
    assert [a.account_id for a in answers] != IDS
    by_id = {a.account_id: a for a in answers}
    assert by_id[4].values == {"allowed": 2, "total": 3, "unavailable": ("legacy",)}
    assert by_id[3].values["unavailable"] == ("sendSms", "legacy")


async def test_order_does_not_change_the_answers() -> None:
    a = await ask_fleet(FakeClient(seed=1), IDS, "junk", concurrency=8)  # type: ignore[arg-type]
    b = await ask_fleet(FakeClient(seed=2), IDS[::-1], "junk", concurrency=3)  # type: ignore[arg-type]
    assert {x.account_id: x.values for x in a} == {x.account_id: x.values for x in b}
    assert {x.account_id: x.values["unread"] for x in a}[7] == 14


async def test_concurrency_one_and_more_workers_than_accounts() -> None:
    client = FakeClient()
    await ask_fleet(client, IDS[:10], "junk", concurrency=1)  # type: ignore[arg-type]
    assert client.max_in_flight == 1 and client.asked == IDS[:10]
    client = FakeClient()
    assert len(await ask_fleet(client, IDS[:3], "junk", concurrency=50)) == 3  # type: ignore[arg-type]
    assert await ask_fleet(client, [], "junk") == []  # type: ignore[arg-type]


async def test_errors_are_answers_and_do_not_stop_the_rest() -> None:
    client = FakeClient(fail={3, 50})
    answers = await ask_fleet(client, IDS, "functions", concurrency=4)  # type: ignore[arg-type]
    assert len(answers) == 100
    bad = {a.account_id: a.error for a in answers if not a.ok}
    assert bad == {
        3: "HTTP 403: Target account is outside your hierarchy",
        50: "HTTP 403: Target account is outside your hierarchy",
    }
    assert all(a.values for a in answers if a.ok)


async def test_voice_question_with_empty_live_slot() -> None:
    answers = await ask_fleet(FakeClient(), [1], "voice")  # type: ignore[arg-type]
    assert answers[0].values == dict.fromkeys(("voice", "tts", "s2s", "stt", "lang"))


async def test_cancel_stops_further_requests() -> None:
    client = FakeClient()
    seen: list[FleetAnswer] = []
    task = asyncio.ensure_future(
        ask_fleet(client, IDS, "junk", concurrency=4, on_answer=seen.append)  # type: ignore[arg-type]
    )
    while len(seen) < 10:
        await asyncio.sleep(0.001)
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    asked = len(client.asked)
    assert client.in_flight == 0
    await asyncio.sleep(0.02)
    assert len(client.asked) == asked < 20


async def test_fleet_accounts_on_the_simulator() -> None:
    from vagent_tui.services.connect import demo_client

    for token, expected in (("demo-partner", 13), ("demo-member", 2), ("demo-org", 3)):
        client = demo_client(token)
        connection = await open_connection(client, label=token)
        assert connection.scope is not None and connection.owner is not None
        directory = AccountDirectory(client, connection.scope, connection.owner)
        accounts = await fleet_accounts(directory)
        ids = [id_of(a) for a in accounts]
        assert len(ids) == expected and ids == sorted(ids), token
        if token == "demo-member":
            assert ids == [1112, 1113]
        assert 1118 not in ids and 1119 not in ids  # no Computer Agent, no member
        await client.aclose()


def test_csv_has_header_and_one_row_per_account() -> None:
    accounts = [Account(id=1, name="One, Inc"), Account(id=2, name="Two"), Account(id=3, name="3")]
    answers = {
        1: FleetAnswer(1, {"allowed": 2, "total": 3, "unavailable": ("a", "b")}),
        2: FleetAnswer(2, error="HTTP 500: boom"),
    }
    text = to_csv("functions", accounts, answers)
    rows = list(csv.reader(io.StringIO(text)))
    assert rows[0] == ["account_id", "account_name", "allowed", "total", "unavailable", "status",
                       "error"]  # fmt: skip
    assert rows[1] == ["1", "One, Inc", "2", "3", "a, b", "ok", ""]
    assert rows[2] == ["2", "Two", "", "", "", "error", "HTTP 500: boom"]
    assert rows[3] == ["3", "3", "", "", "", "not asked", ""]
    assert set(QUESTIONS) == {"functions", "voice", "junk", "calls", "usage", "numbers"}


def test_csv_quotes_what_a_spreadsheet_would_run() -> None:
    accounts = [Account(id=1, name="=cmd|' /C calc'!A0"), Account(id=2, name="@two")]
    answers = {
        1: FleetAnswer(1, {"allowed": 1, "total": 2, "unavailable": ("-x",)}),
        2: FleetAnswer(2, error="+boom"),
    }
    rows = list(csv.reader(io.StringIO(to_csv("functions", accounts, answers))))
    assert rows[1] == ["1", "'=cmd|' /C calc'!A0", "1", "2", "'-x", "ok", ""]
    assert rows[2][1] == "'@two" and rows[2][-1] == "'+boom"


# ---------------------------------------------------------------------------- adaptive limit


class FakePlatform:
    """A fake transport under a real `PlatformClient`: answers ``GET /agent/functions``
    after a few turns of the event loop; past ``throttle_above`` requests in flight it
    answers ``status`` (429 or 503) with ``Retry-After`` instead."""

    def __init__(
        self,
        *,
        throttle_above: int | None = None,
        status: int = 429,
        retry_after: str | None = "3",
        clock: list[float] | None = None,
        cost: float = 0.0,
    ) -> None:
        self.throttle_above = throttle_above
        self.status = status
        self.retry_after = retry_after
        self.clock = clock
        self.cost = cost
        self.in_flight = 0
        self.max_in_flight = 0
        self.sent = 0
        self.throttled = 0
        self.accounts: set[str] = set()

    async def handler(self, request: httpx.Request) -> httpx.Response:
        assert request.url.path == "/api/v2/agent/functions"
        self.sent += 1
        self.accounts.add(request.url.params["targetAccountId"])
        self.in_flight += 1
        self.max_in_flight = max(self.max_in_flight, self.in_flight)
        try:
            if self.clock is not None:  # the platform queues: latency grows with load
                self.clock[0] += self.cost * self.in_flight
            for _ in range(3):
                await asyncio.sleep(0)
            if self.throttle_above is not None and self.in_flight > self.throttle_above:
                self.throttled += 1
                headers = {"Retry-After": self.retry_after} if self.retry_after else {}
                body = {"success": False, "message": "slow down"}
                return httpx.Response(self.status, headers=headers, json=body)
            functions = [{"name": "transferCall", "allowed": True}]
            return httpx.Response(200, json={"success": True, "functions": functions})
        finally:
            self.in_flight -= 1

    def client(self) -> PlatformClient:
        return PlatformClient(
            "http://platform.test",
            "secret-token",
            transport=httpx.MockTransport(self.handler),
            get_retries=3,
            backoff=0.0,
            max_retry_after=0.0,  # the transport's own wait: none (the limit pauses)
        )


class FakeSleep:
    """Records the limit's pauses; lets the loop turn meanwhile and counts the accounts
    first asked during the pause (the requests already in flight may retry)."""

    def __init__(self, platform: FakePlatform, clock: list[float]) -> None:
        self.platform = platform
        self.clock = clock
        self.pauses: list[float] = []
        self.new_during_pauses = 0

    async def __call__(self, seconds: float) -> None:
        self.pauses.append(seconds)
        before = len(self.platform.accounts)
        for _ in range(20):
            await asyncio.sleep(0)
        self.new_during_pauses += len(self.platform.accounts) - before
        self.clock[0] += seconds


async def test_adaptive_limit_grows_while_latency_is_flat_and_never_passes_the_cap() -> None:
    platform = FakePlatform()
    now = [0.0]
    limit = AdaptiveLimit(40, start=4, clock=lambda: now[0])  # latency always 0: flat
    async with platform.client() as client:
        answers = await ask_fleet(client, range(1, 501), "functions", limiter=limit)
    assert len(answers) == 500 and all(a.ok for a in answers)
    assert limit.history[:4] == [4, 8, 16, 32] and limit.history[-1] == 40
    assert max(limit.history) == 40
    assert platform.max_in_flight == limit.max_in_flight == 40
    assert limit.backoffs == 0 and limit.pauses == []


@pytest.mark.parametrize(
    ("cap", "start"), [(1, 1), (8, 8), (16, 16), (20, 16), (50, 25), (100, 50), (200, 100)]
)
def test_an_adaptive_run_starts_at_half_its_ceiling_at_least_16(cap: int, start: int) -> None:
    assert start_of(cap) == start
    assert AdaptiveLimit(cap).limit == AdaptiveLimit(cap).history[0] == start
    assert AdaptiveLimit(cap, start=3).limit == min(cap, 3)  # a start given is kept


async def test_adaptive_limit_stops_growing_when_latency_rises() -> None:
    now = [0.0]
    platform = FakePlatform(clock=now, cost=0.001)  # each request in flight adds 1 ms
    limit = AdaptiveLimit(200, start=4, clock=lambda: now[0])
    async with platform.client() as client:
        await ask_fleet(client, range(1, 1001), "functions", limiter=limit)
    assert 4 < max(limit.history) < 200
    assert platform.max_in_flight < 200


@pytest.mark.parametrize("status", [429, 503])
async def test_adaptive_limit_backs_off_and_honours_retry_after(status: int) -> None:
    now = [0.0]
    platform = FakePlatform(throttle_above=20, status=status, retry_after="3")
    sleep = FakeSleep(platform, now)
    limit = AdaptiveLimit(100, start=8, clock=lambda: now[0], sleep=sleep)
    async with platform.client() as client:
        answers = await ask_fleet(client, range(1, 401), "functions", limiter=limit)
    assert len(answers) == 400 and all(a.ok for a in answers)  # throttled GETs retried
    assert platform.throttled > 0 and limit.backoffs >= 1
    grown = limit.history.index(32)  # slow start: 8, 16, 32, then a back-off halves it
    assert limit.history[grown + 1] == 16
    assert max(limit.history) == 32 and limit.limit < 32  # probes again, below the cap
    assert limit.pauses and all(p == 3.0 for p in limit.pauses)
    assert sleep.pauses and set(sleep.pauses) == {3.0}  # slept what Retry-After asked
    assert sleep.new_during_pauses == 0  # nobody new asked while paused
    assert limit.max_in_flight <= 32


async def test_a_burst_of_throttles_halves_the_limit_once() -> None:
    now = [0.0]
    limit = AdaptiveLimit(64, start=64, clock=lambda: now[0])
    epoch = await limit.acquire()
    for _ in range(30):  # thirty replies to requests sent at the same limit
        limit.throttled(epoch, 429, None)
    assert limit.limit == 32 and limit.backoffs == 1 and limit.pauses == []
    later = await limit.acquire()
    limit.throttled(later, 503, 5.0)  # sent after the back-off: halves again, pauses
    assert limit.limit == 16 and limit.pauses == [5.0] and limit.resume_at == 5.0
    limit.throttled(later, 429, 120.0)  # extends the pause under way, capped (max_pause)
    assert limit.pauses == [5.0] and limit.resume_at == 60.0


async def test_a_fixed_limit_ignores_throttles() -> None:
    now = [0.0]
    platform = FakePlatform(throttle_above=2, retry_after="3")
    sleep = FakeSleep(platform, now)
    async with platform.client() as client:
        answers = await ask_fleet(client, range(1, 41), "functions", concurrency=5)
    assert len(answers) == 40 and platform.max_in_flight == 5
    assert sleep.pauses == []


async def test_answers_alike_share_one_value_and_stay_right() -> None:
    """Most accounts answer ``functions`` alike: they share one value (memory at 100,000
    accounts), and each account still has its own answer's numbers and names."""
    client = FakeClient()
    answers = {a.account_id: a for a in await ask_fleet(client, list(range(1, 41)), "functions")}  # type: ignore[arg-type]
    even, odd = answers[2].values, answers[3].values
    assert even == {"allowed": 2, "total": 3, "unavailable": ("legacy",)}
    assert odd == {"allowed": 1, "total": 3, "unavailable": ("sendSms", "legacy")}
    assert all(answers[i].values is even for i in range(2, 41, 2))
    assert all(answers[i].values is odd for i in range(1, 41, 2))


def test_the_numbers_question_puts_the_accounts_with_none_first() -> None:
    question = QUESTIONS["numbers"]
    answers = {
        1: FleetAnswer(1, {"count": 2, "numbers": ("+15125550100", "+15125550101")}),
        2: FleetAnswer(2, {"count": 0, "numbers": ()}),
        3: FleetAnswer(3, error="HTTP 503"),
        5: FleetAnswer(5, {"count": 0, "numbers": ()}),
    }
    # 4 was not asked; an error is no answer of none: both stay in their place after
    assert first_order(question, [1, 2, 3, 4, 5], answers) == [1, 4, 0, 2, 3]
    assert first_order(QUESTIONS["junk"], [1, 2], answers) is None


async def test_the_numbers_question_counts_a_number_listed_twice_once() -> None:
    from vagent_tui.services.connect import demo_client

    client = demo_client(hostile=True)  # every list repeats its first record
    try:
        [answer] = await ask_fleet(client, [1112], "numbers")
    finally:
        await client.aclose()
    assert answer.values["count"] == 2 and len(set(answer.values["numbers"])) == 2
