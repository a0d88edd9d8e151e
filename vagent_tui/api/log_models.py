"""Models of the conversation logs and the conversations behind them.

``GET /logs`` serves free-form entries ("additionalProperties": the vendor's reference
shows ``id, timestamp, account_id, org_id, eventType, metadata.convoId`` by example
only), ``POST /conversation/batch`` per-item results, ``GET /messages/recent`` message
records of about 45 fields. All are only shown, exported or sent back as they came, so
every model is lenient: unknown fields kept, every field optional and of any type (a
field of an unexpected type is kept and shown literally rather than costing the record),
``null`` items of a list skipped. Accessors (`LogEntry.at`, `LogEntry.conversation_ref`,
`ConversationMessage.turns`) read what a screen needs whatever the types.

The request side is strict: `LogQuery` checks what it sends (see its docstring).
Re-exported by `vagent_tui.api.models` on first use.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Annotated, Any

from pydantic import BeforeValidator, Field

from vagent_tui.api.base import Items, Resource

MAX_PAGE_SIZE = 10_000
"""The reference's ``pageSize`` maximum for ``GET /logs``."""
MAX_BATCH = 200
"""The reference's maximum of items of one ``POST /conversation/batch``."""

RESERVED_PARAMS = frozenset({
    "token", "targetAccountId", "targetPartnerId", "targetResellerId",
    "targetOrganizationId", "start", "end", "fields", "format", "pageSize", "page",
    "includeFields",
})  # fmt: skip
"""Query parameters of ``GET /logs`` that are not filters: a filter of that name would
change what the request means (``token`` would even replace the API key)."""


def moment(value: Any) -> datetime | None:
    """A time as the platform may send it: epoch seconds or milliseconds (a number or
    numeric text), or ISO 8601 text (``Z`` or an offset; naive is UTC). Else None."""
    if value is None or isinstance(value, bool) or value == "":
        return None
    if isinstance(value, int | float):
        number = float(value)
    else:
        text = str(value).strip()
        try:
            number = float(text)
        except ValueError:
            try:
                parsed = datetime.fromisoformat(text.replace("Z", "+00:00"))
            except ValueError:
                return None
            return parsed if parsed.tzinfo else parsed.replace(tzinfo=UTC)
    if abs(number) > 1e11:
        number /= 1000
    try:
        return datetime.fromtimestamp(number, tz=UTC)
    except (OverflowError, OSError, ValueError):
        return None


def _int_or_none(value: Any) -> Any:
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, str) and value.strip().lstrip("-").isdecimal():
        return int(value.strip())
    return None


LaxInt = Annotated[int | None, BeforeValidator(_int_or_none)]
"""A count: an integer (or integral text/float), anything else None."""


def _bool_or_none(value: Any) -> Any:
    if isinstance(value, bool):
        return value
    if isinstance(value, str) and value.strip().lower() in ("true", "false"):
        return value.strip().lower() == "true"
    return None


LaxBool = Annotated[bool | None, BeforeValidator(_bool_or_none)]


def _text_list(value: Any) -> Any:
    if not isinstance(value, list):
        return []
    return [item if isinstance(item, str) else json.dumps(item) for item in value
            if item is not None]  # fmt: skip


TextList = Annotated[list[str], BeforeValidator(_text_list)]


def cell(value: Any) -> str:
    """A value as one line of text for a table cell or a CSV/JSON-lines export:
    text as it is, ``null``/missing empty, other values as compact JSON."""
    if value is None:
        return ""
    if isinstance(value, str):
        return value
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"), default=str)


# --------------------------------------------------------------------------- logs


@dataclass(frozen=True, slots=True)
class ConversationRef:
    """What names one conversation for ``POST /conversation/batch``.

    Both are text (`ValueError` otherwise, when made): the vendor's reference requires
    each item's ``roomId`` and ``uuid`` as strings and refuses another body (400, an
    invalid request body), so a value of another type is never sent.
    """

    room_id: str
    uuid: str

    def __post_init__(self) -> None:
        if not isinstance(self.room_id, str) or not isinstance(self.uuid, str):
            raise ValueError("A conversation's roomId and uuid are text")

    def wire(self) -> dict[str, str]:
        return {"roomId": self.room_id, "uuid": self.uuid}


class LogEntry(Resource):
    """One entry of ``GET /logs``: free-form; the fields below are read when present.

    `get` reads any field by its wire name, dotted for nested ones (``metadata.convoId``).
    """

    id: Any = None
    timestamp: Any = None
    account_id: Any = Field(default=None, alias="account_id")
    org_id: Any = Field(default=None, alias="org_id")
    event_type: Any = None
    type: Any = None
    direction: Any = None
    status: Any = None
    agent_outcome: Any = None
    duration: Any = None
    from_number: Any = None
    to_number: Any = None
    contact_name: Any = None
    room_id: Any = None
    uuid: Any = None
    summary: Any = None
    failure_reason: Any = None
    metadata: Any = None

    def wire(self) -> dict[str, Any]:
        """The entry as it came (wire names, unknown fields kept)."""
        return self.model_dump(by_alias=True, exclude_unset=True)

    def get(self, path: str) -> Any:
        """The value of a wire field, dotted for nested ones; None when absent."""
        head, _, rest = path.partition(".")
        name = _LOG_WIRE_TO_FIELD.get(head)
        value = getattr(self, name) if name else (self.model_extra or {}).get(head)
        for part in rest.split(".") if rest else ():
            if not isinstance(value, Mapping):
                return None
            value = value.get(part)
        return value

    @property
    def at(self) -> datetime | None:
        """When it happened (``timestamp``: ISO text, epoch seconds or milliseconds)."""
        return moment(self.timestamp)

    @property
    def failed(self) -> bool:
        """The entry reports a failure (``status`` ``failed``/``error``)."""
        return isinstance(self.status, str) and self.status.lower() in ("failed", "error")

    @property
    def sip_call_id(self) -> str | None:
        """The call's SIP Call-ID (for ``GET /sip/captures``), or None: the top-level
        ``sipCallId`` (the simulator's choice, CONTRACT choice 90), else
        ``metadata.sipCallId``; non-empty text only."""
        meta = self.metadata if isinstance(self.metadata, Mapping) else {}
        for value in ((self.model_extra or {}).get("sipCallId"), meta.get("sipCallId")):
            if isinstance(value, str) and value.strip():
                return value
        return None

    @property
    def seconds(self) -> int:
        """How long it lasted (``duration``, seconds; 0 when not a whole number)."""
        value = _int_or_none(self.duration)
        return value if isinstance(value, int) and value > 0 else 0

    @property
    def conversation_ref(self) -> ConversationRef | None:
        """The conversation behind the entry, for the batch read; None if it names none.

        Read from the top-level ``roomId`` and ``uuid`` (the simulator's choice), else a
        ``conversationRef`` object (the vendor's notes mention one on some logs), else
        ``metadata.roomId`` and ``metadata.uuid``. Both must be non-empty text.
        """
        meta = self.metadata if isinstance(self.metadata, Mapping) else {}
        extra = self.model_extra or {}
        ref = extra.get("conversationRef")
        ref = ref if isinstance(ref, Mapping) else {}
        for room, uuid in (
            (self.room_id, self.uuid),
            (ref.get("roomId"), ref.get("uuid")),
            (meta.get("roomId"), meta.get("uuid")),
        ):
            if isinstance(room, str) and room and isinstance(uuid, str) and uuid:
                return ConversationRef(room, uuid)
        return None


_LOG_WIRE_TO_FIELD = {info.alias or name: name for name, info in LogEntry.model_fields.items()}


class LogPagination(Resource):
    page: LaxInt = None
    page_size: LaxInt = None
    total_pages: LaxInt = None
    total_count: LaxInt = None
    has_more: LaxBool = None
    page_count: LaxInt = None


class LogPage(Resource):
    """One page of ``GET /logs`` (JSON)."""

    message: Any = None
    logs: Items[LogEntry] = Field(default_factory=list)
    count: LaxInt = None
    total_count: LaxInt = None
    pagination: LogPagination | None = None
    field_names: TextList = Field(default_factory=list, alias="schema")
    """``schema``: the inferred field list (asked for with ``includeFields``)."""

    @property
    def total(self) -> int:
        """Entries matching the query: ``totalCount``, else the pagination's, else
        what this page holds."""
        for value in (self.total_count, self.pagination and self.pagination.total_count):
            if isinstance(value, int) and value >= 0:
                return value
        return len(self.logs)

    @property
    def total_pages(self) -> int | None:
        pages = self.pagination.total_pages if self.pagination else None
        if isinstance(pages, int) and pages >= 0:
            return pages
        size = self.pagination.page_size if self.pagination else None
        if isinstance(size, int) and size > 0:
            return (self.total + size - 1) // size
        return None

    @property
    def has_more(self) -> bool:
        """Whether a later page exists: ``pagination.hasMore``, else worked out."""
        if self.pagination is not None and self.pagination.has_more is not None:
            return self.pagination.has_more
        page = self.pagination.page if self.pagination else None
        pages = self.total_pages
        if isinstance(page, int) and pages is not None:
            return page < pages
        return False


# --------------------------------------------------------------------------- conversations


@dataclass(frozen=True, slots=True)
class DialogTurn:
    """One turn of a transcript: who (``role``) said what (``content``), as text."""

    role: str
    content: str


class ConversationMessage(Resource):
    """A message record: an item of ``GET /messages/recent`` or of a batch result's
    ``conversation``. Every field as it comes; `turns` reads the transcript."""

    from_: Any = Field(default=None, alias="from")
    from_user: Any = None
    to: Any = None
    to_user: Any = None
    rate: Any = None
    usd_rate: Any = None
    timestamp: Any = None
    date: Any = None
    message: Any = None
    content_type: Any = Field(default=None, alias="content-type")
    room_id: Any = None
    status: Any = None
    attachments: Any = None
    source: Any = None
    uuid: Any = None
    campaign_id: Any = None
    from_number: Any = None
    to_number: Any = None
    type: Any = None
    duration: Any = None
    direction: Any = None
    missed_call: Any = None
    agent_outcome: Any = None
    summary: Any = None
    call_dialog: Any = None
    chat_dialog: Any = None
    agent_reply_count: Any = None
    event_type: Any = None
    voicemail_recording: Any = None

    @property
    def at(self) -> datetime | None:
        """``timestamp`` (epoch seconds or milliseconds), else ``date``."""
        return moment(self.timestamp) or moment(self.date)

    @property
    def turns(self) -> list[DialogTurn]:
        """The transcript: ``callDialog``, else ``chatDialog``; each turn's role and
        content as text (a turn that is not an object is content of no role)."""
        for dialog in (self.call_dialog, self.chat_dialog):
            if isinstance(dialog, list) and dialog:
                return [_turn(item) for item in dialog if item is not None]
        return []

    @property
    def attachment_texts(self) -> list[str]:
        """Each attachment as one text: its URL when it names one, else its JSON."""
        items = self.attachments
        if isinstance(items, str):
            try:
                items = json.loads(items)
            except ValueError:
                return [items] if items.strip() else []
        if not isinstance(items, list):
            items = [] if items is None else [items]
        out = []
        for item in items:
            if isinstance(item, Mapping):
                url = next((item[k] for k in ("content-url", "url", "href")
                            if isinstance(item.get(k), str)), None)  # fmt: skip
                out.append(url if url is not None else cell(item))
            elif item is not None:
                out.append(cell(item))
        return out


def _turn(item: Any) -> DialogTurn:
    if isinstance(item, Mapping):
        return DialogTurn(cell(item.get("role")), cell(item.get("content")))
    return DialogTurn("", cell(item))


class BatchStats(Resource):
    requested: LaxInt = None
    ok: LaxInt = None
    failed: LaxInt = None


class BatchResult(Resource):
    """One item's answer of ``POST /conversation/batch``: ``roomId`` and ``uuid`` are the
    text sent (the vendor types them strings), which `ref` matches; another value names
    no conversation."""

    success: Any = None
    room_id: Any = None
    uuid: Any = None
    message: Any = None
    conversation: Items[ConversationMessage] = Field(default_factory=list)

    @property
    def ok(self) -> bool:
        return self.success is True

    @property
    def ref(self) -> ConversationRef | None:
        if isinstance(self.room_id, str) and isinstance(self.uuid, str):
            return ConversationRef(self.room_id, self.uuid)
        return None


class BatchReply(Resource):
    """``POST /conversation/batch``'s reply (several replies merged when the client
    split a long list: ``stats`` added up, ``results`` in the order asked)."""

    message: Any = None
    stats: BatchStats | None = None
    results: Items[BatchResult] = Field(default_factory=list)

    def by_ref(self) -> dict[ConversationRef, BatchResult]:
        """The results by the conversation they answer (the first one for a repeat)."""
        out: dict[ConversationRef, BatchResult] = {}
        for result in self.results:
            ref = result.ref
            if ref is not None and ref not in out:
                out[ref] = result
        return out


# --------------------------------------------------------------------------- the request


@dataclass(frozen=True)
class LogQuery:
    """What ``GET /logs`` is asked: a time range, fields and filters (a value object).

    Checked when made (`ValueError` with a message for the field concerned, nothing
    sent): ``start``/``end`` whole Unix seconds, ``start <= end``; field names and
    filter keys non-empty text without control characters; a filter key is none of
    `RESERVED_PARAMS` (``token`` carries the API key, the others mean something else).
    Filters are sent as ``key=value`` query parameters as given: the platform's
    grammar (exact values, dotted names, any suffixes it documents) is its own.
    """

    start: int | None = None
    end: int | None = None
    fields: tuple[str, ...] = ()
    filters: tuple[tuple[str, str], ...] = ()

    def __post_init__(self) -> None:
        for name in ("start", "end"):
            value = getattr(self, name)
            if value is not None and (isinstance(value, bool) or not isinstance(value, int)):
                raise ValueError(f"{name} must be whole Unix seconds")
        if self.start is not None and self.end is not None and self.start > self.end:
            raise ValueError("start must not be after end")
        for name in self.fields:
            _check_name(name, "a field name")
        for key, value in self.filters:
            _check_name(key, "a filter's field")
            if key in RESERVED_PARAMS:
                raise ValueError(
                    f"{key!r} cannot be a filter: "
                    + ("the query parameter 'token' carries the API key"
                       if key == "token" else "it is a parameter of the request itself")
                )  # fmt: skip
            if not isinstance(value, str):
                raise ValueError(f"the filter on {key!r} needs a text value")

    @classmethod
    def parse_filters(cls, text: str) -> tuple[tuple[str, str], ...]:
        """``key=value`` filters from text (separated by spaces or commas; a value may
        be quoted with ``"``). Raises ValueError naming a part that is not ``key=value``."""
        import shlex

        try:
            parts = shlex.split(text.replace(",", " "))
        except ValueError as exc:
            raise ValueError(f"filters: {exc}") from None
        out = []
        for part in parts:
            key, sep, value = part.partition("=")
            if not sep or not key.strip():
                raise ValueError(f"{part!r} is not key=value")
            out.append((key.strip(), value))
        return tuple(out)

    def params(self) -> dict[str, Any]:
        """The query parameters (without paging, format or target)."""
        out: dict[str, Any] = {}
        if self.start is not None:
            out["start"] = self.start
        if self.end is not None:
            out["end"] = self.end
        if self.fields:
            out["fields"] = ",".join(self.fields)
        for key, value in self.filters:
            if key in out:  # a repeated key: every value is sent
                previous = out[key]
                out[key] = [*previous, value] if isinstance(previous, list) else [previous, value]
            else:
                out[key] = value
        return out


def _check_name(name: Any, what: str) -> None:
    if not isinstance(name, str) or not name.strip():
        raise ValueError(f"{what} must not be empty")
    if any(ord(c) < 32 or ord(c) == 127 for c in name):
        raise ValueError(f"{what} must not hold control characters")
