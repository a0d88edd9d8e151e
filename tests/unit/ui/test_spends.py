"""A key that spends money (`vagent_tui.ui.safety.Does.SPENDS`) and its write
(`vagent_tui.ui.writes.Spend`): its rules come from the declaration. No app: the money
question is built and answered by a stand-in for the app's ``push_screen_wait``.
"""

from __future__ import annotations

from typing import Any

import pytest
from textual.binding import Binding

from tests.unit.ui.test_writes import START, Platform, Seen
from vagent_tui.api.errors import ApiError, RequestTimeout
from vagent_tui.ui.dialogs import PromptModal
from vagent_tui.ui.safety import SPENDS, Does, Key, does_of, mutating_actions
from vagent_tui.ui.writes import Spend, Write, Written, perform

NUMBER = "+14155550100"
COST = "$1.15 a month, billed to account 42"


class App:
    """Stands in for the app: records the question pushed, answers as the user would."""

    def __init__(self, typed: str | None) -> None:
        self.typed = typed
        self.asked: list[Any] = []

    async def push_screen_wait(self, question: Any) -> str | None:
        self.asked.append(question)
        if isinstance(question, PromptModal) and self.typed != question.expected:
            return None  # the dialog refuses to go ahead until the thing is typed
        return self.typed


def buy(platform: Platform, events: list[str] | None = None, **fields: Any) -> Write[str]:
    async def read_back(conn: Any) -> str:
        if events is not None:
            events.append("read back")
        return await platform.read_back(conn)

    def after(written: Written[str]) -> None:
        if events is not None:
            events.append(f"after {written.outcome}")

    spend = Spend("Buy number", NUMBER, COST, read_back)
    return Write("number-buy", "Buying the number", platform.send, spends=spend,
                 done="Bought", after=after, **fields)  # fmt: skip


async def run(write: Write[str], app: App) -> tuple[Written[str], Seen]:
    seen = Seen()
    written = await perform(
        write, app=app,  # type: ignore[arg-type]  # only push_screen_wait is used
        start=START, still=lambda: True, say=seen.say,
    )  # fmt: skip
    return written, seen


def test_spends_is_a_write_hidden_and_refused_on_a_read_only_profile() -> None:
    key = Key("b", "buy", "Buy", id="numbers.buy", does=SPENDS)
    assert Does.SPENDS.writes and does_of(key) is SPENDS
    # mutating_actions is what BaseScreen.check_action hides and run_action refuses
    assert mutating_actions([key, Binding("r", "reload", "Reload")]) == {"buy": "Buy"}


async def test_the_question_says_the_cost_and_wants_the_thing_typed() -> None:
    platform, app = Platform(), App(NUMBER)
    written, _seen = await run(buy(platform), app)
    [question] = app.asked
    assert isinstance(question, PromptModal) and question.expected == NUMBER
    assert COST in question.body_text and NUMBER in question.body_text
    assert written.outcome == "done" and platform.sends == [START]


@pytest.mark.parametrize("typed", [None, "", "+14155550199"], ids=["esc", "empty", "another"])
async def test_without_the_thing_typed_nothing_is_sent(typed: str | None) -> None:
    platform = Platform()
    written, _seen = await run(buy(platform), App(typed))
    assert written.outcome == "cancelled" and platform.sends == []


async def test_a_lost_reply_is_read_back_before_anything_else_and_never_resent() -> None:
    events: list[str] = []
    platform = Platform(RequestTimeout("No answer", method="POST"), made=True)
    written, seen = await run(buy(platform, events), App(NUMBER))
    assert written.outcome == "unknown" and platform.sends == [START]
    assert events == ["read back", "after unknown"]  # the screen hears it after
    line = seen.last("error")
    assert "Read back now: it is there." in str(line.what) and line.retry_key is None


async def test_a_refused_spend_offers_no_key_to_send_it_again() -> None:
    platform = Platform(ApiError(402, "Insufficient funds", method="POST"))
    written, seen = await run(buy(platform), App(NUMBER))
    assert written.outcome == "refused" and len(platform.sends) == 1
    assert seen.last("error").retry_key is None and platform.reads == []


def test_a_spend_brings_its_own_question_read_back_and_no_retry() -> None:
    platform = Platform()

    async def yes() -> bool:
        return True

    for extra in ({"confirm": yes}, {"read_back": platform.read_back}, {"retry_key": "b"}):
        with pytest.raises(ValueError, match="spend"):
            buy(platform, **extra)
    for empty in ({"cost": " "}, {"thing": ""}, {"what": ""}):
        fields = {"what": "Buy number", "thing": NUMBER, "cost": COST} | empty
        with pytest.raises(ValueError, match="costs"):
            Spend(read_back=platform.read_back, **fields)
