"""Checks of what a request carries, shared by the request models (`requests`) and the
forms that build them: each returns the value, normalised, or raises ValueError with a
message a form can show at its field."""

from __future__ import annotations

import ipaddress
import re
from typing import Any
from urllib.parse import urlsplit

_HOST_LABEL = re.compile(r"^(?!-)[A-Za-z0-9-]{1,63}(?<!-)$")


def is_hostname_or_ip(value: str) -> bool:
    """True for an IPv4/IPv6 address or a syntactically valid DNS host name."""
    if not value or len(value) > 253:
        return False
    try:
        # A bare address only: "[::1]" is URL syntax, and strip("[]") would also
        # have let "[1.2.3.4]" or "]::1[" through, to be sent to the server as is.
        ipaddress.ip_address(value)
        return True
    except ValueError:
        pass
    labels = value.rstrip(".").split(".")
    if labels[-1].isdecimal():  # 300.1.1.1 is not a name either
        return False
    return all(_HOST_LABEL.match(label) for label in labels)


def check_ip(value: str) -> str:
    """Normalise an IPv4 or IPv6 address, or raise ValueError with a readable message."""
    try:
        return str(ipaddress.ip_address(value.strip()))
    except ValueError:
        raise ValueError(f"{value!r} is not an IPv4 or IPv6 address") from None


def check_http_url(value: str) -> str:
    """Accept an absolute http(s) URL with a host, or raise ValueError."""
    text = value.strip()
    parts = urlsplit(text)
    if parts.scheme not in ("http", "https"):
        raise ValueError("URL must start with http:// or https://")
    host = parts.hostname or ""
    if not host or not is_hostname_or_ip(host):
        raise ValueError("URL must name a valid host")
    if any(ch.isspace() for ch in text):
        raise ValueError("URL must not contain spaces")
    try:
        parts.port  # noqa: B018 - raises on a bad port
    except ValueError:
        raise ValueError("URL has an invalid port") from None
    return text


_EMAIL = re.compile(r"^[^@\s]+@[^@\s]+\.[^@\s]+$")
_ROLE = re.compile(r"^[A-Za-z][A-Za-z0-9_-]{0,39}$")


def check_email(value: str) -> str:
    """An email address (one ``@``, a dot in the domain, no spaces), or ValueError."""
    if not _EMAIL.match(value):
        raise ValueError("not an email address")
    return value


def check_role(value: str) -> str:
    """A role: one word."""
    if not _ROLE.match(value):
        raise ValueError("a role is one word (admin, member)")
    return value


def typed_ids(value: Any) -> Any:
    """Account ids typed as ``1112, 1113`` (or a list)."""
    if isinstance(value, str):
        parts = [p.strip() for p in value.replace(",", " ").split()]
        for part in parts:
            if not (part.isascii() and part.isdecimal()):
                raise ValueError(f"{part!r} is not an account id")
        return [int(p) for p in parts]
    return value


Header = tuple[str, str]
"""One relay header: name and value (a name may repeat)."""


def parse_header_lines(text: str) -> list[Header]:
    """``Name: value`` lines (blank lines skipped) as header pairs, or ValueError."""
    out = []
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        name, colon, value = line.partition(":")
        if not colon or not name.strip():
            raise ValueError(f"line {number}: write a header as Name: value")
        out.append((name.strip(), value.strip()))
    return out


def header_lines(headers: list[Header]) -> str:
    """Header pairs as ``Name: value`` lines (what `parse_header_lines` reads)."""
    return "\n".join(f"{name}: {value}" for name, value in headers)


_OCTAL_MODE = re.compile(r"^[0-7]{3,4}$")


def check_octal_mode(value: str) -> str:
    """File mode as octal text (``644``, ``0644``, ``0755``), else ValueError."""
    text = value.strip()
    if not _OCTAL_MODE.match(text):
        raise ValueError("mode must be octal text such as 0644 or 755")
    return text
