"""The Fleet screen's dialogs: the concurrency setting and the CSV export.

The export asks for a path (default ``fleet-<question>-<date>.csv``; relative paths are
in the current directory), asks before replacing an existing file, writes the CSV the
fleet service made (it never holds the token) and reports the path on the status line.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from vagent_tui.services.fleet import MAX_CAP
from vagent_tui.services.fleet import default_concurrency as default_concurrency
from vagent_tui.services.usage_fleet import write_private
from vagent_tui.ui.dialogs import ConfirmModal, PromptModal
from vagent_tui.ui.widgets.status import StatusReport
from vagent_tui.words import counted

if TYPE_CHECKING:
    from textual.screen import Screen

MAX_CONCURRENCY = MAX_CAP


def check_concurrency(text: str) -> str | None:
    text = text.strip()
    if not text.isdecimal() or not 1 <= int(text) <= MAX_CONCURRENCY:
        return f"A whole number from 1 to {MAX_CONCURRENCY}"
    return None


def ask_concurrency(app: Any, current: int, chosen: Callable[[int], None]) -> None:
    """Prompt for the most requests at a time; ``chosen`` hears a valid answer."""

    def done(value: str | None) -> None:
        if value and not check_concurrency(value):
            chosen(int(value.strip()))

    app.push_screen(
        PromptModal(
            "Requests at a time",
            f"How many accounts may be asked at once, at most (1 to {MAX_CONCURRENCY}). "
            "A run starts at half of it (at least 16, or all of it when lower) and grows "
            "while the platform answers as fast; it backs off when the platform says it is "
            "busy (429/503).",
            value=str(current),
            validate=check_concurrency,
        ),
        done,
    )


def export_csv(
    screen: Screen[None],
    text: str | Callable[[Path], str],
    default: str,
    *,
    rows: int,
    title: str = "Export the matrix as CSV",
    hint: str = "",
    private: bool = False,
) -> None:
    """Ask where to write ``text`` (CSV; or what ``text(path)`` gives for the path
    chosen), confirm a replacement, write, report. ``private``: the file is its owner's
    only (0600), written beside and renamed into place."""

    def write(path: Path) -> None:
        try:
            body = text if isinstance(text, str) else text(path)
            if private:
                write_private(path, body)
            else:
                path.write_text(body, encoding="utf-8")
        except OSError as exc:
            problem = f"Could not write {path}: {exc.strerror or exc}"
            screen.post_message(StatusReport.error(problem, retry_key="w", cause=exc))
            return
        screen.post_message(StatusReport.ok(f"Wrote {counted(rows, 'row')} to {path}"))
        screen.notify(f"Wrote {path}", title="Export", markup=False)

    def chosen(value: str | None) -> None:
        if not value or not value.strip():
            return
        path = Path(value.strip()).expanduser()
        if not path.is_absolute():
            path = Path.cwd() / path
        if not path.exists():
            write(path)
            return
        screen.app.push_screen(
            ConfirmModal("Replace the file?", f"{path} exists.", confirm_label="Replace"),
            lambda yes: write(path) if yes else None,
        )

    screen.app.push_screen(
        PromptModal(
            title,
            "File to write (relative paths are in the current directory)." + hint,
            value=default,
            confirm_label="Export",
            validate=lambda text: None if text.strip() else "Give a file name",
        ),
        chosen,
    )
