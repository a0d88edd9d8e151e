"""Asking a read again (`read_again`): transient faults only, a bounded number of rounds,
the client's retry setting honoured, and an error that says what failed."""

from __future__ import annotations

from typing import Any

import pytest

from vagent_tui.api.client import PlatformClient
from vagent_tui.api.errors import (
    ApiError,
    MalformedResponse,
    PlatformError,
    ReplyTooLarge,
    RequestTimeout,
    TransportError,
)
from vagent_tui.services.reread import READ_ROUNDS, read_again


def client(retries: int = 2) -> PlatformClient:
    return PlatformClient("http://platform.test", "tok-123456", get_retries=retries, backoff=0)


def failing(*errors: BaseException, value: Any = "read") -> tuple[Any, list[int]]:
    calls: list[int] = []

    async def read() -> Any:
        calls.append(1)
        if len(calls) <= len(errors):
            raise errors[len(calls) - 1]
        return value

    return read, calls


TRANSIENT = [
    TransportError("reset", method="GET"),
    RequestTimeout("slow", method="GET"),
    ApiError(503, "busy", method="GET"),
    ApiError(429, "slow down", method="GET"),
    MalformedResponse("The platform sent a reply that is not JSON (HTTP 200)", status=200),
]


@pytest.mark.parametrize("error", TRANSIENT, ids=lambda e: type(e).__name__)
async def test_a_transient_failure_is_asked_again(error: PlatformError) -> None:
    read, calls = failing(*[error] * READ_ROUNDS)
    assert await read_again(client(), read) == "read"
    assert len(calls) == READ_ROUNDS + 1


@pytest.mark.parametrize(
    "error",
    [ApiError(404, "no such account"), ApiError(401, "Unauthorized Request"),
     ApiError(200, "refused in an envelope"), ReplyTooLarge("too big", status=200),
     ValueError("not the client's")],
    ids=["404", "401", "envelope", "too-large", "other"],
)  # fmt: skip
async def test_other_failures_are_raised_at_once(error: BaseException) -> None:
    read, calls = failing(error)
    with pytest.raises(type(error)):
        await read_again(client(), read)
    assert len(calls) == 1


async def test_the_rounds_are_bounded_and_the_error_says_what_failed() -> None:
    error = MalformedResponse("The platform sent a reply that is not JSON (HTTP 200)", status=200)
    read, calls = failing(*[error] * 10)
    with pytest.raises(MalformedResponse) as info:
        await read_again(client(), read, what="page 8 of the accounts below 1234")
    assert len(calls) == READ_ROUNDS + 1
    assert info.value.message == (
        "Could not read page 8 of the accounts below 1234 (asked 9 times): "
        "The platform sent a reply that is not JSON (HTTP 200)"
    )
    assert info.value.status == 200 and info.value.__cause__ is None
    assert error.message.startswith("The platform sent")  # the original is untouched


async def test_a_client_told_not_to_retry_is_not_asked_again() -> None:
    read, calls = failing(TransportError("reset"))
    with pytest.raises(TransportError):
        await read_again(client(retries=0), read)
    assert len(calls) == 1
