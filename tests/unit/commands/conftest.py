"""Running the commands in-process, on one simulator for the whole test.

`cli` runs ``vagent-tui ARGS`` (`vagent_tui.cli.main`) with ``--demo`` on the test's own
simulator (one for every run of the test: what a run writes, the next sees), and returns
its exit code, stdout and stderr. The token is never an argument: ``--demo-token`` names
the simulator's key.
"""

from __future__ import annotations

import io
import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest

from vagent_tui.commands.contract import CONTRACT_VERSION


@dataclass
class Ran:
    code: int
    out: str
    err: str

    def document(self, kind: str | None = None) -> dict[str, Any]:
        """stdout as the ``-o json`` document (its version and kind checked)."""
        doc: dict[str, Any] = json.loads(self.out)
        assert doc["version"] == CONTRACT_VERSION
        if kind is not None:
            assert doc["kind"] == kind
        return doc

    def items(self, kind: str | None = None) -> list[dict[str, Any]]:
        items: list[dict[str, Any]] = self.document(kind)["items"]
        return items

    def lines(self, kind: str | None = None) -> list[dict[str, Any]]:
        """stdout as ``-o jsonl`` lines: each line's item."""
        found = []
        for line in self.out.splitlines():
            data = json.loads(line)
            assert data["version"] == CONTRACT_VERSION
            if kind is not None:
                assert data["kind"] == kind
            found.append(data["item"])
        return found


RunCli = Callable[..., Ran]


@pytest.fixture
def sim_app() -> Any:
    from vagent_tui.sim import create_app

    return create_app()


@pytest.fixture
def cli(
    sim_app: Any, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> RunCli:
    from vagent_tui.commands.registry import VagentParser
    from vagent_tui.services import connect

    real = connect.demo_client

    def on_the_tests_sim(token: str = connect.DEMO_TOKEN, **_: Any) -> connect.SimClient:
        return real(token, sim_app=sim_app)

    monkeypatch.setattr(connect, "demo_client", on_the_tests_sim)

    def run(*argv: str, token: str = "demo-partner", stdin: str | None = None) -> Ran:
        from vagent_tui.cli import main

        monkeypatch.setattr(VagentParser, "usage_exit", 2)
        if stdin is not None:
            monkeypatch.setattr("sys.stdin", io.StringIO(stdin))
        capsys.readouterr()
        args = [*argv]
        if args and args[0] != "schema":
            args += ["--demo", "--demo-token", token]
        try:
            code = main(args)
        except SystemExit as exc:
            code = exc.code if isinstance(exc.code, int) else 1
        captured = capsys.readouterr()
        return Ran(code, captured.out, captured.err)

    return run
