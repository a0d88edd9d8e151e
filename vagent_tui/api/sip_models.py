"""SIP outbound routes and the agent's SIP registration (``/sip/outboundRoutes``,
``/sip/registration``, ``/sip/registration/available``; CONTRACT choices 80 to 89).

A route is one string, ``host[:port][;transport=tcp|udp][;proxyAddress=host[:port]]``
(5060 and udp when not said): `parse_route` reads it into its parts, `check_route`
refuses what is not one with a message a form shows at its field. A registration's
password travels in `SipRegistrationRequest` only: never in its ``repr``, never in a
reply model (the platform's read names no password).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from pydantic import Field, field_validator, model_validator

from vagent_tui.api.base import NullAsEmpty, Resource
from vagent_tui.api.checks import is_hostname_or_ip
from vagent_tui.api.requests import Request

DEFAULT_PORT = 5060
DEFAULT_TRANSPORT = "udp"
ROUTE_TRANSPORTS = ("tcp", "udp")
"""The transports a route may name (the issue's grammar; the file's example is udp)."""
REGISTRATION_TRANSPORTS = ("UDP", "TCP", "TLS")
"""A registration's transports (the file's example is ``TLS``; sent upper case)."""

_PORT = re.compile(r"^[0-9]{1,5}$")
_AOR = re.compile(r"^(sips?:)?[^@\s;:]+@[^@\s;]+$")


@dataclass(frozen=True)
class RouteParts:
    """A route read: its host, port and transport (the defaults when not said), its
    proxy (``""``: none) and whether the port and transport were said."""

    host: str
    port: int
    transport: str
    proxy: str
    port_said: bool
    transport_said: bool


def _host_port(text: str, what: str) -> tuple[str, int | None]:
    """``host``, ``host:port``, ``[v6]`` or ``[v6]:port`` -> (host, port or None)."""
    if text.startswith("["):
        inside, bracket, rest = text[1:].partition("]")
        if not bracket or ":" not in inside:
            raise ValueError(f"{what}: an IPv6 address goes in brackets, [2001:db8::1]")
        host, port_text = inside, rest.removeprefix(":") if rest.startswith(":") else None
        if rest and not rest.startswith(":"):
            raise ValueError(f"{what}: only :port may follow the brackets")
    else:
        host, colon, port_text_ = text.partition(":")
        port_text = port_text_ if colon else None
        if ":" in port_text_:
            raise ValueError(f"{what}: an IPv6 address goes in brackets, [2001:db8::1]")
    if not host or not is_hostname_or_ip(host):
        raise ValueError(f"{what}: {host or 'nothing'} is not a host name or IP address")
    if port_text is None:
        return host, None
    if not _PORT.match(port_text) or not 1 <= int(port_text) <= 65535:
        raise ValueError(f"{what}: the port is a number from 1 to 65535")
    return host, int(port_text)


def parse_route(route: str) -> RouteParts:
    """The parts of ``route``, or ValueError saying what is wrong in it."""
    text = route.strip()
    if not text:
        raise ValueError("a route names a host: sip.example.com[:port]")
    if any(ch.isspace() or not ch.isprintable() for ch in text):
        raise ValueError("a route holds no spaces or control characters")
    head, *params = text.split(";")
    host, port = _host_port(head, "host")
    transport, proxy = "", ""
    seen: set[str] = set()
    for param in params:
        key, equals, value = param.partition("=")
        if not equals or not value:
            raise ValueError(f"';{param}' is not key=value (transport=udp, proxyAddress=host)")
        if key in seen:
            raise ValueError(f"{key} is given twice")
        seen.add(key)
        if key == "transport":
            if value.lower() not in ROUTE_TRANSPORTS:
                raise ValueError("transport is tcp or udp")
            transport = value.lower()
        elif key == "proxyAddress":
            _host_port(value, "proxyAddress")
            proxy = value
        else:
            raise ValueError(f"unknown parameter {key} (transport, proxyAddress)")
    return RouteParts(
        host=host,
        port=DEFAULT_PORT if port is None else port,
        transport=transport or DEFAULT_TRANSPORT,
        proxy=proxy,
        port_said=port is not None,
        transport_said=bool(transport),
    )


def check_route(value: str) -> str:
    """``value`` trimmed when it is a route, else ValueError (sent as typed: the platform
    keeps it as sent, and a removal names it so)."""
    parse_route(value)
    return value.strip()


def check_aor(value: str) -> str:
    """A SIP address of record, ``user@host`` (``sip:`` in front allowed), trimmed."""
    text = value.strip()
    if not _AOR.match(text):
        raise ValueError("an address of record is user@host, e.g. 1001@sip.example.com")
    host = text.rpartition("@")[2].partition(":")[0]
    if not is_hostname_or_ip(host):
        raise ValueError(f"{host} is not a host name or IP address")
    return text


class SipRoutes(Resource):
    """``GET /sip/outboundRoutes``: ``routes``, strings (anything else in the list is
    kept here and skipped by the reader: it names no route that could be removed)."""

    routes: list[Any] | None = None
    message: str | None = None


class SipRouteRequest(Request):
    """``POST`` and ``DELETE /sip/outboundRoutes``: ``{route}``."""

    route: str

    @field_validator("route")
    @classmethod
    def _route(cls, value: str) -> str:
        return check_route(value)


class AorAvailability(Resource):
    """``POST /sip/registration/available``: ``available`` and a message."""

    available: bool | None = None
    message: NullAsEmpty = ""


class AorQuery(Request):
    """What the availability check sends: the AOR, or the username and realm it is
    built from when the AOR is blank (the file's three fields)."""

    aor: str = ""
    username: str = ""
    sip_realm: str = ""

    @model_validator(mode="after")
    def _enough(self) -> AorQuery:
        if self.aor:
            self.aor = check_aor(self.aor)
        elif not (self.username and self.sip_realm):
            raise ValueError("an AOR, or a username and a SIP realm")
        return self

    def wire(self) -> dict[str, Any]:
        body = super().wire()
        return {key: value for key, value in body.items() if value}

    @property
    def shown(self) -> str:
        """The AOR asked about, as a person reads it."""
        return self.aor or f"{self.username}@{self.sip_realm}"


class SipRegistration(Resource):
    """``GET /sip/registration``'s ``registration``: the file names ``aor``,
    ``username``, ``proxy``, ``transport``; the others are read when sent. A password,
    should a platform send one, is dropped (`_no_password`)."""

    aor: NullAsEmpty = ""
    username: NullAsEmpty = ""
    auth_username: NullAsEmpty = ""
    sip_realm: NullAsEmpty = ""
    proxy: NullAsEmpty = ""
    port: int | str | None = None
    transport: NullAsEmpty = ""
    subscribe: bool | None = None

    @model_validator(mode="before")
    @classmethod
    def _no_password(cls, data: Any) -> Any:
        # Never kept, so never shown, copied or written anywhere by the console.
        if isinstance(data, dict) and any(str(k).lower() == "password" for k in data):
            return {k: v for k, v in data.items() if str(k).lower() != "password"}
        return data


class SipRegistrationRequest(Request):
    """``POST /sip/registration``: create or update the account's registration.

    The AOR, or the username and realm it is built from; the password always (choice
    85: an update sends it again). The password is sent as typed (not trimmed) and is
    never in ``repr``.
    """

    model_config = Request.model_config | {
        "str_strip_whitespace": False,
        "hide_input_in_errors": True,
    }

    aor: str = ""
    username: str = ""
    auth_username: str = ""
    password: str = Field(repr=False)
    sip_realm: str = ""
    proxy: str = ""
    port: int | None = Field(default=None, ge=1, le=65535)
    transport: str | None = None
    """UDP, TCP or TLS, any case (sent upper case)."""
    subscribe: bool | None = None

    @field_validator("aor", "username", "auth_username", "sip_realm", "proxy", mode="before")
    @classmethod
    def _trim(cls, value: Any) -> Any:
        return value.strip() if isinstance(value, str) else value

    @field_validator("transport", mode="before")
    @classmethod
    def _upper(cls, value: Any) -> Any:
        if isinstance(value, str):
            value = value.strip().upper() or None
            if value is not None and value not in REGISTRATION_TRANSPORTS:
                raise ValueError("transport is UDP, TCP or TLS")
        return value

    @field_validator("aor")
    @classmethod
    def _aor(cls, value: str) -> str:
        return check_aor(value) if value else value

    @field_validator("sip_realm")
    @classmethod
    def _realm(cls, value: str) -> str:
        if value and not is_hostname_or_ip(value):
            raise ValueError("the realm is a host name, e.g. sip.example.com")
        return value

    @field_validator("proxy")
    @classmethod
    def _proxy(cls, value: str) -> str:
        if value:
            _host_port(value.removeprefix("sip:"), "proxy")
        return value

    @field_validator("password")
    @classmethod
    def _password(cls, value: str) -> str:
        if not value.strip():
            raise ValueError("required (typed again on every change: it is never read back)")
        return value

    @model_validator(mode="after")
    def _names_an_aor(self) -> SipRegistrationRequest:
        if not self.aor and not (self.username and self.sip_realm):
            raise ValueError("an AOR, or a username and a SIP realm")
        return self

    def wire(self) -> dict[str, Any]:
        body = super().wire()
        return {key: value for key, value in body.items() if value not in ("", None)}

    @property
    def shown_aor(self) -> str:
        return self.aor or f"{self.username}@{self.sip_realm}"


@dataclass(frozen=True)
class RegistrationSaved:
    """How ``POST /sip/registration`` ended: ``created`` (201) or updated (200)."""

    created: bool
    message: str
