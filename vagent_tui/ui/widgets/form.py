"""Form pieces: a labelled field with its own error line, and pydantic error mapping.

A form validates with the request model of `vagent_tui.api.models` before anything is
sent; each error is shown under the field it concerns (`show_errors`). What the
user typed is never cleared by a failed request: only a success resets a form.
"""

from __future__ import annotations

from collections.abc import Iterable

from pydantic import ValidationError
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.widget import Widget
from textual.widgets import Label

from vagent_tui.ui.css import stylesheet
from vagent_tui.ui.text import safe

_NOTHING = object()


def _value_of(widget: Widget) -> object:
    """What a field's widget holds (an Input's or Select's value, a TextArea's text)."""
    text = getattr(widget, "text", None)
    return text if isinstance(text, str) else getattr(widget, "value", None)


class FormField(Vertical):
    """A label, one input widget (Input, Select, Switch...) and an error line.

    The field's ``name`` is the request model's field name (snake_case) so that
    validation errors land at the right place.
    """

    DEFAULT_CSS = stylesheet(__file__)

    def __init__(self, label: str, widget: Widget, *, name: str, hint: str = "") -> None:
        super().__init__(name=name, id=f"field-{name.replace('_', '-')}")
        self.label_text = label + (f"  ({hint})" if hint else "")
        self.widget = widget
        self._refused: object = _NOTHING
        """The value the error under the field was said of."""

    def compose(self) -> ComposeResult:
        yield Label(self.label_text, classes="field-label", markup=False)
        yield self.widget
        yield Label("", classes="field-error", markup=False)

    def set_error(self, message: str | None) -> None:
        self.set_class(bool(message), "-invalid")
        self.query_one(".field-error", Label).update(safe(message or ""))
        self._refused = _value_of(self.widget) if message else _NOTHING

    def _edited(self) -> None:
        """The value changed since it was refused: its error no longer says what is
        typed there, and goes (the next check says it again if it still holds)."""
        if self.has_class("-invalid") and _value_of(self.widget) != self._refused:
            self.set_error(None)

    def on_input_changed(self) -> None:
        self._edited()

    def on_text_area_changed(self) -> None:
        self._edited()

    def on_select_changed(self) -> None:
        self._edited()

    def on_checkbox_changed(self) -> None:
        self._edited()

    @property
    def error(self) -> str:
        if not self.has_class("-invalid"):
            return ""
        return str(self.query_one(".field-error", Label).content)


def errors_by_field(error: ValidationError | ValueError) -> dict[str, str]:
    """``{field name: message}`` from a pydantic error (first message per field).

    Field names are the model's Python names; errors without a location go under
    ``""``. Messages drop pydantic's "Value error, " prefix.
    """
    if not isinstance(error, ValidationError):
        return {"": str(error)}
    out: dict[str, str] = {}
    for item in error.errors(include_url=False):
        loc = item.get("loc") or ("",)
        name = str(loc[0])
        message = str(item.get("msg", "invalid value"))
        message = message.removeprefix("Value error, ")
        if item.get("type") == "missing":
            message = "required"
        out.setdefault(name, message)
    return out


def show_errors(fields: Iterable[FormField], errors: dict[str, str]) -> list[str]:
    """Put each error under its field; return the errors no field took."""
    fields = list(fields)
    taken = set()
    for field in fields:
        message = errors.get(field.name or "")
        field.set_error(message)
        if message:
            taken.add(field.name)
    return [f"{k}: {v}" if k else v for k, v in errors.items() if k not in taken]


def first_invalid(fields: Iterable[FormField]) -> FormField | None:
    return next((f for f in fields if f.has_class("-invalid")), None)
