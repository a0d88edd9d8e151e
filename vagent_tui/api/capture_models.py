"""SIP captures (``GET /sip/captures``; CONTRACT choices 90-94): what is asked, what came.

The vendor's reference gives the query (``sipCallId``, ``from``/``to`` in epoch
milliseconds, ``format`` one of ``text``, ``pcap``, ``json``, ``transaction``) and no reply
schema: a capture is kept as the bytes that came, with the format asked and the media
type said. `SipCapture.text` is what a screen shows of the three text formats (JSON
indented), `pcap_problem` what is wrong with a pcap file (read record by record, so a
reply cut between two packets is not saved as a capture).
"""

from __future__ import annotations

import json
import struct
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, Literal

from pydantic import Field, field_validator

from vagent_tui.api.requests import Request

CaptureFormat = Literal["text", "pcap", "json", "transaction"]
CAPTURE_FORMATS: tuple[CaptureFormat, ...] = ("text", "json", "transaction", "pcap")
"""The formats the reference lists, in the order the console offers them."""
MAX_CALL_ID = 1024
"""A Call-ID longer than this is not sent (SIP sets no limit; a query line has one)."""
CAPTURE_MARGIN = timedelta(minutes=5)
"""The window asked around a call: from this long before its start to this long after
its end (CONTRACT choice 91)."""

_PCAP_MAGICS = {
    b"\xd4\xc3\xb2\xa1": "<",
    b"\xa1\xb2\xc3\xd4": ">",
    b"\x4d\x3c\xb2\xa1": "<",
    b"\xa1\xb2\x3c\x4d": ">",
}
"""Classic pcap's magic numbers (micro- and nanosecond stamps) and their byte order."""
_PCAPNG = b"\x0a\x0d\x0d\x0a"


class CaptureQuery(Request):
    """The query of one capture (request: strict). Times are epoch milliseconds."""

    sip_call_id: str = Field(min_length=1, max_length=MAX_CALL_ID)
    format: CaptureFormat = "text"
    start_ms: int | None = Field(default=None, ge=0)
    end_ms: int | None = Field(default=None, ge=0)

    @field_validator("sip_call_id")
    @classmethod
    def _printable(cls, value: str) -> str:
        # A SIP header value is one line of visible text; anything else is not a Call-ID.
        if any(ord(c) < 0x21 or ord(c) == 0x7F for c in value):
            raise ValueError("a SIP Call-ID holds no spaces or control characters")
        return value

    @classmethod
    def around(
        cls, sip_call_id: str, fmt: CaptureFormat, start: datetime | None, seconds: float
    ) -> CaptureQuery:
        """The query for a call that started at ``start`` and lasted ``seconds``: the
        window `CAPTURE_MARGIN` either side (none when the start is not known)."""
        if start is None:
            return cls(sip_call_id=sip_call_id, format=fmt)
        begin = start - CAPTURE_MARGIN
        end = start + timedelta(seconds=max(0.0, seconds)) + CAPTURE_MARGIN
        return cls(
            sip_call_id=sip_call_id,
            format=fmt,
            start_ms=max(0, int(begin.timestamp() * 1000)),
            end_ms=max(0, int(end.timestamp() * 1000)),
        )

    def params(self) -> dict[str, Any]:
        """The query string (``from``/``to`` only when known)."""
        params: dict[str, Any] = {"sipCallId": self.sip_call_id, "format": self.format}
        if self.start_ms is not None:
            params["from"] = self.start_ms
        if self.end_ms is not None:
            params["to"] = self.end_ms
        return params


@dataclass(frozen=True, slots=True)
class SipCapture:
    """A capture as it came: the format asked, the media type said, the body."""

    format: str
    media_type: str
    content: bytes = b""

    @property
    def is_binary(self) -> bool:
        return self.format == "pcap"

    @property
    def text(self) -> str:
        """The capture as text to show: JSON indented, other text as it came (invalid
        UTF-8 replaced). Shown inert by the screen, never as markup."""
        raw = self.content.decode("utf-8", errors="replace")
        if "json" in self.media_type or self.format in ("json", "transaction"):
            try:
                return json.dumps(json.loads(raw), ensure_ascii=False, indent=2)
            except ValueError:
                return raw
        return raw


def pcap_problem(content: bytes) -> str | None:
    """What makes ``content`` not a whole pcap file, or None.

    Classic pcap is read record by record: every record's header and its captured bytes
    must be there, and nothing after the last (a reply cut short ends inside one).
    A pcapng file is only recognised by its first block's type.
    """
    if content[:4] == _PCAPNG:
        return None if len(content) >= 28 else "the pcapng file ends in its first block"
    order = _PCAP_MAGICS.get(content[:4])
    if order is None:
        return "the reply is not a pcap file"
    if len(content) < 24:
        return "the pcap file ends in its header"
    at = 24
    while at < len(content):
        if at + 16 > len(content):
            return "the pcap file ends inside a packet's header"
        (length,) = struct.unpack_from(order + "I", content, at + 8)
        at += 16 + length
        if at > len(content):
            return "the pcap file ends inside a packet"
    return None
