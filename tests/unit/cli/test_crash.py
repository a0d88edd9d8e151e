"""A crash of the console: status 1, one line on stderr, a 0600 report without secrets.

Before: the process exited 0 and Textual printed the traceback with local variables.
"""

from __future__ import annotations

import os
import stat
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from vagent_tui import crash


def _boom(token: str) -> RuntimeError:
    try:
        secret_local = "SECRET-LOCAL"  # a local of the failing frame
        raise RuntimeError(
            f"failed \x1b]52;c;Zm9v\x07 at https://admin:pw-SECRET9@api.example/v1?token={token}"
            + secret_local[:0]
        )
    except RuntimeError as exc:
        return exc


def test_redact_masks_userinfo_token_and_its_url_encoding() -> None:
    text = "https://u:pw-x@h/ t=tok/en+1 tok%2Fen%2B1 token=abc123"
    out = crash.redact(text, ["tok/en+1"])
    assert out == "https://***@h/ t=*** *** token=***"


def test_report_is_0600_without_locals_secrets_or_escapes(tmp_path: Path) -> None:
    line = crash.report(_boom("tok-SECRET-1"), directory=tmp_path, secrets=["tok-SECRET-1"])
    (path,) = tmp_path.iterdir()
    assert line.startswith("vagent-tui crashed (RuntimeError: failed ␛]52;c;Zm9v␇ at")
    assert str(path) in line and "\n" not in line
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    saved = path.read_text()
    assert "Traceback (most recent call last)" in saved and "_boom" in saved
    assert "SECRET" not in saved and "SECRET" not in line  # locals, password, token
    assert "\x1b" not in saved and "\x07" not in saved


def test_a_report_that_cannot_be_saved_is_said(tmp_path: Path) -> None:
    blocked = tmp_path / "file"
    blocked.write_text("")
    line = crash.report(_boom("tok-1234"), directory=blocked / "sub")
    assert line.startswith("vagent-tui crashed (RuntimeError") and "could not be saved" in line


_SCRIPT = textwrap.dedent(
    """
    import sys
    from vagent_tui import cli
    from vagent_tui.ui.app import VagentApp

    run = VagentApp.run

    def on_mount(self):
        self.call_after_refresh(explode)

    def explode():
        secret_local = "SECRET-LOCAL"
        raise KeyError("no row " + secret_local[:0] + "tok-SECRET-42 https://u:pw-SECRET@h")

    VagentApp.on_mount = on_mount
    VagentApp.run = lambda self: run(self, headless=True)
    sys.exit(cli.main(sys.argv[1:]))
    """
)


@pytest.mark.parametrize("demo", [False, True], ids=["profile", "demo"])
def test_console_crash_exits_non_zero_with_one_line_and_a_report(
    tmp_path: Path, demo: bool
) -> None:
    env = {
        **os.environ,
        "XDG_STATE_HOME": str(tmp_path / "state"),
        "VAGENT_CONFIG": str(tmp_path / "config.toml"),
        "VAGENT_TOKEN": "tok-SECRET-42",
    }
    env.pop("VAGENT_BASE_URL", None)
    args = ["--demo"] if demo else ["--base-url", "https://u:pw-SECRET@api.invalid"]
    done = subprocess.run(
        [sys.executable, "-c", _SCRIPT, *args],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
        check=False,
    )
    assert done.returncode == 1, done.stderr
    lines = [line for line in done.stderr.splitlines() if line.strip()]
    assert len(lines) == 1, done.stderr
    assert lines[0].startswith("vagent-tui crashed (KeyError: ")
    (report,) = (tmp_path / "state" / "vagent-tui").glob("crash-*.txt")
    assert str(report) in lines[0]
    assert stat.S_IMODE(report.stat().st_mode) == 0o600
    saved = report.read_text()
    assert "in explode" in saved and "KeyError" in saved
    assert "SECRET" not in saved + done.stderr + done.stdout
