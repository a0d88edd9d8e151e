"""Modal dialogs: the questions (yes / no, type-to-confirm, one field, a review), a diff
to read, text to edit or select.

Every question is a `Question` and answers to the same keys: ``y`` or the confirm
button go ahead, ``n`` and ESC cancel, and ESC only ever cancels (every other dialog
binds escape to close or cancel too). In a text field ``y`` and ``n`` are letters.
Titles and bodies often quote the platform (a label, a URL, a server's message): they
are always shown inert (`vagent_tui.ui.text.safe`), never as markup.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import ClassVar, TypeVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widget import Widget
from textual.widgets import Button, Input, Label, Static
from textual.widgets.button import ButtonVariant

from vagent_tui.inert import inert
from vagent_tui.ui.built import ClosesItself
from vagent_tui.ui.css import stylesheet
from vagent_tui.ui.fields import is_text_field
from vagent_tui.ui.footer import KeysFooter
from vagent_tui.ui.text import safe, safe_rich

MODAL_CSS = stylesheet(__file__)
"""The frame of every dialog (``.modal``), and the few rules of each dialog."""


R = TypeVar("R")


class Question(ClosesItself[R], ModalScreen[R]):
    """Every question the console asks, with one set of keys.

    ``y`` or the confirm button go ahead; ``n`` and ESC cancel; ESC only ever cancels.
    Where a text field has the focus (a name typed to confirm, a value asked for), ``y``
    and ``n`` are letters typed into it and Enter is the confirm button; with the focus
    off the field (Tab to the buttons) ``y`` and ``n`` answer again. What is typed is
    checked whichever way the answer comes. The keys in force are said beside the
    buttons and in the dialog's footer, and change with the focus.

    A question names what it goes ahead with (``confirm_label``), composes what it
    shows (`compose_question`), says what going ahead answers (`action_confirm`) and
    what cancelling answers (`no_answer`).
    """

    # MODAL_CSS styles the dialog screen itself (``.modal``): scoped, it would only
    # match ``.modal`` nodes *inside* the dialog and the frame would never show.
    SCOPED_CSS: ClassVar[bool] = False
    DEFAULT_CSS = MODAL_CSS
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("y", "confirm", "Go ahead", id="modal.yes", tooltip="Go ahead"),
        Binding("n", "no", "No", id="modal.no", tooltip="Cancel"),
        Binding("escape", "cancel", "Cancel", id="modal.cancel", tooltip="Cancel"),
    ]
    CANCEL_VARIANT: ClassVar[ButtonVariant] = "primary"
    CONFIRM_VARIANT: ClassVar[ButtonVariant] = "error"

    def __init__(self, title: str, *, confirm_label: str, classes: str = "modal") -> None:
        super().__init__(classes=classes)
        self.title_text = title
        self.confirm_label = confirm_label

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(safe(self.title_text), classes="modal-title")
            yield from self.compose_question()
            with Horizontal(classes="modal-buttons"):
                yield Static("", id="question-keys")
                yield Button("Cancel", id="cancel", variant=self.CANCEL_VARIANT)
                yield Button(self.confirm_label, id="confirm", variant=self.CONFIRM_VARIANT)
        yield KeysFooter(show_hint=False)

    def compose_question(self) -> ComposeResult:
        """What the question shows between its title and its buttons."""
        yield from ()

    def first_focus(self) -> Widget:
        """What has the focus when the question opens: Cancel, unless overridden."""
        return self.query_one("#cancel", Button)

    def on_mount(self) -> None:
        self.bindings_updated_signal.subscribe(self, self._say_keys)
        self.first_focus().focus()
        self._say_keys(self)

    def typing(self) -> bool:
        """Whether the focus is in a text field, where ``y`` and ``n`` are letters."""
        return is_text_field(self.focused)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        # False, not None: while typing, y and n are not keys of the question at all
        # (the footer leaves them out), only letters in the field.
        if action in ("confirm", "no"):
            return not self.typing()
        return True

    def _say_keys(self, _screen: object) -> None:
        """The keys in force beside the buttons, as the footer shows them."""
        if not self.is_attached:
            return
        keys: dict[str, list[str]] = {}
        for active in self.active_bindings.values():
            keys.setdefault(active.binding.action, []).append(
                self.app.get_key_display(active.binding)
            )
        # While a text field has the focus, y is a letter there and Enter goes ahead.
        go = "/".join(keys.get("confirm", [])) or "Enter"
        stop = "/".join([*keys.get("no", []), *keys.get("cancel", [])])
        said = Text()
        said.append(inert(go), style="bold")  # keys: a profile's keymap may name them
        said.append(f" {inert(self.confirm_label)}")
        if stop:  # a line each: a narrow dialog never parts a key from its word
            said.append("\n")
            said.append(inert(stop), style="bold")
            said.append(" Cancel")
        self.query_one("#question-keys", Static).update(said)

    def action_confirm(self) -> None:
        """Go ahead (``y``, the confirm button, Enter in a field): dismiss with the answer."""
        raise NotImplementedError

    def no_answer(self) -> R:
        """What cancelling answers."""
        raise NotImplementedError

    def action_no(self) -> None:
        self.action_cancel()

    def action_cancel(self) -> None:
        self.dismiss(self.no_answer())

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        if event.button.id == "confirm":
            self.action_confirm()
        else:
            self.action_cancel()


class ConfirmModal(Question[bool]):
    """Yes / no; the cancel button has the focus."""

    def __init__(self, title: str, body: str, *, confirm_label: str = "Confirm") -> None:
        super().__init__(title, confirm_label=confirm_label)
        self.body_text = body

    def compose_question(self) -> ComposeResult:
        yield Static(safe(self.body_text, multiline=True), id="confirm-body")

    def action_confirm(self) -> None:
        self.dismiss(True)

    def no_answer(self) -> bool:
        return False


class QuitConfirm(ConfirmModal):
    """Quit while real migrations run? (ctrl+q again leaves too; ESC stays.)"""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+q", "quit", "Quit", id="quit-confirm.quit", tooltip="Quit all the same"),
    ]

    def action_quit(self) -> None:
        """ctrl+q in the dialog: leave all the same (the app's quit is what asked)."""
        self.dismiss(True)


class PromptModal(Question[str | None]):
    """One text field; a validator returning an error message keeps the dialog open.

    With ``expected`` set, the confirm button stays refused until the text equals it
    (type-to-confirm for dangerous operations). The field has the focus: Enter there
    goes ahead, ``y`` and ``n`` are letters of the text.
    """

    CANCEL_VARIANT: ClassVar[ButtonVariant] = "default"
    CONFIRM_VARIANT: ClassVar[ButtonVariant] = "primary"

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
    ) -> None:
        super().__init__(title, confirm_label=confirm_label)
        self.body_text = body
        self.initial = value
        self.placeholder = placeholder
        self.validator = validate
        self.expected = expected

    def compose_question(self) -> ComposeResult:
        if self.body_text:
            yield Static(safe(self.body_text, multiline=True))
        yield Input(
            value=self.initial,
            placeholder=self.placeholder,
            id="prompt-input",
        )
        yield Label("", id="prompt-error", classes="field-error", markup=False)

    def first_focus(self) -> Widget:
        return self.query_one("#prompt-input", Input)

    def _error_for(self, text: str) -> str | None:
        if self.expected is not None and text.strip() != self.expected:
            return f"Type {inert(self.expected)} exactly to confirm"
        if self.validator is not None:
            return self.validator(text)
        return None

    def action_confirm(self) -> None:
        text = self.query_one("#prompt-input", Input).value
        problem = self._error_for(text)
        if problem:
            self.query_one("#prompt-error", Label).update(safe(problem, multiline=True))
            return
        self.dismiss(text)

    def no_answer(self) -> str | None:
        return None

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.action_confirm()


def spend_question(
    what: str, thing: str, cost: str, *, effect: str = "This spends money."
) -> PromptModal:
    """The question before a key that spends money (`vagent_tui.ui.safety.Does.SPENDS`):
    what it costs, in the action's words, and going ahead refused until the thing bought
    is typed (``what``: "Buy number"; ``thing``: "+14155550100"; ``cost``: "$1.15 a
    month, billed to account 42"; ``effect``: what it does to the bill)."""
    return PromptModal(
        f"{what} {thing}?",
        f"{what} {thing}: {cost}.\n\n{effect} It is sent once; if no answer "
        f"comes, what the platform holds is read back before anything else.\n\n"
        f"Type {thing} to go ahead.",
        placeholder=thing,
        confirm_label=what,
        expected=thing,
    )


class ReviewModal(Question[bool]):
    """A change shown before it is made: what moved meanwhile, then the diff, then ask.

    Cancel has the focus. With ``expected`` set (a write to live), the field to type that
    word has it, and going ahead is refused until the word is typed. With ``aside`` (a
    publish), ``R`` answers no and then runs it (the platform's review of what would be
    published): nothing is sent, the change is asked again afterwards.
    """

    BINDINGS: ClassVar[list[BindingType]] = [
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
        super().__init__(title, confirm_label=confirm_label, classes="modal review")
        self.intro = intro
        self.diff = diff
        self.meanwhile = meanwhile
        self.expected = expected
        self.aside = aside

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "aside":
            return self.aside is not None
        return super().check_action(action, parameters)

    def action_aside(self) -> None:
        if self.aside is not None:
            self.dismiss(False)
            self.app.call_later(self.aside)

    def compose_question(self) -> ComposeResult:
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

    def first_focus(self) -> Widget:
        if self.expected is not None:
            return self.query_one("#review-word", Input)
        return super().first_focus()

    def action_confirm(self) -> None:
        if self.expected is not None:
            typed = self.query_one("#review-word", Input).value.strip()
            if typed != self.expected:
                self.query_one("#review-error", Label).update(
                    safe(f"Type {self.expected} exactly to confirm")
                )
                return
        self.dismiss(True)

    def no_answer(self) -> bool:
        return False

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.action_confirm()


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


TEXT_KEPT = "Not sent. Your text is kept: edit it and save again, or ESC to drop it."
"""An `EditorModal`'s note when it opens again on the text of a review answered no."""


class EditorModal(ClosesItself[str | None], ModalScreen[str | None]):
    """Multi-line text to edit: ``ctrl+s`` saves, ESC cancels (the text is then lost)."""

    SCOPED_CSS: ClassVar[bool] = False
    DEFAULT_CSS = MODAL_CSS
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "cancel", "Cancel", id="modal.cancel", tooltip="Cancel"),
        Binding("ctrl+s,ctrl+o", "save", "Save", id="modal.save", tooltip="Save the text"),
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
