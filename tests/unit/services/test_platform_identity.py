"""What the console keeps per platform on disk (an onboarding file's log, a rollout's plan
and log) is keyed by the platform's identity and the key owner: a real platform's by its
address, the same in every session (a dropped session resumes), the embedded demo's by
its own run (a second ``--demo`` run is a new platform: an earlier run's log never speaks
for it)."""

from __future__ import annotations

from pathlib import Path

import pytest

from vagent_tui.api.models import Account
from vagent_tui.services.connect import demo_client, real_client
from vagent_tui.services.onboard_rows import log_for, read_rows
from vagent_tui.services.session import Connection, origin_of

ROWS = read_rows("type,external_id,name,parent\naccount,crm-1,Front desk,#1110\n")
OWNER = Account.model_validate({"id": 1000, "username": "Northwind"})


def origin(client: object) -> str:
    return origin_of(Connection(client=client, owner=OWNER))  # type: ignore[arg-type]


def test_each_demo_run_is_a_platform_of_its_own(tmp_path: Path) -> None:
    first, second = demo_client(), demo_client()  # two `--demo` runs: two simulators
    assert first.host == second.host == "demo.sim"  # the same address...
    assert origin(first) != origin(second)  # ...not the same platform
    assert log_for(ROWS, origin(first), tmp_path).path != log_for(ROWS, origin(second),
                                                                  tmp_path).path  # fmt: skip
    # another profile of the same run (or a console started again on it) is on the same one
    again = demo_client("demo-reseller", sim_app=first.sim_app)
    assert again.platform_id == first.platform_id
    assert log_for(ROWS, origin(again), tmp_path).path == log_for(ROWS, origin(first),
                                                                  tmp_path).path  # fmt: skip


@pytest.mark.parametrize(
    ("base_url", "platform"),
    [
        ("https://api.vida.dev", "api.vida.dev"),
        ("https://api.vida.dev/api/v2/", "api.vida.dev"),
        ("https://ops:s3cret@gw.example:8443/vida-eu", "gw.example:8443/vida-eu"),
    ],
)
def test_a_real_platform_is_the_same_in_every_session(
    base_url: str, platform: str, tmp_path: Path
) -> None:
    """Two sessions on one platform (a dropped one and the next) find the same log; the
    identity is the address (no password) and stays `host` for a base URL without a path,
    so a log written before it was named so is still found."""
    dropped, next_session = real_client(base_url, "key-1"), real_client(base_url, "key-1")
    assert dropped.platform_id == next_session.platform_id == platform
    assert "s3cret" not in origin(dropped) and "key-1" not in origin(dropped)
    assert origin(dropped) == f"{platform} · key of account 1000"
    assert (
        log_for(ROWS, origin(dropped), tmp_path).path
        == log_for(ROWS, origin(next_session), tmp_path).path
    )
    other = real_client("https://gw.example:8443/vida-us", "key-1")
    assert origin(other) != origin(dropped)
