"""An onboarding file's rows (`vagent_tui.services.onboard`): read, checked on their own,
and named, so that the same file on the same platform finds its log again.

A file (CSV, or JSON: a list of objects with the same keys) holds one row per thing:

=============  =====================================================================
column         meaning
=============  =====================================================================
``type``       ``organization``, ``account`` (an agent account) or ``member``
``external_id`` the CRM's id of an organization or account: the key it is matched on
               (``getAccountByExternalId``), so nothing is ever created twice
``name``       its name (required to create; blank on an update leaves it)
``parent``     an organization's reseller, an account's or member's organization:
               an external id, or ``#1234`` for a platform id; an organization's may
               be blank (the key's own reseller)
``billing_id`` the billing system's id (blank leaves it)
``active``     ``yes``/``no`` (blank leaves it; an update only)
``email``      an organization's admin email (create only); a member's email (its key)
``role``       a member's role (``admin`` when blank)
``accounts``   a member's accounts, external ids (or ``#ids``) between spaces; blank:
               every account of its organization
``phone_number`` an agent account's number the customer brings (E.164), assigned to it
               after the account is created or updated (``/phoneNumber/byo/assign``: a
               fee; a reseller's or partner's key); blank, or held already, leaves it
=============  =====================================================================

The log is named after the file's rows and the platform (`source_id`), so opening the
same file again after a dropped session finds the same log.
"""

from __future__ import annotations

import csv
import hashlib
import io
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from vagent_tui.api import models as m
from vagent_tui.api.task_models import check_e164
from vagent_tui.config import state_dir
from vagent_tui.services.bulk import RolloutLog

Kind = Literal["organization", "account", "member"]
KINDS: tuple[Kind, ...] = ("organization", "account", "member")
COLUMNS = ("type", "external_id", "name", "parent", "billing_id", "active", "email", "role",
           "accounts", "phone_number")  # fmt: skip
NAMED_BEFORE = COLUMNS[1:-1]
"""The columns a log's name was made of before ``phone_number``: a file without a number
keeps the name it had (`source_id`), so its log is found again."""
MAX_ROWS = 20_000
MAX_BYTES = 8 * 1024 * 1024

_YES = {"yes", "y", "true", "1", "on"}
_NO = {"no", "n", "false", "0", "off"}


@dataclass(frozen=True)
class Row:
    """One row of the file, as typed (cells stripped)."""

    line: int
    """Its number: the file's line (CSV) or the entry's position from 1 (JSON)."""
    kind: str
    external_id: str = ""
    name: str = ""
    parent: str = ""
    billing_id: str = ""
    active: str = ""
    email: str = ""
    role: str = ""
    accounts: str = ""
    phone_number: str = ""

    @property
    def key(self) -> str:
        """What the row is matched on: a member's email, else the external id."""
        return self.email if self.kind == "member" else self.external_id


class SourceError(ValueError):
    """A file that cannot be read as rows at all (the message says where)."""


# ------------------------------------------------------------------------------ reading


def read_rows(text: str, *, json_file: bool = False) -> list[Row]:
    """The rows of a CSV (a header line first) or a JSON list of objects.

    A column or key not in `COLUMNS` is refused (a typo would silently leave a field
    out); a cell that is not text in JSON is taken as its text (``true``, ``12``).

    Raises:
        SourceError: not CSV/JSON of these columns, too large, no rows.
    """
    if len(text) > MAX_BYTES:
        raise SourceError(f"the file is larger than {MAX_BYTES // 2**20} MiB")
    records: list[tuple[int, Mapping[str, Any]]] = []
    if json_file:
        try:
            data = json.loads(text)
        except ValueError as exc:
            raise SourceError(f"not JSON: {exc}") from None
        if isinstance(data, dict) and isinstance(data.get("rows"), list):
            data = data["rows"]
        if not isinstance(data, list) or not all(isinstance(d, dict) for d in data):
            raise SourceError("the JSON is not a list of objects (one per row)")
        records = [(n, d) for n, d in enumerate(data, start=1)]
    else:
        reader = csv.DictReader(io.StringIO(text.removeprefix("\ufeff")))
        if not reader.fieldnames:
            raise SourceError("the file is empty: a header line names the columns")
        header = [h.strip().lower() for h in reader.fieldnames]
        reader.fieldnames = header
        unknown = [h for h in header if h not in COLUMNS]
        if unknown:
            raise SourceError(f"unknown column {unknown[0]!r} (columns: {', '.join(COLUMNS)})")
        if "type" not in header:
            raise SourceError("the header has no type column")
        records = [(reader.line_num, r) for r in reader]
    if len(records) > MAX_ROWS:
        raise SourceError(f"more than {MAX_ROWS:,} rows")
    rows: list[Row] = []
    for line, record in records:
        unknown = [str(k) for k in record if str(k).lower() not in COLUMNS]
        if unknown:
            raise SourceError(f"row {line}: unknown key {unknown[0]!r} "
                              f"(keys: {', '.join(COLUMNS)})")  # fmt: skip
        cells = {str(k).lower(): _cell(v) for k, v in record.items()}
        if not any(cells.values()):
            continue  # an empty line
        rows.append(Row(line, **{c: cells.get(c, "") for c in COLUMNS if c != "type"},
                        kind=cells.get("type", "").lower()))  # fmt: skip
    if not rows:
        raise SourceError("no rows under the header")
    return rows


def _cell(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, list):
        return " ".join(_cell(v) for v in value)
    return str(value).strip()


def source_id(rows: Sequence[Row], origin: str) -> str:
    """A stable name of a file's rows on one platform and key (its log's name)."""
    named = COLUMNS[1:] if any(r.phone_number for r in rows) else NAMED_BEFORE
    canonical = json.dumps([origin, [[r.line, r.kind, *(getattr(r, c) for c in named)]
                                     for r in rows]], separators=(",", ":"))  # fmt: skip
    return hashlib.sha256(canonical.encode("utf-8")).hexdigest()[:16]


def onboard_dir() -> Path:
    return state_dir() / "onboarding"


def log_for(rows: Sequence[Row], origin: str, directory: Path | None = None) -> RolloutLog:
    """The log of this file on this platform (found again when the file is opened again)."""
    return RolloutLog((directory or onboard_dir()) / f"{source_id(rows, origin)}.jsonl")


# ------------------------------------------------------------------------------ checks


def ref_id(ref: str) -> int | None:
    """``#1234`` (or ``1234``) as a platform id; None for an external id."""
    text = ref.removeprefix("#")
    return int(text) if text.isascii() and text.isdecimal() and text else None


def parse_active(text: str) -> bool | None:
    low = text.lower()
    if low in _YES:
        return True
    if low in _NO:
        return False
    raise ValueError(f"active: {text!r} is not yes or no")


class Problem(str):
    """Why a row is refused (its text, as the screen shows it), with the column of the
    file it concerns (``column``; "" when it concerns the row as a whole), so that the
    command line can say line and column."""

    column: str

    def __new__(cls, text: str, column: str = "") -> Problem:
        self = super().__new__(cls, text)
        self.column = column
        return self


def column_of(reason: str) -> str:
    """The column a refusal concerns ("" when it does not say: a plain text)."""
    return reason.column if isinstance(reason, Problem) else ""


def row_problems(row: Row) -> list[Problem]:
    """What is wrong with a row on its own (before anything is read), each with its column."""
    problems: list[Problem] = []
    if row.kind not in KINDS:
        return [Problem(f"type {row.kind!r} is not organization, account or member", "type")]
    if row.active:
        try:
            parse_active(row.active)
        except ValueError as exc:
            problems.append(Problem(str(exc), "active"))
    if row.phone_number:
        if row.kind != "account":
            problems.append(Problem("phone_number is an agent account's", "phone_number"))
        else:
            try:
                check_e164(row.phone_number)
            except ValueError as exc:
                problems.append(Problem(f"phone_number: {exc}", "phone_number"))
    if row.kind == "member":
        try:
            m.MemberInvite(email=row.email, role=row.role or "admin")
        except ValueError as exc:
            problems.append(_first_error(exc, "email"))
        if not row.parent:
            problems.append(Problem("a member needs its organization in parent", "parent"))
        if row.external_id or row.billing_id or row.active:
            given = next(c for c in ("external_id", "billing_id", "active") if getattr(row, c))
            problems.append(Problem("a member has no external_id, billing_id or active", given))
        return problems
    if not row.external_id:
        problems.append(
            Problem("external_id is required: it is what the row is matched on", "external_id")
        )
    if row.kind == "account" and not row.parent:
        problems.append(Problem("an account needs its organization in parent", "parent"))
    if row.role or row.accounts:
        problems.append(
            Problem("role and accounts are a member's", "role" if row.role else "accounts")
        )
    if row.email and row.kind == "account":
        problems.append(Problem("an agent account has no email", "email"))
    if row.email and row.kind == "organization":
        try:
            m.NewOrganization(org_name="x", email=row.email)
        except ValueError as exc:
            problems.append(_first_error(exc, "email"))
    return problems


def _first_error(exc: ValueError, column: str) -> Problem:
    """The first error of a model's check; its column the field it names when that is one
    of the file's (``role``), else ``column``."""
    errors = getattr(exc, "errors", None)
    if callable(errors):
        found = errors()
        if found:
            loc = [str(p) for p in found[0].get("loc", ())]
            where = ".".join(loc)
            named = loc[0] if loc and loc[0] in COLUMNS else column
            return Problem(f"{where}: {found[0].get('msg', '')}".removeprefix(": "), named)
    return Problem(str(exc), column)
