"""The client's shortcuts (URL built in one go, list replies validated from their bytes)
give what the general path gives."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from vagent_tui.api.errors import ApiError, MalformedResponse
from vagent_tui.api.transport import ApiTransport

from .helpers import Recorder, ok


@pytest.mark.parametrize(
    "base", ["http://127.0.0.1:8000", "https://h.example/pre/", "http://[::1]:9/"]
)
@pytest.mark.parametrize("path", ["/api/v2/agent/voices", "/api/v2/a b/é", "/api/v2/x%2Fy"])
async def test_full_url_is_the_url_httpx_builds_from_params(base: str, path: str) -> None:
    transport = ApiTransport(base, "tok en/é+&=")
    try:
        queries: tuple[dict[str, str | int], ...] = (
            {"token": transport._token},
            {"token": transport._token, "targetAccountId": 5, "q": "a b&c=d/é?#", "e": ""},
        )
        for query in queries:
            full = transport._full_url(path, query)
            assert full is not None
            expected = transport._http.build_request("GET", path, params=query).url
            got = transport._http.build_request("GET", full).url
            assert str(got) == str(expected)
            assert got.raw_path == expected.raw_path
    finally:
        await transport.aclose()


def test_full_url_leaves_the_unusual_cases_to_httpx() -> None:
    transport = ApiTransport("http://h.test", "t")
    assert transport._full_url("/api/v2/x?a=1", {"token": "t"}) is None
    assert transport._full_url("/api/v2/x", {"token": "t", "f": 1.5}) is None
    assert transport._full_url("/api/v2/x", {"token": "t", "ids": [1, 2]}) is None


async def test_list_reply_keeps_extras_and_tells_observers(make_client: Any) -> None:
    voices = [
        {"id": "v1", "name": "One", "mood": "calm", "accountAvailability": {"available": False}}
    ]
    recorder = Recorder(ok({"success": True, "message": "Voices", "voices": voices}))
    client = make_client(recorder)
    heard: list[Any] = []
    client.observers.append(heard.append)
    (voice,) = await client.list_voices(target=7)
    assert voice.id == "v1" and voice.model_extra == {"mood": "calm"} and not voice.available
    (exchange,) = heard
    assert (exchange.method, exchange.path, exchange.target) == ("GET", "/api/v2/agent/voices", 7)
    assert (exchange.status, exchange.message) == (200, "Voices")
    assert recorder.last.url.params["targetAccountId"] == "7"


async def test_list_reply_with_success_false_is_an_api_error(make_client: Any) -> None:
    client = make_client(Recorder(ok({"success": False, "message": "No voices here"})))
    heard: list[Any] = []
    client.observers.append(heard.append)
    with pytest.raises(ApiError, match="No voices here"):
        await client.list_voices()
    assert [e.message for e in heard] == ["No voices here"]


async def test_list_reply_that_does_not_fit_is_malformed(make_client: Any) -> None:
    client = make_client(Recorder(ok({"success": True, "voices": [{"name": 3}]})))
    with pytest.raises(MalformedResponse, match="name"):
        await client.list_voices()
    client = make_client(Recorder(httpx.Response(200, content=b"[1, 2]")))
    with pytest.raises(MalformedResponse, match="not an object"):
        await client.list_voices()
