"""The write path (`vagent_tui.ui.writes.perform`): ask, check, send once, say how it ended.

No app is needed: the question is a coroutine here (a dialog is the same path, tested
on the screens), ``start`` is any value the send and the read-back receive, and what
the status line would show is collected.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from vagent_tui.api.errors import ApiError, RequestTimeout, TransportError
from vagent_tui.ui.widgets.status import StatusReport
from vagent_tui.ui.writes import MOVED, Write, Written, listed, perform

START: Any = object()
"""The connection the user saw (its identity is all the fakes look at)."""


class Platform:
    """A fake endpoint: counts sends, answers or raises, and can be read back."""

    def __init__(self, error: Exception | None = None, *, made: bool = False) -> None:
        self.error = error
        self.made = made
        """Whether the change reaches the platform even when the reply is lost."""
        self.sends: list[Any] = []
        self.reads: list[Any] = []
        self.holds = False

    async def send(self, conn: Any) -> str:
        self.sends.append(conn)
        if self.error is None or self.made:
            self.holds = True
        if self.error is not None:
            raise self.error
        return "Deleted"

    async def read_back(self, conn: Any) -> str:
        self.reads.append(conn)
        return "it is there." if self.holds else "it is not there."


class Seen:
    """What the screen would have shown: status lines and toasts."""

    def __init__(self) -> None:
        self.lines: list[StatusReport] = []
        self.toasts: list[str] = []

    def say(self, report: StatusReport) -> None:
        self.lines.append(report)

    def last(self, kind: str) -> StatusReport:
        return [r for r in self.lines if r.kind == kind][-1]


async def run(
    write: Write[Any],
    *,
    still: Callable[[], bool] = lambda: True,
    in_view: Callable[[], bool] = lambda: True,
    journal_error: str | None = None,
) -> tuple[Written[Any], Seen]:
    seen = Seen()
    written = await perform(
        write, app=None,  # type: ignore[arg-type]  # no dialog is pushed in these tests
        start=START, still=still, say=seen.say, toast=seen.toasts.append, in_view=in_view,
        journal_error=lambda: journal_error,
    )  # fmt: skip
    return written, seen


def remove(platform: Platform, **fields: Any) -> Write[str]:
    given: dict[str, Any] = {
        "done": lambda reply: f"{reply}: the thing",
        "gone": "the thing was already gone",
        "read_back": platform.read_back,
        "retry_key": "d",
    }
    return Write("thing-remove", "Removing the thing", platform.send, **(given | fields))


async def test_a_declined_question_sends_nothing() -> None:
    platform = Platform()
    asked: list[bool] = []

    async def no() -> bool:
        asked.append(True)
        return False

    written, _seen = await run(remove(platform, confirm=no))
    assert asked == [True]
    assert written.outcome == "cancelled" and not written.sent
    assert platform.sends == []


async def test_the_target_changed_since_the_question_refuses_to_send() -> None:
    platform = Platform()

    async def yes() -> bool:
        return True

    written, seen = await run(remove(platform, confirm=yes), still=lambda: False)
    assert written.outcome == "moved"
    assert platform.sends == []
    assert seen.last("info").what == MOVED


async def test_it_sends_once_through_the_connection_the_user_saw() -> None:
    platform = Platform()
    heard: list[Written[Any]] = []
    written, seen = await run(remove(platform, after=heard.append))
    assert platform.sends == [START]
    assert written.outcome == "done" and written.result == "Deleted"
    assert seen.last("ok").what == "Deleted: the thing"
    assert heard == [written]


async def test_a_404_on_a_delete_says_already_gone_without_a_retry() -> None:
    platform = Platform(ApiError(404, "Not found", method="DELETE"))
    written, seen = await run(remove(platform))
    assert written.outcome == "gone" and written.stale
    error = seen.last("error")
    assert "HTTP 404: Not found" in str(error.what) and "already gone" in str(error.what)
    assert error.retry_key is None
    assert platform.reads == []  # a 404 is an answer: nothing to read back


async def test_a_404_of_a_write_that_is_not_a_delete_is_a_refusal() -> None:
    platform = Platform(ApiError(404, "Template not found", method="POST"))
    written, seen = await run(remove(platform, gone=None))
    assert written.outcome == "refused"
    assert seen.last("error").retry_key == "d"


async def test_an_unknown_outcome_is_read_back_and_never_resent() -> None:
    platform = Platform(RequestTimeout("No answer", method="DELETE"), made=True)
    written, seen = await run(remove(platform))
    assert written.outcome == "unknown" and written.stale
    assert platform.sends == [START]  # once
    assert platform.reads == [START]  # read back through the same connection
    error = seen.last("error")
    assert "may have been made" in str(error.what)
    assert "Read back now: it is there." in str(error.what)
    assert error.retry_key is None


async def test_a_gateway_error_after_the_send_is_an_unknown_outcome() -> None:
    platform = Platform(ApiError(504, "Gateway timeout", method="DELETE"))
    written, seen = await run(remove(platform))
    assert written.outcome == "unknown"
    assert "Read back now: it is not there." in str(seen.last("error").what)


async def test_a_read_back_that_fails_says_so() -> None:
    platform = Platform(TransportError("Connection reset", method="POST"))

    async def unreadable(_conn: Any) -> str:
        raise TransportError("Still down", method="GET")

    written, seen = await run(remove(platform, read_back=unreadable))
    assert written.outcome == "unknown"
    line = str(seen.last("error").what)
    assert "could not be read back either" in line and "Still down" in line
    assert len(platform.sends) == 1


async def test_without_a_read_back_the_unsure_advice_is_given() -> None:
    platform = Platform(TransportError("Connection reset", method="POST"))
    _written, seen = await run(remove(platform, read_back=None, unsure="Look at the agents."))
    assert str(seen.last("error").what).endswith("Look at the agents.")


async def test_a_refusal_shows_the_platforms_message_with_the_retry_key() -> None:
    platform = Platform(ApiError(409, "Already exists", method="POST"))
    written, seen = await run(remove(platform, failed=lambda exc: f"Could not: {exc.message}"))
    assert written.outcome == "refused" and written.sent and not written.stale
    error = seen.last("error")
    assert error.what == "Could not: Already exists" and error.retry_key == "d"


async def test_an_outcome_for_another_account_is_a_toast_not_the_status_line() -> None:
    platform = Platform()
    checks = iter([True, False])  # the same account when sending, another one after
    written, seen = await run(remove(platform), still=lambda: next(checks))
    assert written.outcome == "done"
    assert [r.kind for r in seen.lines] == ["busy"]
    assert seen.toasts == ["Deleted: the thing"]


async def test_an_outcome_while_the_screen_is_covered_is_also_a_toast() -> None:
    platform = Platform()
    _written, seen = await run(remove(platform), in_view=lambda: False)
    assert seen.last("ok").what == "Deleted: the thing"
    assert seen.toasts == ["Deleted: the thing"]


async def test_a_journal_that_could_not_be_written_is_said() -> None:
    platform = Platform()
    _written, seen = await run(remove(platform), journal_error="The journal could not be written")
    assert "⚠ The journal could not be written" in str(seen.last("ok").what)


async def test_listed_reads_back_whether_an_item_is_there() -> None:
    async def items() -> list[str]:
        return ["a", "b"]

    assert await listed(items(), lambda x: x == "b", present="yes", absent="no") == "yes"
    assert await listed(items(), lambda x: x == "c", present="yes", absent="no") == "no"
