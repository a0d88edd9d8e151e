"""The bulk engine (`vagent_tui.services.bulk.apply_each`) on its own, without a platform:
each item once, done items skipped on a rerun, a lost reply read back and never resent,
a mark before the send, a refusal failed with its reason, a progress display's failure
stopping nothing."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import pytest

from vagent_tui.api.errors import ApiError, TransportError
from vagent_tui.services.bulk import (
    SENT,
    AccountResult,
    Attempt,
    Refused,
    RolloutLog,
    apply_each,
)


@dataclass
class Platform:
    """A fake endpoint: how each item's send ends, and what a read back finds."""

    fail: dict[int, BaseException] = field(default_factory=dict)
    held: set[int] = field(default_factory=set)
    """Items the platform holds (a lost reply's write may have landed)."""
    sent: list[int] = field(default_factory=list)
    marks_seen: list[int] = field(default_factory=list)
    log: RolloutLog | None = None

    async def prepare(self, item: int, earlier: AccountResult | None) -> AccountResult | Attempt:
        if item < 0:
            raise Refused("its parent was not created: nothing sent")
        if earlier is not None and item in self.held:
            return AccountResult(item, "write", "written", "found written (an earlier run)")

        async def send() -> str:
            if self.log is not None and self.log.results.get((item, "write")) is not None:
                self.marks_seen.append(item)
            self.sent.append(item)
            if item in self.fail:
                raise self.fail[item]
            self.held.add(item)
            return f"made {item}"

        async def read_back() -> bool:
            return item in self.held

        return Attempt(send, read_back, noun="the change")


def lost() -> TransportError:
    return TransportError("connection reset", method="POST", url="https://x.example/api")


def key(item: int) -> int:
    return abs(item)


async def test_each_item_once_and_a_rerun_skips_what_is_done(tmp_path: Path) -> None:
    platform = Platform()
    log = RolloutLog(tmp_path / "plan.jsonl")
    results = await apply_each([1, 2, 2, 3], log, "write", key, platform.prepare)
    assert sorted(platform.sent) == [1, 2, 3]  # listed twice, sent once
    assert {(r.account_id, r.result, r.message) for r in results} == {
        (1, "written", "made 1"), (2, "written", "made 2"), (3, "written", "made 3"),
    }  # fmt: skip
    log.release()
    again = RolloutLog(tmp_path / "plan.jsonl")  # a console started again
    assert await apply_each([1, 2, 3, 4], again, "write", key, platform.prepare) == [
        AccountResult(4, "write", "written", "made 4")
    ]
    again.release()


@pytest.mark.parametrize(
    ("landed", "result", "said"),
    [(True, "written", "read back: the change is there"),
     (False, "unknown", "read back: the change is not there")],
)  # fmt: skip
async def test_a_lost_reply_is_read_back_never_resent(
    tmp_path: Path, landed: bool, result: str, said: str
) -> None:
    platform = Platform(fail={1: lost()}, held={1} if landed else set())
    log = RolloutLog(tmp_path / "plan.jsonl")
    [got] = await apply_each([1], log, "write", key, platform.prepare)
    assert platform.sent == [1]
    assert got.result == result and said in got.message and "connection reset" in got.message
    log.release()


async def test_refusals_are_failed_with_their_reason(tmp_path: Path) -> None:
    platform = Platform(fail={2: ApiError(400, "name taken", method="POST")})
    log = RolloutLog(tmp_path / "plan.jsonl")
    results = await apply_each([-1, 2], log, "write", key, platform.prepare)
    got = {r.account_id: r for r in results}
    assert got[1] == AccountResult(1, "write", "failed", "its parent was not created: nothing sent")
    assert got[2].result == "failed" and got[2].message == "HTTP 400: name taken"
    assert platform.sent == [2]  # the refused one never went out
    log.release()


async def test_a_mark_before_the_send_is_read_back_by_the_next_run(tmp_path: Path) -> None:
    platform = Platform()
    log = RolloutLog(tmp_path / "plan.jsonl")
    platform.log = log
    await apply_each([1], log, "write", key, platform.prepare, mark_sent=True)
    assert platform.marks_seen == [1]  # recorded before it went out
    log.release()
    # A run killed after the mark: the next run's prepare gets it and reads back first.
    killed = RolloutLog(tmp_path / "killed.jsonl")
    killed.record(AccountResult(5, "write", "unknown", SENT))
    platform.held.add(5)
    [got] = await apply_each([5], killed, "write", key, platform.prepare, mark_sent=True)
    assert got.message == "found written (an earlier run)" and 5 not in platform.sent
    killed.release()


async def test_a_failing_progress_display_and_stop(tmp_path: Path) -> None:
    platform = Platform()
    log = RolloutLog(tmp_path / "plan.jsonl")
    heard: list[int] = []

    def display(result: AccountResult) -> None:
        heard.append(result.account_id)
        raise RuntimeError("the display broke")

    results = await apply_each(range(1, 11), log, "write", key, platform.prepare,
                               concurrency=1, on_result=display,
                               stop=lambda: len(heard) >= 3)  # fmt: skip
    assert [r.account_id for r in results] == [1, 2, 3] == heard
    assert len(log.results) == 3  # each recorded before the display heard it
    log.release()
