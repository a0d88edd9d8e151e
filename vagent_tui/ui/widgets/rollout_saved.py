"""The rollouts kept on disk (`vagent_tui.services.rollout_apply.saved_rollouts`), to resume.

One line per kept plan: when it was last touched, the change, how many accounts are
written and published of those it will change, and whether it belongs to another
platform or key (it cannot be resumed here). The last line opens a plan file (a plan
exported as JSON). Dismissed with the chosen `SavedRollout`, `OPEN_FILE`, or None.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from vagent_tui.services.rollout_apply import SavedRollout
from vagent_tui.ui.built import ClosesItself
from vagent_tui.ui.css import stylesheet
from vagent_tui.ui.dialogs import MODAL_CSS
from vagent_tui.ui.text import inert
from vagent_tui.ui.widgets.option_pages import PagedOptionList

OPEN_FILE = "open-file"


def saved_line(saved: SavedRollout, origin: str) -> str:
    when = datetime.fromtimestamp(saved.modified).strftime("%Y-%m-%d %H:%M")
    state = "finished" if saved.finished else "unfinished"
    elsewhere = "" if saved.origin == origin else " · another platform or key"
    return inert(
        f"{when} · {saved.change} · {saved.written:,}/{saved.to_write:,} "
        f"written, {saved.published:,} published · {state}{elsewhere}",
        limit=300,
    )


class SavedRolloutsModal(
    ClosesItself[SavedRollout | str | None], ModalScreen[SavedRollout | str | None]
):
    """Pick a kept rollout, or open a plan file."""

    SCOPED_CSS: ClassVar[bool] = False
    DEFAULT_CSS = MODAL_CSS + stylesheet(__file__)
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "cancel", "Cancel", id="modal.cancel", tooltip="Cancel"),
    ]

    def __init__(self, saved: Sequence[SavedRollout], origin: str) -> None:
        super().__init__(classes="modal rollout-saved")
        self.saved = list(saved)
        self.origin = origin

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static("Rollouts kept on disk", classes="modal-title")
            note = (
                "Enter loads one: its results come with it, and applying or publishing "
                "again skips what is done."
                if self.saved
                else "No rollout was applied from this machine yet."
            )
            yield Static(note, id="rollout-saved-note", markup=False)
            options = [Option(saved_line(s, self.origin), id=str(i)) for i, s in
                       enumerate(self.saved)]  # fmt: skip
            options.append(Option("Open a plan file (JSON)…", id=OPEN_FILE))
            yield PagedOptionList(*options, id="rollout-saved-list", markup=False)

    def on_mount(self) -> None:
        self.query_one(OptionList).focus()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        chosen = event.option.id
        if chosen == OPEN_FILE:
            self.dismiss(OPEN_FILE)
        elif chosen is not None and chosen.isdecimal():
            self.dismiss(self.saved[int(chosen)])

    def action_cancel(self) -> None:
        self.dismiss(None)
