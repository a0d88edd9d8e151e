"""Calls at 1,000,000 log entries in a real terminal, and a CSV export of 100,000.

The simulator runs in a process of its own over loopback HTTP (``vagent-tui sim
--accounts 12 --calls 1000000``: 13 voice agent accounts below ``demo-partner`` with
1,000,000 entries each, computed on demand; the Calls screen's default query, the last
7 days of every account below the key, holds about 1,120,000 of them). It is wrapped in a
small ASGI layer of this script's own (`LAUNCHER`) that notes, for every request, when
it arrived and when the last byte of its reply was handed to the socket
(``time.monotonic``: on Linux one clock for every process), and serves that list at
``/_bench/log``: the bench reads it between steps, never while timing.

The console runs as a user runs it (``python -m vagent_tui --base-url ... --screen
calls``, ``VAGENT_TOKEN=demo-partner``, ``TERM=xterm-256color``) on a pseudo-terminal of
120x40. A step counts as drawn when the bytes the console wrote since the key hold what
the step must show (below), and then nothing more for 15 ms (a frame's bytes come
together): its time runs to the last byte before that pause. Then the bench waits for
100 ms of quiet (the page's transcripts arrive meanwhile) before the next key.

* ``calls-first-page``: a first page of a query of 1,000,000+ entries (the screen's
  opening, and ``t`` reaching "last week"), from the last byte of the ``GET /logs``
  reply leaving the simulator to the frame holding the page (its header's ``1–50 of
  1,1xx,xxx``); the median / 150 ms (target 1.0).
* ``calls-move``: ``n`` ten times then ``p`` ten times, twice, from the key to the frame
  holding the new page (``51–100 of ...``); the median / 40 ms (target 1.0). The time
  until its transcripts are in the detail pane too is printed (not a figure).
* ``calls-filter``: ``t`` (last hour, day, week, in turn; 9 changes), from the key to
  the frame holding the new query's first page; each paired with the yardstick: the
  same request (its query string, as the simulator received it) sent again right after
  by a bare ``httpx.Client`` on a kept-alive connection, the reply read whole. Figure:
  the median over the pairs of console / (bare + 50 ms) (target 1.0).
* ``calls-transcript``: Enter on a row of a page already shown (its transcripts fetched
  with it in one batch), from the key to the frame of the call's screen holding its
  transcript (``Rate (USD)`` and ``The log entry, as the platform sent it``); then esc,
  down, and again (10 rows). No request may reach the simulator from Enter to the end
  of the quiet after it: the script fails if one does. The median / 50 ms (target 1.0).

Then the CSV export (``GET /logs?format=csv``) of 100,000 entries (``demo-agent``, a
pinned time range of 700,000 s: one entry every 7 s), in fresh processes, in pairs
whose order alternates:

* the console's side: `vagent_tui.services.calls_export.export_csv` on a `real_client` (what
  the Calls screen's ``w`` runs, progress callback included, and its first count of
  the query); the screen adds a label and a progress bar updated per chunk, Textual
  drawing at most one frame per refresh, and is not run here;
* the yardstick: a bare ``httpx.AsyncClient.stream`` writing each 64 KiB chunk to a file
  (no code of the console).

Both warm their connection with one small request first, not timed. ``calls-export``:
the median of the pairs' ratios console / bare (target 1.2); ``calls-export-rss``: the
console process's resident set growth during the export, the worst of its runs (peak
``VmHWM``, reset through ``/proc/self/clear_refs`` just before, minus ``VmRSS`` then;
target 20 MB). The files must be the same size.

Usage: ``python bench/calls.py [--pairs N] [--moves M] [--no-export] [--no-terminal]
[--profile FILE]`` (``--profile``: the console in the terminal runs under cProfile and
writes its stats to FILE at its end)
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import re
import select
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import loopback_sim

SIZE = (120, 40)
FIRST_PAGE_BUDGET = 0.150
MOVE_BUDGET = 0.040
FILTER_SLACK = 0.050
TRANSCRIPT_BUDGET = 0.050
EXPORT_TARGET = 1.2
EXPORT_RSS_TARGET_MB = 20.0
FRAME_QUIET = 0.015
"""Seconds without a byte that end a frame."""
QUIET = 0.100
"""Seconds without a byte after which a step counts as settled."""
PAGE_SIZE = 50
EXPORT_SECONDS = 700_000
"""The export's time range: 100,000 entries of one account at one entry every 7 s."""
clock = time.monotonic

LAUNCHER = r"""
import json, sys, time, urllib.parse
import uvicorn


class Timing:
    # Notes each request's arrival and the moment its reply's last byte was sent.
    def __init__(self, app):
        self.app, self.log = app, []

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        if scope["path"] == "/_bench/log":
            asked = urllib.parse.parse_qs(scope["query_string"].decode())
            since = int(asked.get("since", ["0"])[0])
            body = json.dumps({"total": len(self.log), "entries": self.log[since:]}).encode()
            await send({"type": "http.response.start", "status": 200,
                        "headers": [(b"content-type", b"application/json")]})
            await send({"type": "http.response.body", "body": body})
            return
        pairs = urllib.parse.parse_qsl(scope["query_string"].decode(), keep_blank_values=True)
        note = {"method": scope["method"], "path": scope["path"],
                "query": urllib.parse.urlencode([p for p in pairs if p[0] != "token"]),
                "received": time.monotonic(), "sent": None}
        self.log.append(note)

        async def timed(message):
            await send(message)
            if message["type"] == "http.response.body" and not message.get("more_body"):
                note["sent"] = time.monotonic()

        await self.app(scope, receive, timed)


_run = uvicorn.run
uvicorn.run = lambda app, **kw: _run(Timing(app), **{**kw, "timeout_keep_alive": 600})
from vagent_tui.sim.__main__ import main
raise SystemExit(main(sys.argv[1:]))
"""

EN_DASH = "–".encode()


def first_label(total_pattern: bytes) -> re.Pattern[bytes]:
    head = b"1" + EN_DASH + str(PAGE_SIZE).encode() + b" of "
    return re.compile(rb"(?<![\d,])" + re.escape(head) + total_pattern + rb"(?![\d,])")


MILLION = rb"1,\d{3},\d{3}"
PRESETS = {  # t cycles hour, day, week; 13 accounts at one entry every 7 s each
    "hour": first_label(rb"\d,\d{3}"),
    "day": first_label(rb"\d{3},\d{3}"),
    "week": first_label(MILLION),
}


def page_label(page: int) -> re.Pattern[bytes]:
    first, last = (page - 1) * PAGE_SIZE + 1, page * PAGE_SIZE
    head = f"{first:,}".encode() + EN_DASH + f"{last:,} of ".encode()
    return re.compile(rb"(?<![\d,])" + re.escape(head) + MILLION + rb"(?![\d,])")


TRANSCRIPT = (b"Rate (USD)", b"The log entry, as the platform sent it")


class SimLog:
    """What the simulator noted: requests, arrivals and replies sent."""

    def __init__(self, base: str) -> None:
        self.http = httpx.Client(base_url=base, timeout=30)
        self.seen = 0

    def since(self, mark: int) -> list[dict[str, object]]:
        reply = self.http.get("/_bench/log", params={"since": mark}).json()
        entries: list[dict[str, object]] = reply["entries"]
        return entries

    def mark(self) -> int:
        return int(self.http.get("/_bench/log", params={"since": 1 << 30}).json()["total"])


class Pty:
    """The console on a pseudo-terminal: what it writes, and when."""

    def __init__(self, base: str, profile: str | None) -> None:
        import fcntl
        import pty
        import struct
        import termios

        args = ["--base-url", base, "--screen", "calls"]
        if profile:
            code = (
                "import cProfile; from vagent_tui import cli; "
                f"cProfile.run({f'cli.main({args!r})'!r}, {profile!r})"
            )
            argv = [sys.executable, "-c", code]
        else:
            # CALLS_WRAP: a command the console runs under (a sampling profiler).
            wrap = os.environ.get("CALLS_WRAP", "").split()
            argv = [*wrap, sys.executable, "-m", "vagent_tui", *args]
        env = {**os.environ, "VAGENT_TOKEN": "demo-partner", "TERM": "xterm-256color"}
        env.pop("VAGENT_BASE_URL", None)
        self.pid, self.fd = pty.fork()
        if self.pid == 0:
            os.execvpe(argv[0], argv, env)
        columns, rows = SIZE
        fcntl.ioctl(self.fd, termios.TIOCSWINSZ, struct.pack("HHHH", rows, columns, 0, 0))
        self.written = bytearray()

    def wait(
        self, needles: Sequence[bytes | re.Pattern[bytes]], quiet: float, timeout: float = 30.0
    ) -> tuple[float, float]:
        """Read until every needle was written (since this call), then until ``quiet``
        passes without a byte: (when the needles were all read, the last byte's time)."""
        deadline = clock() + timeout
        start = len(self.written)
        last = clock()
        seen_at: float | None = None
        while True:
            if seen_at is None:
                written = bytes(self.written[start:])
                if all(
                    (n.search(written) if isinstance(n, re.Pattern) else n in written)
                    for n in needles
                ):
                    seen_at = last
            wait = quiet - (clock() - last) if seen_at is not None else 0.05
            if seen_at is not None and wait <= 0:
                return seen_at, last
            assert clock() < deadline, f"{needles!r} never drawn"
            ready, _, _ = select.select([self.fd], [], [], max(wait, 0.001))
            if ready:
                chunk = os.read(self.fd, 1 << 16)
                assert chunk, "the console closed its terminal"
                self.written.extend(chunk)
                last = clock()

    def step(
        self, key: bytes, needles: Sequence[bytes | re.Pattern[bytes]]
    ) -> tuple[float, float, float]:
        """Send ``key``; (when sent, the end of the frame holding ``needles``, the end
        of the last frame before the step settled)."""
        sent = clock()
        os.write(self.fd, key)
        _, frame = self.wait(needles, FRAME_QUIET)
        _, settled = self.wait((), QUIET)
        return sent, frame, max(frame, settled)

    def close(self) -> None:
        import signal

        os.write(self.fd, b"\x11")  # ctrl+q: a clean exit (the profile is written)
        deadline = clock() + 30
        with contextlib.suppress(OSError):
            while clock() < deadline and os.waitpid(self.pid, os.WNOHANG) == (0, 0):
                if select.select([self.fd], [], [], 0.1)[0]:
                    os.read(self.fd, 1 << 16)
        with contextlib.suppress(ProcessLookupError, ChildProcessError):
            os.kill(self.pid, signal.SIGKILL)
            os.waitpid(self.pid, 0)
        os.close(self.fd)


def logs_gets(entries: list[dict[str, object]]) -> list[dict[str, object]]:
    return [e for e in entries if e["method"] == "GET" and e["path"] == "/api/v2/logs"]


def reply_sent_before(log: SimLog, mark: int, frame: float) -> float:
    """When the last ``GET /logs`` reply sent before ``frame`` (since ``mark``) left."""
    sent = [float(e["sent"]) for e in logs_gets(log.since(mark)) if e["sent"] is not None]  # type: ignore[arg-type]
    before = [s for s in sent if s <= frame]
    assert before, "no GET /logs reply was sent before the frame"
    return max(before)


def bare_get(http: httpx.Client, query: str) -> float:
    """The yardstick: the same ``GET /logs`` sent by a bare client, the reply read whole."""
    started = clock()
    response = http.get(f"/api/v2/logs?{query}&token=demo-partner")
    response.read()
    assert response.status_code == 200, response.status_code
    return clock() - started


def terminal(base: str, moves: int, profile: str | None) -> dict[str, list[float]]:
    log = SimLog(base)
    bare = httpx.Client(base_url=base, timeout=30)
    bare.get("/api/v2/account", params={"token": "demo-partner"})  # open its connection
    out: dict[str, list[float]] = {k: [] for k in ("first", "move", "settled", "filter",
                                                   "filter_bare", "transcript")}  # fmt: skip
    mark = log.mark()
    term = Pty(base, profile)
    try:
        _, frame = term.wait((PRESETS["week"],), FRAME_QUIET, timeout=90)
        out["first"].append(frame - reply_sent_before(log, mark, frame))
        term.wait((), QUIET)
        # Page moves.
        for _ in range(2):
            for key, pages in ((b"n", range(2, moves + 2)), (b"p", range(moves, 0, -1))):
                for page in pages:
                    sent, frame, settled = term.step(key, (page_label(page),))
                    out["move"].append(frame - sent)
                    out["settled"].append(settled - sent)
        # Transcripts of the page shown (page 1, its batch read long done).
        for row in range(10):
            mark = log.mark()
            sent, frame, _ = term.step(b"\r", TRANSCRIPT)
            asked = log.since(mark)
            assert not asked, f"Enter on row {row + 1} sent {len(asked)} requests: {asked}"
            out["transcript"].append(frame - sent)
            term.step(b"\x1b", (b"Filters: ",))
            term.step(b"\x1b[B", ())  # down: the next row
        # Filter changes: t (hour, day, week, ...).
        for n in range(9):
            name = ("hour", "day", "week")[n % 3]
            mark = log.mark()
            sent, frame, _ = term.step(b"t", (PRESETS[name],))
            gets = logs_gets(log.since(mark))
            assert len(gets) == 1, f"t ({name}): {len(gets)} GET /logs"
            out["filter"].append(frame - sent)
            if name == "week":
                out["first"].append(frame - float(gets[0]["sent"]))  # type: ignore[arg-type]
            out["filter_bare"].append(bare_get(bare, str(gets[0]["query"])))
    finally:
        term.close()
        bare.close()
        log.http.close()
    return out


# --------------------------------------------------------------------------- export


def rss_kb(field: str) -> int:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1])
    raise RuntimeError(f"no {field} in /proc/self/status")


async def export_console(base: str, start: int, end: int, path: str) -> dict[str, float]:
    from vagent_tui.services.calls import CallFilters
    from vagent_tui.services.calls_export import export_csv
    from vagent_tui.services.connect import real_client

    api = real_client(base, "demo-agent")
    filters = CallFilters(start=start, end=end)
    await api.list_logs(
        filters.query(), page=1, page_size=1
    )  # the connection open, the models built
    steps = 0

    def progress(_: object) -> None:
        nonlocal steps
        steps += 1

    before = rss_kb("VmRSS")
    Path("/proc/self/clear_refs").write_text("5")  # VmHWM from here
    started = clock()
    result = await export_csv(api, filters, path, on_progress=progress)
    seconds = clock() - started
    growth = rss_kb("VmHWM") - before
    await api.aclose()
    return {"seconds": seconds, "bytes": result.bytes, "rows": result.rows, "growth_kb": growth}


async def export_bare(base: str, start: int, end: int, path: str) -> dict[str, float]:
    params = {"token": "demo-agent", "start": str(start), "end": str(end)}
    async with httpx.AsyncClient(base_url=base, timeout=60) as http:
        (await http.get("/api/v2/logs", params={**params, "pageSize": "1"})).raise_for_status()
        started = clock()
        written = 0
        with open(path, "wb") as out:
            async with http.stream(
                "GET", "/api/v2/logs", params={**params, "format": "csv"}
            ) as response:
                response.raise_for_status()
                async for chunk in response.aiter_bytes(64 * 1024):
                    out.write(chunk)
                    written += len(chunk)
        return {"seconds": clock() - started, "bytes": written}


def run_export(side: str, base: str, start: int, end: int, path: str) -> dict[str, float]:
    out = subprocess.run(
        [sys.executable, __file__, "--export-child", side, base, str(start), str(end), path],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    result: dict[str, float] = json.loads(out.strip().splitlines()[-1])
    return result


def exports(base: str, pairs: int) -> tuple[list[float], list[float], list[float], float]:
    """(console seconds, bare seconds, console RSS growths in kB, rows) over the pairs."""
    end = int(time.time()) - 60
    start = end - EXPORT_SECONDS + 1
    ours: list[float] = []
    theirs: list[float] = []
    growth: list[float] = []
    rows = 0.0
    with tempfile.TemporaryDirectory(prefix="b27-export-") as tmp:
        for rep in range(pairs):
            sides = ("console", "bare") if rep % 2 else ("bare", "console")
            sizes = {}
            for side in sides:
                path = str(Path(tmp) / f"{side}.csv")
                result = run_export(side, base, start, end, path)
                sizes[side] = result["bytes"]
                if side == "console":
                    ours.append(result["seconds"])
                    growth.append(result["growth_kb"])
                    rows = result["rows"]
                else:
                    theirs.append(result["seconds"])
            assert sizes["console"] == sizes["bare"], sizes
    return ours, theirs, growth, rows


# --------------------------------------------------------------------------- report


def ms(values: Sequence[float]) -> str:
    s = sorted(v * 1000 for v in values)
    return f"median {statistics.median(s):.1f} ms, min {s[0]:.1f}, max {s[-1]:.1f} ({len(s)})"


def report_terminal(out: dict[str, list[float]]) -> None:
    print(f"first page of 1,000,000+ entries, reply sent to frame: {ms(out['first'])}")
    print(f"page move, key to frame: {ms(out['move'])}")
    print(f"page move, key to its transcripts drawn too: {ms(out['settled'])}")
    print(f"filter change (t), key to frame: {ms(out['filter'])}")
    print(f"  the same GET /logs by a bare httpx client: {ms(out['filter_bare'])}")
    print(f"transcript (Enter), key to frame, no request: {ms(out['transcript'])}")
    first = statistics.median(out["first"])
    print(f"calls-first-page: ratio {first / FIRST_PAGE_BUDGET:.2f} (target 1.0)")
    move = statistics.median(out["move"])
    print(f"calls-move: ratio {move / MOVE_BUDGET:.2f} (target 1.0)")
    pairs = zip(out["filter"], out["filter_bare"], strict=True)
    ratios = [c / (b + FILTER_SLACK) for c, b in pairs]
    print(f"calls-filter: ratio {statistics.median(ratios):.2f} (target 1.0)")
    opened = statistics.median(out["transcript"])
    print(f"calls-transcript: ratio {opened / TRANSCRIPT_BUDGET:.2f} (target 1.0)")


def report_export(ours: list[float], theirs: list[float], growth: list[float], rows: float) -> None:
    ratios = sorted(a / b for a, b in zip(ours, theirs, strict=True))
    print(
        f"CSV export of {rows:,.0f} entries, {len(ours)} pairs: console "
        f"{statistics.median(ours):.2f} s, bare httpx {statistics.median(theirs):.2f} s; "
        f"pair ratios {ratios[0]:.2f}..{ratios[-1]:.2f}; RSS growth "
        + ", ".join(f"{g / 1024:.1f}" for g in growth)
        + " MB"
    )
    print(f"calls-export: ratio {statistics.median(ratios):.2f} (target {EXPORT_TARGET})")
    print(f"calls-export-rss: {max(growth) / 1024:.1f} MB (target {EXPORT_RSS_TARGET_MB:g} MB)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pairs", type=int, default=3, help="export pairs (default 3)")
    parser.add_argument("--moves", type=int, default=10, help="n presses, then p (10)")
    parser.add_argument("--no-export", action="store_true", help="skip the export")
    parser.add_argument("--no-terminal", action="store_true", help="skip the terminal part")
    parser.add_argument("--profile", metavar="FILE", help="cProfile the console in the pty")
    parser.add_argument("--export-child", nargs=5, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.export_child:
        side, base, start, end, path = args.export_child
        run = export_console if side == "console" else export_bare
        print(json.dumps(asyncio.run(run(base, int(start), int(end), path))))
        return
    sim = ("--accounts", "12", "--calls", "1000000")
    with loopback_sim(*sim, launcher=LAUNCHER) as base:
        out = None if args.no_terminal else terminal(base, args.moves, args.profile)
        export = None if args.no_export else exports(base, args.pairs)
    if out is not None:
        report_terminal(out)
    if export is not None:
        report_export(*export)


if __name__ == "__main__":
    main()
