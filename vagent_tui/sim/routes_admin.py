"""Billing (ADR export), SIP whitelist, webhooks and webhook relays.

All act on the selected account (``targetAccountId`` or the key owner).

* ADR export: all fields but ``path`` required; ``deliveryProtocol`` sftp/ftps/ftp (any
  case, stored lower case); ``rotationMinutes`` numeric *text* 1..1440 (the simulator's
  limit: a day); ``port`` an integer 1..65535; ``host`` a host name or IP address. Only
  partner, reseller and organization accounts may configure it (403 otherwise). It is
  scoped at those levels, so (spec rule 9) ``targetPartnerId``, ``targetResellerId`` or
  ``targetOrganizationId`` selects the account (one of them, naming an account of its
  level: 400 otherwise); ``targetAccountId`` is taken too.
* SIP entries and webhooks carry ``timestamp``: when they were added, a number of epoch
  seconds (api-facts' example 1678829072), not text.
* SIP: ``ip`` must be an IPv4/IPv6 address (400); adding one already listed is 409
  ``IP entry already exists``; removing one not listed is 404 ``IP entry not found``.
* Webhooks: ``url`` http(s); ``type`` conversation|incoming|contact|agent|onboarding;
  duplicates 409 ``Webhook already exists``; removing an unknown url 404
  ``Webhook not found``.
* Relays are premium (``vidaPremium``); ``GET /webhookRelay/types`` is open to all.
  A type the platform does not know (not in the types list) is 404 ``Webhook Relay type
  '<type>' is not supported.`` for a read, a save and a delete, checked after the
  premium check (api-facts gives no order; an account without premium learns nothing
  about types).
  Relay delete answers, in this order of checks: 401, 400 (blank type, or ``DELETE
  /webhookRelay`` with no type), 403 premium message, 404 not supported, 404 not
  configured, 500 ``Internal error`` for the seeded type ``legacyCrm`` (its storage is
  broken: it is configured on every premium account and can never be deleted), else 200.
* Relay ``headers`` are an array of single-key objects, ``[{"Authorization": "Bearer
  xyz"}]`` (api-facts), served and stored as sent (order and repeated names kept).
  Anything else (one object, an entry with no key or two, a name that is blank, a value
  that is not a string) is 400 ``headers must be an array of single-key objects``;
  absent or ``null`` is no headers. Saving answers ``Webhook Relay for type '<type>'
  configured successfully.`` and, as a simulator addition, the stored ``config``.
  ``timeout`` is milliseconds 1..60000 (default 10000) and ``successStatusCodes`` HTTP
  codes 100..599 (default ``[200]``): limits of the simulator, not of api-facts.
"""

from __future__ import annotations

import ipaddress
import re
from typing import Any
from urllib.parse import urlsplit

from vagent_tui.sim.account import Account
from vagent_tui.sim.catalog import BROKEN_RELAY_TYPE
from vagent_tui.sim.common import SimError, bad, opt_str, req_int, req_str
from vagent_tui.sim.endpoint import Ctx, route

PREMIUM = "Webhook Relay is a premium feature. Please upgrade your account to use it."
TYPE_REQUIRED = "type path parameter is required and must be a string"
HEADERS_SHAPE = "headers must be an array of single-key objects"
WEBHOOK_TYPES = ("conversation", "incoming", "contact", "agent", "onboarding")
_LABEL = re.compile(r"^[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?$")


def valid_host(host: str) -> bool:
    try:
        ipaddress.ip_address(host)
        return True
    except ValueError:
        pass
    labels = host.rstrip(".").split(".")
    return len(host) <= 253 and all(_LABEL.match(label) for label in labels)


def valid_url(url: str) -> bool:
    if any(c.isspace() for c in url):
        return False
    try:
        parts = urlsplit(url)
        return parts.scheme in ("http", "https") and bool(parts.hostname)
    except ValueError:
        return False


def _ip(body: dict[str, Any]) -> str:
    raw = req_str(body, "ip")
    try:
        return str(ipaddress.ip_address(raw))
    except ValueError:
        raise bad("ip must be a valid IPv4 or IPv6 address") from None


ADR_LEVELS = {"targetPartnerId": "partner", "targetResellerId": "reseller",
              "targetOrganizationId": "organization"}  # fmt: skip


async def adr_config(ctx: Ctx) -> dict[str, Any]:
    body = await ctx.json()
    acc = ctx.level_target(ADR_LEVELS)
    protocol = req_str(body, "deliveryProtocol").lower()
    if protocol not in ("sftp", "ftps", "ftp"):
        raise bad("deliveryProtocol must be one of: sftp, ftps, ftp")
    rotation = req_str(body, "rotationMinutes")
    if not (rotation.isascii() and rotation.isdecimal() and 1 <= int(rotation) <= 1440):
        raise bad("rotationMinutes must be a number of minutes between 1 and 1440, as text")
    host = req_str(body, "host")
    if not valid_host(host):
        raise bad("host must be a host name or IP address")
    port = req_int(body, "port")
    if not 1 <= port <= 65535:
        raise bad("port must be between 1 and 65535")
    username = req_str(body, "username")
    password = req_str(body, "password")
    path = opt_str(body, "path", "")
    if acc.account_type not in ("partner", "reseller", "organization"):
        raise SimError(403, "ADR export is configured at partner, reseller or organization level")
    ctx.state.adr[acc.id] = {"deliveryProtocol": protocol, "rotationMinutes": rotation,
                             "host": host, "port": port, "username": username,
                             "password": password, "path": path}  # fmt: skip
    return {"success": True, "message": "ADR export configuration saved successfully"}


def _stamp(ctx: Ctx) -> int:
    """A SIP or webhook record's ``timestamp``: epoch seconds as a number (api-facts)."""
    return int(ctx.state.now())


async def sip_list(ctx: Ctx) -> dict[str, Any]:
    return {"success": True, "whitelist": [dict(e) for e in ctx.state.sip.get(ctx.target.id, [])]}


async def sip_add(ctx: Ctx) -> tuple[int, dict[str, Any]]:
    body = await ctx.json()
    acc = ctx.target
    ip = _ip(body)
    label = opt_str(body, "label", "") or ""
    entries = ctx.state.sip.setdefault(acc.id, [])
    if any(e["ip"] == ip for e in entries):
        raise SimError(409, "IP entry already exists")
    entries.append({"userId": acc.id, "label": label, "timestamp": _stamp(ctx), "ip": ip})
    return 201, {"success": True, "message": "IP entry created successfully"}


async def sip_delete(ctx: Ctx) -> dict[str, Any]:
    body = await ctx.json()
    ip = _ip(body)
    entries = ctx.state.sip.setdefault(ctx.target.id, [])
    keep = [e for e in entries if e["ip"] != ip]
    if len(keep) == len(entries):
        raise SimError(404, "IP entry not found")
    entries[:] = keep
    return {"success": True, "message": "IP entry deleted successfully"}


async def webhooks_list(ctx: Ctx) -> dict[str, Any]:
    hooks = ctx.state.webhooks.get(ctx.target.id, [])
    return {"success": True, "webhooks": [dict(h) for h in hooks]}


def _url(body: dict[str, Any]) -> str:
    url = req_str(body, "url")
    if not valid_url(url):
        raise bad("url must be an http(s) URL")
    return url


async def webhooks_add(ctx: Ctx) -> tuple[int, dict[str, Any]]:
    body = await ctx.json()
    acc = ctx.target
    url = _url(body)
    kind = req_str(body, "type")
    if kind not in WEBHOOK_TYPES:
        raise bad(f"type must be one of: {', '.join(WEBHOOK_TYPES)}")
    label = opt_str(body, "label", "") or ""
    hooks = ctx.state.webhooks.setdefault(acc.id, [])
    if any(h["url"] == url for h in hooks):
        raise SimError(409, "Webhook already exists")
    hooks.append({"userId": acc.id, "label": label, "timestamp": _stamp(ctx), "url": url,
                  "type": kind})  # fmt: skip
    return 201, {"success": True, "message": "Webhook created successfully"}


async def webhooks_delete(ctx: Ctx) -> dict[str, Any]:
    body = await ctx.json()
    url = _url(body)
    hooks = ctx.state.webhooks.setdefault(ctx.target.id, [])
    keep = [h for h in hooks if h["url"] != url]
    if len(keep) == len(hooks):
        raise SimError(404, "Webhook not found")
    hooks[:] = keep
    return {"success": True, "message": "Webhook deleted successfully"}


async def relay_types(ctx: Ctx) -> dict[str, Any]:
    ctx.described  # noqa: B018 -- validates targetAccountId
    return {"success": True, "types": [dict(t) for t in ctx.state.relay_types]}


def _premium(ctx: Ctx) -> Account:
    acc = ctx.target
    if not acc.vida_premium:
        raise SimError(403, PREMIUM)
    return acc


def _relay_type(ctx: Ctx) -> str:
    rtype = ctx.path("type").strip()
    if not rtype:
        raise bad(TYPE_REQUIRED)
    return rtype


def _supported(ctx: Ctx, rtype: str) -> None:
    if not any(t["name"] == rtype for t in ctx.state.relay_types):
        raise SimError(404, f"Webhook Relay type '{rtype}' is not supported.")


def _headers(body: dict[str, Any]) -> list[dict[str, str]]:
    """The published shape only: ``[{"Name": "value"}, ...]`` (see module docstring)."""
    headers = body.get("headers")
    if headers is None:
        return []
    if not isinstance(headers, list):
        raise bad(HEADERS_SHAPE)
    for entry in headers:
        if not isinstance(entry, dict) or len(entry) != 1:
            raise bad(HEADERS_SHAPE)
        ((name, value),) = entry.items()
        if not name.strip() or not isinstance(value, str):
            raise bad(HEADERS_SHAPE)
    return [dict(entry) for entry in headers]


async def relay_list(ctx: Ctx) -> dict[str, Any]:
    acc = _premium(ctx)
    configs = [dict(c) for c in ctx.state.relays.get(acc.id, {}).values()]
    return {"success": True, "configs": configs}


async def relay_get(ctx: Ctx) -> dict[str, Any]:
    rtype = _relay_type(ctx)
    acc = _premium(ctx)
    _supported(ctx, rtype)
    config = ctx.state.relays.get(acc.id, {}).get(rtype)
    if config is None:
        raise SimError(404, f"Webhook Relay type '{rtype}' was not configured.")
    return {"success": True, "config": dict(config)}


async def relay_save(ctx: Ctx) -> dict[str, Any]:
    rtype = _relay_type(ctx)
    body = await ctx.json()
    acc = _premium(ctx)
    _supported(ctx, rtype)
    url = _url(body)
    timeout = body.get("timeout", 10000)
    if isinstance(timeout, bool) or not isinstance(timeout, int) or not 1 <= timeout <= 60000:
        raise bad("timeout must be an integer number of milliseconds between 1 and 60000")
    headers = _headers(body)
    codes = body.get("successStatusCodes") or [200]
    if not isinstance(codes, list) or not all(
        isinstance(c, int) and not isinstance(c, bool) and 100 <= c <= 599 for c in codes
    ):
        raise bad("successStatusCodes must be an array of HTTP status codes")
    config = {"type": rtype, "url": url, "timeout": timeout, "headers": headers,
              "successStatusCodes": codes}  # fmt: skip
    ctx.state.relays.setdefault(acc.id, {})[rtype] = config
    return {"success": True,
            "message": f"Webhook Relay for type '{rtype}' configured successfully.",
            "config": dict(config)}  # fmt: skip


async def relay_delete(ctx: Ctx) -> dict[str, Any]:
    rtype = _relay_type(ctx)
    acc = _premium(ctx)
    _supported(ctx, rtype)
    configs = ctx.state.relays.setdefault(acc.id, {})
    if rtype not in configs:
        raise SimError(404, f"Webhook Relay type '{rtype}' was not configured.")
    if rtype == BROKEN_RELAY_TYPE:
        raise SimError(500, "Internal error")
    del configs[rtype]
    return {"success": True, "message": f"Webhook Relay type '{rtype}' removed successfully."}


async def relay_delete_untyped(ctx: Ctx) -> dict[str, Any]:
    raise bad(TYPE_REQUIRED)


ROUTES = [
    route("/billing/adrExportConfig", adr_config, "POST"),
    route("/sip/ipWhitelist", sip_list, "GET"),
    route("/sip/ipWhitelist", sip_add, "POST"),
    route("/sip/ipWhitelist", sip_delete, "DELETE"),
    route("/webhooks", webhooks_list, "GET"),
    route("/webhooks", webhooks_add, "POST"),
    route("/webhooks", webhooks_delete, "DELETE"),
    route("/webhookRelay/types", relay_types, "GET", acts=False),
    route("/webhookRelay", relay_list, "GET"),
    route("/webhookRelay", relay_delete_untyped, "DELETE"),
    route("/webhookRelay/", relay_delete_untyped, "DELETE"),
    route("/webhookRelay/{type}", relay_get, "GET"),
    route("/webhookRelay/{type}", relay_save, "POST"),
    route("/webhookRelay/{type}", relay_delete, "DELETE"),
]
