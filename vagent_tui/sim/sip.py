"""SIP outbound routes and registrations: what an account holds, and each refusal
(CONTRACT choices 80 to 89; the handlers are `routes_sip`).

``state.sip_trunk[accountId]`` is ``{"routes": [str], "registration": dict | None}``.

* A route is ``host[:port][;transport=tcp|udp][;proxyAddress=host[:port]]`` (`parse_route`):
  stored as sent (trimmed); one whose host, port, transport and proxy, with the defaults
  5060 and udp filled in, equal a held one's is 409 ``Route already exists``. A removal
  names a route as listed, exactly (no format check: whatever is held can go); one not
  held is 404 ``Route not found``.
* A registration belongs to a voice agent account (400 otherwise, as the agent's
  staging). Its AOR is ``aor`` or ``username@sipRealm``; an AOR is held by at most one
  account (compared without case): another account's is 409 ``Duplicate AOR: <aor> is
  registered to another account``. The password is required on every save (an update
  too) and is never served. ``sipRealm`` or ``proxy`` whose host ends in ``.invalid``
  stands for a registrar that does not answer: 502 ``Bad Gateway: the registrar <host>
  did not answer``, nothing stored.
"""

from __future__ import annotations

import ipaddress
import re
from typing import TYPE_CHECKING, Any

from vagent_tui.sim.common import SimError, bad

if TYPE_CHECKING:
    from vagent_tui.sim.account import Account
    from vagent_tui.sim.state import SimState

TRANSPORTS = ("UDP", "TCP", "TLS")
UNREACHABLE = ".invalid"
"""A registrar host ending so never answers: the platform's 502 (RFC 2606's TLD)."""
# Patterns kept as text: `re` compiles one on first use (and caches it), not at every start.
_LABEL = r"^(?!-)[A-Za-z0-9-]{1,63}(?<!-)$"
_AOR = r"^(sips?:)?[^@\s;:]+@[^@\s;]+$"


def _is_host(text: str) -> bool:
    try:
        ipaddress.ip_address(text)
        return True
    except ValueError:
        pass
    labels = text.rstrip(".").split(".")
    return (
        0 < len(text) <= 253
        and not labels[-1].isdecimal()
        and all(re.match(_LABEL, label) for label in labels)
    )


def _host_port(text: str, what: str) -> tuple[str, int]:
    if text.startswith("["):
        host, _, rest = text[1:].partition("]")
        port = rest[1:] if rest.startswith(":") else ("" if not rest else "x")
    else:
        host, _, port = text.partition(":")
    if not _is_host(host) or ("[" not in text and ":" in host):
        raise bad(f"{what} must be a host name or IP address")
    if port and not (port.isascii() and port.isdecimal() and 1 <= int(port) <= 65535):
        raise bad(f"{what} port must be between 1 and 65535")
    return host.lower(), int(port) if port else 5060


def parse_route(route: str) -> tuple[str, int, str, str]:
    """``(host, port, transport, proxy)`` with the defaults filled in, or 400."""
    if any(ch.isspace() for ch in route):
        raise bad("route must not contain spaces")
    head, *params = route.split(";")
    host, port = _host_port(head, "route host")
    given: dict[str, str] = {}
    for param in params:
        key, _, value = param.partition("=")
        if key not in ("transport", "proxyAddress") or not value or key in given:
            raise bad(f"route parameter '{param}' is not transport=tcp|udp or proxyAddress=host")
        given[key] = value
    transport = given.get("transport", "udp").lower()
    if transport not in ("tcp", "udp"):
        raise bad("route transport must be tcp or udp")
    proxy = ""
    if "proxyAddress" in given:
        proxy_host, proxy_port = _host_port(given["proxyAddress"], "proxyAddress")
        proxy = f"{proxy_host}:{proxy_port}"
    return host, port, transport, proxy


def held(state: SimState, account_id: int) -> dict[str, Any]:
    """The account's SIP trunk record, made empty on first use."""
    return state.sip_trunk.setdefault(account_id, {"routes": [], "registration": None})


def add_route(state: SimState, acc: Account, route: str) -> list[str]:
    parts = parse_route(route)
    routes: list[str] = held(state, acc.id)["routes"]
    if any(_same(r, parts) for r in routes):
        raise SimError(409, "Route already exists")
    routes.append(route)
    return list(routes)


def _same(route: str, parts: tuple[str, int, str, str]) -> bool:
    try:
        return parse_route(route) == parts
    except SimError:
        return False  # a held route the rules would refuse now (a hostile plant)


def remove_route(state: SimState, acc: Account, route: str) -> None:
    routes: list[str] = held(state, acc.id)["routes"]
    if route not in routes:
        raise SimError(404, "Route not found")
    routes.remove(route)


def aor_of(body: dict[str, Any]) -> str:
    """The AOR a body names: ``aor``, else ``username@sipRealm``; 400 without either."""
    aor = body.get("aor")
    if aor is not None and not isinstance(aor, str):
        raise bad("aor must be a string")
    if aor and aor.strip():
        aor = aor.strip()
        if not re.match(_AOR, aor) or not _is_host(aor.rpartition("@")[2].partition(":")[0]):
            raise bad("aor must be user@host")
        return aor
    user, realm = body.get("username"), body.get("sipRealm")
    if not (isinstance(user, str) and user.strip() and isinstance(realm, str) and realm.strip()):
        raise bad("Missing AOR details: send aor, or username and sipRealm")
    if not _is_host(realm.strip()):
        raise bad("sipRealm must be a host name")
    return f"{user.strip()}@{realm.strip()}"


def holder(state: SimState, aor: str) -> int | None:
    """The account whose registration holds ``aor`` (compared without case)."""
    wanted = aor.lower().removeprefix("sips:").removeprefix("sip:")
    for account_id, trunk in state.sip_trunk.items():
        reg = trunk.get("registration")
        if reg and reg["aor"].lower().removeprefix("sips:").removeprefix("sip:") == wanted:
            return account_id
    return None


def save_registration(state: SimState, acc: Account, body: dict[str, Any]) -> bool:
    """Store the registration; True when it was created (201), False updated (200)."""
    aor = aor_of(body)
    record: dict[str, Any] = {"aor": aor}
    for key in ("username", "authUsername", "sipRealm", "proxy"):
        value = body.get(key)
        if value is not None and not isinstance(value, str):
            raise bad(f"{key} must be a string")
        record[key] = (value or "").strip()
    password = body.get("password")
    if not isinstance(password, str) or not password.strip():
        raise bad("password is required")
    port = body.get("port")
    if port is not None and (isinstance(port, bool) or not isinstance(port, int)
                             or not 1 <= port <= 65535):  # fmt: skip
        raise bad("port must be an integer between 1 and 65535")
    transport = body.get("transport")
    if transport is not None and (not isinstance(transport, str)
                                  or transport.upper() not in TRANSPORTS):  # fmt: skip
        raise bad("transport must be UDP, TCP or TLS")
    subscribe = body.get("subscribe")
    if subscribe is not None and not isinstance(subscribe, bool):
        raise bad("subscribe must be a boolean")
    if record["proxy"]:
        _host_port(record["proxy"].removeprefix("sip:"), "proxy")
    other = holder(state, aor)
    if other is not None and other != acc.id:
        raise SimError(409, f"Duplicate AOR: {aor} is registered to another account")
    for host in (record["sipRealm"], record["proxy"].partition(":")[0], aor.rpartition("@")[2]):
        if host.lower().endswith(UNREACHABLE):
            raise SimError(502, f"Bad Gateway: the registrar {host} did not answer")
    trunk = held(state, acc.id)
    created = trunk["registration"] is None
    record.update(port=port or 5060, transport=(transport or "UDP").upper(),
                  subscribe=bool(subscribe), password=password)  # fmt: skip
    trunk["registration"] = record
    return created


def served(registration: dict[str, Any]) -> dict[str, Any]:
    """A registration as ``GET /sip/registration`` serves it: never its password."""
    return {k: v for k, v in registration.items() if k != "password"}


def seed(state: SimState, acc: Account) -> None:
    """Two routes for every account the seed gives a whitelist; a registration for
    every odd-numbered voice agent account, its AOR ``<id>@pbx.demo.example.com`` (so
    another agent asking for it meets the 409)."""
    n = acc.id
    routes = [
        f"203.0.113.{n % 200 + 1}:5060;transport=udp",
        f"sip{n % 7}.carrier.example.net;transport=tcp;proxyAddress=198.51.100.9:5080",
    ]
    registration = None
    if acc.is_agent and n % 2 == 1:
        registration = {"aor": f"{n}@pbx.demo.example.com", "username": str(n),
                        "authUsername": f"auth-{n}", "sipRealm": "pbx.demo.example.com",
                        "proxy": "pbx.demo.example.com:5061", "port": 5061, "transport": "TLS",
                        "subscribe": False, "password": f"seeded-{n}"}  # fmt: skip
    state.sip_trunk[acc.id] = {"routes": routes, "registration": registration}
