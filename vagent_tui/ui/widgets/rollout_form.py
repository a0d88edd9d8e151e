"""The rollout's form: one change (a voice, functions, settings) and the accounts it goes to.

Each field is checked as the user submits (`vagent_tui.services.rollout_pick.check_request`,
which ``vagent-tui rollout plan`` checks its options with too); a bad
field shows its message under it and the form stays open with everything typed. A
voice or a function the sample account's lists do not hold at all is refused at its
field, and so is a model the platform does not offer: no account could take it.
Enter in any field, or the Plan button, submits.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.suggester import Suggester
from textual.widgets import Button, Checkbox, Input, Label, Static

from vagent_tui.services.rollout_pick import Catalog as Catalog
from vagent_tui.services.rollout_pick import RolloutRequest as RolloutRequest
from vagent_tui.services.rollout_pick import check_request as check_request
from vagent_tui.services.settings import BY_NAME
from vagent_tui.ui.built import ClosesItself, when_built
from vagent_tui.ui.css import stylesheet
from vagent_tui.ui.dialogs import MODAL_CSS
from vagent_tui.ui.text import safe
from vagent_tui.ui.widgets.form import FormField


class LastWord(Suggester):
    """Completes the last name of a list (``a on, b`` → ``a on, bookAppointment``)."""

    def __init__(self, names: Sequence[str], separators: str = ",;") -> None:
        super().__init__(use_cache=False, case_sensitive=True)
        self.names = sorted(set(names))
        self.separators = separators

    async def get_suggestion(self, value: str) -> str | None:
        cut = max(value.rfind(s) for s in self.separators) + 1
        head, word = value[:cut], value[cut:]
        stem = word.lstrip()
        if not stem or " " in stem or "=" in stem:
            return None
        for name in self.names:
            if name.lower().startswith(stem.lower()) and name != stem:
                return head + word[: len(word) - len(stem)] + name
        return None


class RolloutForm(ClosesItself[RolloutRequest | None], ModalScreen[RolloutRequest | None]):
    """Choose the change and the accounts; dismissed with the request, or None (ESC)."""

    SCOPED_CSS: ClassVar[bool] = False
    DEFAULT_CSS = MODAL_CSS + stylesheet(__file__)
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "cancel", "Cancel", id="modal.cancel", tooltip="Cancel"),
    ]

    def __init__(
        self, previous: RolloutRequest, *, catalog: Catalog, under: str, marked: int = 0
    ) -> None:
        super().__init__(classes="modal rollout-form")
        self.previous = previous
        self.catalog = catalog
        self.under = under
        self.marked = marked

    def compose(self) -> ComposeResult:
        p = self.previous
        with Vertical():
            yield Static("Roll out a change", classes="modal-title")
            to = f"To the agent accounts below {self.under}"
            if self.marked:  # Fleet's rows are the key's: the target does not narrow them
                to += f", or only the {self.marked:,} marked in Fleet (whatever the target)"
            yield Static(
                safe(f"{to}. Nothing is written: the plan shows what each account would "
                     "get.", multiline=True),
                id="rollout-form-intro",
            )  # fmt: skip
            fields = (
                ("Voice", "voice", p.voice, "voice id, e.g. openai-ash",
                 LastWord(self.catalog.voices, separators=" ")),
                ("Functions", "functions", p.functions, "bookAppointment on, transferCall off",
                 LastWord(self.catalog.functions)),
                ("Settings", "settings", p.settings, "speakingTimeout=900; agentLang=en-US",
                 LastWord(list(BY_NAME), separators=";")),
                ("Accounts", "accounts", p.accounts, "all; or words, voice:, engine:, lang:",
                 None),
            )  # fmt: skip
            for label, name, value, hint, suggester in fields:
                yield FormField(
                    label,
                    Input(value, placeholder=hint, compact=True, suggester=suggester,
                          id=f"rollout-{name}"),
                    name=name,
                )  # fmt: skip
            if self.marked:
                yield Checkbox(
                    f"Only the {self.marked:,} accounts marked in Fleet",
                    value=p.marked_only,
                    compact=True,
                    id="rollout-marked",
                )
            yield Label("", id="rollout-form-error", classes="field-error", markup=False)
            with Horizontal(classes="modal-buttons"):
                yield Button("Cancel", id="cancel")
                yield Button("Plan", id="confirm", variant="primary")

    def on_mount(self) -> None:
        self.query_one("#rollout-voice", Input).focus()

    def take_catalog(self, catalog: Catalog) -> None:
        """The sample account's lists, read after the form opened: its completions and
        checks follow them; every field keeps what is typed in it. A form not built yet
        (the lists came while it was being pushed) makes its fields with them."""
        self.catalog = catalog
        when_built(self, self._suggest)

    def _suggest(self) -> None:
        catalog = self.catalog
        self.query_one("#rollout-voice", Input).suggester = LastWord(catalog.voices, " ")
        self.query_one("#rollout-functions", Input).suggester = LastWord(catalog.functions)

    def _text(self, name: str) -> str:
        return self.query_one(f"#rollout-{name}", Input).value

    def submit(self) -> None:
        errors, request = check_request(
            self._text("voice"), self._text("functions"), self._text("settings"),
            self._text("accounts"), self.catalog,
        )  # fmt: skip
        for form_field in self.query(FormField):
            form_field.set_error(errors.get(form_field.name or ""))
        self.query_one("#rollout-form-error", Label).update(safe(errors.get("", "")))
        if request is None:
            bad = next((f for f in self.query(FormField) if f.name in errors), None)
            if bad is not None:
                bad.widget.focus()
            return
        marked = self.query("#rollout-marked")
        only = bool(marked) and self.query_one("#rollout-marked", Checkbox).value
        self.dismiss(
            RolloutRequest(request.voice, request.functions, request.settings, request.accounts,
                           only, request.change, request.account_filter)
        )  # fmt: skip

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.submit()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        if event.button.id == "confirm":
            self.submit()
        else:
            self.dismiss(None)

    def action_cancel(self) -> None:
        self.dismiss(None)
