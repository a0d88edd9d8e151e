"""A process applying an onboarding file is killed mid-apply (SIGKILL, as a dropped SSH
session without tmux ends it); the file is planned and applied again: nothing is
created twice, everything is created once."""

from __future__ import annotations

import asyncio
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

from vagent_tui.api.client import PlatformClient
from vagent_tui.api.errors import TransportError
from vagent_tui.api.models import Account
from vagent_tui.services.onboard import plan_onboarding
from vagent_tui.services.onboard_apply import apply_onboarding
from vagent_tui.services.onboard_rows import log_for, read_rows

ROOT = str(Path(__file__).resolve().parents[3])
ORG = 1110
ACCOUNTS = 40
TEXT = (
    "type,external_id,name,parent,email,role,accounts\n"
    + "".join(f"account,kill-{n},Killed run {n},#{ORG},,,\n" for n in range(ACCOUNTS))
    + f"member,,,#{ORG},kill@orbit.example,member,kill-0 kill-1\n"
)

# The child: plan and apply the file, printing each result as it comes.
CHILD = """
import asyncio, sys
from pathlib import Path
from vagent_tui.api.client import PlatformClient
from vagent_tui.api.models import Account
from vagent_tui.services.onboard_apply import apply_onboarding
from vagent_tui.services.onboard_rows import log_for, read_rows
from vagent_tui.services.onboard import plan_onboarding

async def main(base, folder, text):
    client = PlatformClient(base, "demo-reseller", timeout=30)
    rows = read_rows(text)
    plan = await plan_onboarding(client, rows, origin="kill-test", concurrency=4)
    print("planned", flush=True)
    def said(result):
        print(result.account_id, result.result, flush=True)
    await apply_onboarding(client, plan, log_for(rows, "kill-test", Path(folder)),
                           concurrency=4, on_result=said)
    print("finished", flush=True)

asyncio.run(main(sys.argv[1], sys.argv[2], sys.stdin.read()))
"""


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


async def _started(client: PlatformClient) -> None:
    for _ in range(600):
        try:
            await client.get_account()
            return
        except TransportError:
            await asyncio.sleep(0.05)
    raise AssertionError("the simulator did not start")


def _kill_after(base: str, folder: Path, results: int) -> list[str]:
    """Run the child until it has printed ``results`` results, then SIGKILL it."""
    env = {**os.environ, "PYTHONPATH": ROOT}
    child = subprocess.Popen(
        [sys.executable, "-c", CHILD, base, str(folder)],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, env=env, cwd=ROOT,
    )  # fmt: skip
    assert child.stdin is not None and child.stdout is not None
    child.stdin.write(TEXT)
    child.stdin.close()
    lines: list[str] = []
    try:
        for line in child.stdout:
            lines.append(line.strip())
            if sum(1 for x in lines if x.endswith("written")) >= results:
                break
    finally:
        child.send_signal(signal.SIGKILL)
        child.wait(timeout=30)
    return lines


async def test_a_run_killed_mid_apply_is_resumed_without_creating_anything_twice(
    tmp_path: Path,
) -> None:
    port = _free_port()
    server = subprocess.Popen(
        [sys.executable, "-m", "vagent_tui.sim", "--port", str(port), "--latency-ms", "40"],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=ROOT,
        env={**os.environ, "PYTHONPATH": ROOT},
    )  # fmt: skip
    base = f"http://127.0.0.1:{port}"
    client = PlatformClient(base, "demo-reseller", timeout=30)
    try:
        await _started(client)
        lines = await asyncio.to_thread(_kill_after, base, tmp_path, 10)
        assert "finished" not in lines, "the child ended before it was killed"
        time.sleep(0.3)  # the writes under way when it died reach the simulator
        rows = read_rows(TEXT)
        plan = await plan_onboarding(client, rows, origin="kill-test")
        counts = plan.counts()
        assert counts["already"] >= 10 and counts["create"] >= 1, counts
        log = log_for(rows, "kill-test", tmp_path)
        results = await apply_onboarding(client, plan, log)
        log.release()
        assert results and all(r.result == "written" for r in results), [
            r for r in results if r.result != "written"
        ]
        again = await plan_onboarding(client, rows, origin="kill-test")
        assert again.counts() == {"already": ACCOUNTS + 1}
        # Each external id is held by exactly one account below the organization.
        names = [a.name for a in await _accounts_of(client, ORG)]
        for n in range(ACCOUNTS):
            assert names.count(f"Killed run {n}") == 1, n
        members = await client.list_members(target=ORG)
        assert [x.email for x in members].count("kill@orbit.example") == 1
    finally:
        await client.aclose()
        server.terminate()
        server.wait(timeout=10)


async def _accounts_of(client: PlatformClient, organization_id: int) -> list[Account]:
    found: list[Account] = []
    page = 0
    while True:
        got = await client.list_accounts(organization_id, page=page, page_size=100)
        found += got.items
        if not got.items or len(found) >= got.total:
            return found
        page += 1
