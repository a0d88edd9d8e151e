"""SIP captures of `PlatformClient`: ``GET /sip/captures`` (the vendor's OpenAPI
reference; CONTRACT choices 90-94).

The reply is a file, not an envelope: text, JSON or a binary pcap (16 MiB at most, the
sender's cap, `ReplyTooLarge` past it). It is read whole inside the GET's retry policy:
an error status or a JSON ``success: false`` is the platform's error, a pcap that is not
one or ends inside a packet (a reply cut short) is `MalformedResponse` and asked again.
The API key is masked should the platform echo it: in text with `redact_text`, in a
pcap byte for byte with as many ``*`` (the file's packet lengths stay right).
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

from vagent_tui.api.errors import MalformedResponse, encodings, redact_text
from vagent_tui.api.replies import Reply
from vagent_tui.api.transport import ApiTransport

if TYPE_CHECKING:
    from vagent_tui.api.capture_models import CaptureQuery, SipCapture

CAPTURES = "/sip/captures"


def _masked(content: bytes, key: str) -> bytes:
    """``content`` with every form of ``key`` replaced by as many ``*``."""
    for form in sorted(encodings(key), key=len, reverse=True) if len(key) >= 4 else ():
        raw = form.encode("utf-8")
        if raw in content:
            content = content.replace(raw, b"*" * len(raw))
    return content


class CapturesApi(ApiTransport):
    """``/sip/captures``."""

    async def get_sip_capture(
        self, query: CaptureQuery, *, target: int | None = None
    ) -> SipCapture:
        """``GET /sip/captures``: the capture of one SIP Call-ID, in ``query.format``.

        ``target``: the call's agent account (``targetAccountId``; the reference
        declares no target, the vendor's notes send it on every SIP request).
        """
        from vagent_tui.api.capture_models import SipCapture, pcap_problem

        url = self._url(CAPTURES)
        key = self._api_key_text()

        def take(response: Reply) -> tuple[SipCapture, str | None]:
            media = response.headers.get("content-type", "")
            if response.status_code >= 400:
                self._decode("GET", url, response)  # raises the error it stands for
            if "json" in media or query.format in ("json", "transaction"):
                try:
                    payload = json.loads(response.content)
                except ValueError:
                    raise MalformedResponse(
                        "The platform sent a JSON capture that is not JSON",
                        status=response.status_code,
                        method="GET",
                        url=url,
                    ) from None
                if isinstance(payload, dict) and payload.get("success") is False:
                    self._decode("GET", url, response)  # the envelope's error
            content = _masked(response.content, key)
            if query.format == "pcap":
                problem = pcap_problem(content)
                if problem is not None:
                    raise MalformedResponse(
                        f"The platform sent a capture that is not whole: {problem}",
                        status=response.status_code, method="GET", url=url,
                    )  # fmt: skip
            else:
                text = content.decode("utf-8", errors="replace")
                content = redact_text(text, key).encode("utf-8")
            return SipCapture(query.format, media, content), None

        return await self._attempts("GET", url, target, query.params(), take)
