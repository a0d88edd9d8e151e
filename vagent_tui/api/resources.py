"""Response models of the platform API other than the account's.

Re-exported by `vagent_tui.api.models`, which imports this module when one of them is
first used: the first screen reads only accounts, so start-up does not build these.
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Iterator
from datetime import UTC, datetime
from typing import Any

from pydantic import (
    AliasChoices,
    Field,
    field_validator,
)

from vagent_tui.api.base import (
    Items,
    MaybeItems,
    NullAsDefault,
    NullAsEmpty,
    Resource,
    skipped_empty,
)

# --------------------------------------------------------------------------- agents


class FunctionDescriptor(Resource):
    """An entry of the functions list, evaluated for the selected account."""

    name: NullAsEmpty = ""
    label: NullAsEmpty = ""
    details: NullAsEmpty = ""
    placeholder: str | None = None
    limit: int | None = None
    has_settings: bool | None = None
    require_paid: bool | None = None
    require_computer: bool | None = None
    allowed: bool | None = None
    reason: str | None = None
    missing_requirement: str | None = None
    docs_page: str | None = None


class AccountAvailability(Resource):
    available: bool | None = None
    reason: str | None = None


class Voice(Resource):
    id: NullAsEmpty = ""
    name: NullAsEmpty = ""
    description: str | None = None
    provider: str | None = None
    sample_url: str | None = None
    image_url: str | None = None
    languages: Items[str] = Field(default_factory=list)
    compatible_s2_s_engines: Items[str] = Field(
        default_factory=list,
        validation_alias=AliasChoices("compatibleS2SEngines", "compatible_s2s_engines"),
    )
    supports_standard_tts: bool | None = None
    account_availability: AccountAvailability | None = None

    @property
    def available(self) -> bool:
        """A voice without an availability verdict is taken as available."""
        aa = self.account_availability
        return aa is None or aa.available is not False


assert Voice.model_fields["compatible_s2_s_engines"].alias == "compatibleS2SEngines"


class SavedVersion(Resource):
    """A saved snapshot of a live configuration, identified by its epoch-ms score."""

    version_id: NullAsDefault[int] = 0
    title: NullAsEmpty = ""
    snapshot: dict[str, Any] | None = None

    @property
    def saved_at(self) -> datetime:
        return datetime.fromtimestamp(self.version_id / 1000, tz=UTC)


class TitleChange(Resource):
    version_id: int | None = None
    new_title: str | None = None


class ComputerAccount(Resource):
    id: int | None = None
    name: str | None = None
    username: str | None = None
    organization_id: int | None = None


# --------------------------------------------------------------------------- tokens


class TokenRecord(Resource):
    token: NullAsEmpty = ""
    description: str | None = None
    type: str | None = None
    timestamp: str | int | float | None = None
    """Epoch seconds or milliseconds; the spec shows numeric text, a number is read too."""
    user_id: int | None = None

    def __repr_args__(self) -> Iterator[tuple[str | None, Any]]:
        # A token record must never print its secret.
        for key, value in super().__repr_args__():
            yield key, (mask_secret(value) if key == "token" else value)

    @property
    def masked(self) -> str:
        return mask_secret(self.token)

    @property
    def created_at(self) -> datetime | None:
        return _epoch_text(self.timestamp)


def mask_secret(value: Any) -> str:
    """Show a secret as its last four characters at most, never in full."""
    text = str(value or "")
    if len(text) <= 8:
        return "•" * 8
    return "•" * 8 + text[-4:]


def _epoch_text(value: Any) -> datetime | None:
    """Numeric text as seconds or milliseconds since the epoch, else an ISO date."""
    if value is None or value == "":
        return None
    try:
        number = float(value)
    except (TypeError, ValueError):
        try:
            parsed = datetime.fromisoformat(str(value).replace("Z", "+00:00"))
        except ValueError:
            return None
        return parsed if parsed.tzinfo else parsed.replace(tzinfo=UTC)
    if number > 1e11:
        number /= 1000
    try:
        return datetime.fromtimestamp(number, tz=UTC)
    except (OverflowError, OSError, ValueError):
        return None


# --------------------------------------------------------------------------- computer


class WorkflowRecording(Resource):
    state: str | None = None
    recording_id: str | None = None
    slot_id: int | None = None
    finalized: bool | None = None
    updated_at: str | None = None
    evidence_root: str | None = None
    analysis_status: str | None = None
    domain_key: str | None = None


class AutomationSession(Resource):
    cdp_url: str | None = None
    headers: dict[str, Any] | None = None
    slot: int | None = None
    expires_at: str | None = None


class UploadResult(Resource):
    """The reply of a workspace upload; the spec shows none of its fields."""

    message: str | None = None
    path: str | None = None
    size: int | None = None
    mode: str | None = None
    overwritten: bool | None = None


class WorkspaceFile(Resource):
    path: NullAsEmpty = ""
    size: int | None = None
    mode: str | None = None
    updated_at: str | None = None


# --------------------------------------------------------------------------- messaging


class JunkRoom(Resource):
    room_id: str | None = None
    name: str | None = None
    id: int | None = None
    image: str | None = None
    vida_phone_number: str | None = None
    unregistered: bool | None = None
    unregistered_display_name: str | None = None
    destination_inbox_type: str | None = None
    last_message: str | None = None
    last_message_timestamp: int | None = None
    chat_agent_campaign_id: str | int | None = None

    @property
    def last_message_at(self) -> datetime | None:
        return _epoch_text(self.last_message_timestamp)


class JunkRoomPage(Resource):
    """A page of rooms. ``pageSize`` and ``pageNumber`` that come ``null`` are what was
    asked (the client fills them in); a ``null`` ``totalRooms`` is not known (None)."""

    page_size: int | None = None
    page_number: int | None = None
    total_rooms: int | None = None
    rooms: Items[JunkRoom] = Field(default_factory=list)


InboxRoom = JunkRoom
"""A room of either inbox: the priority inbox has the junk inbox's shape (api-facts)."""
InboxPage = JunkRoomPage
"""A page of either inbox (``GET /junkConversations`` or ``GET /conversations``)."""

_LINK_KEYS = ("url", "link", "href", "src")


class RoomMessage(Resource):
    """One message of a room (``GET /messages/{roomId}``; its fields are api-facts').

    Only shown, never sent back, so every field is taken as it comes: a field of an
    unexpected type is kept as it is and shown literally rather than dropping the message.
    The vendor's reference types ``attachments`` a string (example ``"[]"``) and
    ``roomInitiator`` a user name (example ``brandon``); `links` and `initiator` read
    those and the shapes a platform may send instead (an array, a user id).
    """

    message: Any = None
    from_: Any = Field(default=None, alias="from")
    from_user: Any = None
    to: Any = None
    to_user: Any = None
    timestamp: Any = None
    date: Any = None
    room_id: Any = None
    status: Any = None
    attachments: Any = None
    gift: Any = None
    drip: Any = None
    uuid: Any = None
    source: Any = None
    room_initiator: Any = None

    @property
    def sent_at(self) -> datetime | None:
        """``timestamp`` (epoch seconds or milliseconds, numeric text too), else ``date``."""
        moment = _epoch_text(self.timestamp) if not isinstance(self.timestamp, bool) else None
        if moment is None and isinstance(self.date, str):
            moment = _epoch_text(self.date)
        return moment

    @property
    def initiator(self) -> str | None:
        """Who first made contact in the room, for people: ``roomInitiator``, a user name
        (the vendor's type) as it came, a user id (a number) as ``#id``; None when absent
        or blank."""
        who = self.room_initiator
        if isinstance(who, str):
            return who if who.strip() else None
        if isinstance(who, int | float) and not isinstance(who, bool):
            return f"#{who}"
        return None

    @property
    def links(self) -> list[str]:
        """The attachments as addresses: a text each, or the URL of an attachment record;
        nulls skipped. A text that holds a JSON array (the vendor's ``"[]"``) is that
        array; any other text is one address."""
        attachments = self.attachments
        if isinstance(attachments, str) and attachments.lstrip().startswith("["):
            with contextlib.suppress(ValueError):  # not JSON: one address, as it came
                attachments = json.loads(attachments)
        items = attachments if isinstance(attachments, list) else [attachments]
        out: list[str] = []
        for item in items:
            if isinstance(item, dict):
                item = next((item[k] for k in _LINK_KEYS if isinstance(item.get(k), str)), item)
            if item is not None and item != "":
                out.append(item if isinstance(item, str) else str(item))
        return out


def party(user: Any, user_id: Any) -> str:
    """A sender or receiver for people: its display name, else its user id, else ``—``.

    ``fromUser``/``toUser`` may be a name or a user record (api-facts does not say).
    """
    if isinstance(user, dict):
        for key in ("name", "displayName", "fullName", "username", "email", "phone"):
            if isinstance(user.get(key), str) and user[key].strip():
                return str(user[key])
        user = None
    if isinstance(user, str) and user.strip():
        return user
    if user is not None and not isinstance(user, bool):
        return str(user)
    if user_id is not None and user_id != "" and not isinstance(user_id, bool):
        return f"#{user_id}"
    return "—"


# --------------------------------------------------------------------------- billing / sip / hooks


def _stamp(value: Any) -> int | float | str | None:
    """A record's ``timestamp`` as sent, if it can be a time: a number or text.

    api-facts: SIP and webhook timestamps are numbers (epoch seconds); numeric text,
    milliseconds and ISO text are read too (`_epoch_text`). Anything else (a boolean, an
    object) is no time rather than a lost record.
    """
    if isinstance(value, bool) or not isinstance(value, int | float | str):
        return None
    return value


class SipEntry(Resource):
    ip: NullAsEmpty = ""
    label: str | None = None
    timestamp: int | float | str | None = None
    user_id: int | None = None

    _timestamp = field_validator("timestamp", mode="before")(_stamp)

    @property
    def added_at(self) -> datetime | None:
        return _epoch_text(self.timestamp)


class Member(Resource):
    """A member of an organization (``GET /members``): the reference shows no fields, so
    every one is optional (sim/CONTRACT.md, "Members")."""

    id: int | None = None
    email: NullAsEmpty = ""
    name: str | None = None
    role: str | None = None
    permitted_account_ids: Items[int] = Field(default_factory=list)
    organization_id: int | None = None
    status: str | None = None

    @property
    def restricted(self) -> bool:
        """Limited to ``permitted_account_ids`` (none: every account of its organization)."""
        return bool(self.permitted_account_ids)


class SettingsChange(Resource):
    """The reply of ``POST /updateAccount`` and ``/updateOrganization``: which settings
    were applied and which failed (a partial success is a success); ``failedReasons``
    is the simulator's addition, read when present."""

    success: bool | None = None
    message: str | None = None
    updated_settings: Items[str] = Field(default_factory=list)
    failed_settings: Items[str] = Field(default_factory=list)
    failed_reasons: dict[str, Any] | None = None

    def reason(self, setting: str) -> str:
        """Why ``setting`` failed, as the platform said (empty when it did not)."""
        why = (self.failed_reasons or {}).get(setting)
        return why if isinstance(why, str) else ""


class Webhook(Resource):
    url: NullAsEmpty = ""
    label: str | None = None
    type: str | None = None
    timestamp: int | float | str | None = None
    user_id: int | None = None

    _timestamp = field_validator("timestamp", mode="before")(_stamp)

    @property
    def added_at(self) -> datetime | None:
        return _epoch_text(self.timestamp)


class RelayType(Resource):
    name: NullAsEmpty = ""
    description: str | None = None


class RelayConfig(Resource):
    """A stored relay configuration.

    ``headers`` are ``(name, value)`` pairs in the platform's order. The published shape
    is an array of single-key objects (api-facts); one object of names is read too (the
    shape older simulators served); ``null`` entries and values are skipped, anything
    else reads as no headers rather than losing the record.
    """

    type: NullAsEmpty = ""
    url: str | None = None
    timeout: int | None = None
    headers: list[tuple[str, str]] = Field(default_factory=list)
    success_status_codes: MaybeItems[int] = None

    @field_validator("headers", mode="before")
    @classmethod
    def _headers(cls, value: Any) -> list[tuple[str, str]]:
        entries = value if isinstance(value, list) else [value]
        pairs = []
        skipped_empty(sum(entry is None for entry in entries))
        for entry in entries:
            if isinstance(entry, dict):
                pairs += [(str(k), _header_text(v)) for k, v in entry.items() if v is not None]
        return pairs


def _header_text(value: Any) -> str:
    return value if isinstance(value, str) else json.dumps(value)


class Envelope(Resource):
    """The success / message envelope every reply carries."""

    success: bool | None = None
    message: str | None = None


# --------------------------------------------------------------------------- review


class Suggestion(Resource):
    """One suggestion of ``POST /agent/autoReviewAgentConfiguration``: of an action
    (``name``), an app (``appId``, ``version``) or a field (``key``, its ``value``)."""

    name: Any = None
    app_id: Any = None
    version: Any = None
    key: Any = None
    value: Any = None
    prompt_suggestion: Any = None


class AgentReview(Resource):
    """The platform's review of an agent (``mode`` ``agent``). Every field may be
    missing or of another type: the screen shows what is text and says what is not."""

    agent_id: Any = None
    agent_instructions_suggestion: Any = None
    greeting_suggestion: Any = None
    action_suggestions: Items[Suggestion] = Field(default_factory=list)
    app_suggestions: Items[Suggestion] = Field(default_factory=list)
