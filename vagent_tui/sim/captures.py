"""SIP captures of the computed calls (``GET /sip/captures``; CONTRACT choices 90-94).

Nothing is stored: a call's SIP Call-ID (`call_entries.sip_call_id`) names its account and its
start, so the call is computed again (`call_entries.entry`) and its signalling made from it:
an INVITE dialog answered 200 and ended by BYE (a completed call), 487 after a CANCEL
(missed), 503 (failed). The same messages serve every format:

* ``text``: each message after a line ``<time> <source> -> <destination> UDP``, a blank
  line between two (``text/plain; charset=utf-8``);
* ``json``: ``{success, message, sipCallId, messages: [{timestamp (ms), source,
  destination, transport, method or status, raw}]}``;
* ``transaction``: ``{success, message, sipCallId, transactions: [{method, cseq,
  branch, start, end, final, messages (indexes)}]}``;
* ``pcap``: classic pcap, link type 101 (raw IP), each message one IPv4/UDP packet
  (``application/vnd.tcpdump.pcap``).
"""

from __future__ import annotations

import re
import struct
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from vagent_tui.sim import call_entries, calls
from vagent_tui.sim.common import iso

if TYPE_CHECKING:
    from vagent_tui.sim.account import Account
    from vagent_tui.sim.state import SimState

PBX = ("198.51.100.20", 5060)
"""Where the simulated calls come from and go to (a documentation address)."""
SBC = ("203.0.113.5", 5060)
"""The platform's side of each call."""
_CALL_ID = re.compile(r"[0-9a-f]{12}-([0-9]{1,18})-([0-9]{1,18})@sbc\.sim\.example")
TEXT_TYPE = "text/plain; charset=utf-8"
PCAP_TYPE = "application/vnd.tcpdump.pcap"


def find_call(
    state: SimState, caller: Account, root: Account, call_id: str
) -> dict[str, Any] | None:
    """The call whose SIP Call-ID is ``call_id`` among the agents at or below ``root``
    that ``caller``'s key may select, within the retention; else None (no existence
    leak: another account's call is not found either)."""
    match = _CALL_ID.fullmatch(call_id)
    if match is None:
        return None
    account_id, at = int(match.group(1)), int(match.group(2))
    agent = calls.agents_below(state, caller, root).by_id.get(account_id)
    if agent is None:
        return None
    step = calls.step_of(calls.calls_per_account(state))
    q, rest = divmod(at - agent.phase, step)
    lo, hi = calls.window(state)
    if rest or not lo <= at <= hi:
        return None
    log = call_entries.entry(agent, q, step)
    return log if log.get("sipCallId") == call_id else None


@dataclass(frozen=True, slots=True)
class SipMessage:
    """One SIP message of a simulated capture."""

    at_ms: int
    source: tuple[str, int]
    destination: tuple[str, int]
    first_line: str
    headers: tuple[tuple[str, str], ...]
    method: str | None
    status: int | None
    cseq: str
    branch: str

    @property
    def raw(self) -> str:
        lines = [self.first_line, *(f"{name}: {value}" for name, value in self.headers)]
        return "\r\n".join(lines) + "\r\n\r\n"


def messages(log: dict[str, Any], plant: str = "") -> list[SipMessage]:
    """The signalling of call ``log`` (a `call_entries.entry` of ``type`` call); ``plant``:
    hostile text for its ``User-Agent`` (what hostile mode's middleware does not see)."""
    call_id = str(log["sipCallId"])
    start_ms = int(call_id.rsplit("-", 1)[1].partition("@")[0]) * 1000
    inbound = log["direction"] == "inbound"
    caller, callee = str(log["fromNumber"]), str(log["toNumber"])
    there, here = (PBX, SBC) if inbound else (SBC, PBX)
    agent = plant or "vagent-sim/1.0"
    out: list[SipMessage] = []

    def add(offset_ms: int, from_caller: bool, line: str, cseq: str, branch: str,
            method: str | None = None, status: int | None = None) -> None:  # fmt: skip
        source, destination = (there, here) if from_caller else (here, there)
        headers = (
            # every request here comes from the caller: a reply carries its Via back
            ("Via", f"SIP/2.0/UDP {there[0]}:{there[1]};branch={branch}"),
            ("From", f"<sip:{caller}@{there[0]}>;tag=a{call_id[:6]}"),
            ("To", f"<sip:{callee}@{here[0]}>" + ("" if method else f";tag=b{call_id[6:12]}")),
            ("Call-ID", call_id),
            ("CSeq", cseq),
            ("User-Agent", agent),
            ("Content-Length", "0"),
        )
        out.append(SipMessage(start_ms + offset_ms, source, destination, line, headers,
                              method, status, cseq, branch))  # fmt: skip

    uri = f"sip:{callee}@{here[0]}"
    invite, bye = "z9hG4bK" + call_id[:8], "z9hG4bK" + call_id[4:12]
    add(0, True, f"INVITE {uri} SIP/2.0", "1 INVITE", invite, method="INVITE")
    add(20, False, "SIP/2.0 100 Trying", "1 INVITE", invite, status=100)
    status = log["status"]
    if status == "failed":
        add(400, False, "SIP/2.0 503 Service Unavailable", "1 INVITE", invite, status=503)
        add(420, True, f"ACK {uri} SIP/2.0", "1 ACK", invite, method="ACK")
        return out
    add(150, False, "SIP/2.0 180 Ringing", "1 INVITE", invite, status=180)
    if status == "missed":
        add(30_000, True, f"CANCEL {uri} SIP/2.0", "1 CANCEL", invite, method="CANCEL")
        add(30_020, False, "SIP/2.0 200 OK", "1 CANCEL", invite, status=200)
        add(30_030, False, "SIP/2.0 487 Request Terminated", "1 INVITE", invite, status=487)
        add(30_050, True, f"ACK {uri} SIP/2.0", "1 ACK", invite, method="ACK")
        return out
    add(2_000, False, "SIP/2.0 200 OK", "1 INVITE", invite, status=200)
    add(2_030, True, f"ACK {uri} SIP/2.0", "2 ACK", invite, method="ACK")
    end = 2_000 + int(log.get("duration") or 0) * 1000
    add(end, True, f"BYE {uri} SIP/2.0", "3 BYE", bye, method="BYE")
    add(end + 25, False, "SIP/2.0 200 OK", "3 BYE", bye, status=200)
    return out


def span_ms(sip: list[SipMessage]) -> tuple[int, int]:
    return sip[0].at_ms, sip[-1].at_ms


def _where(address: tuple[str, int]) -> str:
    return f"{address[0]}:{address[1]}"


def as_text(sip: list[SipMessage]) -> str:
    blocks = [
        f"{iso(m.at_ms / 1000)} {_where(m.source)} -> {_where(m.destination)} UDP\n"
        + m.raw.replace("\r\n", "\n").rstrip("\n")
        for m in sip
    ]
    return "\n\n".join(blocks) + "\n"


def as_json(call_id: str, sip: list[SipMessage]) -> dict[str, Any]:
    return {
        "success": True,
        "message": "SIP capture fetched successfully",
        "sipCallId": call_id,
        "messages": [
            {"timestamp": m.at_ms, "source": _where(m.source),
             "destination": _where(m.destination), "transport": "UDP",
             "method": m.method, "statusCode": m.status, "raw": m.raw}
            for m in sip
        ],
    }  # fmt: skip


def as_transactions(call_id: str, sip: list[SipMessage]) -> dict[str, Any]:
    groups: dict[tuple[str, str], list[int]] = {}
    for n, m in enumerate(sip):
        groups.setdefault((m.branch, m.cseq.split()[1]), []).append(n)
    transactions = []
    for (branch, method), indexes in groups.items():
        finals = [sip[i].status for i in indexes if (sip[i].status or 0) >= 200]
        transactions.append({
            "method": method, "cseq": sip[indexes[0]].cseq, "branch": branch,
            "start": sip[indexes[0]].at_ms, "end": sip[indexes[-1]].at_ms,
            "final": finals[-1] if finals else None, "messages": indexes,
        })  # fmt: skip
    return {"success": True, "message": "SIP capture fetched successfully",
            "sipCallId": call_id, "transactions": transactions}  # fmt: skip


def _checksum(header: bytes) -> int:
    total: int = sum(struct.unpack(f"!{len(header) // 2}H", header))
    while total >> 16:
        total = (total & 0xFFFF) + (total >> 16)
    return ~total & 0xFFFF


def _packet(m: SipMessage, ident: int) -> bytes:
    payload = m.raw.encode("utf-8")
    udp = struct.pack("!HHHH", m.source[1], m.destination[1], 8 + len(payload), 0) + payload
    src = bytes(int(x) for x in m.source[0].split("."))
    dst = bytes(int(x) for x in m.destination[0].split("."))
    header = struct.pack("!BBHHHBBH4s4s", 0x45, 0, 20 + len(udp), ident & 0xFFFF, 0, 64, 17,
                         0, src, dst)  # fmt: skip
    header = header[:10] + struct.pack("!H", _checksum(header)) + header[12:]
    return header + udp


def as_pcap(sip: list[SipMessage]) -> bytes:
    """Classic pcap (microsecond stamps, little-endian), link type 101: raw IPv4."""
    out = [struct.pack("<IHHiIII", 0xA1B2C3D4, 2, 4, 0, 0, 65_535, 101)]
    for n, m in enumerate(sip):
        packet = _packet(m, n + 1)
        seconds, millis = divmod(m.at_ms, 1000)
        out.append(struct.pack("<IIII", seconds, millis * 1000, len(packet), len(packet)))
        out.append(packet)
    return b"".join(out)
