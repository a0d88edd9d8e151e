"""A change to an agent's staging configuration, as a value, and its plan for one account.

A `Change` says what to set (a voice, functions on or off, settings) without naming an
account. `plan_change` checks it against one account's staging (or live, when staging
is empty), voices and functions, and gives the staging write that makes it, every
reason it cannot be made, and the difference it makes. Nothing here sends anything:
the same value serves one agent (the Voices, Functions and Settings screens) and, in a
fleet rollout, many.

The checks are the spec's: a voice's ``accountAvailability``, ``languages``,
``compatibleS2SEngines`` and ``supportsStandardTts``; a function's ``allowed``,
``reason``, ``missingRequirement`` and ``limit``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from vagent_tui.api.agent_extras_models import MODEL_SETTINGS, ModelCatalog
from vagent_tui.api.models import FunctionDescriptor, Voice
from vagent_tui.services.diff import FieldDiff, diff_configs
from vagent_tui.services.settings import check_value

ENTRY_FIELDS = ("name", "instructions", "placeholder")
"""What a staging write carries of an ``actions`` entry (the rest is the platform's)."""
VOICE_BOUND = ("agentLang", "agentS2SEngine")
"""Settings the agent's voice must suit: changing one checks the voice again."""


@dataclass(frozen=True)
class FunctionSwitch:
    """Switch function ``name`` on or off in ``actions``.

    On: nothing happens when an entry of it exists, unless ``instructions`` differ (the
    first entry's are replaced) or ``another`` asks for one more entry (``limit``
    permitting). Off: every entry of it goes.
    """

    name: str
    on: bool
    instructions: str | None = None
    another: bool = False


@dataclass(frozen=True)
class Change:
    """What to set in a staging configuration; checked per account by `plan_change`."""

    voice: str | None = None
    functions: tuple[FunctionSwitch, ...] = ()
    settings: tuple[tuple[str, Any], ...] = ()

    @classmethod
    def of_settings(cls, settings: Mapping[str, Any]) -> Change:
        return cls(settings=tuple(settings.items()))

    @property
    def is_empty(self) -> bool:
        return self.voice is None and not self.functions and not self.settings

    def describe(self) -> str:
        """One line: ``voice → openai-ash; bookAppointment on; speakingTimeout = 900``."""
        parts: list[str] = []
        if self.voice is not None:
            parts.append(f"voice → {self.voice}")
        for switch in self.functions:
            if switch.on and switch.another:
                parts.append(f"{switch.name} +1 entry")
            elif switch.on and switch.instructions is not None:
                parts.append(f"{switch.name} on (instructions set)")
            else:
                parts.append(f"{switch.name} {'on' if switch.on else 'off'}")
        parts.extend(f"{name} = {value!r}" for name, value in self.settings)
        return "; ".join(parts) or "nothing"


@dataclass(frozen=True)
class Refusal:
    """Why one part of a change cannot be made: ``what`` is the setting or the entry."""

    what: str
    reason: str

    def __str__(self) -> str:
        return f"{self.what}: {self.reason}"


@dataclass(frozen=True)
class Plan:
    """A change planned against one configuration (``base``, the wire dict)."""

    base: Mapping[str, Any]
    body: dict[str, Any]
    """The staging write; empty when the configuration already is as asked."""
    refusals: tuple[Refusal, ...] = ()
    diffs: tuple[FieldDiff, ...] = field(default=())
    notes: tuple[str, ...] = ()
    """What the change does beyond what was asked, and why (shown in the review)."""

    @property
    def refused(self) -> bool:
        return bool(self.refusals)

    @property
    def already(self) -> bool:
        """Nothing to write: every part of the change is already so."""
        return not self.refusals and not self.body

    @property
    def result(self) -> dict[str, Any]:
        """The configuration after the write (what the platform would hold)."""
        return {**self.base, **self.body}


# --------------------------------------------------------------------------- voices


def voice_refusal(voice_id: str, voice: Voice | None, config: Mapping[str, Any]) -> str | None:
    """Why ``voice`` cannot serve ``config`` (its language and engines), or None."""
    if voice is None:
        return f"{voice_id} is not in this account's voices list"
    name = voice.name or voice.id
    if not voice.available:
        why = voice.account_availability.reason if voice.account_availability else None
        return f"{name} is not available for this account" + (f" ({why})" if why else "")
    lang = config.get("agentLang")
    if isinstance(lang, str) and lang and voice.languages:
        speaks = lang in voice.languages or (lang != "multi" and "multi" in voice.languages)
        if not speaks:
            return f"{name} does not speak {lang} (it speaks {', '.join(voice.languages)})"
    s2s = config.get("agentS2SEngine")
    if s2s:
        if s2s not in voice.compatible_s2_s_engines:
            engines = ", ".join(voice.compatible_s2_s_engines) or "none"
            return f"{name} does not work with the S2S engine {s2s} (it works with: {engines})"
    elif voice.supports_standard_tts is False:
        return f"{name} has no standard TTS, and this agent uses no S2S engine"
    return None


# --------------------------------------------------------------------------- functions


def _entry(raw: Mapping[str, Any]) -> dict[str, Any]:
    return {k: raw[k] for k in ENTRY_FIELDS if raw.get(k) is not None}


def _switch_functions(
    actions: list[dict[str, Any]],
    switches: Iterable[FunctionSwitch],
    functions: Mapping[str, FunctionDescriptor],
    refusals: list[Refusal],
) -> list[dict[str, Any]]:
    for switch in switches:
        what = f"actions[{switch.name}]"
        existing = [a for a in actions if a.get("name") == switch.name]
        if not switch.on:
            actions = [a for a in actions if a.get("name") != switch.name]
            continue
        descriptor = functions.get(switch.name)
        if descriptor is None:
            refusals.append(Refusal(what, "not in this account's functions list"))
            continue
        if descriptor.allowed is False:
            reason = descriptor.reason or "not allowed for this account"
            if descriptor.missing_requirement:
                reason += f"; needs: {descriptor.missing_requirement}"
            refusals.append(Refusal(what, reason))
            continue
        if existing and not switch.another:
            if switch.instructions is not None:
                existing[0]["instructions"] = switch.instructions
            continue
        if descriptor.limit is not None and len(existing) >= descriptor.limit:
            refusals.append(Refusal(
                what, f"at most {descriptor.limit} allowed and {len(existing)} configured"
            ))  # fmt: skip
            continue
        entry: dict[str, Any] = {"name": switch.name, "instructions": switch.instructions or ""}
        if descriptor.placeholder:
            entry["placeholder"] = descriptor.placeholder
        actions.append(entry)
    return actions


def _drop_stale(
    actions: list[dict[str, Any]], functions: Mapping[str, FunctionDescriptor]
) -> tuple[list[dict[str, Any]], list[str]]:
    """The list without entries the platform no longer allows, and a note for each.

    The list replaces whole and the platform refuses one that holds a function it no
    longer allows: any change to ``actions`` has to leave such entries out.
    """
    kept: list[dict[str, Any]] = []
    dropped: dict[str, str] = {}
    for entry in actions:
        name = str(entry.get("name"))
        descriptor = functions.get(name)
        if descriptor is not None and descriptor.allowed is False:
            dropped[name] = descriptor.reason or "not allowed"
            continue
        kept.append(entry)
    notes = [
        f"{name} is no longer allowed ({why}): it leaves the list too, since the platform "
        "refuses a list that holds it."
        for name, why in dropped.items()
    ]
    return kept, notes


def _over_limit(
    actions: list[dict[str, Any]], functions: Mapping[str, FunctionDescriptor]
) -> list[Refusal]:
    """Functions the list would hold more often than their ``limit``: the platform refuses
    the whole list then, so a change that leaves one so cannot be written."""
    counts: dict[str, int] = {}
    for entry in actions:
        name = str(entry.get("name"))
        counts[name] = counts.get(name, 0) + 1
    out: list[Refusal] = []
    for name, count in counts.items():
        descriptor = functions.get(name)
        if descriptor is not None and descriptor.limit is not None and count > descriptor.limit:
            out.append(Refusal(
                f"actions[{name}]",
                f"at most {descriptor.limit} allowed and {count} configured: the platform "
                "refuses the whole list until some are removed",
            ))  # fmt: skip
    return out


def actions_refusals(
    actions: Sequence[Mapping[str, Any]], functions: Sequence[FunctionDescriptor]
) -> list[Refusal]:
    """Why the platform would refuse ``actions`` written whole (a list edited by hand, as
    in a pulled folder): an entry of a function not in the account's list or not allowed
    (the platform refuses a list that holds one), or one more often than its ``limit``."""
    by_name = {f.name: f for f in functions}
    refusals: list[Refusal] = []
    for name in dict.fromkeys(str(entry.get("name")) for entry in actions):
        descriptor = by_name.get(name)
        if descriptor is None:
            refusals.append(Refusal(f"actions[{name}]", "not in this account's functions list"))
        elif descriptor.allowed is False:
            reason = descriptor.reason or "not allowed for this account"
            if descriptor.missing_requirement:
                reason += f"; needs: {descriptor.missing_requirement}"
            refusals.append(Refusal(f"actions[{name}]", reason))
    refusals.extend(_over_limit([dict(a) for a in actions], by_name))
    return refusals


def with_placeholders(
    actions: Sequence[Mapping[str, Any]], functions: Sequence[FunctionDescriptor]
) -> list[dict[str, Any]]:
    """``actions`` as a write carries them (`ENTRY_FIELDS`), an entry without its
    placeholder given the function's, as a function switched on in the console is."""
    by_name = {f.name: f for f in functions}
    out: list[dict[str, Any]] = []
    for raw in actions:
        entry = _entry(raw)
        descriptor = by_name.get(str(entry.get("name")))
        if "placeholder" not in entry and descriptor is not None and descriptor.placeholder:
            entry["placeholder"] = descriptor.placeholder
        out.append(entry)
    return out


# --------------------------------------------------------------------------- the plan


def plan_change(
    change: Change,
    base: Mapping[str, Any],
    *,
    voices: Sequence[Voice] | None = None,
    functions: Sequence[FunctionDescriptor] | None = None,
    models: ModelCatalog | None = None,
) -> Plan:
    """Check ``change`` against ``base`` (staging, or live when staging is empty).

    ``voices`` are needed for a voice (and to check the current voice against a new
    ``agentLang`` or ``agentS2SEngine``), ``functions`` for function switches: both are
    the lists of the account the change is for. ``models``, what the platform offers:
    a model setting naming another is refused, as a voice not listed is (None: not
    checked here; a rollout's form checks it once for every account).
    """
    refusals: list[Refusal] = []
    notes: list[str] = []
    body: dict[str, Any] = {}
    for name, value in change.settings:
        problem = check_value(name, value)
        if not problem and models is not None and name in MODEL_SETTINGS and value:
            problem = models.refusal(str(value))
        if problem:
            refusals.append(Refusal(name, problem))
        elif base.get(name) != value:
            body[name] = value
    effective = {**base, **body}
    if change.voice is not None:
        if voices is None:
            raise ValueError("a voice change is checked against the account's voices")
        voice = next((v for v in voices if v.id == change.voice), None)
        problem = voice_refusal(change.voice, voice, effective)
        if problem:
            refusals.append(Refusal("agentVoice", problem))
        elif base.get("agentVoice") != change.voice:
            body["agentVoice"] = change.voice
    else:
        changed = [name for name in VOICE_BOUND if name in body]
        current = effective.get("agentVoice")
        if changed and isinstance(current, str) and current and voices is not None:
            voice = next((v for v in voices if v.id == current), None)
            problem = voice_refusal(current, voice, effective)
            if problem:
                refusals.append(Refusal(changed[0], f"the agent's voice would not fit: {problem}"))
    if change.functions:
        if functions is None:
            raise ValueError("a function switch is checked against the account's functions")
        by_name = {f.name: f for f in functions}
        before = [_entry(a) for a in base.get("actions") or [] if isinstance(a, Mapping)]
        after = _switch_functions([dict(a) for a in before], change.functions, by_name, refusals)
        if after != before:
            after, notes = _drop_stale(after, by_name)
            refusals.extend(_over_limit(after, by_name))
            body["actions"] = after
    if refusals:
        return Plan(base=base, body={}, refusals=tuple(refusals))
    # Only the fields the write sets can differ: the rest of the configuration is not
    # compared (taken in ``base``'s order, as a diff of the whole would list them).
    touched = {name: value for name, value in base.items() if name in body}
    diffs = tuple(diff_configs(touched, {**touched, **body}))
    return Plan(base=base, body=body, diffs=diffs, notes=tuple(notes))
