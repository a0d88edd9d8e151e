"""Reading an agent's configuration slots, checking its functions against the list, and
finding its Computer Agent."""

from __future__ import annotations

import asyncio
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from vagent_tui.api.client import PlatformClient
from vagent_tui.api.errors import PlatformError
from vagent_tui.api.models import (
    AgentConfig,
    AgentReview,
    ComputerAccount,
    FunctionDescriptor,
    FunctionEntry,
    SavedVersion,
    Voice,
)


@dataclass
class AgentSlots:
    """The staging and live configurations of the selected agent account."""

    live: AgentConfig | None
    staging: AgentConfig | None
    versions: list[SavedVersion] = field(default_factory=list)

    @property
    def staging_is_empty(self) -> bool:
        return self.staging is None

    def slot(self, name: str) -> AgentConfig | None:
        """``staging`` falls back to live when the staging slot is empty."""
        if name == "staging":
            return self.staging or self.live
        return self.live


async def load_agent(client: PlatformClient, target: int | None) -> AgentSlots:
    """Live and staging in parallel, then the versions of the live configuration."""
    live, staging = await asyncio.gather(
        client.get_live(target=target), client.get_staging(target=target)
    )
    versions: list[SavedVersion] = []
    if live is not None and live.id:
        versions = await client.list_versions(live.id, target=target)
    return AgentSlots(live=live, staging=staging, versions=versions)


async def saved_versions(
    client: PlatformClient, account: int, config_id: str | None
) -> tuple[str | None, list[SavedVersion]]:
    """The versions saved of ``config_id`` (None: the live configuration's), with their
    data: the id they are of (None: no live configuration) and the versions."""
    if config_id is None:
        live = await client.get_live(target=account)
        config_id = live.id if live is not None else None
    if config_id is None:
        return None, []
    return config_id, await client.list_versions(config_id, include_data=True, target=account)


FunctionsRead = tuple[
    list[FunctionDescriptor], AgentConfig | BaseException | None, AgentConfig | None
]


async def functions_with_slots(
    client: PlatformClient, acting: int, target: int | None, *, agent: bool
) -> FunctionsRead:
    """The functions list of ``acting``, and (when ``target`` is an ``agent`` account) its
    live and staging configurations, asked at once.

    The agent's configuration only adds findings: a failure to read it is returned in
    the live's place (the functions are shown all the same); staging only marks what a
    publish would change, None when it could not be read.
    """
    functions, live, staging = await asyncio.gather(
        client.list_functions(target=acting),
        client.get_live(target=target) if agent else asyncio.sleep(0),
        client.get_staging(target=target) if agent else asyncio.sleep(0),
        return_exceptions=True,
    )
    if isinstance(functions, BaseException):
        raise functions
    return functions, live, staging if isinstance(staging, AgentConfig) else None


async def review_now(
    client: PlatformClient, target: int | None
) -> tuple[str, dict[str, Any], AgentReview | None]:
    """The platform's review of the agent's staging (live when staging is empty): which
    slot, its configuration as sent, and the review (None: no configuration to review)."""
    staging = await client.get_staging(target=target)
    config = staging if staging is not None else await client.get_live(target=target)
    source = "staging" if staging is not None else "live (staging is empty)"
    if config is None or not config.id:
        return source, {}, None
    return source, config.wire(), await client.review_agent(config.id, target=target)


@dataclass(frozen=True)
class Finding:
    """A problem of a configured function against the functions list."""

    name: str
    kind: str  # "not-allowed" | "over-limit" | "unknown"
    text: str


def cross_check(functions: list[FunctionDescriptor], actions: list[FunctionEntry]) -> list[Finding]:
    """Configured ``actions`` that are no longer allowed, or exceed their ``limit``."""
    by_name = {f.name: f for f in functions}
    counts = Counter(action.name for action in actions)
    findings: list[Finding] = []
    for name, count in counts.items():
        descriptor = by_name.get(name)
        if descriptor is None:
            findings.append(Finding(name, "unknown", "configured but not in the functions list"))
            continue
        if descriptor.allowed is False:
            why = descriptor.reason or "not allowed for this account"
            findings.append(Finding(name, "not-allowed", f"configured but not allowed: {why}"))
        if descriptor.limit is not None and count > descriptor.limit:
            findings.append(
                Finding(name, "over-limit", f"configured {count} times, limit {descriptor.limit}")
            )
    return findings


FUNCTION_VIEWS = ("all", "unavailable", "configured", "problems")
"""What the Functions screen's ``v`` cycles through (and ``get functions --view``)."""


def in_view(
    fn: FunctionDescriptor,
    view: str,
    configured: Counter[str] | None,
    findings: list[Finding],
) -> bool:
    """Whether ``fn`` is shown in ``view``: every function, the ones not allowed, the
    ones ``configured`` in live (None: no agent to check), or those with ``findings``."""
    if view == "unavailable":
        return fn.allowed is False
    if view == "configured":
        return configured is not None and configured.get(fn.name, 0) > 0
    if view == "problems":
        return any(f.name == fn.name for f in findings)
    return True


@dataclass(frozen=True)
class VoiceFilter:
    """The voices screen's filters; a field left unset does not filter."""

    language: str | None = None
    engine: str | None = None
    standard_tts: bool | None = None
    available: bool | None = None
    text: str = ""

    def matches(self, voice: Voice) -> bool:
        if self.language and self.language not in voice.languages:
            return False
        if self.engine and self.engine not in voice.compatible_s2_s_engines:
            return False
        if self.standard_tts is not None and bool(voice.supports_standard_tts) != self.standard_tts:
            return False
        if self.available is not None and voice.available != self.available:
            return False
        if self.text:
            needle = self.text.lower()
            hay = " ".join(
                str(x) for x in (voice.id, voice.name, voice.description, voice.provider) if x
            ).lower()
            if needle not in hay:
                return False
        return True


def filter_voices(voices: list[Voice], voice_filter: VoiceFilter) -> list[Voice]:
    return [v for v in voices if voice_filter.matches(v)]


@dataclass
class ComputerChoice:
    """The Computer Agent accounts to offer, and the agent they are the delegate of."""

    accounts: list[ComputerAccount]
    delegate_of: int | None = None


async def computer_accounts_for(
    client: PlatformClient, target: int | None, *, agent_selected: bool
) -> ComputerChoice:
    """The Computer Agents within reach of ``target``.

    A voice agent account has none below it: its Computer Agent is the one its live
    configuration delegates to (``computerDelegateAccountId``), found in the key's list.
    A failed look-up of that delegate leaves the plain (empty) answer.
    """
    accounts = await client.list_computer_accounts(target=target)
    if accounts or not agent_selected:
        return ComputerChoice(accounts)
    try:
        live = await client.get_live(target=target)
        delegate = live.computer_delegate_account_id if live is not None else None
        if delegate is None:
            return ComputerChoice(accounts)
        found = [a for a in await client.list_computer_accounts() if a.id == delegate]
    except PlatformError:
        return ComputerChoice(accounts)
    return ComputerChoice(found, delegate_of=target if found else None)
