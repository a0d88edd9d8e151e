"""The workspace-upload pane of the Computer Agents screen, and local file reading.

Local files are only touched through `probe_file` and `read_file`, run in a thread so
that a slow disk never blocks the interface. The form validates with `UploadRequest`
before anything is sent; a failed upload keeps every field as typed.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

from pydantic import ValidationError
from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.message import Message
from textual.widgets import Button, DataTable, Input, Label, Static, Switch

from vagent_tui.api.models import UploadRequest, UploadResult
from vagent_tui.ui.caps import ROW_CAP, left_out
from vagent_tui.ui.dialogs import ConfirmModal
from vagent_tui.ui.failures import ReportsWorkerFailures, guarded_read
from vagent_tui.ui.format import flag
from vagent_tui.ui.text import safe
from vagent_tui.ui.widgets.computer_render import file_cells, fmt_size
from vagent_tui.ui.widgets.form import FormField, errors_by_field, first_invalid, show_errors
from vagent_tui.ui.widgets.status import StatusReport
from vagent_tui.ui.widgets.tables import row_table
from vagent_tui.ui.writes import Write, Written, write_from
from vagent_tui.words import counted

if TYPE_CHECKING:
    from vagent_tui.api.client import PlatformClient
    from vagent_tui.services.session import Connection
    from vagent_tui.ui.host import Console

_NONE = Text("none picked: f opens the file tree", style="dim")


def overwrite_text(on: bool) -> Text:
    return flag(on, yes="replace", no="keep")


class LocalFileError(Exception):
    """A local file that cannot be uploaded (a directory, missing, unreadable)."""


def _check(path: Path) -> None:
    if path.is_dir():
        raise LocalFileError(f"{path.name or path} is a directory: pick a file")
    if not path.exists():
        raise LocalFileError(f"{path.name} does not exist")


def probe_file(path: Path) -> int:
    """The size of a readable file, else `LocalFileError` (blocking: use a thread)."""
    _check(path)
    try:
        with path.open("rb") as handle:
            handle.read(1)
        return path.stat().st_size
    except OSError as exc:
        raise LocalFileError(f"cannot read {path.name}: {exc.strerror or exc}") from exc


def read_file(path: Path) -> bytes:
    """The whole file (blocking: use a thread)."""
    _check(path)
    try:
        return path.read_bytes()
    except OSError as exc:
        raise LocalFileError(f"cannot read {path.name}: {exc.strerror or exc}") from exc


class UploadPane(ReportsWorkerFailures, Vertical):
    """Local file, remote path, mode, overwrite, the upload button and the file list."""

    class FileChosen(Message):
        """A local file was picked and checked: the screen may close its file tree."""

        def __init__(self, path: Path) -> None:
            super().__init__()
            self.path = path

    def __init__(self) -> None:
        super().__init__(id="computer-upload-pane")
        self.local_file: Path | None = None
        self.local_error: str | None = None
        self._prefilled = ""
        self.account: int | None = None
        """The account whose workspace the pane shows (`account_changed`)."""

    def compose(self) -> ComposeResult:
        yield Label("Workspace upload", classes="pane-title")
        with Horizontal(classes="computer-row"):
            yield FormField(
                "Local file", Static(_NONE, id="computer-local", markup=False), name="file"
            )
            yield Button("Pick file f", id="computer-pick", compact=True)
        path = Input(placeholder="e.g. notes/todo.txt", id="computer-path", compact=True)
        path.cursor_blink = False
        yield FormField("Remote path", path, name="path", hint="relative, no ..")
        with Horizontal(classes="computer-row"):
            mode = Input(placeholder="0644", id="computer-mode", compact=True)
            mode.cursor_blink = False
            yield FormField("Mode", mode, name="mode", hint="octal, optional")
            switch = Horizontal(
                Switch(id="computer-overwrite"),
                Static(overwrite_text(False), id="computer-overwrite-state", markup=False),
                classes="computer-switch",
            )
            yield FormField("Overwrite", switch, name="overwrite")
            yield Button("Upload u", id="computer-upload", compact=True, variant="primary")
        yield Label("Workspace files", classes="computer-subtitle")
        labels = ("Path", "Size", "Mode", "Updated")
        yield row_table("computer-files", ((label, label.lower()) for label in labels))

    @on(Switch.Changed, "#computer-overwrite")
    def _overwrite_changed(self, event: Switch.Changed) -> None:
        event.stop()
        self.query_one("#computer-overwrite-state", Static).update(overwrite_text(event.value))

    @property
    def client(self) -> PlatformClient:
        return cast("Console", self.app).connection.api

    def field(self, name: str) -> FormField:
        return self.query_one(f"#field-{name}", FormField)

    @property
    def fields(self) -> list[FormField]:
        return [self.field(n) for n in ("file", "path", "mode", "overwrite")]

    # ------------------------------------------------------------------ local file

    @work(exclusive=True, group="computer-probe", exit_on_error=False)
    async def pick_file(self, path: Path) -> None:
        """Check the file in a thread; show its size, or refuse it at the field."""
        local = self.query_one("#computer-local", Static)
        try:
            size = await asyncio.to_thread(probe_file, path)
        except LocalFileError as exc:
            self.local_file, self.local_error = None, str(exc)
            local.update(safe(str(path)))
            self.field("file").set_error(str(exc))
            return
        self.local_file, self.local_error = path, None
        local.update(safe(f"{path}  ({fmt_size(size)})"))
        self.field("file").set_error(None)
        remote = self.query_one("#computer-path", Input)
        if not remote.value or remote.value == self._prefilled:
            remote.value = self._prefilled = path.name
        remote.focus()
        self.post_message(self.FileChosen(path))

    # ------------------------------------------------------------------ upload

    def submit(self, account: int) -> None:
        """Validate at the fields; upload (after confirming a replacement) if all is well."""
        errors: dict[str, str] = {}
        request: UploadRequest | None = None
        try:
            request = UploadRequest(
                path=self.query_one("#computer-path", Input).value,
                overwrite=self.query_one("#computer-overwrite", Switch).value,
                mode=self.query_one("#computer-mode", Input).value.strip() or None,
            )
        except ValidationError as exc:
            errors = errors_by_field(exc)
        if self.local_file is None:
            errors["file"] = self.local_error or "pick a local file first (f)"
        show_errors(self.fields, errors)
        if errors or request is None or self.local_file is None:
            invalid = first_invalid(self.fields)
            if invalid is not None:
                pick = invalid.name == "file"
                (self.query_one("#computer-pick") if pick else invalid.widget).focus()
            return
        self.upload(account, request, self.local_file)

    def upload(self, account: int, request: UploadRequest, local: Path) -> None:
        """Confirm a replacement, read the file, then send it through the write path."""
        read: list[bytes] = []
        client = self.client

        async def confirm() -> bool:
            if request.overwrite:
                replace = await self.app.push_screen_wait(
                    ConfirmModal(
                        "Replace a workspace file?",
                        f"If {request.path} already exists in the workspace of account "
                        f"{account}, it will be replaced by {local.name}.",
                        confirm_label="Replace",
                    )
                )
                if not replace:
                    self.post_message(StatusReport.info("Upload cancelled: nothing was sent"))
                    return False
            self.post_message(StatusReport.busy(f"Reading {local.name}"))
            try:
                read[:] = [await asyncio.to_thread(read_file, local)]
            except LocalFileError as exc:
                self.field("file").set_error(str(exc))
                self.post_message(StatusReport.error(str(exc), retry_key=None))
                return False
            return True

        def done(result: UploadResult) -> str:
            size = result.size if result.size is not None else len(read[0])
            replaced = " (replaced the existing file)" if result.overwritten else ""
            return (
                f"{result.message or 'Uploaded'}: {result.path or request.path}, {fmt_size(size)}, "
                f"mode {result.mode or request.mode or 'default'}{replaced}"
            )

        async def read_back(c: Connection) -> str:
            files = await c.api.list_workspace_files(account)
            there = next((f for f in files if f.path == request.path), None)
            if there is None:
                return f"{request.path} is not in the workspace."
            return f"{request.path} is in the workspace ({fmt_size(there.size or 0)})."

        def after(written: Written[UploadResult]) -> None:
            read.clear()
            if written.result is None:
                return
            self.reset()
            if account == self.account:
                self.load_files()

        write_from(
            self,
            Write[UploadResult](
                "computer-upload",
                f"Uploading {local.name} to {request.path}",
                lambda c: c.api.upload_file(
                    account,
                    request.path,
                    read[0],
                    filename=local.name,
                    overwrite=request.overwrite,
                    mode=request.mode,
                ),
                confirm=confirm,
                done=done,
                read_back=read_back,
                retry_key="u",
                after=after,
            ),
            still=lambda: account == self.account and client is self.client,
        )

    def reset(self) -> None:
        self.local_file, self.local_error, self._prefilled = None, None, ""
        self.query_one("#computer-local", Static).update(_NONE)
        self.query_one("#computer-path", Input).value = ""
        self.query_one("#computer-mode", Input).value = ""
        self.query_one("#computer-overwrite", Switch).value = False
        show_errors(self.fields, {})

    # ------------------------------------------------------------------ file list

    def account_changed(self, account: int | None) -> None:
        """List the new account's workspace files (none without an account)."""
        self.account = account
        if account is None:
            self.query_one("#computer-files", DataTable).clear()
        else:
            self.load_files()

    @work(exclusive=True, group="computer-files", exit_on_error=False)
    async def load_files(self) -> None:
        account = self.account
        if account is None:
            return
        table: DataTable[Any] = self.query_one("#computer-files", DataTable)
        client = self.client
        ok, files = await guarded_read(
            client.list_workspace_files(account),
            still_wanted=lambda: account == self.account and client is self.client,
            on_error=lambda exc: self.post_message(StatusReport.error(exc)),
            busy=table,
        )
        if not ok or files is None:
            return
        with self.app.batch_update():
            table.clear()
            for item in files[:ROW_CAP]:
                table.add_row(*file_cells(item), key=item.path)
        if len(files) > ROW_CAP:
            self.post_message(
                StatusReport.info(
                    counted(len(files), "workspace file") + left_out(len(files), "file")
                )
            )
