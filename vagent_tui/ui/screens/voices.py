"""Voices browser: the voices of the target account, filtered, with a detail pane.

Every text of a voice is shown inert, the filter options too (a `Select` reads a ``str``
option as markup: they are given as `Text`). A filter matching more than `ROW_CAP`
voices shows the first ones and says how many more there are.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, ClassVar

from rich.text import Text
from textual import on, work
from textual.binding import Binding, BindingType
from textual.containers import Container, Horizontal, Vertical
from textual.widget import Widget
from textual.widgets import DataTable, Input, Select, Static

from vagent_tui.api.errors import PlatformError
from vagent_tui.api.models import Voice
from vagent_tui.services.agents import VoiceFilter, filter_voices
from vagent_tui.services.changes import Change
from vagent_tui.ui.colours import FAILED, OK
from vagent_tui.ui.format import NO, YES, plain
from vagent_tui.ui.safety import WRITES, Key
from vagent_tui.ui.screens.base import BaseScreen, who_of
from vagent_tui.ui.screens.staging_flow import staging_write
from vagent_tui.ui.text import safe
from vagent_tui.ui.widgets.details import voice_detail
from vagent_tui.ui.widgets.tables import ROW_CAP, left_out, row_table
from vagent_tui.words import counted

_TRI = [("TTS: yes", True), ("TTS: no", False)]
_AVAIL = [("available", True), ("unavailable", False)]


class VoicesScreen(BaseScreen):
    """A table of voices with language, engine, TTS, availability and text filters."""

    TITLE: ClassVar[str] = "Voices"
    HORIZONTAL_BREAKPOINTS = [(0, "-narrow"), (110, "-wide")]
    VERTICAL_BREAKPOINTS = [(0, "-short"), (20, "-tall")]  # -short: the detail gives way
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("slash", "focus_text", "Filter", id="voices.filter", tooltip="Type to filter"),
        Key(
            "u",
            "use_voice",
            "Use for agent",
            id="voices.use",
            does=WRITES,
            tooltip="Check the voice against the agent's staging, then write it there",
        ),
        Binding("y", "copy_id", "Copy id", id="voices.copy", tooltip="Copy the voice id"),
        Binding("enter", "toggle_detail", "Detail", id="voices.detail", tooltip="Show/hide detail"),
        Binding(
            "x",
            "clear_filters",
            "Clear",
            show=False,
            id="voices.clear",
            tooltip="Clear all filters",
        ),
        Binding("escape", "focus_table", "Table", show=False, id="voices.table", tooltip="Table"),
    ]
    CSS_PATH = "voices.tcss"
    AUTO_FOCUS = "#voices-table"  # the table, not the first filter: arrows move its cursor

    def __init__(self) -> None:
        super().__init__()
        self.voices: list[Voice] = []
        self.shown: list[Voice] = []

    # ------------------------------------------------------------------ layout

    def compose_body(self) -> Iterable[Widget]:
        with Vertical(id="voices-filters"):
            with Horizontal():
                yield Select([], prompt="Lang: any", id="voices-language", compact=True)
                yield Select([], prompt="S2S: any", id="voices-engine", compact=True)
                yield Select(_TRI, prompt="TTS: any", id="voices-tts", compact=True)
                yield Select(_AVAIL, prompt="Avail: any", id="voices-avail", compact=True)
            with Horizontal():
                text = Input(
                    placeholder="/ filter by name, id, provider…", id="voices-text", compact=True
                )
                text.cursor_blink = False
                yield text
                yield Static("", id="voices-count", markup=False)
        with Container(id="voices-body"):
            yield row_table(
                "voices-table",
                (
                    ("Name", "name"),
                    ("Provider", "provider"),
                    ("Languages", "languages"),
                    ("S2S", "s2s"),
                    ("TTS", "tts"),
                    ("Avail", "avail"),
                ),
            )
            yield Static("", id="voices-detail")

    @property
    def table(self) -> DataTable[Any]:
        return self.query_one("#voices-table", DataTable)

    def on_mount(self) -> None:
        self.table.focus()

    # ------------------------------------------------------------------ loading

    def reload(self) -> None:
        self.load_voices()

    @work(exclusive=True, group="voices-load", exit_on_error=False)
    async def load_voices(self) -> None:
        def failed(exc: PlatformError) -> None:
            self.voices = []  # never leave another account's voices on show
            self.apply_filters()
            self.status.error(exc)

        ok, voices = await self.load(
            lambda c: c.api.list_voices(target=c.target_id),
            note="Loading voices",
            busy=self.table,
            on_error=failed,
        )
        if not ok or voices is None:
            return
        self.voices = voices
        self._set_options(voices)
        self.apply_filters()
        unavailable = sum(1 for v in voices if not v.available)
        who = who_of(self)
        note = f", {unavailable} unavailable" if unavailable else ", all available"
        self.status.ok(
            f"{counted(len(voices), 'voice')} for {who}{note}{left_out(len(voices), 'voice')}"
        )

    def _set_options(self, voices: list[Voice]) -> None:
        languages = sorted({lang for v in voices for lang in v.languages})
        engines = sorted({e for v in voices for e in v.compatible_s2_s_engines})
        for select_id, values, label in (
            ("#voices-language", languages, ""),
            ("#voices-engine", engines, "S2S: "),
        ):
            select: Select[str] = self.query_one(select_id, Select)
            current = select.value
            # Text, never str: a Select reads a str option as markup (`[/]` would end
            # the app, `[@click=...]` run an action).
            options = [(safe(f"{label}{v}"), v) for v in values[:ROW_CAP]]
            with select.prevent(Select.Changed):
                select.set_options(options)
                if current in values[:ROW_CAP]:
                    select.value = current

    # ------------------------------------------------------------------ filtering

    def current_filter(self) -> VoiceFilter:
        def value(select_id: str) -> Any:
            v = self.query_one(select_id, Select).value
            return None if v is Select.NULL else v

        return VoiceFilter(
            language=value("#voices-language"),
            engine=value("#voices-engine"),
            standard_tts=value("#voices-tts"),
            available=value("#voices-avail"),
            text=self.query_one("#voices-text", Input).value.strip(),
        )

    @on(Select.Changed)
    @on(Input.Changed, "#voices-text")
    def _filters_changed(self, event: Select.Changed | Input.Changed) -> None:
        event.stop()
        self.apply_filters()

    def apply_filters(self) -> None:
        """Rebuild the rows from the filter; the cursor stays on the same voice."""
        table = self.table
        keep = self.highlighted.id if self.highlighted else None
        matching = filter_voices(self.voices, self.current_filter())
        self.shown = matching[:ROW_CAP]  # row i of the table is shown[i]
        with self.app.batch_update():
            table.clear()
            for voice in self.shown:
                table.add_row(*self._cells(voice), key=voice.id)
            ids = [v.id for v in self.shown]
            if keep in ids:
                table.move_cursor(row=ids.index(keep), animate=False)
        count = f"{len(matching):,} of {counted(len(self.voices), 'voice')}"
        if len(matching) > len(self.shown):
            count += f" (first {len(self.shown):,} shown: filter to see the others)"
        self.query_one("#voices-count", Static).update(count)
        self._show_detail()

    @staticmethod
    def _cells(voice: Voice) -> list[Text]:
        style = "" if voice.available else FAILED
        mark = Text(f"{YES} yes", style=OK) if voice.available else Text(f"{NO} no", FAILED)
        tts = Text(YES, OK) if voice.supports_standard_tts else Text(NO, FAILED)
        return [
            safe(voice.name or "—", style),
            Text(plain(voice.provider), style=style),
            Text(plain(voice.languages)),
            Text(plain(voice.compatible_s2_s_engines)),
            tts,
            mark,
        ]

    # ------------------------------------------------------------------ detail

    @property
    def highlighted(self) -> Voice | None:
        table = self.table
        if not self.shown or table.row_count == 0:
            return None
        row = table.cursor_row
        return self.shown[row] if 0 <= row < len(self.shown) else None

    @on(DataTable.RowHighlighted, "#voices-table")
    def _row_highlighted(self, event: DataTable.RowHighlighted) -> None:
        event.stop()
        self._show_detail()

    @on(DataTable.RowSelected, "#voices-table")
    def _row_selected(self, event: DataTable.RowSelected) -> None:
        """Enter on the table is the table's own key: it shows or hides the detail."""
        event.stop()
        self.action_toggle_detail()

    def _show_detail(self) -> None:
        compact = self.has_class("-narrow")
        self.query_one("#voices-detail", Static).update(
            voice_detail(self.highlighted, compact=compact)
        )

    def on_resize(self) -> None:
        self.call_after_refresh(self._show_detail)

    # ------------------------------------------------------------------ actions

    def action_focus_text(self) -> None:
        self.query_one("#voices-text", Input).focus()

    def action_focus_table(self) -> None:
        self.table.focus()

    @on(Input.Submitted, "#voices-text")
    def _text_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.table.focus()

    def action_copy_id(self) -> None:
        voice = self.highlighted
        if voice is None:
            self.notify("No voice highlighted", severity="warning")
            return
        self.vapp.copy_text(voice.id, "voice id")

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """ "Use for agent" needs an agent account: hidden from the footer otherwise."""
        if super().check_action(action, parameters) is False:
            return False  # read-only
        if action == "use_voice":
            return self.connection.is_agent_selected
        return True

    def action_use_voice(self) -> None:
        voice = self.highlighted
        if voice is None:
            self.notify("No voice highlighted", severity="warning")
            return
        self.use_voice(voice)

    def use_voice(self, voice: Voice) -> None:
        """The voice as ``agentVoice`` in staging: checked, shown, confirmed, written."""
        names = {"agentVoice": {v.id: v.name for v in self.voices if v.name}}
        self.write(
            staging_write(
                self,
                Change(voice=voice.id),
                what=f"the voice {voice.name or voice.id}",
                names=names,
            )
        )

    def action_toggle_detail(self) -> None:
        self.query_one("#voices-detail").toggle_class("-hidden")

    def action_clear_filters(self) -> None:
        for select in self.query("#voices-filters Select").results(Select):
            with select.prevent(Select.Changed):
                select.clear()
        with self.prevent(Input.Changed):
            self.query_one("#voices-text", Input).value = ""
        self.apply_filters()
