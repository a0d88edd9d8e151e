"""Every use of Textual's private API, in one place (tests/unit/test_textual_compat.py).

Product code outside this module uses only Textual's public API. Each wrapper here
exists because Textual has no public way to do the same; the tests fail loudly when a
Textual release changes what a wrapper relies on.

1. Crash output without local variables (`CrashReportingApp`).
2. Forgetting a secret from the app's in-process clipboard (`forget_copied`).

**1.**
An unhandled exception ends a Textual app through ``App._handle_exception``, which
calls ``App._fatal_error``: it renders a rich ``Traceback(show_locals=True)`` and
prints it at exit. Local variables may hold the token or a reply full of outside text,
and no public setting turns them off. `CrashReportingApp` overrides that one method:
the app still exits with return code 1, prints nothing itself, and keeps the exception
in `crash_error` for the command line to report (`vagent_tui.crash`: one line, the
traceback without locals in a 0600 file). Exceptions that render themselves (those
with ``__rich__``) still go to Textual's public ``panic``.
"""

from __future__ import annotations

import sys
from typing import Any, TypeVar

from textual.app import App

ReturnType = TypeVar("ReturnType")


class CrashReportingApp(App[ReturnType]):
    """An app whose crash is kept in `crash_error` instead of printed with locals."""

    crash_error: BaseException | None = None
    """The exception that ended the app, if one did."""

    def _fatal_error(self) -> None:
        # Textual calls this inside the ``except`` block of the failure (its own
        # Traceback() reads sys.exc_info() the same way).
        error = sys.exc_info()[1]
        self.crash_error = error if error is not None else RuntimeError("unknown failure")
        self.bell()
        self.panic()  # exits like Textual's own handler, with nothing to print


def forget_copied(app: App[Any], text: str) -> None:
    """Drop ``text`` from the app's in-process clipboard, if it is what it holds.

    `App.copy_to_clipboard` keeps a copy for in-app paste besides sending it to the
    terminal. A new token must not linger there once its dialog closes; copying ""
    instead would also empty the terminal's clipboard, which the user wants to paste
    from. Textual has no public way to clear only its own copy.
    """
    if app.clipboard == text:
        app._clipboard = ""
