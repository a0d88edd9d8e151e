"""A change planned for many agent accounts: what it would do to each, nothing written.

The plan as a value (`RolloutPlan`, an `AccountPlan` per account) and as a file. Making
one (each account's staging, live and, when the change needs them, voices and functions
read, with at most ``concurrency`` accounts in flight, and the `Change` planned against
each by `vagent_tui.services.changes.plan_change`) is
`vagent_tui.services.rollout_planning.plan_rollout`. Every account gets one outcome:

* ``change``: the staging write it needs (``body``) and its diff;
* ``already``: its staging already is as asked;
* ``refused``: the reasons (voice not available or not fitting, function not allowed
  and its ``missingRequirement``, over ``limit``...);
* ``unreadable``: the platform's message for the read that failed.

A failing account never stops the others. The plan keeps, per account, the configuration
it was computed from (``base``): applying it later reads staging again and skips an
account whose staging moved meanwhile. Plans export as CSV (cells that a spreadsheet
would run as a formula are quoted) and as JSON (which `RolloutPlan.from_json` reads
back, so a plan can be saved and applied later).

A second kind of plan, `FolderPlan`, holds per account its own write instead of one
`Change`: what a folder of edited configurations asks for
(`vagent_tui.services.config_folder`). Its file says ``"kind": "folder"``; each write
is checked on load (`folder_body_problem`: only what the console writes, each value as
its form takes it) and its diff computed again from its base, as a change plan's is.

Applying and publishing a plan (either kind): `vagent_tui.services.rollout_apply`.
"""

from __future__ import annotations

import csv
import io
import json
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from typing import TYPE_CHECKING, Any, Literal

from pydantic_core import from_json, to_json

from vagent_tui.inert import csv_cell
from vagent_tui.services.changes import ENTRY_FIELDS, Change, FunctionSwitch
from vagent_tui.services.diff import FieldDiff, diff_configs, show
from vagent_tui.services.masking import (
    MASK,
    SECRET_CHANGED,
    Redact,
    holds_mask,
    public_config,
    shown_diffs,
)
from vagent_tui.services.settings import BY_NAME, check_value

if TYPE_CHECKING:
    pass

Outcome = Literal["change", "already", "refused", "unreadable"]
OUTCOMES: tuple[Outcome, ...] = ("change", "already", "refused", "unreadable")
PLAN_VERSION = 1
"""The JSON plan's format; `RolloutPlan.from_json` refuses another."""


@dataclass(frozen=True)
class AccountPlan:
    """What the change would do to one account."""

    account_id: int
    name: str
    outcome: Outcome
    body: dict[str, Any] = field(default_factory=dict)
    changes: tuple[str, ...] = ()
    """One line per difference: ``agentVoice: "a" → "b"``."""
    reasons: tuple[str, ...] = ()
    """Why refused, or the platform's message when unreadable."""
    packed_base: bytes | dict[str, Any] | None = field(default=None, repr=False)
    """`base`, kept as compact JSON (`pack`): a plan holds one configuration per account
    changed, and as a tree of dicts and lists each was hundreds of objects that every
    collection of the garbage collector scanned again while the plan grew (at 10,000
    accounts, a fifth of the plan's CPU). A configuration JSON cannot spell stays as is."""
    notes: tuple[str, ...] = ()

    @property
    def base(self) -> dict[str, Any] | None:
        """The configuration planned against (staging, or live when staging was empty),
        decoded anew on each call: take it once per use."""
        packed = self.packed_base
        if packed is None or isinstance(packed, dict):
            return packed
        base: dict[str, Any] = from_json(packed)
        return base


def pack(config: Mapping[str, Any]) -> bytes | dict[str, Any]:
    """``config`` as `AccountPlan.packed_base` keeps it."""
    try:
        return to_json(config)
    except ValueError:  # text JSON cannot carry (a lone surrogate): kept as it is
        return dict(config)


def change_lines(diffs: Iterable[FieldDiff], redact: Redact | None = None) -> tuple[str, ...]:
    """One line per difference, as a person reads it (a plan's ``changes``), each made
    public first (`vagent_tui.services.masking.shown_diffs`: a line never holds a
    secret; ``redact``: the connection's, `PlatformClient.redact`)."""
    out: list[str] = []
    for diff in shown_diffs(diffs, redact):
        if diff.kind == "changed":
            same = f" {SECRET_CHANGED}" if diff.old == diff.new else ""
            out.append(f"{diff.path}: {show(diff.old)} → {show(diff.new)}{same}")
        elif diff.kind == "added":
            out.append(f"{diff.path}: added")
        else:
            out.append(f"{diff.path}: removed")
    return tuple(out)


def change_problem(change: Change) -> str | None:
    """Why no account could take ``change`` (checked before any account is read)."""
    if change.is_empty:
        return "the change sets nothing"
    for name, value in change.settings:
        problem = check_value(name, value)
        if problem:
            return f"{name}: {problem}"
    names = [s.name for s in change.functions]
    if len(names) != len(set(names)):
        return "a function is switched twice in one change"
    return None


@dataclass
class RolloutPlan:
    """A change planned for many accounts, in the order the accounts were given."""

    change: Change
    accounts: list[AccountPlan]
    origin: str = ""
    """Where the plan was made (the platform's address and the key owner): a plan is
    applied only there, never to the same ids on another platform or tree."""
    chosen: str = ""
    """How the accounts were chosen, as the form said it."""
    left_out: int = 0
    """Accounts read but left out: their configuration did not match the filter."""

    def changing(self) -> set[int]:
        """The accounts the plan writes (``change``), each once."""
        return {p.account_id for p in self.accounts if p.outcome == "change"}

    def counts(self) -> Counter[str]:
        return Counter(p.outcome for p in self.accounts)

    def summary(self) -> str:
        counts = self.counts()
        labels = {"change": "will change", "already": "already so", "refused": "refused",
                  "unreadable": "could not be read"}  # fmt: skip
        text = ", ".join(f"{counts.get(o, 0):,} {labels[o]}" for o in OUTCOMES)
        if self.left_out:
            text += f" ({self.left_out:,} left out by the filter)"
        return text

    def describe(self) -> str:
        """What the plan writes, in one line (the change, or where the writes came from)."""
        return self.change.describe()

    def to_json(self) -> str:
        return json.dumps(self.to_data(), ensure_ascii=False, separators=(",", ":"))

    def to_data(self) -> dict[str, Any]:
        """The plan as JSON data (what `to_json` writes and `from_json` reads)."""
        return {
            "version": PLAN_VERSION,
            "change": {
                "voice": self.change.voice,
                "functions": [asdict(s) for s in self.change.functions],
                "settings": dict(self.change.settings),
            },
            "origin": self.origin,
            "chosen": self.chosen,
            "left_out": self.left_out,
            "accounts": [_account_data(p) for p in self.accounts],
        }

    @classmethod
    def from_json(cls, text: str, redact: Redact | None = None) -> RolloutPlan:
        """A plan saved by `to_json`, checked as a file from anywhere would be.

        Every field has its type; the change is one that can be made; each account's
        write holds only what the change makes (its settings and voice as given, its
        functions switched as asked) and its ``changes`` lines are computed again from
        its base, never taken from the file: a review shows what would be written.
        ``redact``: the connection's (`PlatformClient.redact`), which masked its key in
        the pulled files a folder plan comes from (`folder_body_problem`) and masks it
        in the ``changes`` lines.

        Raises:
            ValueError: not a plan of this format (the message says what is wrong).
        """
        try:
            data = json.loads(text)
            version = data.get("version")
            if type(version) is not int or version != PLAN_VERSION:
                raise PlanFileError(f"not a rollout plan of version {PLAN_VERSION}")
            kind = data.get("kind", "change")
            if kind == FOLDER_KIND:
                return FolderPlan.of_data(data, redact)
            if kind != "change":
                raise PlanFileError("not a kind of rollout plan this version knows")
            raw = data["change"]
            voice = raw.get("voice")
            if voice is not None and not isinstance(voice, str):
                raise PlanFileError("the change's voice is not text")
            change = Change(
                voice=voice,
                functions=tuple(_switch(s) for s in raw.get("functions", [])),
                settings=tuple(dict(raw.get("settings", {})).items()),
            )
            problem = change_problem(change)
            if problem:
                raise PlanFileError(f"the plan's change cannot be made: {problem}")
            accounts = [_account_plan(p, change, redact) for p in data["accounts"]]
            origin, chosen = _text(data.get("origin", "")), _text(data.get("chosen", ""))
            left_out = data.get("left_out", 0)
            if type(left_out) is not int or left_out < 0:
                raise PlanFileError("left_out is not a count")
        except PlanFileError:
            raise
        except (KeyError, TypeError, AttributeError, ValueError) as exc:
            raise ValueError(f"not a readable rollout plan ({type(exc).__name__})") from exc
        return cls(change, accounts, origin=origin, chosen=chosen, left_out=left_out)

    def to_csv(
        self,
        more_headers: Sequence[str] = (),
        more: Callable[[AccountPlan], Sequence[str]] | None = None,
    ) -> str:
        """One row per account; ``more`` gives each row's cells under ``more_headers``
        (made safe here, as every cell)."""
        out = io.StringIO()
        writer = csv.writer(out, lineterminator="\n")
        writer.writerow(["account_id", "account_name", "outcome", "changes", "reasons", "notes",
                         *more_headers])  # fmt: skip
        for p in self.accounts:
            extra = [csv_cell(cell) for cell in more(p)] if more is not None else []
            writer.writerow([
                csv_cell(str(p.account_id)), csv_cell(p.name), p.outcome,
                csv_cell("; ".join(p.changes)), csv_cell("; ".join(p.reasons)),
                csv_cell("; ".join(p.notes)), *extra,
            ])  # fmt: skip
        return out.getvalue()


FOLDER_KIND = "folder"
"""``kind`` of a `FolderPlan`'s file (a plan of one `Change` has none: its files and
their ids stay as they were)."""
WRITABLE_FIELDS = frozenset({*BY_NAME, "agentVoice", "actions"})
"""What the console writes of an agent's configuration: the Settings screen's settings,
the voice, the functions (``actions``). A file's edit of anything else is refused."""


@dataclass
class FolderPlan(RolloutPlan):
    """Writes of a folder of configurations (`vagent_tui.services.config_folder`): per
    account its own ``body`` (what its file's staging sets that the platform's does
    not), no one `Change` (``change`` is empty). Applied and published as any plan
    (`vagent_tui.services.rollout_apply`); ``chosen`` says which folder."""

    def describe(self) -> str:
        return f"each account's edits in {self.chosen or 'a folder'}"

    def to_data(self) -> dict[str, Any]:
        return {
            "version": PLAN_VERSION,
            "kind": FOLDER_KIND,
            "origin": self.origin,
            "chosen": self.chosen,
            "left_out": self.left_out,
            "accounts": [_account_data(p) for p in self.accounts],
        }

    @classmethod
    def of_data(cls, data: dict[str, Any], redact: Redact | None = None) -> FolderPlan:
        """A folder plan's JSON data, checked as a file from anywhere would be: each
        account's write holds only what the console may write (`folder_body_problem`),
        its ``changes`` computed again from its base.

        Raises:
            PlanFileError: not a folder plan of this format (the message says what).
        """
        accounts = [_account_plan(p, None, redact) for p in data["accounts"]]
        origin, chosen = _text(data.get("origin", "")), _text(data.get("chosen", ""))
        left_out = data.get("left_out", 0)
        if type(left_out) is not int or left_out < 0:
            raise PlanFileError("left_out is not a count")
        return cls(Change(), accounts, origin=origin, chosen=chosen, left_out=left_out)


def folder_body_problem(
    body: Mapping[str, Any], base: Mapping[str, Any], redact: Redact | None = None
) -> str | None:
    """Why ``body`` is not a staging write the console could make of ``base`` (None: it
    could): a field it does not write, a value the field does not take, a masked secret
    (`vagent_tui.services.masking.MASK`) where the platform holds one. ``redact``: the
    connection's, as the pull masked the files with it (its key in a text is a secret)."""
    for key, value in body.items():
        if key not in WRITABLE_FIELDS:
            return (f"{key} is not something the console may write (only its settings, "
                    "agentVoice and actions)")  # fmt: skip
        if key in BY_NAME:
            problem = check_value(key, value)
            if problem:
                return f"{key}: {problem}"
        elif key == "agentVoice":
            if not isinstance(value, str) or not value:
                return "agentVoice: a voice id is needed"
        else:
            problem = _actions_problem(value)
            if problem:
                return f"actions: {problem}"
        if holds_mask(value) and _masks_a_secret(key, base.get(key), redact):
            return (f"{key} holds a masked secret ({MASK}): it cannot be written back from "
                    "a file; change this field in the console")  # fmt: skip
    return None


def _masks_a_secret(key: str, value: Any, redact: Redact | None) -> bool:
    """Whether a pulled file shows ``value`` of ``key`` with a secret masked in it (the
    pull's masking: `public_config` with the connection's ``redact``)."""
    return holds_mask(public_config({key: value}, redact).get(key)) and not holds_mask(value)


def _actions_problem(value: Any) -> str | None:
    if not isinstance(value, list):
        return "a list of entries is needed"
    for index, entry in enumerate(value):
        if not isinstance(entry, dict):
            return f"entry {index + 1} is not an object"
        more = sorted(set(entry) - set(ENTRY_FIELDS))
        if more:
            return (f"entry {index + 1} holds {', '.join(more)}: an entry is written as "
                    f"{', '.join(ENTRY_FIELDS)} only")  # fmt: skip
        if not isinstance(entry.get("name"), str) or not entry["name"]:
            return f"entry {index + 1} has no function name"
        if not isinstance(entry.get("instructions", ""), str):
            return f"entry {index + 1}: instructions are not text"
        placeholder = entry.get("placeholder")
        if placeholder is not None and not isinstance(placeholder, str):
            return f"entry {index + 1}: the placeholder is not text"
    return None


class PlanFileError(ValueError):
    """A plan file that is not what `RolloutPlan.to_json` writes (the message says why)."""


def _text(value: Any) -> str:
    if not isinstance(value, str):
        raise PlanFileError("a text field holds something else")
    return value


def _switch(raw: Any) -> FunctionSwitch:
    if not isinstance(raw, dict) or not isinstance(raw.get("name"), str):
        raise PlanFileError("a function switch is not an object with a name")
    on, another = raw.get("on"), raw.get("another", False)
    instructions = raw.get("instructions")
    if not isinstance(on, bool) or not isinstance(another, bool):
        raise PlanFileError("a function switch's on/another is not true or false")
    if instructions is not None and not isinstance(instructions, str):
        raise PlanFileError("a function switch's instructions are not text")
    return FunctionSwitch(raw["name"], on, instructions, another)


def _lines(raw: dict[str, Any], key: str) -> tuple[str, ...]:
    value = raw.get(key, [])
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise PlanFileError(f"{key} is not a list of text")
    return tuple(value)


def body_problem(change: Change, body: Mapping[str, Any], base: Mapping[str, Any]) -> str | None:
    """Why ``body`` is not a write ``change`` could make of ``base`` (None: it could)."""
    settings = dict(change.settings)
    for key, value in body.items():
        if key in settings:
            if value != settings[key]:
                return f"{key} is not the change's value"
        elif key == "agentVoice":
            if change.voice is None or value != change.voice:
                return "agentVoice is not the change's voice"
        elif key == "actions" and change.functions:
            if not isinstance(value, list) or not all(isinstance(e, dict) for e in value):
                return "actions is not a list of entries"
            had = {str(a.get("name")) for a in base.get("actions") or [] if isinstance(a, dict)}
            on = {s.name for s in change.functions if s.on}
            off = {s.name for s in change.functions if not s.on}
            for entry in value:
                name = entry.get("name")
                if set(entry) - set(ENTRY_FIELDS) or not isinstance(name, str):
                    return "an actions entry holds more than a function's fields"
                if name in off or name not in had | on:
                    return f"actions holds {name}, which the change does not switch on"
        else:
            return f"{key} is not something the change sets"
    return None


def _account_data(p: AccountPlan) -> dict[str, Any]:
    data = asdict(p)
    del data["packed_base"]
    data["base"] = p.base
    return data


def _account_plan(raw: Any, change: Change | None, redact: Redact | None) -> AccountPlan:
    """One account of a plan file (``change`` None: a `FolderPlan`'s)."""
    if not isinstance(raw, dict):
        raise PlanFileError("an account entry is not an object")
    account_id, outcome = raw.get("account_id"), raw.get("outcome")
    if type(account_id) is not int or account_id <= 0:
        raise PlanFileError("an account id is not a positive whole number")
    if outcome not in OUTCOMES:
        raise PlanFileError(f"account {account_id}: unknown outcome")
    body, base = raw.get("body", {}), raw.get("base")
    if not isinstance(body, dict) or not (base is None or isinstance(base, dict)):
        raise PlanFileError(f"account {account_id}: body or base is not an object")
    changes: tuple[str, ...] = ()
    if outcome == "change":
        if base is None or not body:
            raise PlanFileError(f"account {account_id}: a change without its write or base")
        if change is None:
            problem = folder_body_problem(body, base, redact)
        else:
            problem = body_problem(change, body, base)
        if problem:
            raise PlanFileError(f"account {account_id}: {problem}")
        changes = change_lines(diff_configs(base, {**base, **body}), redact)
    elif body:
        raise PlanFileError(f"account {account_id}: a write for an account that needs none")
    return AccountPlan(
        account_id, _text(raw.get("name", "")), outcome, body=body, changes=changes,
        reasons=_lines(raw, "reasons"), packed_base=None if base is None else pack(base),
        notes=_lines(raw, "notes"),
    )  # fmt: skip
