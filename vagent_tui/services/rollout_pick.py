"""Choosing a rollout: the change as typed in its form, and the accounts it goes to.

The form's fields are text; each parser here gives the value or raises `ValueError`
with a message for that field (nothing is planned while one is wrong):

* functions: ``bookAppointment on, transferCall off`` (``,`` or ``;`` between switches);
* settings: ``speakingTimeout=900; agentLang=en-US`` (``;`` between settings, since a
  value may hold commas), each value checked as the Settings screen checks it;
* accounts: ``all`` (or nothing) for every account; else words matched against the
  account's name, username, id and the names of the accounts above it (its
  organization, its reseller), and ``voice:``, ``engine:``, ``lang:`` matched against
  its current configuration (read while planning: an account that does not match is
  left out of the plan, and the plan counts it).

`check_request` checks the form's four fields at once (and ``vagent-tui rollout plan``'s
options, the same words), against the voices and functions of a sample account.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from vagent_tui.api.agent_extras_models import MODEL_SETTINGS, ModelCatalog
from vagent_tui.services.accounts import NamedAccount
from vagent_tui.services.changes import Change, FunctionSwitch
from vagent_tui.services.rollout import change_problem
from vagent_tui.services.settings import BY_NAME, form_text, parse_value

_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_.-]*$")
FILTER_KEYS = ("voice", "engine", "lang")
ENGINE_FIELDS = ("agentTtsEngine", "agentS2SEngine", "agentSttEngine")
ALL = "all"
"""The accounts field's word for every account (as an empty field)."""


def parse_functions(text: str) -> tuple[FunctionSwitch, ...]:
    """``name on, other off`` as switches.

    Raises:
        ValueError: a part is not ``<name> on`` or ``<name> off``.
    """
    switches: list[FunctionSwitch] = []
    for part in re.split(r"[,;]", text):
        words = part.split()
        if not words:
            continue
        if len(words) != 2 or words[1].lower() not in ("on", "off") or not _NAME.match(words[0]):
            raise ValueError(f"{part.strip()!r}: write <function> on, or <function> off")
        switches.append(FunctionSwitch(words[0], words[1].lower() == "on"))
    names = [s.name for s in switches]
    twice = sorted({n for n in names if names.count(n) > 1})
    if twice:
        raise ValueError(f"{', '.join(twice)} is switched twice")
    return tuple(switches)


def parse_settings(text: str) -> tuple[tuple[str, Any], ...]:
    """``name=value; other=value`` as checked setting values.

    Raises:
        ValueError: an unknown setting, a value that fails its check, a setting twice.
    """
    settings: dict[str, Any] = {}
    for part in text.split(";"):
        if not part.strip():
            continue
        name, sep, raw = part.partition("=")
        name = name.strip()
        if not sep or not name:
            raise ValueError(f"{part.strip()!r}: write <setting>=<value>")
        if name not in BY_NAME:
            raise ValueError(f"{name} is not an editable setting")
        if name in settings:
            raise ValueError(f"{name} is set twice")
        try:
            settings[name] = parse_value(name, raw.strip())
        except ValueError as exc:
            raise ValueError(f"{name}: {exc}") from None
    return tuple(settings.items())


@dataclass(frozen=True)
class AccountFilter:
    """Which accounts a rollout goes to, beyond being below the target."""

    words: tuple[str, ...] = ()
    voice: str | None = None
    engine: str | None = None
    lang: str | None = None

    @classmethod
    def parse(cls, text: str) -> AccountFilter:
        """``acme dental voice:openai-ash engine:elevenlabs lang:en-US``; ``all`` (any
        case) or nothing at all: every account.

        Raises:
            ValueError: a ``key:value`` with an unknown key or no value; ``all`` beside
                other words (it would be matched as a word: say which is meant).
        """
        if text.strip().casefold() == ALL:
            return cls()
        words: list[str] = []
        keyed: dict[str, str] = {}
        for word in text.split():
            key, sep, value = word.partition(":")
            if not sep:
                if word.casefold() == ALL:
                    raise ValueError("all means every account: give it alone, or only words")
                words.append(word.casefold())
                continue
            if key.lower() not in FILTER_KEYS:
                raise ValueError(f"{key}: is not a filter (use words, {', '.join(FILTER_KEYS)}:)")
            if not value:
                raise ValueError(f"{key}: needs a value, as in {key}:<value>")
            if key.lower() in keyed:
                raise ValueError(f"{key}: is given twice (an account has one)")
            keyed[key.lower()] = value
        return cls(tuple(words), keyed.get("voice"), keyed.get("engine"), keyed.get("lang"))

    @property
    def reads_config(self) -> bool:
        """Whether the filter needs each account's configuration (read while planning)."""
        return any((self.voice, self.engine, self.lang))

    def matches_account(self, account: NamedAccount, above: Sequence[NamedAccount] = ()) -> bool:
        """Every word is in the name, username or id of the account or one above it."""
        if not self.words:
            return True
        texts = [account.display_name, account.username or "", str(account.id)]
        texts.extend(a.display_name for a in above)
        haystack = " ".join(texts).casefold()
        return all(word in haystack for word in self.words)

    def matches_config(self, config: Mapping[str, Any]) -> bool:
        """The ``voice:``, ``engine:`` and ``lang:`` parts against a configuration."""

        def same(value: Any, wanted: str) -> bool:
            return isinstance(value, str) and value.casefold() == wanted.casefold()

        if self.voice and not same(config.get("agentVoice"), self.voice):
            return False
        if self.engine and not any(same(config.get(f), self.engine) for f in ENGINE_FIELDS):
            return False
        return not (self.lang and not same(config.get("agentLang"), self.lang))

    def __str__(self) -> str:
        parts = list(self.words)
        parts += [f"{k}:{v}" for k in FILTER_KEYS if (v := getattr(self, k))]
        return " ".join(parts)


def pick_accounts(
    accounts: Sequence[NamedAccount],
    *,
    path_of: Callable[[int], Sequence[NamedAccount]],
    under: int | None = None,
    marked: Collection[int] | None = None,
    account_filter: AccountFilter | None = None,
) -> list[NamedAccount]:
    """The accounts below ``under`` (None: all), among ``marked`` when given, whose names
    match ``account_filter``'s words; ``path_of(id)`` is the chain from the root down to
    the account (`vagent_tui.services.accounts.AccountDirectory.path_of`,
    `vagent_tui.services.agent_listing.AgentListing.path_of`)."""
    out: list[NamedAccount] = []
    for account in accounts:
        if account.id is None or (marked is not None and account.id not in marked):
            continue
        chain = list(path_of(account.id))
        if under is not None and under != account.id and all(a.id != under for a in chain):
            continue
        above = [a for a in chain if a.id != account.id]
        if account_filter is None or account_filter.matches_account(account, above):
            out.append(account)
    return out


# --------------------------------------------------------------------------- the form


@dataclass(frozen=True)
class RolloutRequest:
    """What the form says, as typed (to show it again) and as values."""

    voice: str = ""
    functions: str = ""
    settings: str = ""
    accounts: str = ""
    marked_only: bool = False
    change: Change = field(default_factory=Change)
    account_filter: AccountFilter = field(default_factory=AccountFilter)
    only_ids: tuple[int, ...] | None = None
    """The accounts of a loaded plan (``p`` plans its change for them again)."""

    @classmethod
    def of_plan(cls, change: Change, account_ids: tuple[int, ...]) -> RolloutRequest:
        """The request that plans ``change`` again for ``account_ids`` (a loaded plan)."""
        functions = ", ".join(f"{s.name} {'on' if s.on else 'off'}" for s in change.functions)
        settings = "; ".join(f"{name}={form_text(name, value)}" for name, value in change.settings)
        return cls(change.voice or "", functions, settings, "", False, change, AccountFilter(),
                   account_ids)  # fmt: skip


@dataclass(frozen=True)
class Catalog:
    """What the sample account lists: the voices and functions a change may name."""

    voices: tuple[str, ...] = ()
    functions: tuple[str, ...] = ()
    sample: str = ""
    """The account the lists come from (named in the field messages)."""
    models: ModelCatalog | None = None
    """The models the platform offers (None: not read; the field checks syntax only)."""


def check_request(
    voice: str, functions: str, settings: str, accounts: str, catalog: Catalog
) -> tuple[dict[str, str], RolloutRequest | None]:
    """``({field: message}, None)``, or ``({}, the request)`` when every field is good."""
    errors: dict[str, str] = {}
    voice = voice.strip()
    if voice and (" " in voice or not voice.isprintable()):
        errors["voice"] = "a voice id, without spaces"
    elif voice and catalog.voices and voice not in catalog.voices:
        errors["voice"] = f"no voice has this id (the voices list of {catalog.sample})"
    switches: tuple[FunctionSwitch, ...] = ()
    try:
        switches = parse_functions(functions)
    except ValueError as exc:
        errors["functions"] = str(exc)
    unknown = [s.name for s in switches if catalog.functions and s.name not in catalog.functions]
    if unknown:
        errors["functions"] = f"{', '.join(unknown)}: not a function of {catalog.sample}"
    values: tuple[tuple[str, object], ...] = ()
    try:
        values = parse_settings(settings)
    except ValueError as exc:
        errors["settings"] = str(exc)
    if catalog.models is not None:
        offered = catalog.models
        refused = [f"{name}: {why}" for name, value in values
                   if name in MODEL_SETTINGS and value
                   and (why := offered.refusal(str(value)))]  # fmt: skip
        if refused:
            errors["settings"] = "; ".join(refused)
    account_filter = AccountFilter()
    try:
        account_filter = AccountFilter.parse(accounts)
    except ValueError as exc:
        errors["accounts"] = str(exc)
    if errors:
        return errors, None
    change = Change(voice=voice or None, functions=switches, settings=values)
    problem = change_problem(change)
    if problem:
        return {"": f"Nothing to plan: {problem}"}, None
    return {}, RolloutRequest(voice, functions, settings, accounts, False, change, account_filter)
