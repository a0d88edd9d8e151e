"""`vagent_tui.serve_web`: the origin check, the token taken out of the console's options,
and the parts of textual-serve it relies on (these fail when textual-serve changes)."""

from __future__ import annotations

import importlib.resources
import inspect
import re
from pathlib import Path

import pytest

pytest.importorskip("textual_serve", reason="the 'serve' extra (textual-serve) is not installed")

from vagent_tui import cli, serve_web
from vagent_tui.serve_web import host_is_loopback, launch, masked_args, origin_allowed, take_token

SECRET = "tok-abc-123"


# ---------------------------------------------------------------- who may connect


@pytest.mark.parametrize(
    ("origin", "host"),
    [
        ("http://127.0.0.1:8000", "127.0.0.1:8000"),
        ("http://localhost:9001", "localhost:9001"),  # through a tunnel's local port
        ("HTTP://LocalHost:9001", "localhost:9001"),
        ("http://[::1]:8000", "[::1]:8000"),
        ("https://localhost:8443", "localhost:8443"),  # behind a local TLS proxy
        ("http://127.0.0.2:8000", "127.0.0.2:8000"),
        ("http://app.localhost:8000", "app.localhost:8000"),
        ("http://localhost", "localhost"),  # port 80: neither names it
    ],
)
def test_the_pages_own_origin_is_allowed(origin: str, host: str) -> None:
    assert origin_allowed(origin, host)


@pytest.mark.parametrize(
    ("origin", "host"),
    [
        ("http://127.0.0.1:9999", "127.0.0.1:8000"),  # a page on another local port
        ("http://localhost:8000", "127.0.0.1:8000"),  # another name is another origin
        ("https://evil.example", "127.0.0.1:8000"),
        ("http://evil.example:8000", "evil.example:8000"),  # DNS rebinding
        ("http://10.0.0.5:8000", "10.0.0.5:8000"),  # not loopback
        ("null", "127.0.0.1:8000"),
        ("", "127.0.0.1:8000"),
        (None, "127.0.0.1:8000"),  # not a browser
        ("http://127.0.0.1:8000", None),
        ("http://127.0.0.1:8000", ""),
        ("ws://127.0.0.1:8000", "127.0.0.1:8000"),
        ("http://127.0.0.1:8000/", "127.0.0.1:8000"),
        ("http://127.0.0.1:8000.evil.example", "127.0.0.1:8000.evil.example"),
    ],
)
def test_any_other_origin_is_refused(origin: str | None, host: str | None) -> None:
    assert not origin_allowed(origin, host)


@pytest.mark.parametrize(
    ("host", "loopback"),
    [
        ("127.0.0.1:8000", True),
        ("127.0.0.1", True),
        ("localhost:1", True),
        ("[::1]:8000", True),
        ("::1", False),  # malformed: a Host header brackets an IPv6 address
        ("evil.localhost.example:8000", False),
        ("0.0.0.0:8000", False),
        ("192.168.1.4:8000", False),
        ("[::ffff:10.0.0.1]:8000", False),
        ("", False),
        (None, False),
    ],
)
def test_host_is_loopback(host: str | None, loopback: bool) -> None:
    assert host_is_loopback(host) is loopback


# ---------------------------------------------------------------- the run's secret


def test_every_run_has_its_own_long_secret() -> None:
    run = launch(["--demo"])
    first, second = serve_web.ConsoleServer(run, 8100), serve_web.ConsoleServer(run, 8100)
    assert first.secret != second.secret
    assert len(first.secret) >= 40 and re.fullmatch(r"[A-Za-z0-9_-]+", first.secret)
    assert first.address == f"http://127.0.0.1:8100/?token={first.secret}"


@pytest.mark.parametrize(
    ("given", "matches"),
    [("s3cret-value", True), ("s3cret-valuE", False), ("s3cret", False), ("", False),
     (None, False), ("s3cret-välue", False), ("s3cret-value ", False)],
)  # fmt: skip
def test_secret_matches_exactly(given: str | None, matches: bool) -> None:
    assert serve_web.secret_matches(given, "s3cret-value") is matches


def test_the_secret_is_compared_in_constant_time() -> None:
    assert "hmac.compare_digest" in inspect.getsource(serve_web.secret_matches)


@pytest.mark.parametrize(
    ("host", "name"),
    [("127.0.0.1:8123", "vagent-tui-8123"), ("localhost:9001", "vagent-tui-9001"),
     ("[::1]:8200", "vagent-tui-8200"), ("localhost", "vagent-tui-80"), ("[::1]", "vagent-tui-80"),
     ("localhost:x", "vagent-tui-80")],
)  # fmt: skip
def test_the_cookie_is_named_by_the_port_the_browser_sees(host: str, name: str) -> None:
    assert serve_web.cookie_name(host) == name


def test_the_log_masks_the_secret_and_any_token_in_a_query() -> None:
    import logging

    secret = "Zq9-secret_value"
    masking = serve_web.SecretFilter(secret)

    def line(msg: str, *args: object) -> str:
        record = logging.LogRecord("aiohttp.access", logging.INFO, "", 0, msg, args, None)
        assert masking.filter(record)
        return record.getMessage()

    assert line('"GET /?token=%s&fontsize=20 HTTP/1.1" 303', secret) == (
        '"GET /?token=****&fontsize=20 HTTP/1.1" 303'
    )
    assert line('"GET /ws?width=80&token=%s HTTP/1.1"', "wrong") == (
        '"GET /ws?width=80&token=**** HTTP/1.1"'
    )
    assert line("cookie %s seen", secret) == "cookie **** seen"
    assert line("refused a %s", "page") == "refused a page"


# ---------------------------------------------------------------- the token


@pytest.mark.parametrize(
    "args",
    [
        ["--demo", "--token", SECRET],
        ["--token=" + SECRET, "--demo"],
        ["--tok", SECRET, "--demo"],
        ["--to=" + SECRET, "--demo"],
        ["--token", "first", "--demo", "--token", SECRET],
    ],
)
def test_the_token_is_taken_out_as_the_consoles_parser_reads_it(args: list[str]) -> None:
    parser = cli.build_parser()
    assert parser.parse_args(args).token == SECRET
    rest, token = take_token(args)
    assert token == SECRET
    assert SECRET not in " ".join(rest)
    left = parser.parse_args(rest)
    assert left.token is None
    # nothing else changed meaning
    assert {**vars(left), "token": SECRET} == vars(parser.parse_args(args))


def test_every_prefix_the_module_takes_is_one_argparse_takes() -> None:
    """A new console option starting like --token or --demo-token makes this fail."""
    parser = cli.build_parser()
    for option, dest in (("--token", "token"), ("--demo-token", "demo_token")):
        shortest = serve_web._SHORTEST[option]
        for end in range(shortest, len(option) + 1):
            assert getattr(parser.parse_args([option[:end], "X"]), dest) == "X", option[:end]
        with pytest.raises(SystemExit):  # one character shorter is ambiguous or another option
            parser.parse_args([option[: shortest - 1], "X"])


def test_a_token_option_without_value_is_left_for_the_parser() -> None:
    assert take_token(["--demo", "--token"]) == (["--demo", "--token"], None)


def test_after_a_lone_double_dash_nothing_is_taken() -> None:
    assert take_token(["--", "--token", "x"]) == (["--", "--token", "x"], None)


def test_masked_args_hide_every_secret_value() -> None:
    shown = masked_args(["--demo-token", "demo-admin", "--profile", "lab", "--token=abc"])
    assert shown == ["--demo-token", "****", "--profile", "lab", "--token=****"]


def test_launch_keeps_the_token_out_of_the_command_and_the_shown_line() -> None:
    run = launch(["--profile", "lab", "--token", SECRET, "--screen", "voices"])
    assert run.token == SECRET
    assert SECRET not in run.command and "--token" not in run.command
    assert run.command.endswith("-m vagent_tui --profile lab --screen voices")
    assert run.shown == "--profile lab --screen voices --token ****"
    assert launch(["--demo"]).shown == "--demo" and launch(["--demo"]).token is None


def test_serve_hands_the_token_over_in_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    seen: dict[str, object] = {}

    def fake_serve(self: serve_web.ConsoleServer) -> None:
        import os

        seen.update(command=self.command, env=os.environ.get("VAGENT_TOKEN"), port=self.port)
        seen["host"] = self.host

    monkeypatch.setattr(serve_web.ConsoleServer, "serve", fake_serve)
    monkeypatch.delenv("VAGENT_TOKEN", raising=False)
    assert cli.main(["serve", "--port", "8123", "--", "--demo", "--tok", SECRET]) == 0
    assert seen["env"] == SECRET and SECRET not in str(seen["command"])
    assert seen["host"] == "127.0.0.1" and seen["port"] == 8123


def test_serve_checks_the_console_options_before_serving(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(serve_web.ConsoleServer, "serve", lambda self: None)
    with pytest.raises(SystemExit):
        cli.main(["serve", "--", "--screen", "nowhere", "--token", SECRET])
    assert SECRET not in capsys.readouterr().err


# ---------------------------------------------------------------- what textual-serve must keep


def test_textual_serve_still_has_what_the_module_overrides() -> None:
    from textual_serve.server import Server

    parameters = inspect.signature(Server.__init__).parameters
    assert {"command", "host", "port", "title", "templates_path"} <= set(parameters)
    for name in ("on_startup", "handle_index", "handle_websocket", "handle_download"):
        assert inspect.iscoroutinefunction(getattr(Server, name)), name
    # handle_index renders a template of this name from templates_path, with font_size
    source = inspect.getsource(Server)
    assert '@aiohttp_jinja2.template("app_index.html")' in source
    assert '"font_size"' in source
    assert 'web.get("/ws", self.handle_websocket' in source
    assert 'web.static("/static"' in source


def test_textual_serve_still_ships_what_the_page_loads() -> None:
    static = Path(inspect.getfile(__import__("textual_serve.server").server)).parent / "static"
    page = (serve_web.PAGE_DIR / "app_index.html").read_text()
    assets = re.findall(r"""(?:src|href)="static/([^"]+)\"""", page)
    assets += re.findall(r"""url\("static/([^"]+)"\)""", page)
    assert len(assets) >= 4, assets
    for asset in assets:
        assert (static / asset).is_file(), asset
    script = (static / "js" / "textual.js").read_text()
    # the page sets the websocket URL before textual.js reads it on load, and drops ?ping=
    assert "dataset.sessionWebsocketUrl" in script and "window.onload" in script
    assert 'get("ping")' in script
    # the font textual.js asks for is the one the page declares
    assert "fontFamily:\"'Roboto Mono'" in script and 'font-family: "Roboto Mono"' in page


def test_the_page_is_installed_with_the_package() -> None:
    page = importlib.resources.files("vagent_tui").joinpath("serve_page/app_index.html")
    assert page.is_file()
    html = page.read_text()
    assert "<title>vagent-tui</title>" in html
    assert "//" not in re.sub(r"(?s)<!--.*?-->|<script>.*?</script>", "", html)
