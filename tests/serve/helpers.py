"""A real ``vagent-tui serve`` in a subprocess, and a port forwarder standing in for a tunnel."""

from __future__ import annotations

import asyncio
import contextlib
import http.server
import os
import re
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import httpx

SECRET = "tok-SERVE-SECRET-9f2c71"
"""A token given on the command line of the served console: it must show nowhere."""

WAIT = 60.0
"""Seconds to wait for a server or a screen before a test gives up (not a speed target)."""


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


@dataclass
class Served:
    """A running ``vagent-tui serve``: what it printed (stdout) and logged (stderr) so far."""

    port: int
    process: subprocess.Popen[bytes]
    log: Path
    errors: Path
    children: set[int] = field(default_factory=set)

    @property
    def url(self) -> str:
        """The page's address without the secret (refused on its own)."""
        return f"http://127.0.0.1:{self.port}/"

    @property
    def address(self) -> str:
        """The address it printed for the user to open (the secret in it)."""
        found = re.search(r"^Open (http://\S+)$", self.printed(), re.MULTILINE)
        assert found, f"no address printed: {self.output()}"
        return found.group(1)

    @property
    def secret(self) -> str:
        return self.address.partition("?token=")[2]

    def printed(self) -> str:
        return self.log.read_text(errors="replace")

    def logged(self) -> str:
        return self.errors.read_text(errors="replace")

    def output(self) -> str:
        return self.printed() + self.logged()

    def console_command_lines(self) -> list[str]:
        """The command lines of the consoles it started (one per open page)."""
        lines = []
        for pid in _descendants(self.process.pid):
            with contextlib.suppress(OSError):
                raw = Path(f"/proc/{pid}/cmdline").read_bytes()
                lines.append(raw.replace(b"\0", b" ").decode(errors="replace"))
        return lines


def _descendants(pid: int) -> list[int]:
    found: list[int] = []
    todo = [pid]
    while todo:
        parent = todo.pop()
        with contextlib.suppress(OSError):
            tasks = Path(f"/proc/{parent}/task")
            for task in tasks.iterdir():
                children = (task / "children").read_text().split()
                found += [int(c) for c in children]
                todo += [int(c) for c in children]
    return found


@contextlib.contextmanager
def served(tmp_path: Path, *console_args: str) -> Iterator[Served]:
    """``vagent-tui serve --port P -- console_args`` until the block ends."""
    port = free_port()
    log = tmp_path / f"serve-{port}.out"
    errors = tmp_path / f"serve-{port}.err"
    env = dict(os.environ)
    env.pop("VAGENT_TOKEN", None)
    env["VAGENT_CONFIG"] = str(tmp_path / "config.toml")
    env["XDG_STATE_HOME"] = str(tmp_path / "state")
    env.pop("TERM", None)  # the server's terminal says nothing of the browser's clipboard
    command = [sys.executable, "-m", "vagent_tui", "serve", "--port", str(port)]
    with log.open("wb") as out, errors.open("wb") as err:
        process = subprocess.Popen(
            [*command, "--", *console_args],
            stdout=out,
            stderr=err,
            stdin=subprocess.DEVNULL,
            env=env,
            start_new_session=True,
        )
    server = Served(port, process, log, errors)
    try:
        _wait_until_up(server)
        yield server
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGTERM)
        try:
            process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()


def _wait_until_up(server: Served) -> None:
    deadline = time.monotonic() + WAIT
    while time.monotonic() < deadline:
        if server.process.poll() is not None:
            raise AssertionError(f"vagent-tui serve ended: {server.output()}")
        try:
            if "\nOpen http" in server.printed() and httpx.get(server.url, timeout=2).status_code:
                return
        except httpx.HTTPError:
            pass
        time.sleep(0.1)
    raise AssertionError(f"vagent-tui serve did not answer: {server.output()}")


class OtherSite:
    """A page served on another local port: the foreign origin a console must refuse."""

    PAGE = b"<!DOCTYPE html><title>another site</title><p>another site</p>"

    def __init__(self) -> None:
        page = self.PAGE

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_GET(self) -> None:
                self.send_response(200)
                self.send_header("Content-Type", "text/html")
                self.send_header("Content-Length", str(len(page)))
                self.end_headers()
                self.wfile.write(page)

            def log_message(self, format: str, *args: object) -> None:
                pass

        self._server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.port = self._server.server_address[1]
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)

    def __enter__(self) -> OtherSite:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._server.shutdown()
        self._server.server_close()
        self._thread.join(10)


class Forwarder:
    """A local TCP port forwarding to another, like ``ssh -L B:127.0.0.1:A``."""

    def __init__(self, target_port: int) -> None:
        self.target_port = target_port
        self.port = free_port()
        self._loop = asyncio.new_event_loop()
        self._ready = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._server: asyncio.Server | None = None

    def __enter__(self) -> Forwarder:
        self._thread.start()
        self._ready.wait(10)
        return self

    def __exit__(self, *exc: object) -> None:
        asyncio.run_coroutine_threadsafe(self._shut(), self._loop).result(10)
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(10)

    async def _shut(self) -> None:
        if self._server is not None:
            self._server.close()
        relays = [t for t in asyncio.all_tasks() if t is not asyncio.current_task()]
        for task in relays:
            task.cancel()
        await asyncio.gather(*relays, return_exceptions=True)

    def _run(self) -> None:
        asyncio.set_event_loop(self._loop)
        self._server = self._loop.run_until_complete(
            asyncio.start_server(self._relay, "127.0.0.1", self.port)
        )
        self._ready.set()
        self._loop.run_forever()
        self._loop.close()

    async def _relay(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            up_reader, up_writer = await asyncio.open_connection("127.0.0.1", self.target_port)
        except OSError:
            writer.close()
            return

        async def pipe(source: asyncio.StreamReader, sink: asyncio.StreamWriter) -> None:
            try:
                while data := await source.read(65536):
                    sink.write(data)
                    await sink.drain()
            except (OSError, asyncio.CancelledError):
                pass
            finally:
                with contextlib.suppress(OSError):
                    sink.close()

        await asyncio.gather(pipe(reader, up_writer), pipe(up_reader, writer))
