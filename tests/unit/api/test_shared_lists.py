"""``_get_list(shared=True)``: a reply byte for byte like a recent one is not validated again.

Fleet asks every account the same question and most answer alike; these tests check that
the shared read gives exactly what a fresh read gives (the ``null`` items it skipped
counted every time), validates a repeated reply once, and that an unshared read, a
different reply or an error reply is read as always.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.unit.api.conftest import MakeClient
from vagent_tui.api import replies, transport
from vagent_tui.api.base import counting_empty
from vagent_tui.api.errors import ApiError

from .helpers import Recorder, ok

FUNCTIONS = [
    {"name": "transferCall", "allowed": True, "label": "Transfer"},
    None,
    {"name": "sendText", "allowed": False},
]


@pytest.fixture
def validations(monkeypatch: pytest.MonkeyPatch) -> list[bytes]:
    """Every body the list validator is asked to read."""
    seen: list[bytes] = []
    real = replies.list_envelope

    class Spy:
        def __init__(self, adapter: Any) -> None:
            self.adapter = adapter

        def validate_json(self, data: bytes) -> Any:
            seen.append(data)
            return self.adapter.validate_json(data)

    monkeypatch.setattr(transport, "list_envelope", lambda model, key: Spy(real(model, key)))
    return seen


async def test_a_repeated_reply_is_validated_once_and_reads_the_same(
    make_client: MakeClient, validations: list[bytes]
) -> None:
    client = make_client(Recorder(ok({"success": True, "functions": FUNCTIONS})))

    with counting_empty() as first_nulls:
        first = await client.list_functions(1111, shared=True)
    with counting_empty() as again_nulls:
        again = await client.list_functions(2222, shared=True)
    fresh = await client.list_functions(3333)

    assert len(validations) == 2  # the shared pair once, the unshared read once more
    assert [f.model_dump() for f in again] == [f.model_dump() for f in fresh]
    assert [(f.name, f.allowed) for f in first] == [("transferCall", True), ("sendText", False)]
    assert first_nulls.count == again_nulls.count == 1
    assert again is not first  # a list of its own: the caller may reorder it


async def test_a_different_reply_is_validated(
    make_client: MakeClient, validations: list[bytes]
) -> None:
    client = make_client(
        Recorder(
            ok({"success": True, "functions": FUNCTIONS}),
            ok({"success": True, "functions": FUNCTIONS[:1]}),
        )
    )

    await client.list_functions(1111, shared=True)
    second = await client.list_functions(2222, shared=True)

    assert len(validations) == 2
    assert [f.name for f in second] == ["transferCall"]


async def test_an_error_reply_is_never_kept(make_client: MakeClient) -> None:
    client = make_client(
        Recorder(
            ok(
                {"success": False, "message": "targetAccountId must select an agent account"},
                status=400,
            )
        )
    )

    for _ in range(2):
        with pytest.raises(ApiError, match="must select an agent account"):
            await client.list_functions(1111, shared=True)


async def test_the_kept_replies_are_bounded(
    make_client: MakeClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(transport, "SHARED_LISTS_KEPT", 3)

    def reply(request: Any) -> Any:
        name = request.url.params["targetAccountId"]
        return ok({"success": True, "functions": [{"name": f"f{name}", "allowed": True}]})

    client = make_client(Recorder(reply))
    for account in range(1111, 1121):
        got = await client.list_functions(account, shared=True)
        assert [f.name for f in got] == [f"f{account}"]

    assert len(client._shared_lists) <= 3
