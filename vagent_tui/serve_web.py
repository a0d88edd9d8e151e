"""``vagent-tui serve``: the console in a web browser through textual-serve, hardened.

textual-serve runs one console process per browser tab and relays its terminal over a
websocket. Out of the box it trusts whoever connects; this module narrows that:

* **A secret per run.** Each ``serve`` makes a random secret (`ConsoleServer.secret`)
  and prints, once, the address to open with it (``/?token=SECRET``); without it no
  page, websocket or download is served. The page exchanges it for an HttpOnly,
  SameSite=Strict cookie and sends the browser on to the address without it (so it
  stays out of the history and of any Referer); the websocket and downloads want that
  cookie (or ``?token=``). It is compared in constant time and masked in every log line
  (`SecretFilter`): another local user who can reach the port, and forge any header,
  still cannot open the console. An SSH tunnel keeps working: the same address with the
  tunnel's local port.
* **Only the page's own websocket.** A websocket is accepted only when its ``Origin``
  header is the very host and port its ``Host`` header names (a page on another local
  port, or any other site, is refused with 403), and that host is a loopback name
  (``127.0.0.1``, ``localhost``, ``::1``), which defeats DNS rebinding. A client that
  sends no ``Origin`` at all is not a browser showing this page: it is refused too. The
  page and downloads are served to loopback ``Host`` names only, for the same reason.
* **Relative URLs.** vagent-tui's own page (``serve_page/app_index.html``, given to
  textual-serve through its ``templates_path`` option) names its assets relative to
  itself and builds the websocket URL from its own location, so it works on whatever
  port an SSH tunnel gives it locally.
* **Nothing leaves the machine.** The page loads textual-serve's shipped font instead of
  a web font, has no favicon request, drops textual.js's ``?ping=`` fetch, and its
  Content-Security-Policy lets it reach its own origin only.
* **The token is never shown.** ``--token T`` among the console options is taken out of
  the console's command line (where ``ps`` shows it) and handed to it in
  ``VAGENT_TOKEN`` instead, which the console treats the same way; the start-up line
  prints console options with any token masked, and the page carries no option at all.

Copy in the browser: the console's copy sends OSC 52 and textual.js's xterm clipboard
addon puts it on the browser's clipboard (see `vagent_tui.ui.clipboard`).

Only public parts of textual-serve are used: the ``Server`` class, its ``templates_path``
option and its public handler methods (overridden here), the ``app_index.html``
template name with its ``font_size`` value, and the files of its ``static`` folder.
``tests/unit/cli/test_serve_web.py`` fails when any of them changes.
"""

from __future__ import annotations

import hmac
import ipaddress
import logging
import os
import re
import secrets
import shlex
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlencode

from aiohttp import web
from textual_serve.server import Server

from vagent_tui.inert import inert

log = logging.getLogger("vagent-tui.serve")

PAGE_DIR = Path(__file__).parent / "serve_page"
"""vagent-tui's ``app_index.html``, in place of textual-serve's."""

TOKEN_OPTION = "--token"
SECRET_OPTIONS = (TOKEN_OPTION, "--demo-token")
_SHORTEST = {TOKEN_OPTION: len("--to"), "--demo-token": len("--demo-")}
MASK = "****"

SECRET_PARAM = "token"
"""The query parameter that carries the run's secret (as Jupyter's printed URL does)."""
COOKIE_PREFIX = "vagent-tui-"
"""The cookie holding the secret is this and the port the browser sees (a tunnel's)."""
REFUSED_TEXT = (
    "vagent-tui serve: open the address it printed when it started (the one with "
    "?token=...); through an SSH tunnel, the same address with the tunnel's port."
)

CONTENT_SECURITY_POLICY = "; ".join(
    (
        "default-src 'none'",
        "script-src 'self' 'unsafe-inline'",
        "style-src 'self' 'unsafe-inline'",
        "font-src 'self'",
        "img-src 'self' data:",
        "connect-src 'self'",
        "base-uri 'none'",
        "form-action 'none'",
        "frame-ancestors 'none'",
    )
)
"""The page may reach its own origin only (its websocket included) and not be framed."""


# ---------------------------------------------------------------- the console's options


def _option_of(arg: str) -> str | None:
    """The secret option (`SECRET_OPTIONS`) that ``arg`` (``--name`` or ``--name=value``) names.

    argparse also takes a unique prefix of a long option (``--tok`` for ``--token``);
    `_SHORTEST` is the shortest prefix unique among the console's options today, and
    the console's parser checks the options once more after the token is taken out
    (``cli.run_serve``); a test fails when a new option makes a prefix ambiguous.
    """
    name = arg.partition("=")[0]
    for option in SECRET_OPTIONS:
        if len(name) >= _SHORTEST[option] and option.startswith(name):
            return option
    return None


def take_token(args: Sequence[str]) -> tuple[list[str], str | None]:
    """``args`` without ``--token T`` / ``--token=T`` (or a prefix of it), and that token.

    The last one given wins, as with argparse. A ``--token`` with no value is left in
    place for the console's parser to refuse. Everything after a lone ``--`` is kept.
    """
    rest: list[str] = []
    token: str | None = None
    i = 0
    while i < len(args):
        arg = args[i]
        if arg == "--":
            rest.extend(args[i:])
            break
        if _option_of(arg) == TOKEN_OPTION:
            if "=" in arg:
                token = arg.partition("=")[2]
                i += 1
                continue
            if i + 1 < len(args):
                token = args[i + 1]
                i += 2
                continue
        rest.append(arg)
        i += 1
    return rest, token


def masked_args(args: Sequence[str]) -> list[str]:
    """``args`` with the value of every secret option (``--token``, ``--demo-token``) masked."""
    shown: list[str] = []
    hide_next = False
    for arg in args:
        if hide_next:
            shown.append(MASK)
            hide_next = False
            continue
        option = _option_of(arg)
        if option in SECRET_OPTIONS:
            if "=" in arg:
                shown.append(f"{arg.partition('=')[0]}={MASK}")
                continue
            hide_next = True
        shown.append(arg)
    return shown


@dataclass(frozen=True)
class Launch:
    """How each browser tab's console is started."""

    args: list[str]
    """The console's options, without the token."""
    token: str | None
    """The ``--token`` given, passed in ``VAGENT_TOKEN``."""
    shown: str
    """The options as the start-up line prints them (secrets masked)."""

    @property
    def command(self) -> str:
        """The shell command textual-serve runs per tab (never with the token)."""
        return shlex.join([sys.executable, "-m", "vagent_tui", *self.args])


def launch(console_args: Sequence[str]) -> Launch:
    """The `Launch` for the console options ``console_args``."""
    args, token = take_token(console_args)
    shown = masked_args(args)
    if token is not None:
        shown += [TOKEN_OPTION, MASK]
    text = " ".join(a if a.endswith(MASK) else shlex.quote(a) for a in shown)
    return Launch(args=args, token=token, shown=text)


# ---------------------------------------------------------------- who may connect


def _hostname(host: str) -> str:
    """``host`` (a Host header: ``name[:port]`` or ``[v6]:port``) without its port."""
    host = host.strip().lower()
    if host.startswith("["):
        return host[1:].partition("]")[0]
    name, _, port = host.rpartition(":")
    if name and port.isdecimal():
        return name
    return host


def host_is_loopback(host: str | None) -> bool:
    """Whether a ``Host`` header names this machine's loopback (any port: a tunnel's)."""
    if not host:
        return False
    name = _hostname(host)
    if name == "localhost" or name.endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(name).is_loopback
    except ValueError:
        return False


def origin_allowed(origin: str | None, host: str | None) -> bool:
    """Whether a websocket with this ``Origin`` comes from the page served on ``host``.

    The origin must be ``http://`` or ``https://`` and exactly the ``Host`` the request
    came to (so a page served on another port is refused), and that host a loopback one.
    No ``Origin`` (not a browser) or ``null`` (a sandboxed or file page) is refused.
    """
    if not origin or not host or not host_is_loopback(host):
        return False
    origin = origin.strip().lower()
    host = host.strip().lower()
    return origin in (f"http://{host}", f"https://{host}")


# ---------------------------------------------------------------- the server


class SecretFilter(logging.Filter):
    """Masks the run's secret, and any ``token=`` query value, in every log line."""

    _QUERY = re.compile(rf"({SECRET_PARAM}=)[^&\s\"']*")

    def __init__(self, secret: str) -> None:
        super().__init__()
        self.secret = secret

    def filter(self, record: logging.LogRecord) -> bool:
        text = record.getMessage()
        masked = self._QUERY.sub(rf"\g<1>{MASK}", text.replace(self.secret, MASK))
        if masked != text:
            record.msg, record.args = masked, None
        return True


def secret_matches(given: str | None, secret: str) -> bool:
    """Whether ``given`` is ``secret``, compared in constant time."""
    if given is None:
        return False
    return hmac.compare_digest(given.encode("utf-8", "replace"), secret.encode("utf-8"))


def _port(host: str) -> str:
    """The port of a Host header (``name:port`` or ``[v6]:port``), "" if it names none."""
    host = host.strip()
    if host.startswith("["):
        after = host.partition("]")[2]
        port = after[1:] if after.startswith(":") else ""
    else:
        port = host.rpartition(":")[2] if ":" in host else ""
    return port if port.isdecimal() else ""


def cookie_name(host: str) -> str:
    """The cookie of a page served on ``host`` (a Host header).

    Browsers keep cookies per host name, not per port: the port in the name keeps two
    ``serve`` runs (or two tunnels) from replacing each other's cookie.
    """
    return COOKIE_PREFIX + (_port(host) or "80")


class ConsoleServer(Server):
    """textual-serve's server with vagent-tui's page, its secret and the checks above."""

    def __init__(self, run: Launch, port: int) -> None:
        super().__init__(
            run.command,
            host="127.0.0.1",
            port=port,
            title="vagent-tui",
            templates_path=PAGE_DIR,
        )
        self.shown_args = run.shown
        self.secret = secrets.token_urlsafe(32)
        """This run's secret: in the printed address, the page's cookie; never logged."""

    def initialize_logging(self) -> None:
        # Plain lines (textual-serve's rich handler wraps them at 80 columns): the
        # requests and the refusals, one a line, on stderr; the secret masked in each
        # (aiohttp's access log prints every request line, query included).
        handler = logging.StreamHandler(sys.stderr)
        handler.addFilter(SecretFilter(self.secret))
        logging.basicConfig(
            level=logging.INFO,
            format="%(asctime)s %(levelname)s %(message)s",
            datefmt="%H:%M:%S",
            handlers=[handler],
        )

    @property
    def address(self) -> str:
        """The address to open: the page with this run's secret (printed once)."""
        return f"http://127.0.0.1:{self.port}/?{SECRET_PARAM}={self.secret}"

    async def on_startup(self, app: web.Application) -> None:
        # In place of textual-serve's, which prints the whole command. The address is
        # printed, never logged: the only place the secret is shown.
        what = " ".join(("vagent-tui", self.shown_args)).strip()
        print(
            f"Serving {what} on 127.0.0.1:{self.port} (loopback only; ctrl+c stops).\n"
            f"Open {self.address}\n"
            "(through an SSH tunnel, the same address with the tunnel's local port)",
            flush=True,
        )

    def has_secret(self, request: web.Request) -> bool:
        """Whether ``request`` carries this run's secret: the page's cookie, or ``?token=``."""
        cookie = request.cookies.get(cookie_name(request.host))
        given = request.query.get(SECRET_PARAM)
        return secret_matches(cookie, self.secret) or secret_matches(given, self.secret)

    async def handle_index(self, request: web.Request) -> web.StreamResponse:
        if not host_is_loopback(request.host):
            _refused(request, "page")
            raise web.HTTPForbidden(text="vagent-tui serves loopback names only")
        if SECRET_PARAM in request.query:
            return self._exchange(request)
        if not self.has_secret(request):
            _refused(request, "page without this run's secret")
            raise web.HTTPForbidden(text=REFUSED_TEXT, headers={"Cache-Control": "no-store"})
        response: web.StreamResponse = await super().handle_index(request)
        response.headers["Content-Security-Policy"] = CONTENT_SECURITY_POLICY
        response.headers["Referrer-Policy"] = "no-referrer"
        response.headers["X-Content-Type-Options"] = "nosniff"
        response.headers["Cache-Control"] = "no-store"
        return response

    def _exchange(self, request: web.Request) -> web.StreamResponse:
        """``/?token=SECRET``: the secret becomes a cookie, the browser goes on without it."""
        if not secret_matches(request.query.get(SECRET_PARAM), self.secret):
            _refused(request, "page with a wrong secret")
            raise web.HTTPForbidden(text=REFUSED_TEXT, headers={"Cache-Control": "no-store"})
        rest = [(k, v) for k, v in request.query.items() if k != SECRET_PARAM]
        # Relative: the browser stays on whatever host and port it came through.
        location = "./" + (f"?{urlencode(rest)}" if rest else "")
        response = web.Response(
            status=303,
            headers={
                "Location": location,
                "Cache-Control": "no-store",
                "Referrer-Policy": "no-referrer",
            },
        )
        response.set_cookie(
            cookie_name(request.host),
            self.secret,
            path="/",
            httponly=True,
            samesite="Strict",
        )
        return response

    async def handle_websocket(self, request: web.Request) -> web.WebSocketResponse:
        if not origin_allowed(request.headers.get("Origin"), request.host):
            _refused(request, "websocket")
            raise web.HTTPForbidden(text="websocket refused: not from this console's page")
        if not self.has_secret(request):
            _refused(request, "websocket without this run's secret")
            raise web.HTTPForbidden(text="websocket refused: no secret of this run")
        return await super().handle_websocket(request)

    async def handle_download(self, request: web.Request) -> web.StreamResponse:
        if not host_is_loopback(request.host):
            _refused(request, "download")
            raise web.HTTPForbidden(text="vagent-tui serves loopback names only")
        if not self.has_secret(request):
            _refused(request, "download without this run's secret")
            raise web.HTTPForbidden(text=REFUSED_TEXT)
        response: web.StreamResponse = await super().handle_download(request)
        return response


def _refused(request: web.Request, what: str) -> None:
    origin = request.headers.get("Origin")
    log.warning(
        "refused a %s: Host %s, Origin %s",
        what,
        inert(request.host, limit=200),
        "(none)" if origin is None else inert(origin, limit=200),
    )


def serve(run: Launch, port: int) -> None:
    """Serve until ctrl+c; the token, if any, reaches each console in ``VAGENT_TOKEN``."""
    if run.token is not None:
        # textual-serve starts each console with a copy of this environment.
        os.environ["VAGENT_TOKEN"] = run.token
    ConsoleServer(run, port).serve()
