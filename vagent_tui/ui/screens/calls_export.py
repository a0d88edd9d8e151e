"""The Calls screen's ``w``: the whole query to a file, CSV or JSON lines, with a progress
bar under the header and ``x`` to stop (the writing is `vagent_tui.services.calls_export`'s)."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime
from pathlib import Path

from rich.text import Text
from textual.widgets import ProgressBar, Static

from vagent_tui.api.errors import PlatformError
from vagent_tui.services.calls import CallFilters
from vagent_tui.services.calls_export import ExportProgress, ExportResult, export_csv, export_jsonl
from vagent_tui.ui.format import now
from vagent_tui.ui.screens.base import BaseScreen
from vagent_tui.ui.text import inert
from vagent_tui.words import counted

EXPORT_GROUP = "calls-export"
"""The export's worker, the app's (not the screen's): it runs on when the screen is left,
as a download does; it writes a local file only, so a read-only profile may export."""


class CallsExporting(BaseScreen):
    """``w`` and its progress on a screen with ``#calls-export-label`` and
    ``#calls-export-bar`` (shown while the screen has the class ``-exporting``)."""

    def __init__(self) -> None:
        super().__init__()
        self._export_cancel: asyncio.Event | None = None
        """Set to stop the export under way (None: none is)."""

    def export_query(self) -> CallFilters:
        """The query to write."""
        raise NotImplementedError

    def export_total(self) -> int | None:
        """How many calls it matches, as the page on show says (None: not known)."""
        raise NotImplementedError

    def export_local(self) -> bool:
        """Times in local time (else UTC) in the words that describe the query."""
        raise NotImplementedError

    def stop_export(self) -> bool:
        """Stop the export under way: False if none is."""
        if self._export_cancel is None:
            return False
        self._export_cancel.set()
        return True

    def action_export(self) -> None:
        if self._export_cancel is not None:
            self.status.info("An export is under way: x or esc stops it")
            return
        from vagent_tui.ui.widgets.call_forms import CallExportModal, ExportChoice

        stamp = datetime.fromtimestamp(now().timestamp(), UTC).strftime("%Y%m%d-%H%M")
        total = self.export_total()
        said = counted(total, "call") if total is not None else "the calls"
        summary = f"{said} · " + " · ".join(self.export_query().describe(local=self.export_local()))

        def chosen(choice: ExportChoice | None) -> None:
            if choice is None:
                return
            if choice.path.exists():
                from vagent_tui.ui.dialogs import ConfirmModal

                def replace_it(yes: bool | None) -> None:
                    if yes:
                        self._export(choice.path, choice.format)

                self.app.push_screen(
                    ConfirmModal(
                        "Replace the file?",
                        f"{choice.path} exists: replace it?",
                        confirm_label="Replace",
                    ),
                    replace_it,
                )
                return
            self._export(choice.path, choice.format)

        self.app.push_screen(CallExportModal(f"calls-{stamp}.csv", summary=summary), chosen)

    def _export(self, path: Path, kind: str) -> None:
        cancel = asyncio.Event()
        self._export_cancel = cancel
        self.add_class("-exporting")
        label = self.query_one("#calls-export-label", Static)
        bar = self.query_one("#calls-export-bar", ProgressBar)
        bar.update(total=None, progress=0)
        label.update(Text(f"Exporting to {inert(str(path))}…  (x: stop)"))
        self.app.run_worker(
            self._run_export(path, kind, cancel), group=EXPORT_GROUP, exit_on_error=False
        )

    async def _run_export(self, path: Path, kind: str, cancel: asyncio.Event) -> None:
        filters = self.export_query()
        api = self.connection.api
        bar = self.query_one("#calls-export-bar", ProgressBar)
        label = self.query_one("#calls-export-label", Static)

        def progress(step: ExportProgress) -> None:
            if step.expected:
                bar.update(total=step.expected, progress=min(step.rows, step.expected))
            label.update(Text(
                f"Exporting to {inert(str(path))}: {step.rows:,}"
                + (f" of {step.expected:,}" if step.expected else "")
                + f" calls, {step.bytes / 1e6:.1f} MB  (x: stop)"
            ))  # fmt: skip

        try:
            if kind == "jsonl":
                result = await export_jsonl(api, filters, path, on_progress=progress,
                                            cancel=cancel)  # fmt: skip
            else:
                result = await export_csv(api, filters, path, on_progress=progress, cancel=cancel)
        except PlatformError as exc:
            self.status.error(exc, retry_key="w", prefix="Export failed (no file written): ")
            return
        except OSError as exc:
            self.status.error(
                f"Export failed: {path}: {exc.strerror or exc}", retry_key="w", cause=exc
            )
            return
        finally:
            self._export_cancel = None
            self.remove_class("-exporting")
        self._exported(result, path)

    def _exported(self, result: ExportResult, path: Path) -> None:
        if result.cancelled:
            self.status.info(f"Export stopped after {counted(result.rows, 'call')}: no file kept")
        elif result.empty and result.path is None:
            self.status.info("No call matches this query: no file written")
        else:
            self.status.ok(
                f"{counted(result.rows, 'call')} written to {path} ({result.bytes / 1e6:.1f} MB)"
            )
        self.notify_if_away(f"Calls export: {counted(result.rows, 'call')}")
