"""``vagent-tui get accounts -o json``: from process start to its first request, against httpx.

A tiny HTTP server of this script's own (loopback, keep-alive) notes when each run's
first request arrives, and answers every request with the reply the loopback simulator
(``vagent-tui sim``) gave to the same request (asked once, in the warm-up, then served
from memory: no simulator time in the measure). Each run spawns a fresh interpreter:

* the command, ``python -m vagent_tui get accounts -o json`` with ``VAGENT_BASE_URL`` and
  ``VAGENT_TOKEN`` set (no profile: an empty config folder), output to a pipe;
* the yardstick, a bare script that imports httpx and asks the same first request
  (``GET /api/v2/account`` with the same token), as ``python -c`` would.

The measure is the time from spawn to the first request received; runs alternate
yardstick / command, the ratio is median(command) / median(yardstick). For information,
the whole process of each (spawn to exit, the command's whole tree written and checked)
is shown too.

Both sides run with their bytecode cached, as an installed app has it (a cache of this
run's own, ``PYTHONPYCACHEPREFIX``, filled by the warm-up runs).

Usage: ``python bench/cli_first_request.py [--runs N]``
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import httpx
from _common import ROOT, loopback_sim

TARGET = 1.3
TOKEN = "demo-partner"
YARDSTICK = """
import os
import httpx
httpx.get(os.environ["VAGENT_BASE_URL"] + "/api/v2/account",
          params={"token": os.environ["VAGENT_TOKEN"]})
"""


class Replies:
    """The simulator's replies by request (path and query), and when the first came."""

    def __init__(self, upstream: str) -> None:
        self.upstream = httpx.Client(base_url=upstream, timeout=30)
        self.known: dict[str, tuple[int, bytes]] = {}
        self.lock = threading.Lock()
        self.first: float | None = None
        self.count = 0

    def reset(self) -> None:
        with self.lock:
            self.first, self.count = None, 0

    def answer(self, target: str) -> tuple[int, bytes]:
        with self.lock:
            if self.first is None:
                self.first = time.perf_counter()
            self.count += 1
            known = self.known.get(target)
        if known is None:
            reply = self.upstream.get(target)
            known = (reply.status_code, reply.content)
            with self.lock:
                self.known[target] = known
        return known


def serve(replies: Replies) -> ThreadingHTTPServer:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"  # keep-alive, as the simulator (uvicorn)

        def do_GET(self) -> None:
            status, body = replies.answer(self.path)
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *_: object) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


def timed_run(argv: list[str], env: dict[str, str], replies: Replies) -> tuple[float, float, bytes]:
    """Seconds from spawn until the first request arrived and until exit; stdout."""
    replies.reset()
    started = time.perf_counter()
    proc = subprocess.run(argv, env=env, cwd=ROOT, capture_output=True, check=False, timeout=60)
    elapsed = time.perf_counter() - started
    if proc.returncode != 0:
        raise SystemExit(f"{argv} exited with {proc.returncode}: {proc.stderr.decode()[-800:]}")
    if replies.first is None:
        raise SystemExit(f"{argv} sent no request")
    return replies.first - started, elapsed, proc.stdout


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=15, help="pairs of runs (default 15)")
    args = parser.parse_args()
    scratch = tempfile.mkdtemp(prefix="vagent-bench-cli-")
    with loopback_sim() as upstream:
        replies = Replies(upstream)
        server = serve(replies)
        base = f"http://127.0.0.1:{server.server_address[1]}"
        env = {**os.environ, "VAGENT_BASE_URL": base, "VAGENT_TOKEN": TOKEN}
        env["XDG_CONFIG_HOME"] = env["XDG_STATE_HOME"] = env["HOME"] = scratch
        env.pop("VAGENT_CONFIG", None)
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        env["PYTHONPYCACHEPREFIX"] = os.path.join(scratch, "pycache")
        command = [sys.executable, "-m", "vagent_tui", "get", "accounts", "-o", "json"]
        yardstick = [sys.executable, "-c", YARDSTICK]
        try:
            # Warm the file cache, fill the bytecode cache and the replies.
            for _ in range(2):
                timed_run(yardstick, env, replies)
                _, _, out = timed_run(command, env, replies)
            accounts = len(json.loads(out)["items"])
            runs: dict[str, list[tuple[float, float]]] = {"yardstick": [], "command": []}
            requests = 0
            for _ in range(args.runs):
                first, whole, _ = timed_run(yardstick, env, replies)
                runs["yardstick"].append((first, whole))
                first, whole, out = timed_run(command, env, replies)
                requests = replies.count
                if len(json.loads(out)["items"]) != accounts:
                    raise SystemExit("the command wrote another tree")
                runs["command"].append((first, whole))
        finally:
            server.shutdown()
            shutil.rmtree(scratch, ignore_errors=True)
    medians = {
        side: [statistics.median(run[i] for run in side_runs) for i in range(2)]
        for side, side_runs in runs.items()
    }
    for side in ("yardstick", "command"):
        shown = ", ".join(f"{run[0] * 1000:.0f}" for run in runs[side])
        first = medians[side][0] * 1000
        print(f"{side + ':':<10} first request, median {first:.0f} ms ({shown})")
    ours, base_whole = medians["command"][1], medians["yardstick"][1]
    print(
        f"whole process (information): yardstick {base_whole * 1000:.0f} ms (one request), "
        f"command {ours * 1000:.0f} ms ({requests} requests, {accounts} accounts written)"
    )
    ratio = medians["command"][0] / medians["yardstick"][0]
    print(f"cli_first_request: ratio {ratio:.2f} (target {TARGET})")


if __name__ == "__main__":
    main()
