"""The Calls screen's dialogs: the filters, the export, the columns, a SIP capture.

Each checks what was typed at its field before anything is asked of the platform (a
time that is no time, a ``key=value`` that is not one, a filter on a reserved name,
a path whose folder does not exist); ESC only cancels, and a dialog keeps what was
typed until it is valid.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import ClassVar, Generic, TypeVar

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Input, OptionList, Select, Static

from vagent_tui.api.log_models import LogQuery
from vagent_tui.services.call_columns import column
from vagent_tui.services.calls import CallFilters, parse_time
from vagent_tui.ui.built import ClosesItself
from vagent_tui.ui.dialogs import MODAL_CSS
from vagent_tui.ui.text import inert, safe
from vagent_tui.ui.widgets.form import FormField, first_invalid

R = TypeVar("R")


class _Dialog(ClosesItself[R | None], ModalScreen[R | None], Generic[R]):
    """A dialog of this screen: `read` checks what was typed (the problems under their
    fields) and gives the choice, or None to stay open; Enter in a field, the confirm
    button and ctrl+s submit; ESC and Cancel only cancel."""

    SCOPED_CSS: ClassVar[bool] = False
    DEFAULT_CSS = MODAL_CSS
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "cancel", "Cancel", id="modal.cancel", tooltip="Cancel"),
        Binding("ctrl+s,ctrl+o", "save", "OK", id="calls-dialog.save", tooltip="OK"),
    ]

    def __init__(self) -> None:
        super().__init__(classes="modal")

    def read(self) -> R | None:
        raise NotImplementedError

    def action_save(self) -> None:
        chosen = self.read()
        if chosen is not None:
            self.dismiss(chosen)

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.action_save()

    @on(Button.Pressed)
    def _pressed(self, event: Button.Pressed) -> None:
        event.stop()
        if event.button.id == "confirm":
            self.action_save()
        else:
            self.dismiss(None)

    def action_cancel(self) -> None:
        self.dismiss(None)


def _input(name: str, value: str, placeholder: str) -> Input:
    field = Input(value=value, placeholder=placeholder, id=f"calls-{name}", compact=True)
    field.cursor_blink = False
    return field


def _typed_time(seconds: int | None) -> str:
    return "" if seconds is None else str(seconds)


class CallFiltersModal(_Dialog[CallFilters]):
    """The query's filters: time range, event type, outcome, status, ``key=value``."""

    def __init__(self, filters: CallFilters, *, now: float) -> None:
        super().__init__()
        self.filters = filters
        self.now = now

    def compose(self) -> ComposeResult:
        f = self.filters
        extra = " ".join(f"{k}={_quoted(v)}" for k, v in f.extra)
        start = f"1{f.preset[0]}" if f.preset else _typed_time(f.start)
        with Vertical():
            yield Static("Filter the calls (the platform filters them)", classes="modal-title")
            yield FormField(
                "From", _input("start", start, "7d (default), 1h, 90m, 2025-11-20T14:30"),
                name="start", hint="back from now, ISO or Unix seconds",
            )  # fmt: skip
            yield FormField(
                "To", _input("end", _typed_time(f.end), "now"), name="end", hint="empty: now"
            )
            yield FormField(
                "Event type", _input("event", f.event_type or "", "inbound-call, outbound-sms…"),
                name="event",
            )  # fmt: skip
            yield FormField(
                "Outcome", _input("outcome", f.outcome or "", "appointment_booked…"),
                name="outcome", hint="agentOutcome",
            )  # fmt: skip
            yield FormField(
                "Call status", _input("status", f.status or "", "completed, failed, missed"),
                name="status", hint="status",
            )  # fmt: skip
            yield FormField(
                "More filters", _input("extra", extra, "key=value key2=value2"),
                name="extra", hint="any field, sent as given",
            )  # fmt: skip
            with Horizontal(classes="modal-buttons"):
                yield Button("Cancel", id="cancel")
                yield Button("Apply", id="confirm", variant="primary")

    def on_mount(self) -> None:
        self.query_one("#calls-start", Input).focus()

    def _value(self, name: str) -> str:
        return self.query_one(f"#calls-{name}", Input).value.strip()

    def _field(self, name: str) -> FormField:
        return self.query_one(f"#field-{name}", FormField)

    def read(self) -> CallFilters | None:
        """The filters typed, or None with each problem under its field."""
        for form_field in self.query(FormField):
            form_field.set_error(None)
        problems: dict[str, str] = {}
        start = end = None
        preset = None
        typed_start = self._value("start")
        back = typed_start.lower()
        for name, seconds in (("hour", 3600), ("day", 86400), ("week", 604800)):
            if back in (f"1{name[0]}", name, f"last {name}"):
                preset, start = name, int(self.now) - seconds
        if preset is None and typed_start:
            try:
                start = parse_time(typed_start, now=self.now)
            except ValueError as exc:
                problems["start"] = str(exc)
        if self._value("end"):
            try:
                end = parse_time(self._value("end"), now=self.now)
            except ValueError as exc:
                problems["end"] = str(exc)
        if start is not None and end is not None and start > end:
            problems["end"] = "the end must not be before the start"
        try:
            extra = LogQuery.parse_filters(self._value("extra"))
        except ValueError as exc:
            problems["extra"] = str(exc)
            extra = ()
        chosen = replace(
            self.filters,
            start=start,
            end=end,
            preset=preset if end is None else None,
            event_type=self._value("event") or None,
            outcome=self._value("outcome") or None,
            status=self._value("status") or None,
            extra=extra,
        )
        if "extra" not in problems:
            try:
                chosen.query()
            except ValueError as exc:
                problems["extra"] = str(exc)
        for name, message in problems.items():
            self._field(name).set_error(message)
        if problems:
            invalid = first_invalid(self.query(FormField))
            if invalid is not None:
                invalid.widget.focus()
            return None
        return chosen


def _quoted(value: str) -> str:
    return f'"{value}"' if any(c.isspace() for c in value) or not value else value


# --------------------------------------------------------------------------- export


FORMATS = (("CSV (the platform's columns)", "csv"), ("JSON lines (every field)", "jsonl"))


@dataclass(frozen=True)
class ExportChoice:
    """Where the export goes and in which format."""

    path: Path
    format: str


class CallExportModal(_Dialog[ExportChoice]):
    """Where to write the query's entries, and as what (CSV or JSON lines)."""

    def __init__(self, default_name: str, *, summary: str) -> None:
        super().__init__()
        self.default_name = default_name
        self.summary = summary

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static("Export the calls of this query", classes="modal-title")
            yield Static(safe(self.summary, multiline=True))
            yield FormField(
                "Format",
                Select(FORMATS, value="csv", allow_blank=False, id="calls-format", compact=True),
                name="format",
            )
            yield FormField(
                "File", _input("path", self.default_name, "calls.csv"), name="path",
                hint="relative to the current folder",
            )  # fmt: skip
            with Horizontal(classes="modal-buttons"):
                yield Button("Cancel", id="cancel")
                yield Button("Export", id="confirm", variant="primary")

    def on_mount(self) -> None:
        self.query_one("#calls-path", Input).focus()

    @on(Select.Changed, "#calls-format")
    def _format_changed(self, event: Select.Changed) -> None:
        field = self.query_one("#calls-path", Input)
        path = Path(field.value.strip() or self.default_name)
        suffix = ".jsonl" if event.value == "jsonl" else ".csv"
        if path.suffix in (".csv", ".jsonl") and path.suffix != suffix:
            field.value = str(path.with_suffix(suffix))

    def read(self) -> ExportChoice | None:
        path_field = self.query_one("#field-path", FormField)
        text = self.query_one("#calls-path", Input).value.strip()
        problem = None
        path = Path(text).expanduser() if text else None
        if path is None:
            problem = "a file name is needed"
        elif path.is_dir():
            problem = f"{inert(str(path))} is a folder: name a file in it"
        elif not path.absolute().parent.is_dir():
            problem = f"the folder {inert(str(path.absolute().parent))} does not exist"
        path_field.set_error(problem)
        if problem or path is None:
            path_field.widget.focus()
            return None
        value = self.query_one("#calls-format", Select).value
        return ExportChoice(path, value if isinstance(value, str) else "csv")


# --------------------------------------------------------------------------- columns


class ColumnPicks(OptionList):
    """The columns, each ``[x]`` or ``[ ]``: a tick is text, so it shows in monochrome
    too (a `SelectionList` tells them apart by colour only). Space or Enter ticks."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("space", "mark", "Tick", id="calls-columns.tick", tooltip="Tick or untick"),
    ]

    def __init__(self, names: Sequence[str], chosen: Sequence[str]) -> None:
        self.names = list(names)
        self.ticked = {name for name in names if name in chosen}
        super().__init__(*(self._prompt(name) for name in self.names), id="calls-columns")

    def _prompt(self, name: str) -> Text:
        text = Text("[x] " if name in self.ticked else "[ ] ")
        text.append_text(safe(_label(name)))
        return text

    def action_mark(self) -> None:
        """Space: tick or untick the highlighted column (Enter does it too)."""
        if self.highlighted is not None:
            self.toggle(self.highlighted)

    def toggle(self, index: int) -> None:
        name = self.names[index]
        self.ticked.symmetric_difference_update({name})
        self.replace_option_prompt_at_index(index, self._prompt(name))

    @property
    def selected(self) -> list[str]:
        return [name for name in self.names if name in self.ticked]


class CallColumnsModal(_Dialog[tuple[str, ...]]):
    """Which columns the table shows (space or Enter ticks; Keep or ctrl+s keeps)."""

    def __init__(self, offered: Sequence[str], chosen: Sequence[str]) -> None:
        super().__init__()
        # the chosen ones first, in their order, then the others
        self.offered = [*chosen, *(name for name in offered if name not in chosen)]
        self.chosen = tuple(chosen)

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static("Columns (kept for this profile)", classes="modal-title")
            yield ColumnPicks(self.offered, self.chosen)
            yield Static("", id="calls-columns-error", classes="field-error")
            with Horizontal(classes="modal-buttons"):
                yield Button("Cancel", id="cancel")
                yield Button("Keep", id="confirm", variant="primary")

    def on_mount(self) -> None:
        self.query_one(ColumnPicks).focus()

    @on(OptionList.OptionSelected, "#calls-columns")
    def _ticked(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self.query_one(ColumnPicks).toggle(event.option_index)

    def read(self) -> tuple[str, ...] | None:
        picked = self.query_one(ColumnPicks).selected
        if not picked:
            self.query_one("#calls-columns-error", Static).update("Tick one column at least")
            return None
        return tuple(picked)


def _label(name: str) -> str:
    from vagent_tui.services.call_columns import BUILT_IN

    return column(name).label if name in BUILT_IN else name


# --------------------------------------------------------------------------- capture


CAPTURE_CHOICES = (
    ("Text (shown)", "text"),
    ("JSON (shown)", "json"),
    ("Transactions (shown)", "transaction"),
    ("pcap (written to the file)", "pcap"),
)


@dataclass(frozen=True)
class CaptureChoice:
    """The capture format asked for, and for a pcap its file."""

    format: str
    path: Path
    """Where a pcap goes (the text formats are shown, not written)."""


class CaptureModal(_Dialog[CaptureChoice]):
    """Which capture of a call: text, JSON, transactions (shown) or pcap (to a file)."""

    def __init__(self, call_id: str, default_name: str) -> None:
        super().__init__()
        self.call_id = call_id
        self.default_name = default_name

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static("Fetch the call's SIP capture", classes="modal-title")
            yield Static(safe(f"SIP Call-ID {self.call_id}"))
            yield FormField(
                "Format",
                Select(CAPTURE_CHOICES, value="text", allow_blank=False, id="calls-capture-format",
                       compact=True),
                name="format",
            )  # fmt: skip
            yield FormField(
                "File", _input("capture-path", self.default_name, "capture.pcap"), name="path",
                hint="pcap only; written readable by you only (0600)",
            )  # fmt: skip
            with Horizontal(classes="modal-buttons"):
                yield Button("Cancel", id="cancel")
                yield Button("Fetch", id="confirm", variant="primary")

    def on_mount(self) -> None:
        self.query_one("#calls-capture-format", Select).focus()

    def read(self) -> CaptureChoice | None:
        value = self.query_one("#calls-capture-format", Select).value
        fmt = value if isinstance(value, str) else "text"
        field = self.query_one("#field-path", FormField)
        text = self.query_one("#calls-capture-path", Input).value.strip()
        path = Path(text).expanduser() if text else Path(self.default_name)
        problem = None
        if fmt == "pcap":
            if not text:
                problem = "a file name is needed for a pcap"
            elif path.is_dir():
                problem = f"{inert(str(path))} is a folder: name a file in it"
            elif not path.absolute().parent.is_dir():
                problem = f"the folder {inert(str(path.absolute().parent))} does not exist"
        field.set_error(problem)
        if problem:
            field.widget.focus()
            return None
        return CaptureChoice(fmt, path)
