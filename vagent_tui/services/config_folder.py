"""Agents' configurations as files: a folder pulled from the platform, and a plan made
from it once edited (configuration as code).

`pull_folder` writes one file per agent account, ``<id>-<slug of its name>.json``::

    {
      "account": {"id": 1111, "name": "Acme Dental Front Desk", "parent": 1110},
      "live": {...},
      "staging": {...},
      "staging_empty": false,
      "version": 1
    }

``staging`` is what a staging write starts from: the staging slot, or live when staging
is empty (``staging_empty`` then says so), as the console's Agent screen and a rollout
plan have it; ``live`` is the published configuration, for review only. Keys sorted,
two spaces of indent, a newline at the end: a pull with nothing changed on the
platform rewrites nothing (a file whose text is the same is not touched). Nothing
secret (`vagent_tui.services.masking.public_config`). A file is written whole or not at
all (a temporary file renamed), mode 0600: an agent's instructions are a business's own
text even with every secret masked. A file named for an account that is no longer
below the key is reported as ``stale`` and kept, unless ``prune``; one named for an
account pulled under an older name is replaced by the new name.

`read_folder` (the files' names) and `plan_folder` (each file read as it is planned)
make a `vagent_tui.services.rollout.FolderPlan` of the edited folder: per account, its
file's ``staging`` compared with the platform's staging now (both made public alike),
each field that differs written as the file says. A file that edits what the console
does not write (a field outside the settings, the voice and the functions, an action
entry's computed fields, a masked secret), that is not a pulled file, or that names an
account not below the key fails the whole plan (`FolderError`, one line per problem
naming the file and the field): a reviewed folder is applied whole or not at all. What
the platform refuses for one account (a voice it does not have, a function not
allowed) is that account's ``refused`` outcome.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from vagent_tui.api.client import PlatformClient
from vagent_tui.services.accounts import NamedAccount
from vagent_tui.services.bulk import DEFAULT_CONCURRENCY, in_pool
from vagent_tui.services.changes import (
    VOICE_BOUND,
    Change,
    actions_refusals,
    plan_change,
    with_placeholders,
)
from vagent_tui.services.diff import diff_configs
from vagent_tui.services.fleet import describe
from vagent_tui.services.masking import public_config
from vagent_tui.services.reread import read_again
from vagent_tui.services.rollout import (
    WRITABLE_FIELDS,
    AccountPlan,
    FolderPlan,
    change_lines,
    folder_body_problem,
    pack,
)
from vagent_tui.services.settings import BY_NAME
from vagent_tui.services.staging import read_context, read_slots
from vagent_tui.words import counted

FILE_VERSION = 1
"""``version`` of an account's file; `read_folder` refuses another."""
FILE_NAME = re.compile(r"^(\d+)(?:-[A-Za-z0-9-]*)?\.json$")
"""An account's file: its id, a dash and the slug of its name."""
SLUG_LENGTH = 48

Redact = Callable[[str], str]


def slug(name: str) -> str:
    """``Acme Dental – Front Desk`` -> ``acme-dental-front-desk`` (letters and digits of
    ASCII, dashes between; ``account`` when nothing is left)."""
    words = re.findall(r"[a-z0-9]+", name.casefold())
    text = "-".join(words)[:SLUG_LENGTH].strip("-")
    return text or "account"


def file_name(account_id: int, name: str) -> str:
    return f"{account_id}-{slug(name)}.json"


def file_text(
    account: NamedAccount,
    parent: int | None,
    staging: Mapping[str, Any] | None,
    live: Mapping[str, Any] | None,
    redact: Redact | None = None,
) -> str:
    """An account's file: its slots made public, keys sorted (`pull_folder`'s layout)."""
    base = staging if staging is not None else live
    data = {
        "version": FILE_VERSION,
        "account": {"id": account.id, "name": account.display_name, "parent": parent},
        "staging": None if base is None else public_config(base, redact),
        "staging_empty": staging is None,
        "live": None if live is None else public_config(live, redact),
    }
    return json.dumps(data, ensure_ascii=False, indent=2, sort_keys=True) + "\n"


def files_by_id(folder: Path) -> dict[int, list[Path]]:
    """The account files of ``folder``, by account id (other files are not ours)."""
    found: dict[int, list[Path]] = {}
    if not folder.is_dir():
        return found
    for path in sorted(folder.iterdir()):
        match = FILE_NAME.match(path.name)
        if match and path.is_file():
            found.setdefault(int(match.group(1)), []).append(path)
    return found


def write_if_changed(path: Path, text: str) -> bool:
    """Write ``text`` to ``path`` whole (mode 0600) unless it already holds it; whether
    it was written."""
    data = text.encode("utf-8")
    try:
        if path.read_bytes() == data:
            return False
    except OSError:
        pass
    partial = path.with_name(f".{path.name}.tmp")
    fd = os.open(partial, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "wb") as out:
        out.write(data)
    os.replace(partial, path)
    return True


PullOutcome = Literal["written", "unchanged", "failed", "stale", "pruned"]


@dataclass(frozen=True)
class PullResult:
    """What a pull did for one account (or one stale file)."""

    account_id: int
    name: str
    file: str
    """The file's name in the folder."""
    result: PullOutcome
    message: str = ""


async def pull_folder(
    client: PlatformClient,
    accounts: Sequence[NamedAccount],
    folder: Path,
    *,
    parents: Mapping[int, int],
    below_key: Iterable[int],
    prune: bool = False,
    concurrency: int = DEFAULT_CONCURRENCY,
    on_result: Callable[[PullResult], object] | None = None,
) -> list[PullResult]:
    """Write the file of each of ``accounts`` into ``folder`` (made if need be), at most
    ``concurrency`` accounts read at a time (the bulk engine's pool).

    A read that fails is asked again (`read_again`), then is that account's ``failed``
    result (its file left as it was); the others go on. ``below_key``: every agent
    account below the key; a file for none of them is ``stale`` (``pruned``: deleted,
    when ``prune``). Results come in the order of ``accounts``, the stale files last.

    Raises:
        OSError: the folder cannot be made or a file cannot be written.
    """
    folder.mkdir(parents=True, exist_ok=True)
    existing = files_by_id(folder)
    redact = client.redact
    results: dict[int, PullResult] = {}

    async def each(account: NamedAccount) -> None:
        account_id = account.id or 0
        name = file_name(account_id, account.display_name)
        try:
            slots = await read_again(client, lambda: read_slots(client, account_id))
        except Exception as exc:  # one account's failure is its result
            result = PullResult(account_id, account.display_name, name, "failed", describe(exc))
        else:
            text = file_text(account, parents.get(account_id), slots.staging, slots.live, redact)
            written = write_if_changed(folder / name, text)
            older = [p for p in existing.get(account_id, []) if p.name != name]
            for path in older:  # the account was renamed since: its old name goes
                path.unlink(missing_ok=True)
            message = f"was {older[0].name}" if older else ""
            outcome: PullOutcome = "written" if written or older else "unchanged"
            result = PullResult(account_id, account.display_name, name, outcome, message)
        results[account_id] = result
        if on_result is not None:
            on_result(result)

    unique = list({a.id: a for a in accounts if a.id is not None}.values())
    await in_pool(unique, concurrency, each)
    out = [results[a.id or 0] for a in unique]
    known = set(below_key)
    for account_id, paths in sorted(existing.items()):
        if account_id in known:
            continue
        for path in paths:
            gone = "no agent account below the key has this id"
            if prune:
                path.unlink(missing_ok=True)
                stale = PullResult(account_id, "", path.name, "pruned", f"{gone}: deleted")
            else:
                stale = PullResult(account_id, "", path.name, "stale",
                                   f"{gone} (--prune deletes the file)")  # fmt: skip
            out.append(stale)
            if on_result is not None:
                on_result(stale)
    return out


# --------------------------------------------------------------------------- the plan


class FolderError(ValueError):
    """Files a plan cannot be made of: ``problems``, one line each naming the file."""

    def __init__(self, problems: Sequence[str]) -> None:
        super().__init__("; ".join(problems))
        self.problems = tuple(problems)


@dataclass(frozen=True)
class AccountFile:
    """One account's file, read and checked as a pulled file."""

    path: Path
    account_id: int
    name: str
    staging: dict[str, Any]
    live: dict[str, Any] | None


def read_account_file(path: Path) -> AccountFile:
    """An account's file, checked: its shape is `file_text`'s, its id its name's.

    Raises:
        FolderError: it is not (the message names the file and what is wrong).
    """
    match = FILE_NAME.match(path.name)
    if match is None:
        raise FolderError([f"{path.name}: not an account's file (<id>-<name>.json)"])
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError) as exc:
        raise FolderError([f"{path.name}: cannot be read ({exc})"]) from None
    except ValueError as exc:
        raise FolderError([f"{path.name}: not JSON ({exc})"]) from None
    problem = _file_problem(data, int(match.group(1)))
    if problem:
        raise FolderError([f"{path.name}: {problem}"])
    account = data["account"]
    return AccountFile(path, account["id"], str(account.get("name") or ""),
                       data["staging"], data.get("live"))  # fmt: skip


def _file_problem(data: Any, named: int) -> str | None:
    if not isinstance(data, dict):
        return "not an object"
    version = data.get("version")
    if type(version) is not int or version != FILE_VERSION:
        return f"not an account's file of version {FILE_VERSION} (pull it again)"
    account = data.get("account")
    if not isinstance(account, dict) or type(account.get("id")) is not int:
        return "account.id is not a whole number"
    if account["id"] != named:
        return f"account.id is {account['id']} but the file is named for {named}"
    if not isinstance(data.get("staging"), dict):
        return "staging is not an object (an account's configuration)"
    if not (data.get("live") is None or isinstance(data["live"], dict)):
        return "live is not an object"
    more = sorted(set(data) - {"version", "account", "staging", "staging_empty", "live"})
    if more:
        return f"{', '.join(more)}: not a field of an account's file"
    return None


@dataclass(frozen=True)
class FolderFile:
    """An account's file found in a folder, by its name (read when planned: ten thousand
    configurations are not held together)."""

    path: Path
    account_id: int


def read_folder(folder: Path) -> list[FolderFile]:
    """Every account file of ``folder``, by id; one file per account.

    Raises:
        FolderError: every problem found (a file that is not one, two files for one
            account, no file at all).
    """
    if not folder.is_dir():
        raise FolderError([f"{folder}: not a folder"])
    problems: list[str] = []
    files: list[FolderFile] = []
    for account_id, paths in sorted(files_by_id(folder).items()):
        if len(paths) > 1:
            names = ", ".join(p.name for p in paths)
            problems.append(f"{names}: two files for account {account_id} (keep one)")
            continue
        files.append(FolderFile(paths[0], account_id))
    others = sorted(p.name for p in folder.glob("*.json") if not FILE_NAME.match(p.name))
    problems.extend(f"{name}: not an account's file (<id>-<name>.json)" for name in others)
    if problems:
        raise FolderError(problems)
    if not files:
        raise FolderError([f"{folder}: no account's file (vagent-tui pull {folder} first)"])
    return files


_ABSENT = object()


def file_body(
    staging: Mapping[str, Any], public_now: Mapping[str, Any]
) -> tuple[dict[str, Any], list[str]]:
    """What a file's ``staging`` sets that the platform's (made public: ``public_now``)
    does not, and the problems of the fields that differ but cannot be written."""
    body: dict[str, Any] = {}
    problems: list[str] = []
    for key in sorted(set(staging) | set(public_now)):
        mine, theirs = staging.get(key, _ABSENT), public_now.get(key, _ABSENT)
        if mine == theirs:
            continue
        if key not in WRITABLE_FIELDS:
            problems.append(f"staging.{key}: not something the console may write (only its "
                            "settings, agentVoice and actions); undo the edit, or pull "
                            "again if the platform changed it")  # fmt: skip
        elif mine is _ABSENT:
            problems.append(f"staging.{key}: removed; give it a value (null where the "
                            "setting may be empty)")  # fmt: skip
        else:
            body[key] = mine
    return body, problems


@dataclass
class _Planned:
    """One account's plan, or the problems that stopped it."""

    plan: AccountPlan | None = None
    problems: tuple[str, ...] = ()


async def plan_file(
    client: PlatformClient,
    found: FolderFile,
    account: NamedAccount,
    redact: Redact | None = None,
) -> tuple[AccountPlan, list[str]]:
    """One account's plan from its file, and the file's problems (then the plan is not
    to be used). A failed read is the ``unreadable`` outcome, never raised."""
    account_id, name = found.account_id, account.display_name
    label = found.path.name
    try:
        account_file = read_account_file(found.path)
    except FolderError as exc:
        return AccountPlan(account_id, name, "refused"), list(exc.problems)
    try:
        context = await read_again(client, lambda: read_context(client, account_id))
    except Exception as exc:  # one account's failure is its outcome
        return AccountPlan(account_id, name, "unreadable", reasons=(describe(exc),)), []
    base = context.base
    body, problems = file_body(account_file.staging, public_config(base, redact))
    if not problems and body:
        problem = folder_body_problem(body, base, redact)
        if problem:
            problems.append(problem if problem.startswith("staging.") else f"staging.{problem}")
    if problems:
        return AccountPlan(account_id, name, "refused"), [f"{label}: {p}" for p in problems]
    notes: list[str] = []
    live_now = public_config(context.live, redact) if context.live is not None else None
    if account_file.live != live_now:
        notes.append("live differs from the file's (published since the pull, or edited in "
                     "the file: live is never planned, only staging)")  # fmt: skip
    if not body:
        return AccountPlan(account_id, name, "already", notes=tuple(notes)), []
    reasons, body = await _refusals(client, account_id, body, base)
    if reasons:
        return AccountPlan(account_id, name, "refused", reasons=reasons, notes=tuple(notes)), []
    if context.staging is not None and context.live is not None:
        drafts = diff_configs(context.live, context.staging)
        if drafts:
            notes.append(f"staging already holds {counted(len(drafts), 'unpublished change')}: "
                         "publishing puts them live too, so the rollout's publish leaves this "
                         "account out")  # fmt: skip
    return AccountPlan(
        account_id, name, "change", body=body,
        changes=change_lines(diff_configs(base, {**base, **body}), redact),
        packed_base=pack(base), notes=tuple(notes),
    ), []  # fmt: skip


async def _refusals(
    client: PlatformClient, account_id: int, body: dict[str, Any], base: Mapping[str, Any]
) -> tuple[tuple[str, ...], dict[str, Any]]:
    """What the account's lists refuse of ``body`` (its voice, functions and settings, as
    the console checks them), and the body with the entries' placeholders filled in."""
    settings = tuple((k, v) for k, v in body.items() if k in BY_NAME)
    change = Change(voice=body.get("agentVoice"), settings=settings)
    needs_voices = "agentVoice" in body or any(k in VOICE_BOUND for k, _ in settings)
    voices = (
        await read_again(client, lambda: client.list_voices(target=account_id))
        if needs_voices
        else None
    )
    reasons = [str(r) for r in plan_change(change, base, voices=voices).refusals]
    if "actions" in body:
        functions = await read_again(client, lambda: client.list_functions(account_id))
        reasons += [str(r) for r in actions_refusals(body["actions"], functions)]
        body = {**body, "actions": with_placeholders(body["actions"], functions)}
    return tuple(reasons), body


async def plan_folder(
    client: PlatformClient,
    files: Sequence[FolderFile],
    accounts: Mapping[int, NamedAccount],
    *,
    concurrency: int = DEFAULT_CONCURRENCY,
    on_plan: Callable[[AccountPlan], object] | None = None,
    origin: str = "",
    chosen: str = "",
) -> FolderPlan:
    """The plan of every file, at most ``concurrency`` accounts read at a time.

    ``accounts``: the agent accounts below the key, by id.

    Raises:
        FolderError: a file names an account not below the key, or edits what the
            console does not write (every such problem, each naming its file).
    """
    unknown = [f"{f.path.name}: account {f.account_id} is not an agent account below the key "
               "(deleted or moved since the pull? remove the file, or pull --prune)"
               for f in files if f.account_id not in accounts]  # fmt: skip
    if unknown:
        raise FolderError(unknown)
    redact = client.redact
    planned: dict[int, _Planned] = {}

    async def each(found: FolderFile) -> None:
        plan, problems = await plan_file(client, found, accounts[found.account_id], redact)
        planned[found.account_id] = _Planned(plan, tuple(problems))
        if on_plan is not None:
            on_plan(plan)

    await in_pool(list(files), concurrency, each)
    problems = [p for f in files for p in planned[f.account_id].problems]
    if problems:
        raise FolderError(problems)
    plans = [p for f in files if (p := planned[f.account_id].plan) is not None]
    return FolderPlan(Change(), plans, origin=origin, chosen=chosen)
