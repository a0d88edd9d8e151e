"""Pick the agent accounts a member is limited to, from the tree, with checkboxes.

The invite and change forms of Members open it: every agent account below the member's
organization (or reseller, partner) that the key can see, each under the names above it,
the ones already given checked. Space checks, Keep keeps the choice, esc cancels;
nothing checked means no restriction (every account). Names are inert text.
"""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, SelectionList, Static
from textual.widgets.selection_list import Selection

from vagent_tui.services.member_reach import Choices
from vagent_tui.ui.built import ClosesItself
from vagent_tui.ui.css import stylesheet
from vagent_tui.ui.dialogs import MODAL_CSS
from vagent_tui.ui.text import inert, safe
from vagent_tui.words import counted


class AccountPickerModal(ClosesItself[list[int] | None], ModalScreen[list[int] | None]):
    """Checkboxes over the agent accounts of ``choices``; dismisses with the ids checked."""

    SCOPED_CSS: ClassVar[bool] = False  # MODAL_CSS styles the screen itself (.modal)
    DEFAULT_CSS = MODAL_CSS + stylesheet(__file__)
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "cancel", "Cancel", id="picker.cancel", tooltip="Keep the accounts"),
    ]

    def __init__(self, choices: Choices, checked: list[int]) -> None:
        super().__init__(classes="modal")
        self.choices = choices
        self.checked = checked

    def compose(self) -> ComposeResult:
        choices = self.choices
        known = {c.id for c in choices.accounts}
        with Vertical():
            yield Static(
                safe(f"Accounts of {choices.home_name} this member may act on"),
                classes="modal-title",
            )
            items = [
                Selection(self._prompt(i, c.id in self.checked), c.id, c.id in self.checked)
                for i, c in enumerate(choices.accounts)
            ]
            yield SelectionList[int](*items, id="picker-list", compact=True)
            unknown = [i for i in self.checked if i not in known]
            note = "space checks or unchecks, tab then Keep; none checked: every account"
            if not choices.complete:
                note += f"; the tree is larger: only the first {counted(len(known), 'account')}"
            if unknown:
                note += f"; not below it, left out: {', '.join(map(str, unknown))}"
            yield Static(safe(note), id="picker-note")
            with Horizontal(classes="modal-buttons"):
                yield Button("Cancel", id="picker-cancel")
                yield Button("Keep", id="picker-keep", variant="primary")

    def on_mount(self) -> None:
        self.query_one(SelectionList).focus()

    def _prompt(self, index: int, checked: bool) -> Text:
        """A line: a mark that says checked without colour, the path, the name, the id."""
        choice = self.choices.accounts[index]
        prompt = Text("✓ " if checked else "  ", style="bold")
        if choice.path:
            prompt.append(f"{inert(choice.path)} › ", style="dim")
        prompt.append(inert(choice.name))
        prompt.append(f" #{inert(choice.id)}", style="dim")
        return prompt

    @on(SelectionList.SelectedChanged)
    def _marks(self, event: SelectionList.SelectedChanged[int]) -> None:
        listed = event.selection_list
        chosen = set(listed.selected)
        for index, choice in enumerate(self.choices.accounts):
            listed.replace_option_prompt_at_index(index, self._prompt(index, choice.id in chosen))

    @property
    def picked(self) -> list[int]:
        """The ids checked, in the tree's order."""
        chosen = set(self.query_one(SelectionList).selected)
        return [c.id for c in self.choices.accounts if c.id in chosen]

    @on(Button.Pressed)
    def _button(self, event: Button.Pressed) -> None:
        event.stop()
        if event.button.id == "picker-keep":
            self.dismiss(self.picked)
        else:
            self.action_cancel()

    def action_cancel(self) -> None:
        self.dismiss(None)
