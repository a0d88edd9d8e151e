"""The one-time display of a newly created token's value (and of a one-time login token).

The platform returns a token's value only when it is created, and the console shows it
only here: selectable, with copy, and a warning that it will not be shown again. The
value is never put in a notification, the status line, a log or a file, and the modal
forgets it (and the in-app clipboard copy of it) when it closes.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar, cast

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Static, TextArea

from vagent_tui.ui.built import ClosesItself
from vagent_tui.ui.css import stylesheet
from vagent_tui.ui.dialogs import MODAL_CSS
from vagent_tui.ui.text import safe
from vagent_tui.ui.textual_compat import forget_copied

if TYPE_CHECKING:
    from vagent_tui.ui.host import Console

WARNING = (
    "Store this value somewhere safe now (a password manager or secret store). "
    "It will not be shown again: the list shows tokens masked."
)


class NewTokenModal(ClosesItself[None], ModalScreen[None]):
    """Shows a new token's full value once; ``y`` copies it, Enter / Esc close."""

    DEFAULT_CSS = MODAL_CSS + stylesheet(__file__)
    SCOPED_CSS: ClassVar[bool] = False  # MODAL_CSS styles the screen itself (.modal)
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("y", "copy", "Copy", id="new-token.copy", tooltip="Copy the token value"),
        Binding(
            "escape", "close", "Close", id="new-token.close", tooltip="Close (not shown again)"
        ),
    ]

    def __init__(
        self,
        value: str,
        *,
        description: str,
        account: str,
        title: str = "New token created",
        warning: str = WARNING,
        what: str = "new token",
    ) -> None:
        super().__init__(classes="modal")
        self._value = value
        self._description = description
        self._account = account
        self._title = title
        self._warning = warning
        self._what = what
        """What the copy is, in the words the copy line says (never the value)."""
        self._copied = False

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(Text(self._title), classes="modal-title")
            yield Static(
                safe(f"{self._description or 'no description'} · {self._account}"),
                id="new-token-for",
            )
            yield Static(safe("⚠ " + self._warning), id="new-token-warning")
            area = TextArea(self._value, read_only=True, id="new-token-value", soft_wrap=True)
            area.cursor_blink = False
            yield area
            with Horizontal(classes="modal-buttons"):
                yield Button("Copy (y)", id="new-token-copy", variant="primary")
                yield Button("I stored it — close", id="new-token-close")

    def on_mount(self) -> None:
        self.query_one("#new-token-copy", Button).focus()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        if event.button.id == "new-token-copy":
            self.action_copy()
        else:
            self.action_close()

    def action_copy(self) -> None:
        if self._value:
            cast("Console", self.app).copy_text(self._value, self._what, secret=True)
            self._copied = True

    def action_close(self) -> None:
        self._forget()
        self.dismiss(None)

    def _forget(self) -> None:
        """Drop every reference this modal holds to the value."""
        if self._copied:
            # Textual keeps a copy for in-app paste; the terminal's clipboard has it.
            forget_copied(self.app, self._value)
        self._value = ""
        area = self.query_one("#new-token-value", TextArea)
        area.load_text("")
