"""Item shapes of ``vagent-tui fleet`` (`vagent_tui.commands.schemas`): one kind per
question (``fleet-functions``, ``fleet-voice``…), an item per account, and the list of
the questions (``fleet-questions``).

Every item has ``account_id``, ``name`` and ``error``; the question's values are null
when ``error`` is not (the account did not answer, or was not asked).
"""

from __future__ import annotations

from pydantic import BaseModel, Field

from vagent_tui.commands.schemas import Item


class QuestionItem(Item):
    """``fleet questions``: one question ``fleet ask`` knows."""

    id: str = Field(description="the QUESTION of `fleet ask QUESTION`")
    title: str = Field(description="as the Fleet screen names it")
    columns: list[str] = Field(description="the values of its items, in order")
    kind: str = Field(description="the kind of its items (vagent-tui schema KIND)")


class FleetItem(Item):
    """One account's answer."""

    account_id: int
    name: str = Field(description="the account's name (empty when it was not asked)")
    error: str | None = Field(
        description="why the account did not answer (null: it answered); a chosen id "
        "that is not an agent account below the key says it was not asked"
    )


class FunctionsItem(FleetItem):
    """``fleet ask functions``: the functions the account may use."""

    allowed: int | None
    total: int | None
    unavailable: list[str] | None = Field(description="the names of the functions not allowed")


class VoiceItem(FleetItem):
    """``fleet ask voice``: the live configuration's voice and engines (null: no live
    configuration, or not set)."""

    voice: str | None
    tts: str | None
    s2s: str | None
    stt: str | None
    lang: str | None


class JunkItem(FleetItem):
    """``fleet ask junk``: the unread rooms of the junk inbox."""

    unread: int | None


class CallsItem(FleetItem):
    """``fleet ask calls``: the calls of the last 24 hours."""

    calls: int | None
    failed: int | None
    outcomes: list[str] | None = Field(description='"OUTCOME COUNT", most frequent first')


class UsageItem(FleetItem):
    """``fleet ask usage``: this period's usage, as the Fleet screen shows it, and each
    value the platform sent, exact."""

    plan: str | None
    costs: str | None = Field(description="the cost total, with its currency")
    usage: list[str] | None = Field(description='"KEY VALUE" of the usage read, for reading')
    unread: int | None = Field(description="parts of the platform's reply not read")
    exact: dict[str, str] | None = Field(
        description="each key the platform sent, cost_total and currency: every digit"
    )


class NumbersItem(FleetItem):
    """``fleet ask numbers``: the phone numbers the account holds."""

    count: int | None
    numbers: list[str] | None


SHAPES: dict[str, type[BaseModel]] = {
    "fleet-questions": QuestionItem,
    "fleet-functions": FunctionsItem,
    "fleet-voice": VoiceItem,
    "fleet-junk": JunkItem,
    "fleet-calls": CallsItem,
    "fleet-usage": UsageItem,
    "fleet-numbers": NumbersItem,
}
