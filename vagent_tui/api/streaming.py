"""A GET whose body is a file, read in chunks as it arrives (``GET /logs?format=csv``).

`StreamingTransport.stream_get` keeps the transport's rules: the token in the query and
nowhere else, `PlatformError` subclasses whose texts are redacted, the GET retry policy
(retried only before the first byte of the body was handed out: a transport fault while
connecting, a 5xx, a 429 with its ``Retry-After``), the pressure hook and the observers.
An error reply (any status >= 400, or a JSON envelope where a file was asked for) is
read up to the transport's reply limit and raised as `ApiError` with the server's
``message``. The body of a success is never held whole: each chunk is yielded as it
comes (the key masked should the server echo it), and a fault in the middle of it (a
dropped connection, a read timeout) raises `TransportError` / `RequestTimeout` from the
iterator; nothing is retried then, the caller knows how much it got.
"""

from __future__ import annotations

import asyncio
from asyncio import timeout as _deadline
from collections.abc import AsyncGenerator, Mapping
from typing import Any

import httpx

from vagent_tui.api.errors import (
    REDACTED,
    MalformedResponse,
    PlatformError,
    RequestTimeout,
    TransportError,
    encodings,
    redact_text,
    retry_status,
    transient,
)
from vagent_tui.api.listeners import hear_pressure
from vagent_tui.api.outgoing import Outgoing
from vagent_tui.api.replies import decode_reply
from vagent_tui.api.targets import Target
from vagent_tui.api.transport import ApiTransport

CHUNK_BYTES = 64 * 1024


def _tail_start(data: bytes, forms: list[bytes]) -> int:
    """Where the end of ``data`` starts what could be the key (in one of its ``forms``)
    continued in the next chunk: that much is held back; ``len(data)`` if nothing is.
    (On a failure the held part is dropped: at most the start of the key.)"""
    longest = len(forms[0]) if forms else 0
    for i in range(max(0, len(data) - longest + 1), len(data)):
        tail = data[i:]
        if any(form.startswith(tail) for form in forms):
            return i
    return len(data)


def _mask(data: bytes, forms: list[bytes]) -> bytes:
    for form in forms:
        if form in data:
            data = data.replace(form, REDACTED.encode())
    return data


class StreamingTransport(ApiTransport):
    """`ApiTransport` with a GET that streams its body."""

    def redact(self, text: str) -> str:
        """``text`` with this client's key masked in every form a server may echo it."""
        return redact_text(text, self._api_key_text())

    async def _open(
        self, outgoing: Outgoing, url: str
    ) -> tuple[PlatformError | None, httpx.Response | None]:
        """Send the request and wait for the status line: the open reply, or a failure."""
        failure: PlatformError | None = None
        try:
            async with _deadline(self.sender.total_timeout):
                return None, await self.sender.open(outgoing)
        except (httpx.TimeoutException, TimeoutError):
            failure = RequestTimeout(
                f"The platform did not answer in time ({self.host})", method="GET", url=url
            )
        except Exception as exc:  # httpx's or the in-process transport's: no reply
            reason = redact_text(str(exc) or type(exc).__name__, self._api_key_text())
            failure = TransportError(
                f"Could not reach the platform at {self.host}: {reason}", method="GET", url=url
            )
        return failure, None

    async def _error_of(self, url: str, response: httpx.Response) -> PlatformError:
        """The error an open reply stands for (its body read up to the limit), closed."""
        try:
            read = await self.sender.read_capped("GET", url, response)
        except Exception as exc:
            reason = redact_text(str(exc) or type(exc).__name__, self._api_key_text())
            read = TransportError(
                f"The platform's reply broke off ({self.host}): {reason}", method="GET", url=url
            )
        finally:
            await response.aclose()
        if isinstance(read, PlatformError):
            return read
        result = decode_reply("GET", url, read, self._api_key_text())
        if isinstance(result, PlatformError):
            return result
        return MalformedResponse(
            "The platform sent a JSON reply where a file was asked for",
            status=read.status_code,
            method="GET",
            url=url,
        )

    async def stream_get(
        self,
        path: str,
        *,
        target: Target | None = None,
        params: Mapping[str, Any] | None = None,
        chunk_bytes: int = CHUNK_BYTES,
    ) -> AsyncGenerator[bytes, None]:
        """The body of ``GET path`` in chunks of at most ``chunk_bytes``, as it arrives.

        Raises (from the iterator): `ApiError` for an error reply, `MalformedResponse`
        for a JSON success where a file was expected, `TransportError` /
        `RequestTimeout` when no reply came or the body broke off. Leaving the loop
        early closes the connection.
        """
        url = self._url(path)
        outgoing = self._builder.build("GET", url, target=target, params=params)
        attempts = 1 + self.get_retries
        loop = asyncio.get_running_loop()
        started = loop.time()
        failure: PlatformError | None = None
        response: httpx.Response | None = None
        for attempt in range(attempts):
            failure, response = await self._open(outgoing, url)
            if response is not None:
                hear_pressure(response)
            retryable = (
                transient(failure)
                if failure is not None
                else response is not None and retry_status(response.status_code)
            )
            if attempt + 1 >= attempts or not retryable:
                break
            delay = self.backoff_delay(attempt, response)
            if response is not None:
                await response.aclose()
            await asyncio.sleep(delay)
        if failure is not None:
            self._notify("GET", url, target, None, None, failure.message, loop.time() - started)
            raise failure
        assert response is not None
        kind = response.headers.get("content-type", "")
        if response.status_code >= 400 or "json" in kind.lower():
            error = await self._error_of(url, response)
            status = getattr(error, "status", response.status_code)
            self._notify("GET", url, target, None, status, error.message, loop.time() - started)
            raise error
        self._notify("GET", url, target, None, response.status_code, None, loop.time() - started)
        broke: PlatformError | None = None
        # A body that echoes the key (in any of the forms a server may write it) has it
        # masked here: the tail of each chunk that could start one waits for the next.
        forms = sorted((f.encode() for f in encodings(self._api_key_text())), key=len, reverse=True)
        carry = b""
        try:
            async for chunk in response.aiter_bytes(chunk_bytes):
                data = _mask(carry + chunk, forms)
                cut = _tail_start(data, forms)
                carry = data[cut:]
                if cut:
                    yield data[:cut]
            if carry:
                yield carry
        except (httpx.TimeoutException, TimeoutError):
            broke = RequestTimeout(
                f"The platform stopped sending ({self.host}): timed out", method="GET", url=url
            )
        except Exception as exc:
            reason = redact_text(str(exc) or type(exc).__name__, self._api_key_text())
            broke = TransportError(
                f"The platform's reply broke off ({self.host}): {reason}", method="GET", url=url
            )
        finally:
            await response.aclose()
        if broke is not None:
            # Raised outside the except block: the httpx error (its text holds the URL,
            # token included) does not ride along as the context.
            raise broke
