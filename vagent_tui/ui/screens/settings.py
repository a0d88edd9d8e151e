"""The settings form of the selected agent's staging: every scalar setting, checked at its field.

The form starts from staging (or live, when staging is empty). ``ctrl+s`` checks every
changed field (`vagent_tui.services.settings`): a bad value is refused at its field and
nothing is sent; otherwise only the changed settings go to the staging flow, which
shows their diff, asks, and writes. A refusal or a platform error lands at the field it
names and everything typed stays. ESC closes the form, asking first when edits would
be lost.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, ClassVar

from textual import work
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.widget import Widget
from textual.widgets import Input, Label, Select, Static, TextArea

from vagent_tui.api.errors import ApiError
from vagent_tui.inert import MULTILINE_LIMIT
from vagent_tui.services.changes import Change
from vagent_tui.services.settings import BY_NAME, SETTINGS, Setting, form_text, parse_value
from vagent_tui.services.staging import read_context
from vagent_tui.ui.dialogs import ConfirmModal
from vagent_tui.ui.safety import WRITES, Key
from vagent_tui.ui.screens.base import BaseScreen, who_of
from vagent_tui.ui.screens.staging_flow import Staged, staging_write
from vagent_tui.ui.text import inert, safe
from vagent_tui.ui.widgets.form import FormField, first_invalid, show_errors
from vagent_tui.words import counted

_BOOL = [("true", "true"), ("false", "false")]


def shown_text(setting: Setting, value: Any) -> str:
    """A value as its field shows it: inert, never cut (the field would send the cut)."""
    text = form_text(setting.name, value)
    return inert(text, multiline=setting.kind == "long", limit=max(len(text), MULTILINE_LIMIT))


def editable(setting: Setting, value: Any) -> bool:
    """Whether the field can show the value as it is (no control or invisible character,
    no newline in a one-line field): otherwise editing would send the inert picture."""
    return shown_text(setting, value) == form_text(setting.name, value)


def _editor(setting: Setting, value: Any) -> Widget:
    text = shown_text(setting, value)
    wid = f"set-{setting.name}"
    widget: Widget
    if setting.kind == "bool":
        select: Select[str] = Select(_BOOL, value=text or Select.NULL, allow_blank=not text,
                                     id=wid, compact=True)  # fmt: skip
        widget = select
    elif setting.kind == "long":
        widget = TextArea(text, id=wid, soft_wrap=True, classes="settings-long")
    else:
        widget = Input(text, id=wid, compact=True,
                       type="integer" if setting.kind == "int" else "text")  # fmt: skip
    widget.disabled = not editable(setting, value)
    return widget


def _text_of(widget: Widget) -> str:
    if isinstance(widget, TextArea):
        return widget.text
    if isinstance(widget, Select):
        value = widget.value
        return "" if value is Select.NULL else str(value)
    if isinstance(widget, Input):
        return widget.value
    raise TypeError(f"not a settings editor: {widget!r}")


class SettingsScreen(BaseScreen):
    """A form over the agent's staging settings; writes only what changed, after review."""

    TITLE: ClassVar[str] = "Agent settings"
    CSS_PATH = "settings.tcss"
    HORIZONTAL_BREAKPOINTS = [(0, "-narrow"), (110, "-wide")]
    BINDINGS: ClassVar[list[BindingType]] = [
        Key("ctrl+s", "save", "Review & save", id="settings.save", priority=True, does=WRITES,
                tooltip="Check every changed field, then review and write them to staging"),
        Binding("escape", "close", "Close", id="settings.close",
                tooltip="Close the form (asks first when edits would be lost)"),
    ]  # fmt: skip

    def __init__(self, prefill: Mapping[str, str] | None = None) -> None:
        super().__init__()
        self.prefill = dict(prefill or {})
        """Text to type into fields once the form is built (a review's suggestion taken):
        an edit like any other, written only after the review and confirmation."""
        self.base: dict[str, Any] | None = None
        """The fields' starting point (staging, or live when it is empty): what an edit is
        measured against, and what the review compares staging with (someone else's
        change made since is shown there, never written back)."""
        self.loaded_target: int | None = None
        self.built = False
        self.saved_line = ""
        """What the status line said of the write that closed the form ("": none)."""

    def compose_body(self) -> Iterable[Widget]:
        yield Static("", id="settings-intro")
        yield VerticalScroll(id="settings-form")
        yield Label("", id="settings-error", classes="field-error", markup=False)

    # ------------------------------------------------------------------ loading

    def reload(self) -> None:
        self.load_base()

    @work(exclusive=True, group="open-settings", exit_on_error=False)
    async def load_base(self) -> None:
        conn = self.connection
        if not conn.is_agent_selected:
            self.status.error("Select an agent account on the Scope screen (1)", retry_key=None)
            return
        ok, context = await self.load(
            lambda c: read_context(c.api, c.target_id), note="Reading the staging configuration"
        )
        if not ok or context is None:
            return
        if self.built and self.loaded_target == conn.target_id:
            # The fields keep what was typed, and their starting point: a change someone
            # else made meanwhile shows in the review, it is not taken for an edit.
            moved = (
                "" if context.base == self.base else " It changed meanwhile: the review shows how."
            )
            self.status.info(f"Staging read again; what you typed is kept.{moved}")
            return
        self.base = context.base
        self.loaded_target = conn.target_id
        source = "staging" if context.staging is not None else "live (staging is empty)"
        self.query_one("#settings-intro", Static).update(safe(
            f"Settings of {who_of(self)}, from its {source}. ctrl+s checks the changed "
            "fields, shows their diff and writes them to staging; live changes only when "
            "you publish (Agent screen, P). The voice is set from Voices (3)."
        ))  # fmt: skip
        form = self.query_one("#settings-form", VerticalScroll)
        await form.remove_children()
        widgets: list[Widget] = []
        group = ""
        for setting in SETTINGS:
            if setting.group != group:
                group = setting.group
                widgets.append(Static(safe(group), classes="settings-group"))
            value = context.base.get(setting.name)
            hint = setting.hint
            if not editable(setting, value):
                hint = "holds characters this form cannot edit safely (shown as ␛, ⏎, ⟨U+…⟩)"
            editor = _editor(setting, value)
            widgets.append(FormField(setting.label, editor, name=setting.name, hint=hint))
        await form.mount_all(widgets)
        self.built = True
        self.status.info(f"{counted(len(SETTINGS), 'setting')} · ctrl+s to review and save")
        if self.prefill:
            self._type_prefill()
        # The form, not its first field: 1-0 stay the screen keys until the user chooses
        # a field (tab, a click).
        form.focus()

    def _type_prefill(self) -> None:
        taken = []
        for name, text in self.prefill.items():
            matches = self.query(f"#set-{name}")
            field = matches.first() if matches else None
            if isinstance(field, TextArea) and not field.disabled:
                field.load_text(text)
            elif isinstance(field, Input) and not field.disabled:
                field.value = text
            else:
                continue
            taken.append(BY_NAME[name].label)
        self.prefill = {}
        if taken:
            self.status.info(
                f"Suggestion typed into {', '.join(taken)}: edit it if you like; ctrl+s shows "
                "the diff and asks before writing it to staging"
            )

    # ------------------------------------------------------------------ saving

    def _fields(self) -> list[FormField]:
        return list(self.query(FormField).results(FormField))

    def edited(self) -> tuple[dict[str, Any], dict[str, str]]:
        """The changed settings and their values, and the errors of the changed fields."""
        base = self.base or {}
        values: dict[str, Any] = {}
        errors: dict[str, str] = {}
        for field in self._fields():
            name = field.name or ""
            if field.widget.disabled:
                continue  # not editable here: never sent
            text = _text_of(field.widget)
            if text == shown_text(BY_NAME[name], base.get(name)):
                continue  # untouched
            try:
                value = parse_value(name, text)
            except ValueError as exc:
                errors[name] = str(exc)
                continue
            if value != base.get(name):
                values[name] = value
        return values, errors

    def action_save(self) -> None:
        if not self.built:
            self.status.info("The form is not loaded yet")
            return
        values, errors = self.edited()
        rest = show_errors(self._fields(), errors)
        self.query_one("#settings-error", Label).update(safe("; ".join(rest)))
        if errors:
            invalid = first_invalid(self._fields())
            if invalid is not None:
                invalid.widget.focus()
                invalid.scroll_visible()
            count = len(errors)
            self.status.error(f"{counted(count, 'field')} to fix; nothing was sent",
                              retry_key=None)  # fmt: skip
            return
        if not values:
            self.status.info("Nothing changed: nothing to write.")
            return
        self.save(values)

    def save(self, values: dict[str, Any]) -> None:
        count = len(values)
        what = counted(count, "setting")

        def then(staged: Staged) -> None:
            if staged.outcome == "written":
                self.saved_line = staged.line  # the Agent screen says it once back
                self.dismiss(None)
                return
            errors: dict[str, str] = {}
            if staged.plan is not None:
                errors = {r.what: r.reason for r in staged.plan.refusals}
            if isinstance(staged.error, ApiError):
                named = [n for n in values if n in staged.error.message]
                errors[named[0] if named else ""] = staged.error.message
            rest = show_errors(self._fields(), errors)
            self.query_one("#settings-error", Label).update(safe("; ".join(rest)))
            invalid = first_invalid(self._fields())
            if invalid is not None:
                invalid.scroll_visible()

        change = Change.of_settings(values)
        self.write(staging_write(self, change, what=what, seen=self.base, then=then))

    def action_close(self) -> None:
        self.close_form()

    @work(exclusive=True, group="settings-close", exit_on_error=False)
    async def close_form(self) -> None:
        values, errors = self.edited() if self.built else ({}, {})
        if values or errors:
            keep = ConfirmModal(
                "Discard your edits?",
                f"{counted(len(values) + len(errors), 'setting')} edited and not written.",
                confirm_label="Discard",
            )
            if not await self.app.push_screen_wait(keep):
                return
        self.dismiss(None)
