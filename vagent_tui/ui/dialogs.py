"""Modal dialogs: confirm (default cancel), type-to-confirm, a one-field prompt, a review.

ESC only ever cancels: every modal binds escape to dismiss with the cancel value.
Titles and bodies often quote the platform (a label, a URL, a server's message): they
are always shown inert (`vagent_tui.ui.text.safe`), never as markup.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Button, Input, Label, Static

from vagent_tui.inert import inert
from vagent_tui.ui.built import ClosesItself
from vagent_tui.ui.css import stylesheet
from vagent_tui.ui.text import safe, safe_rich

MODAL_CSS = stylesheet(__file__)
"""The frame of every dialog (``.modal``), and the few rules of each dialog."""


class ConfirmModal(ClosesItself[bool], ModalScreen[bool]):
    """Yes / no; the cancel button has the focus, ESC and ``n`` cancel."""

    # MODAL_CSS styles the dialog screen itself (``.modal``): scoped, it would only
    # match ``.modal`` nodes *inside* the dialog and the frame would never show.
    SCOPED_CSS: ClassVar[bool] = False
    DEFAULT_CSS = MODAL_CSS
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "cancel", "Cancel", id="modal.cancel", tooltip="Cancel"),
        Binding("n", "cancel", "No", show=False, id="modal.no", tooltip="Cancel"),
    ]

    def __init__(self, title: str, body: str, *, confirm_label: str = "Confirm") -> None:
        super().__init__(classes="modal")
        self.title_text = title
        self.body_text = body
        self.confirm_label = confirm_label

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(safe(self.title_text), classes="modal-title")
            yield Static(safe(self.body_text, multiline=True), id="confirm-body")
            with Horizontal(classes="modal-buttons"):
                yield Button("Cancel", id="cancel", variant="primary")
                yield Button(self.confirm_label, id="confirm", variant="error")

    def on_mount(self) -> None:
        self.query_one("#cancel", Button).focus()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        self.dismiss(event.button.id == "confirm")

    def action_cancel(self) -> None:
        self.dismiss(False)


class QuitConfirm(ConfirmModal):
    """Quit while real migrations run? (ctrl+q again leaves; ESC stays.)"""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+q", "quit", "Quit", id="quit-confirm.quit", tooltip="Quit all the same"),
    ]

    def action_quit(self) -> None:
        """ctrl+q in the dialog: leave all the same (the app's quit is what asked)."""
        self.dismiss(True)


class PromptModal(ClosesItself[str | None], ModalScreen[str | None]):
    """One text field; a validator returning an error message keeps the dialog open.

    With ``expected`` set, the confirm button stays refused until the text equals it
    (type-to-confirm for dangerous operations).
    """

    # MODAL_CSS styles the dialog screen itself (``.modal``): scoped, it would only
    # match ``.modal`` nodes *inside* the dialog and the frame would never show.
    SCOPED_CSS: ClassVar[bool] = False
    DEFAULT_CSS = MODAL_CSS
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "cancel", "Cancel", id="modal.cancel", tooltip="Cancel"),
    ]

    def __init__(
        self,
        title: str,
        body: str = "",
        *,
        value: str = "",
        placeholder: str = "",
        confirm_label: str = "OK",
        validate: Callable[[str], str | None] | None = None,
        expected: str | None = None,
        password: bool = False,
    ) -> None:
        super().__init__(classes="modal")
        self.title_text = title
        self.body_text = body
        self.initial = value
        self.placeholder = placeholder
        self.confirm_label = confirm_label
        self.validator = validate
        self.expected = expected
        self.password = password

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(safe(self.title_text), classes="modal-title")
            if self.body_text:
                yield Static(safe(self.body_text, multiline=True))
            yield Input(
                value=self.initial,
                placeholder=self.placeholder,
                password=self.password,
                id="prompt-input",
            )
            yield Label("", id="prompt-error", classes="field-error", markup=False)
            with Horizontal(classes="modal-buttons"):
                yield Button("Cancel", id="cancel")
                yield Button(self.confirm_label, id="confirm", variant="primary")

    def on_mount(self) -> None:
        self.query_one("#prompt-input", Input).focus()

    def _error_for(self, text: str) -> str | None:
        if self.expected is not None and text.strip() != self.expected:
            return f"Type {inert(self.expected)} exactly to confirm"
        if self.validator is not None:
            return self.validator(text)
        return None

    def _submit(self) -> None:
        text = self.query_one("#prompt-input", Input).value
        problem = self._error_for(text)
        if problem:
            self.query_one("#prompt-error", Label).update(safe(problem, multiline=True))
            return
        self.dismiss(text)

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self._submit()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        if event.button.id == "confirm":
            self._submit()
        else:
            self.dismiss(None)

    def action_cancel(self) -> None:
        self.dismiss(None)


class ReviewModal(ClosesItself[bool], ModalScreen[bool]):
    """A change shown before it is made: what moved meanwhile, then the diff, then ask.

    Cancel has the focus; ``y`` or the confirm button go ahead. With ``expected`` set
    (a write to live), the confirm button stays refused until that word is typed. With
    ``aside`` (a publish), ``R`` answers no and then runs it (the platform's review of
    what would be published): nothing is sent, the change is asked again afterwards.
    """

    SCOPED_CSS: ClassVar[bool] = False
    DEFAULT_CSS = MODAL_CSS
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "cancel", "Cancel", id="modal.cancel", tooltip="Cancel"),
        Binding("y", "confirm", "Confirm", show=False, id="modal.yes", tooltip="Go ahead"),
        Binding("R", "aside", "Platform review", id="modal.review",
                tooltip="Not now: ask the platform to review it first"),
    ]  # fmt: skip

    def __init__(
        self,
        title: str,
        intro: str,
        diff: Text,
        *,
        meanwhile: Text | None = None,
        confirm_label: str = "Write",
        expected: str | None = None,
        aside: Callable[[], object] | None = None,
    ) -> None:
        super().__init__(classes="modal review")
        self.title_text = title
        self.intro = intro
        self.diff = diff
        self.meanwhile = meanwhile
        self.confirm_label = confirm_label
        self.expected = expected
        self.aside = aside

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "aside":
            return self.aside is not None
        return True

    def action_aside(self) -> None:
        if self.aside is not None:
            self.dismiss(False)
            self.app.call_later(self.aside)

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(safe(self.title_text), classes="modal-title")
            if self.intro:
                yield Static(safe(self.intro, multiline=True), id="review-intro")
            with VerticalScroll(id="review-body"):
                if self.meanwhile is not None:
                    yield Static(
                        "⚠ Staging changed since you looked (someone else?):",
                        classes="review-warning",
                    )
                    yield Static(safe_rich(self.meanwhile), id="review-meanwhile")
                    yield Static("The change, against staging as it is now:", classes="review-then")
                yield Static(safe_rich(self.diff), id="review-diff")
            if self.expected is not None:
                yield Input(placeholder=f"type {inert(self.expected)} to confirm", id="review-word")
            yield Label("", id="review-error", classes="field-error", markup=False)
            with Horizontal(classes="modal-buttons"):
                yield Button("Cancel", id="cancel", variant="primary")
                yield Button(self.confirm_label, id="confirm", variant="error")

    def on_mount(self) -> None:
        if self.expected is not None:
            self.query_one("#review-word", Input).focus()
        else:
            self.query_one("#cancel", Button).focus()

    def action_confirm(self) -> None:
        if self.expected is not None:
            typed = self.query_one("#review-word", Input).value.strip()
            if typed != self.expected:
                self.query_one("#review-error", Label).update(
                    safe(f"Type {self.expected} exactly to confirm")
                )
                return
        self.dismiss(True)

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.action_confirm()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        if event.button.id == "confirm":
            self.action_confirm()
        else:
            self.dismiss(False)

    def action_cancel(self) -> None:
        self.dismiss(False)


class DiffModal(ClosesItself[None], ModalScreen[None]):
    """A diff to read: it scrolls; ESC or enter close it."""

    SCOPED_CSS: ClassVar[bool] = False
    DEFAULT_CSS = MODAL_CSS
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "close", "Close", id="modal.close", tooltip="Close"),
    ]

    def __init__(self, title: str, note: str, diff: Text) -> None:
        super().__init__(classes="modal review")
        self.title_text = title
        self.note = note
        self.diff = diff

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(safe(self.title_text), classes="modal-title")
            if self.note:
                yield Static(safe(self.note, multiline=True), id="review-intro")
            with VerticalScroll(id="review-body"):
                yield Static(safe_rich(self.diff), id="review-diff")
            with Horizontal(classes="modal-buttons"):
                yield Button("Close", id="close", variant="primary")

    def on_mount(self) -> None:
        self.query_one("#review-body").focus()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        self.dismiss(None)

    def action_close(self) -> None:
        self.dismiss(None)


class EditorModal(ClosesItself[str | None], ModalScreen[str | None]):
    """Multi-line text to edit: ``ctrl+s`` saves, ESC cancels (the text is then lost)."""

    SCOPED_CSS: ClassVar[bool] = False
    DEFAULT_CSS = MODAL_CSS
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "cancel", "Cancel", id="modal.cancel", tooltip="Cancel"),
        Binding("ctrl+s", "save", "Save", id="modal.save", tooltip="Save the text"),
    ]

    def __init__(self, title: str, intro: str, text: str, *, placeholder: str = "") -> None:
        super().__init__(classes="modal editor")
        self.title_text = title
        self.intro = intro
        self.text = text
        self.placeholder = placeholder

    def compose(self) -> ComposeResult:
        from textual.widgets import TextArea

        with Vertical():
            yield Static(safe(self.title_text), classes="modal-title")
            if self.intro:
                yield Static(safe(self.intro, multiline=True))
            # Never cut (a cut would be saved): the caller only opens text shown as it is.
            limit = max(len(self.text), 200_000)
            area = TextArea(
                inert(self.text, multiline=True, limit=limit), id="editor-area", soft_wrap=True
            )
            area.placeholder = inert(self.placeholder, multiline=True)
            yield area
            with Horizontal(classes="modal-buttons"):
                yield Button("Cancel", id="cancel")
                yield Button("Save (ctrl+s)", id="confirm", variant="primary")

    def on_mount(self) -> None:
        self.query_one("#editor-area").focus()

    def action_save(self) -> None:
        from textual.widgets import TextArea

        self.dismiss(self.query_one("#editor-area", TextArea).text)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        if event.button.id == "confirm":
            self.action_save()
        else:
            self.dismiss(None)

    def action_cancel(self) -> None:
        self.dismiss(None)


class TextModal(ClosesItself[None], ModalScreen[None]):
    """Selectable text (the fallback of copy, and long values)."""

    # MODAL_CSS styles the dialog screen itself (``.modal``): scoped, it would only
    # match ``.modal`` nodes *inside* the dialog and the frame would never show.
    SCOPED_CSS: ClassVar[bool] = False
    DEFAULT_CSS = MODAL_CSS
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "close", "Close", id="modal.close", tooltip="Close"),
    ]

    def __init__(self, title: str, text: str, *, note: str = "") -> None:
        super().__init__(classes="modal")
        self.title_text = title
        self.text = text
        self.note = note

    def compose(self) -> ComposeResult:
        from textual.widgets import TextArea

        with Vertical():
            yield Static(safe(self.title_text), classes="modal-title")
            if self.note:
                yield Static(safe(self.note, multiline=True))
            # Control characters would reach the terminal from a TextArea too: the text
            # to select is shown inert (a value that holds them is not one to paste).
            yield TextArea(inert(self.text, multiline=True), read_only=True, id="text-modal-area")
            with Horizontal(classes="modal-buttons"):
                yield Button("Close", id="close", variant="primary")

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        self.dismiss(None)

    def action_close(self) -> None:
        self.dismiss(None)
