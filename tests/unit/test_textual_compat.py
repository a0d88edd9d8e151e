"""The one private Textual hook we override still exists and still does its job.

If Textual renames ``App._fatal_error`` or stops calling it, these fail loudly: the
crash output would print local variables again (see vagent_tui/ui/textual_compat.py).
"""

from __future__ import annotations

import inspect
import subprocess
import sys

import pytest
from textual.app import App, ComposeResult
from textual.widgets import Static

from vagent_tui.ui.app import VagentApp
from vagent_tui.ui.textual_compat import CrashReportingApp


def test_textual_still_routes_crashes_through_the_hook() -> None:
    assert callable(getattr(App, "_fatal_error", None)), "Textual renamed App._fatal_error"
    handler = inspect.getsource(App._handle_exception)
    assert "self._fatal_error()" in handler, "App._handle_exception no longer calls it"
    # What the override exists for: Textual's own crash output shows local variables.
    assert "show_locals=True" in inspect.getsource(App._fatal_error)


def test_the_console_is_a_crash_reporting_app() -> None:
    assert issubclass(VagentApp, CrashReportingApp)
    assert VagentApp._fatal_error is CrashReportingApp._fatal_error


class _Crashing(CrashReportingApp[None]):
    BINDINGS = [("x", "explode", "Explode")]

    def compose(self) -> ComposeResult:
        yield Static("ready")

    def action_explode(self) -> None:
        raise KeyError("boom")


async def test_a_crash_is_kept_and_ends_the_app_with_status_1() -> None:
    app = _Crashing()
    with pytest.raises(KeyError, match="boom"):  # run_test re-raises it, as before
        async with app.run_test() as pilot:
            await pilot.press("x")
            await pilot.pause()
    assert isinstance(app.crash_error, KeyError)
    assert app.return_code == 1


_SCRIPT = """
from textual.app import App
from vagent_tui.ui.textual_compat import CrashReportingApp

class Crashing(CrashReportingApp[None]):
    def on_mount(self) -> None:
        self.call_after_refresh(self.explode)

    def explode(self) -> None:
        secret_local = "SECRET-LOCAL"
        raise KeyError("boom" + secret_local[:0])

app = Crashing()
app.run(headless=True)
print("return code", app.return_code, type(app.crash_error).__name__)
"""


def test_nothing_of_the_crash_is_printed() -> None:
    done = subprocess.run(
        [sys.executable, "-c", _SCRIPT], capture_output=True, text=True, timeout=60, check=False
    )
    assert "return code 1 KeyError" in done.stdout
    # Textual's own handler prints a traceback with the locals (SECRET-LOCAL) here.
    assert "SECRET-LOCAL" not in done.stdout + done.stderr
    assert "Traceback" not in done.stdout + done.stderr


# ---------------------------------------------------------------------- forget_copied


async def test_forget_copied_clears_only_that_text_from_the_in_app_clipboard() -> None:
    from vagent_tui.ui.textual_compat import forget_copied

    app = App[None]()
    async with app.run_test():
        app.copy_to_clipboard("vt_new_token")
        forget_copied(app, "something else")
        assert app.clipboard == "vt_new_token"
        forget_copied(app, "vt_new_token")
        assert app.clipboard == ""
