"""Request models: strict validation of what is sent, before anything is sent.

Each refuses what the platform would refuse, with a message a form can show at the
field it concerns. Python names are snake_case; the wire names are camelCase aliases.
"""

from __future__ import annotations

import re
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator
from pydantic.alias_generators import to_camel

# The field checks live in `checks`; `models` names them from here too.
from vagent_tui.api.checks import Header as Header
from vagent_tui.api.checks import check_email, check_role, typed_ids
from vagent_tui.api.checks import check_http_url as check_http_url
from vagent_tui.api.checks import check_ip as check_ip
from vagent_tui.api.checks import check_octal_mode as check_octal_mode
from vagent_tui.api.checks import header_lines as header_lines
from vagent_tui.api.checks import is_hostname_or_ip as is_hostname_or_ip
from vagent_tui.api.checks import parse_header_lines as parse_header_lines

# Only what the spec states is checked here. A limit the simulator chose where the spec
# is silent (the rotation of ADR files at most a day, say) is listed in its CONTRACT.md
# and not enforced: the platform answers a value it refuses with a message of its own.


class Request(BaseModel):
    """Base of request models: strict, no unknown fields (validator built on first use)."""

    model_config = ConfigDict(
        alias_generator=to_camel,
        populate_by_name=True,
        extra="forbid",
        str_strip_whitespace=True,
        defer_build=True,
    )

    def wire(self) -> dict[str, Any]:
        """The JSON body to send."""
        return self.model_dump(by_alias=True, mode="json")


class AdrExportConfig(Request):
    """The call-detail record export settings (request: strict).

    Surrounding spaces are trimmed from every field but the password, which is sent
    exactly as typed.
    """

    model_config = ConfigDict(str_strip_whitespace=False)

    delivery_protocol: Literal["sftp", "ftps", "ftp"]
    rotation_minutes: str = "60"
    host: str
    port: int = Field(ge=1, le=65535)
    username: str = Field(min_length=1)
    password: str = Field(min_length=1, repr=False)
    path: str | None = None

    @field_validator("host", "username", "path", mode="before")
    @classmethod
    def _trim(cls, value: Any) -> Any:
        return value.strip() if isinstance(value, str) else value

    @field_validator("delivery_protocol", mode="before")
    @classmethod
    def _lower_protocol(cls, value: Any) -> Any:
        return value.strip().lower() if isinstance(value, str) else value

    @field_validator("rotation_minutes", mode="before")
    @classmethod
    def _rotation(cls, value: Any) -> str:
        # The spec: the number of minutes of records in each file, sent as text.
        if isinstance(value, bool):
            raise ValueError("rotation minutes must be a whole number of minutes")
        text = str(value).strip()
        if not (text.isascii() and text.isdecimal()) or int(text) < 1:
            raise ValueError("rotation minutes must be a whole number of minutes, 1 or more")
        return str(int(text))

    @field_validator("password")
    @classmethod
    def _password(cls, value: str) -> str:
        if not value.strip():
            raise ValueError("password must not be blank")
        return value

    @field_validator("host")
    @classmethod
    def _host(cls, value: str) -> str:
        if not is_hostname_or_ip(value):
            raise ValueError("host must be a host name or an IP address")
        return value

    @field_validator("path")
    @classmethod
    def _path(cls, value: str | None) -> str | None:
        return value or None

    def wire(self) -> dict[str, Any]:
        body = super().wire()
        if body.get("path") is None:
            body.pop("path", None)  # the server then uses the user's home folder
        return body


class SipEntryRequest(Request):
    ip: str
    label: str = ""

    @field_validator("ip")
    @classmethod
    def _ip(cls, value: str) -> str:
        return check_ip(value)


MEMBER_ROLES = ("admin", "member")
"""The roles the console offers (the simulator's; the reference names ``admin`` only)."""


class MemberInvite(Request):
    """``POST /member``: invite someone by email."""

    email: str
    role: str = "admin"
    permitted_account_ids: list[int] = Field(default_factory=list)
    redirect_url: str | None = None
    send_welcome_email: bool = True

    @field_validator("email")
    @classmethod
    def _email(cls, value: str) -> str:
        return check_email(value)

    @field_validator("role")
    @classmethod
    def _role(cls, value: str) -> str:
        return check_role(value)

    @field_validator("permitted_account_ids", mode="before")
    @classmethod
    def _ids(cls, value: Any) -> Any:
        return typed_ids(value)

    @field_validator("redirect_url")
    @classmethod
    def _redirect(cls, value: str | None) -> str | None:
        return check_http_url(value) if value else None

    def wire(self) -> dict[str, Any]:
        body = super().wire()
        if not body["permittedAccountIds"]:
            del body["permittedAccountIds"]  # none: every account of the organization
        if body["redirectUrl"] is None:
            del body["redirectUrl"]
        return body


class MemberUpdate(Request):
    """``PUT /member``: email, role and accounts; an empty list removes the restriction."""

    target_member_id: int
    email: str
    role: str
    permitted_account_ids: list[int] = Field(default_factory=list)

    @field_validator("email")
    @classmethod
    def _email(cls, value: str) -> str:
        return check_email(value)

    @field_validator("role")
    @classmethod
    def _role(cls, value: str) -> str:
        return check_role(value)

    @field_validator("permitted_account_ids", mode="before")
    @classmethod
    def _ids(cls, value: Any) -> Any:
        return typed_ids(value)


class OneTimeLoginRequest(Request):
    """``GET /auth/account/oneTimeAuthToken``'s query: whose login, and (optional) the
    external id of the account whose organization an unknown email is added to."""

    email: str
    external_account_id: str | None = None

    @field_validator("email")
    @classmethod
    def _email(cls, value: str) -> str:
        return check_email(value)

    @field_validator("external_account_id")
    @classmethod
    def _external(cls, value: str | None) -> str | None:
        return value or None


# ---------------------------------------------------------------- provisioning the tree


def _name(value: str) -> str:
    if not value:
        raise ValueError("a name is required")
    return value


def _no_blanks(body: dict[str, Any]) -> dict[str, Any]:
    """A create's body without the optional fields left empty."""
    return {k: v for k, v in body.items() if v not in (None, "")}


class NewReseller(Request):
    """``POST /createReseller``: a reseller under a partner."""

    reseller_name: str
    email: str | None = None
    reseller_status: Literal["enabled", "disabled"] = "enabled"

    _name = field_validator("reseller_name")(_name)

    @field_validator("email")
    @classmethod
    def _email(cls, value: str | None) -> str | None:
        return check_email(value) if value else None

    def wire(self) -> dict[str, Any]:
        return _no_blanks(super().wire())


class NewOrganization(Request):
    """``POST /createOrganization``: an organization under a reseller."""

    org_name: str
    email: str | None = None
    account_name: str | None = None
    """The name of its first agent account (the reference: "default agent name")."""
    org_account_type: Literal["internal", "customer"] = "customer"
    hipaa_setting: Literal["on", "off", "inherit"] = "inherit"
    external_account_id: str | None = None
    external_billing_id: str | None = None

    _name = field_validator("org_name")(_name)

    @field_validator("email")
    @classmethod
    def _email(cls, value: str | None) -> str | None:
        return check_email(value) if value else None

    def wire(self) -> dict[str, Any]:
        return _no_blanks(super().wire())


class NewAgentAccount(Request):
    """``POST /createAccount``: an agent account under an organization."""

    account_name: str
    external_account_id: str | None = None
    external_billing_id: str | None = None

    _name = field_validator("account_name")(_name)

    def wire(self) -> dict[str, Any]:
        return _no_blanks(super().wire())


class _SettingsUpdate(Request):
    """Only the fields given are sent; an external id given as ``None`` or blank is sent
    as ``null``, which removes it (the reference)."""

    active: bool | None = None
    external_account_id: str | None = None
    external_billing_id: str | None = None

    def wire(self) -> dict[str, Any]:
        body = self.model_dump(by_alias=True, mode="json", exclude_unset=True)
        for key in ("externalAccountId", "externalBillingId"):
            if key in body and not body[key]:
                body[key] = None
        if body.get("active", False) is None:
            del body["active"]
        return body


class AccountUpdate(_SettingsUpdate):
    """``POST /updateAccount``: name, status and external ids of an agent account."""

    account_name: str | None = None

    @field_validator("account_name")
    @classmethod
    def _name(cls, value: str | None) -> str | None:
        return _name(value) if value is not None else None


class OrganizationUpdate(_SettingsUpdate):
    """``POST /updateOrganization``: name, status, owner email and external ids."""

    org_name: str | None = None
    email: str | None = None

    @field_validator("org_name")
    @classmethod
    def _name(cls, value: str | None) -> str | None:
        return _name(value) if value is not None else None

    @field_validator("email")
    @classmethod
    def _email(cls, value: str | None) -> str | None:
        return check_email(value) if value is not None else None


WEBHOOK_TYPES = ("conversation", "incoming", "contact", "agent", "onboarding")


class WebhookRequest(Request):
    url: str
    label: str = ""
    type: Literal["conversation", "incoming", "contact", "agent", "onboarding"]

    @field_validator("url")
    @classmethod
    def _url(cls, value: str) -> str:
        return check_http_url(value)


_HEADER_NAME = re.compile(r"^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$")


class RelayRequest(Request):
    """A webhook relay configuration to save (``POST /webhookRelay/{type}``).

    ``headers`` are pairs here and go on the wire as published (api-facts): an array of
    single-key objects, ``[{"Authorization": "Bearer xyz"}]``, in order, a repeated
    name repeated. Only what the published interface states is checked: an absolute
    http(s) URL, a timeout in whole milliseconds above 0, HTTP status codes, and header
    names and values HTTP itself allows (no upper bound on the timeout: none is
    published).
    """

    url: str
    timeout: int | None = Field(default=None, gt=0)
    headers: list[Header] = Field(default_factory=list)
    success_status_codes: list[int] | None = None

    @field_validator("url")
    @classmethod
    def _url(cls, value: str) -> str:
        return check_http_url(value)

    @field_validator("timeout", mode="before")
    @classmethod
    def _no_bool(cls, value: Any) -> Any:
        if isinstance(value, bool):
            raise ValueError("timeout must be a whole number of milliseconds")
        return value

    @field_validator("headers")
    @classmethod
    def _headers(cls, value: list[Header]) -> list[Header]:
        out = []
        for name, raw in value:
            name = name.strip()
            if not _HEADER_NAME.match(name):
                raise ValueError(f"header name {name!r} is not a valid HTTP header name")
            if any((ord(ch) < 32 and ch != "\t") or ord(ch) == 127 for ch in raw):
                raise ValueError(f"the value of {name} must be one line of text")
            out.append((name, raw.strip()))
        return out

    @field_validator("success_status_codes")
    @classmethod
    def _codes(cls, value: list[int] | None) -> list[int] | None:
        if value is not None and any(not 100 <= code <= 599 for code in value):
            raise ValueError("success status codes must be HTTP status codes (100-599)")
        return value

    def wire(self) -> dict[str, Any]:
        body: dict[str, Any] = {"url": self.url}
        if self.timeout is not None:
            body["timeout"] = self.timeout
        body["headers"] = [{name: value} for name, value in self.headers]
        if self.success_status_codes is not None:
            body["successStatusCodes"] = list(self.success_status_codes)
        return body


class TokenRequest(Request):
    """A new token. The description may be empty: the spec names the field, not a rule
    for it (the simulator takes an empty one too; CONTRACT.md)."""

    type: str = Field(default="admin", min_length=1)
    description: str = ""


class TitleRequest(Request):
    """A saved version's new display title: not empty (a title of nothing names no
    version; the simulator refuses it too), no length limit of the client's own."""

    title: str = Field(min_length=1)


Slot = Literal["staging", "default"]
"""An agent configuration slot as the platform names it: ``default`` is live."""


class VersionRequest(Request):
    """Save a version of the staging or the live (``default``) configuration."""

    title: str = Field(min_length=1)
    source: Slot


class RestoreRequest(Request):
    """Restore a saved version into the staging or the live (``default``) slot."""

    target: Slot


class RecordingStartRequest(Request):
    slot_id: int = Field(ge=0)

    @field_validator("slot_id", mode="before")
    @classmethod
    def _no_bool(cls, value: Any) -> Any:
        if isinstance(value, bool):
            raise ValueError("slot id must be a whole number")
        return value


_DRIVE = re.compile(r"^[A-Za-z]:")


class UploadRequest(Request):
    """The form fields of a workspace upload (the file travels beside them)."""

    path: str = Field(min_length=1)
    overwrite: bool = False
    mode: str | None = None

    @field_validator("path")
    @classmethod
    def _path(cls, value: str) -> str:
        if "\\" in value or any(ord(ch) < 32 or ord(ch) == 127 for ch in value):
            raise ValueError("path must use '/' separators and no control characters")
        if value.startswith(("/", "~")) or _DRIVE.match(value) or ".." in value.split("/"):
            raise ValueError("path must stay inside the workspace (relative, no '..')")
        if value.endswith("/") or not any(p not in ("", ".") for p in value.split("/")):
            raise ValueError("path must name a file, not a folder")
        return value

    @field_validator("mode")
    @classmethod
    def _mode(cls, value: str | None) -> str | None:
        return check_octal_mode(value) if value else None


class MigrationRequest(Request):
    dry_run: bool = True
    sections_to_migrate: list[str] = Field(default_factory=list)
    force_migrate_overridden_fields: bool = False

    def wire(self) -> dict[str, Any]:
        body = super().wire()
        if not body["sectionsToMigrate"]:
            body.pop("sectionsToMigrate")  # no limit: every section
        return body
