"""The client's shortcuts (a request built in one go, list replies validated from their
bytes) give what the general path gives."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from vagent_tui.api.client import PlatformClient
from vagent_tui.api.errors import ApiError, MalformedResponse
from vagent_tui.api.outgoing import RequestBuilder
from vagent_tui.api.transport import ApiTransport

from .helpers import Recorder, ok


@pytest.mark.parametrize(
    "base", ["http://127.0.0.1:8000", "https://h.example/pre/", "http://[::1]:9/"]
)
@pytest.mark.parametrize("path", ["/api/v2/agent/voices", "/api/v2/a b/é", "/api/v2/x%2Fy"])
async def test_the_built_url_is_the_url_httpx_builds_from_params(base: str, path: str) -> None:
    transport = ApiTransport(base, "tok en/é+&=")
    builder = RequestBuilder(transport.base_url, "tok en/é+&=")
    httpx_client = httpx.AsyncClient(base_url=transport.base_url)
    try:
        queries: tuple[dict[str, Any], ...] = (
            {},
            {"q": "a b&c=d/é?#", "e": "", "f": 1.5, "on": True, "off": False},
            {"ids": [1, "two words", True], "gone": None, "n": -3},
        )
        for target in (None, 5):
            for query in queries:
                full = builder.build("GET", path, target=target, params=query).url
                sent = {"token": "tok en/é+&="}
                if target is not None:
                    sent["targetAccountId"] = str(target)
                sent.update({k: v for k, v in query.items() if v is not None})
                expected = httpx_client.build_request("GET", path, params=sent).url
                got = httpx.URL(full)
                assert str(got) == str(expected)
                assert got.raw_path == expected.raw_path
    finally:
        await transport.aclose()
        await httpx_client.aclose()


def test_a_query_of_the_path_s_own_is_kept_before_the_key() -> None:
    builder = RequestBuilder("http://h.test/pre", "t")
    assert builder.build("GET", "/api/v2/x?a=1", params={"b": 2}).url == (
        "http://h.test/pre/api/v2/x?a=1&token=t&b=2"
    )
    absolute = builder.build("GET", "http://h.test/s/t%2F1", target=4).url
    assert absolute == "http://h.test/s/t%2F1?token=t&targetAccountId=4"


def test_a_built_request_does_not_show_its_key() -> None:
    outgoing = RequestBuilder("http://h.test", "s3cret").build("GET", "/x", json={"a": 1})
    assert "s3cret" in outgoing.url
    assert "s3cret" not in repr(outgoing) and "s3cret" not in str(outgoing)


def test_the_key_parameter_is_not_a_filter() -> None:
    with pytest.raises(ValueError, match="'token'"):
        RequestBuilder("http://h.test", "t").build("GET", "/x", params={"token": "other"})


def test_a_body_is_built_once_as_httpx_would_send_it() -> None:
    builder = RequestBuilder("http://h.test", "t")
    outgoing = builder.build("POST", "/api/v2/agent", json={"name": "é", "n": [1]})
    request = httpx.Request("POST", "http://h.test/", json={"name": "é", "n": [1]})
    assert outgoing.content == request.read()
    assert outgoing.headers["Content-Type"] == request.headers["content-type"]
    form = builder.build("POST", "/u", data={"path": "a"}, files={"file": ("a", b"xy")})
    assert form.upload and form.content is not None and b"xy" in form.content
    assert form.headers["content-type"].startswith("multipart/form-data; boundary=")


async def test_a_retried_get_is_built_once_and_sent_alike(
    make_client: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    built: list[str] = []
    original = RequestBuilder.build

    def counted(self: RequestBuilder, *args: Any, **kwargs: Any) -> Any:
        outgoing = original(self, *args, **kwargs)
        built.append(outgoing.url)
        return outgoing

    monkeypatch.setattr(RequestBuilder, "build", counted)
    recorder = Recorder(httpx.Response(503), httpx.Response(502), ok({"tasks": []}))
    client = make_client(recorder)
    await client.list_tasks(target=3)
    assert len(built) == 1
    assert len({str(r.url) for r in recorder.requests}) == 1 and len(recorder.requests) == 3


async def test_a_request_is_made_once_and_goes_on_the_wire_as_built(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """From the caller's arguments to the wire, through the default pool (`api.pool`):
    one request built per call (not per attempt), its URL not parsed again by httpx (only
    a multipart form is encoded by httpx, once) nor quoted again by aiohttp: the server
    hears its path and query byte for byte as built (a ``/`` in the query stays ``%2F``)."""
    from aiohttp import web
    from aiohttp.test_utils import TestServer

    from vagent_tui.api.pool import AiohttpPool

    heard: list[tuple[str, str, bytes, str]] = []

    async def reply(request: web.Request) -> web.Response:
        body = await request.read()
        heard.append((request.method, request.raw_path, body, request.content_type))
        if request.method == "GET" and len(heard) == 2:
            return web.Response(status=503)  # the read is asked again
        return web.json_response({"success": True, "versions": []})

    app = web.Application()
    app.router.add_route("*", "/{tail:.*}", reply)
    async with TestServer(app, host="127.0.0.1") as server:
        client = PlatformClient(str(server.make_url("/")), "k e/y", backoff=0)
        built: list[str] = []
        parsed: list[str] = []
        build, parse = RequestBuilder.build, httpx.URL.__init__

        def counted_build(self: RequestBuilder, *args: Any, **kwargs: Any) -> Any:
            outgoing = build(self, *args, **kwargs)
            built.append(outgoing.url)
            return outgoing

        def counted_parse(self: httpx.URL, url: Any = "", **kwargs: Any) -> None:
            if isinstance(url, str) and url:
                parsed.append(url)
            parse(self, url, **kwargs)

        monkeypatch.setattr(RequestBuilder, "build", counted_build)
        monkeypatch.setattr(httpx.URL, "__init__", counted_parse)
        try:
            assert isinstance(client.sender.pool, AiohttpPool)
            await client.write_staging({"agentName": "é & co"}, target=7)
            await client.list_versions("a/b", include_data=True, target=7)
            await client.upload_file(5, "d/f.txt", b"xy", mode="0644")
        finally:
            monkeypatch.undo()
            await client.aclose()
    assert [method for method, *_ in heard] == ["POST", "GET", "GET", "POST"]
    assert len(built) == 3 and parsed == built[2:]
    sent = [httpx.URL(url).raw_path.decode() for url in built]
    assert [raw for _, raw, *_ in heard] == [sent[0], sent[1], sent[1], sent[2]]
    assert "%2F" in sent[1].partition("?")[2]  # the key's "/", quoted as built
    assert heard[0][2] == '{"agentName":"é & co"}'.encode()
    assert heard[0][3] == "application/json"
    assert heard[3][3] == "multipart/form-data" and b"xy" in heard[3][2]


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
