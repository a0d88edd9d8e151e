"""``GET /sip/captures`` (the vendor's OpenAPI reference; CONTRACT choices 90-94).

Query: ``sipCallId`` (required), ``from``/``to`` (epoch milliseconds, integers, each
optional; ``from`` after ``to`` is 400), ``format`` ``text`` (default), ``pcap``, ``json``
or ``transaction`` (another is 400). The call is looked for among the voice agent
accounts at or below the selected account (``targetAccountId``, else the key owner) that
the key may select: 404 ``No results found`` for a Call-ID no such call carries, and for
a window that holds none of its messages. The JSON formats are envelopes (the hostile
middleware plants them, the faults alter them like any reply); text and pcap go out as a
file in two chunks (an altering fault drops the connection after the first), planted
by this route in hostile mode (the ``User-Agent`` header of every message).
"""

from __future__ import annotations

from collections.abc import AsyncIterator

from starlette.responses import StreamingResponse

from vagent_tui.sim import captures
from vagent_tui.sim.common import SimError, bad, parse_int
from vagent_tui.sim.endpoint import Ctx, Reply, route

FORMATS = ("text", "pcap", "json", "transaction")


def _file(content: bytes, media_type: str, name: str) -> StreamingResponse:
    half = len(content) // 2

    async def body() -> AsyncIterator[bytes]:
        yield content[:half]
        yield content[half:]

    return StreamingResponse(
        body(), media_type=media_type,
        headers={"Content-Disposition": f'attachment; filename="{name}"'},
    )  # fmt: skip


async def sip_captures(ctx: Ctx) -> Reply:
    q = ctx.query
    call_id = q.get("sipCallId", "")
    if not call_id.strip():
        raise bad("sipCallId is required")
    fmt = q.get("format", "text")
    if fmt not in FORMATS:
        raise bad("format must be text, pcap, json or transaction")
    lo, hi = parse_int("from", q.get("from")), parse_int("to", q.get("to"))
    if lo is not None and hi is not None and lo > hi:
        raise bad("from must not be after to")
    log = captures.find_call(ctx.state, ctx.me, ctx.target, call_id)
    if log is None:
        raise SimError(404, "No results found")
    plant = ""
    if ctx.state.hostile:
        from vagent_tui.sim.hostile import Planter

        plant = Planter().next()
    sip = captures.messages(log, plant)
    first, last = captures.span_ms(sip)
    if (hi is not None and first > hi) or (lo is not None and last < lo):
        raise SimError(404, "No results found")
    if fmt == "json":
        return captures.as_json(call_id, sip)
    if fmt == "transaction":
        return captures.as_transactions(call_id, sip)
    stem = f"capture-{log['id']}"
    if fmt == "pcap":
        return _file(captures.as_pcap(sip), captures.PCAP_TYPE, f"{stem}.pcap")
    return _file(captures.as_text(sip).encode("utf-8"), captures.TEXT_TYPE, f"{stem}.txt")


ROUTES = [route("/sip/captures", sip_captures, "GET")]
