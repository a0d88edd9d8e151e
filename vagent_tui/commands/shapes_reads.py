"""Item shapes of ``vagent-tui get`` for the screens' lists (`vagent_tui.commands.schemas`).

Text is as the platform sent it (a script gets the data; only a table makes it inert);
a time is ISO 8601 in UTC, or null when the platform sent none or one that is not a time.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel

from vagent_tui.commands.schemas import Item


class AgentItem(Item):
    """``get agents``: one voice agent account below the key, as Fleet lists it."""

    id: int
    name: str
    username: str | None
    parent_id: int | None
    path: list[str]
    """The names of the accounts above it, from the top of the key's tree down."""


class ConfigItem(Item):
    """``get config``: one slot of an agent's configuration, as the Agent screen shows it."""

    account_id: int | None
    slot: str
    """``staging`` or ``live``."""
    staging_is_empty: bool
    """The staging slot is empty: the staging item is live's configuration (the
    console shows live there too); a publish would change nothing."""
    id: str | None
    title: str | None
    differing_fields: list[str]
    """On the staging item: the fields staging changes from live (empty on live's)."""
    config: dict[str, Any] | None
    """The configuration as the platform sent it (camelCase), secrets masked as the
    journal masks them; null when the slot holds none."""


class VoiceItem(Item):
    """``get voices``: a voice the account may use."""

    id: str
    name: str
    provider: str | None
    languages: list[str]
    s2s_engines: list[str]
    standard_tts: bool | None
    available: bool
    unavailable_reason: str | None
    description: str | None


class FunctionItem(Item):
    """``get functions``: an entry of the functions list, checked against the agent."""

    name: str
    label: str
    allowed: bool | None
    reason: str | None
    limit: int | None
    require_paid: bool | None
    require_computer: bool | None
    missing_requirement: str | None
    docs_page: str | None
    configured: int | None
    """Its entries in the agent's live configuration (null: not an agent account)."""
    staged: int | None
    """Its entries in staging (null: not an agent account, or staging is empty)."""
    problems: list[str]
    """What the Functions screen finds: configured but not allowed, over its limit."""


class MemberItem(Item):
    """``get members``: a member of the account's organization."""

    id: int | None
    email: str
    name: str | None
    role: str | None
    status: str | None
    restricted: bool
    permitted_account_ids: list[int]
    """The accounts it is limited to; empty: every account of the organization."""
    organization_id: int | None


class NumberItem(Item):
    """``get numbers``: a phone number the account holds."""

    number: str
    locality: str | None
    region: str | None
    country: str | None
    source: str | None
    """``purchased`` (bought) or ``byo`` (brought), as the platform says."""
    monthly_price: str | None
    """A decimal number as text (no rounding), null when the platform sent none."""
    currency: str | None
    since: str | None


class TaskItem(Item):
    """``get tasks``: an outbound call or text."""

    id: str | None
    account_id: int | None
    type: str | None
    state: str | None
    target: str | None
    created_at: str | None
    updated_at: str | None
    scheduled_for: str | None
    """null: placed as soon as it may be."""
    started_at: str | None
    finished_at: str | None
    result: Any
    error: Any
    waits_for: str | None
    """What a pending task waits for, in words (null: not said)."""
    log_id: str | None
    external_task_id: str | None


class JournalItem(Item):
    """``get journal``: a request that changed the platform, from the local journal."""

    time: str
    profile: str
    source: str
    """``console`` (a person at the keys) or ``cli`` (a command)."""
    method: str
    path: str
    target: int | None
    target_param: str
    status: int | None
    ok: bool
    message: str | None
    elapsed_ms: int
    body: Any
    """The request's body, secrets masked (as the journal keeps it)."""


class TokenItem(Item):
    """``get tokens``: an API token of the account, masked (never its value)."""

    token: str
    """The token masked as the Tokens screen shows it: its last four characters."""
    description: str | None
    type: str | None
    created_at: str | None
    user_id: int | None


class WebhookItem(Item):
    """``get webhooks``: a webhook of the account."""

    url: str
    label: str | None
    type: str | None
    added_at: str | None
    user_id: int | None


class SipAddressItem(Item):
    """``get sip-whitelist``: an address the account takes SIP traffic from."""

    ip: str
    label: str | None
    added_at: str | None
    user_id: int | None


class SipRouteItem(Item):
    """``get sip-routes``: an outbound SIP route."""

    route: str


SHAPES: dict[str, type[BaseModel]] = {
    "agents": AgentItem,
    "config": ConfigItem,
    "voices": VoiceItem,
    "functions": FunctionItem,
    "members": MemberItem,
    "numbers": NumberItem,
    "tasks": TaskItem,
    "journal": JournalItem,
    "tokens": TokenItem,
    "webhooks": WebhookItem,
    "sip-whitelist": SipAddressItem,
    "sip-routes": SipRouteItem,
}
