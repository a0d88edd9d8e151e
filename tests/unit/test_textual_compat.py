"""The private Textual hooks we use still exist and do their job; the Textual faults we
work around are still there.

If Textual renames ``App._fatal_error`` or stops calling it, these fail loudly: the
crash output would print local variables again (see vagent_tui/ui/textual_compat.py).
If Textual learns to page an option list before its first layout, the tests of issue 24
say the guard of ``ui/widgets/option_pages.py`` can go; if DataTable draws cells
measured after a frame at their width, the last two say `SafeTable`'s
``watch_virtual_size`` can go.
"""

from __future__ import annotations

import asyncio
import inspect
import subprocess
import sys
from typing import Any, ClassVar

import pyte
import pytest
from rich.console import RenderableType
from textual._compositor import CompositorUpdate
from textual.app import App, ComposeResult
from textual.containers import Horizontal
from textual.screen import Screen
from textual.widgets import DataTable, Static

from vagent_tui.ui.app import VagentApp
from vagent_tui.ui.frame_diff import Frame
from vagent_tui.ui.textual_compat import CrashReportingApp, FrameDiffApp


def test_textual_still_routes_crashes_through_the_hook() -> None:
    assert callable(getattr(App, "_fatal_error", None)), "Textual renamed App._fatal_error"
    handler = inspect.getsource(App._handle_exception)
    assert "self._fatal_error()" in handler, "App._handle_exception no longer calls it"
    # What the override exists for: Textual's own crash output shows local variables.
    assert "show_locals=True" in inspect.getsource(App._fatal_error)


def test_the_console_is_a_crash_reporting_app() -> None:
    assert issubclass(VagentApp, CrashReportingApp)
    assert issubclass(VagentApp, FrameDiffApp)  # and writes only the cells that change
    assert VagentApp._fatal_error is CrashReportingApp._fatal_error


class _Crashing(CrashReportingApp[None]):
    BINDINGS = [("x", "explode", "Explode")]

    def compose(self) -> ComposeResult:
        yield Static("ready")

    def action_explode(self) -> None:
        raise KeyError("boom")


async def test_a_crash_is_kept_and_ends_the_app_with_status_1() -> None:
    app = _Crashing()
    with pytest.raises(KeyError, match="boom"):  # run_test re-raises it, as before
        async with app.run_test() as pilot:
            await pilot.press("x")
            await pilot.pause()
    assert isinstance(app.crash_error, KeyError)
    assert app.return_code == 1


_SCRIPT = """
from textual.app import App
from vagent_tui.ui.textual_compat import CrashReportingApp

class Crashing(CrashReportingApp[None]):
    def on_mount(self) -> None:
        self.call_after_refresh(self.explode)

    def explode(self) -> None:
        secret_local = "SECRET-LOCAL"
        raise KeyError("boom" + secret_local[:0])

app = Crashing()
app.run(headless=True)
print("return code", app.return_code, type(app.crash_error).__name__)
"""


def test_nothing_of_the_crash_is_printed() -> None:
    done = subprocess.run(
        [sys.executable, "-c", _SCRIPT], capture_output=True, text=True, timeout=60, check=False
    )
    assert "return code 1 KeyError" in done.stdout
    # Textual's own handler prints a traceback with the locals (SECRET-LOCAL) here.
    assert "SECRET-LOCAL" not in done.stdout + done.stderr
    assert "Traceback" not in done.stdout + done.stderr


# ---------------------------------------------------------------------- forget_copied


async def test_forget_copied_clears_only_that_text_from_the_in_app_clipboard() -> None:
    from vagent_tui.ui.textual_compat import forget_copied

    app = App[None]()
    async with app.run_test():
        app.copy_to_clipboard("vt_new_token")
        forget_copied(app, "something else")
        assert app.clipboard == "vt_new_token"
        forget_copied(app, "vt_new_token")
        assert app.clipboard == ""


# ------------------------------------------------- paging a list before its lines (issue 24)
# Not private API: a Textual fault the console works around (`ui/widgets/option_pages.py`,
# `ui/command_palette.py`). The first test fails once Textual pages such a list by itself:
# the workaround can go then. The others fail when the workaround stops covering a key.


class _Unlaid(App[None]):
    """An option list with options and a highlight, never laid out (it is not displayed)."""

    def compose(self) -> ComposeResult:
        from textual.widgets import OptionList

        from vagent_tui.ui.widgets.option_pages import PagedOptionList

        plain = OptionList("one", "two", "three", id="plain")
        guarded = PagedOptionList("one", "two", "three", id="guarded")
        for options in (plain, guarded):
            options.display = False
            options.highlighted = 0
        yield plain
        yield guarded


async def test_textual_still_fails_to_page_an_option_list_without_lines() -> None:
    from textual.widgets import OptionList

    from vagent_tui.ui.widgets.option_pages import has_lines

    app = _Unlaid()
    async with app.run_test() as pilot:
        await pilot.pause()
        plain = app.query_one("#plain", OptionList)
        assert plain.option_count == 3 and plain.highlighted == 0 and not has_lines(plain)
        with pytest.raises(KeyError):  # Textual 8.2; when this fails, it was fixed
            plain.action_page_down()  # type: ignore[no-untyped-call]  # Textual's, untyped
        with pytest.raises(KeyError):
            plain.action_page_up()  # type: ignore[no-untyped-call]


async def test_a_paged_option_list_waits_for_its_lines() -> None:
    from vagent_tui.ui.widgets.option_pages import PagedOptionList

    app = _Unlaid()
    async with app.run_test() as pilot:
        await pilot.pause()
        guarded = app.query_one("#guarded", PagedOptionList)
        guarded.action_page_down()  # no lines yet: nothing moves, nothing fails
        guarded.action_page_up()
        await pilot.pause()
        assert guarded.highlighted == 0
        guarded.display = True  # laid out at the next refresh: now it pages
        await pilot.pause()
        guarded.action_page_down()
        assert guarded.highlighted == 2


def test_the_palette_binds_every_page_key_of_textuals_palette_to_the_guard() -> None:
    from textual.binding import Binding
    from textual.command import CommandPalette

    from vagent_tui.ui.command_palette import ConsolePalette

    def keys(bindings: list[object], wanted: str) -> set[str]:
        found: set[str] = set()
        for b in bindings:
            if isinstance(b, Binding) and wanted in b.action:
                found |= {k.strip() for k in b.key.split(",")}
        return found

    for move in ("page_down", "page_up"):
        theirs = keys(list(CommandPalette.BINDINGS), f"command_list('{move}')")
        assert theirs, f"Textual's palette no longer binds {move} as it did"
        assert keys(list(ConsolePalette.BINDINGS), move) >= theirs


def test_a_screen_may_still_skip_the_restyle_of_its_resume() -> None:
    """`style_mark` reads `App._css_update_count`; the call screen skips its resume's
    restyle through the public `ScreenResume.refresh_styles`."""
    from textual import events
    from textual.screen import Screen

    assert isinstance(App()._css_update_count, int), "Textual renamed App._css_update_count"
    assert "event.refresh_styles" in inspect.getsource(Screen._on_screen_resume)
    assert events.ScreenResume().refresh_styles is True


class _Restyled(App[None]):
    def compose(self) -> ComposeResult:
        yield Static("ready")


async def test_the_style_mark_changes_with_the_theme_and_the_apps_classes() -> None:
    from vagent_tui.ui.textual_compat import style_mark

    app = _Restyled()
    async with app.run_test(size=(60, 10)) as pilot:
        mark = style_mark(app)
        assert style_mark(app) == mark
        app.theme = "textual-light" if app.theme != "textual-light" else "nord"
        await pilot.pause()
        assert style_mark(app) != mark
        mark = style_mark(app)
        app.add_class("-another")
        assert style_mark(app) != mark


# ------------------------------------------ a mode's first screen, styled once


class _Moded(App[None]):
    """An app whose first screen is a mode's, made by a factory (as the console's)."""

    def __init__(self, *, mark: bool) -> None:
        self.mark = mark
        self.refreshes = 0
        self.MODES = {"first": self._first}  # type: ignore[misc]
        self.DEFAULT_MODE = "first"  # type: ignore[misc]
        super().__init__()

    def _first(self) -> Screen[None]:
        from vagent_tui.ui.textual_compat import styled_as_current

        screen: Screen[None] = Screen()
        if self.mark:
            styled_as_current(self, screen)
        return screen

    def refresh_css(self, animate: bool = True) -> None:
        self.refreshes += 1
        super().refresh_css(animate)


@pytest.mark.parametrize("mark", [False, True])
async def test_a_modes_first_screen_marked_as_styled_skips_the_restyle(mark: bool) -> None:
    """Unmarked, Textual restyles the whole app for a mode's new screen (when this
    fails for ``mark=False``, Textual no longer does: `styled_as_current` can go);
    marked, it does not, and the screen is styled all the same."""
    app = _Moded(mark=mark)
    async with app.run_test(size=(40, 5)):
        assert app.refreshes == (0 if mark else 1)
        # Styled all the same: Screen's default rule gives it the theme's background.
        theme_background = app.get_css_variables()["background"]
        assert app.screen.styles.background.hex.lower() == theme_background.lower()


# ------------------------------------------ cells drawn before they were measured, cut
# Not private API: a Textual fault every `SafeTable` works around (`watch_virtual_size`).
# The first test fails once DataTable draws cells at their measured width even when a
# frame was drawn between the fill and the measuring: the workaround can go then.


class _Filled(App[None]):
    CSS = "DataTable { height: 1fr; }"  # a table of a set height: more rows, no Resize

    def compose(self) -> ComposeResult:
        from textual.widgets import DataTable

        from vagent_tui.ui.widgets.tables import SafeTable

        plain: DataTable[Any] = DataTable(id="plain")
        safe = SafeTable(id="safe")
        for table in (plain, safe):
            table.add_columns("A", "B")
            table.add_row("x", "y")
            yield table


async def _drawn_before_measured(table_id: str) -> str:
    """Row 2 of the table after a row added and drawn before the table measured it."""
    from textual.widgets import DataTable

    app = _Filled()
    async with app.run_test(size=(80, 20)) as pilot:
        await pilot.pause()
        table = app.query_one(f"#{table_id}", DataTable)
        table.add_row("a long first cell", "a long second cell")
        table.render_line(2)  # a frame drawn now: before the table is next idle
        await pilot.pause()
        assert [c.get_render_width(table) for c in table.ordered_columns] == [19, 20]
        return table.render_line(2).text


async def test_textual_still_draws_cells_measured_late_at_their_old_width() -> None:
    line = await _drawn_before_measured("plain")
    assert "a long first cell" not in line  # Textual 8.2; when this fails, it was fixed


async def test_a_safe_table_draws_cells_measured_late_at_their_width() -> None:
    line = await _drawn_before_measured("safe")
    assert "a long first cell" in line and "a long second cell" in line


async def test_a_callback_for_after_the_refresh_is_seen_until_the_refresh() -> None:
    """`refresh_callbacks_pending` reads ``Screen._callbacks``: a callback handed over by
    ``call_after_refresh`` is there until the screen's next refresh runs it."""
    from vagent_tui.ui.textual_compat import refresh_callbacks_pending

    app = _Restyled()
    async with app.run_test(size=(40, 5)) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(getattr(screen, "_callbacks", None), list), (
            "Textual no longer keeps after-refresh callbacks in Screen._callbacks"
        )
        assert not refresh_callbacks_pending(screen)
        ran: list[bool] = []
        screen._invoke_later(lambda: ran.append(True), screen)
        assert refresh_callbacks_pending(screen) and not ran
        await pilot.pause()
        assert ran and not refresh_callbacks_pending(screen)


def _capture_writes(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """What `App._display` would write to a terminal, collected (without one, it calls
    an update's render_segments only then)."""
    written: list[str] = []

    def write(app: App[Any], screen: Screen[Any], renderable: RenderableType | None) -> None:
        if renderable is not None:
            assert isinstance(renderable, CompositorUpdate)
            written.append(renderable.render_segments(app.console))

    monkeypatch.setattr(App, "_display", write)
    return written


class _Drawn(FrameDiffApp[None]):
    """A few widgets whose repaints are partial (a cursor, a label) and full (a screen)."""

    BINDINGS = [("x", "relabel", "Relabel"), ("s", "push", "Push")]

    def __init__(self) -> None:
        super().__init__()
        self.textual: list[str] = []  # what Textual itself would have written
        self.kinds: set[str] = set()

    def compose(self) -> ComposeResult:
        yield Static("[b]bold[/] [red on blue]red on blue[/] [i]italic[/] plain", id="top")
        with Horizontal():
            table: DataTable[str] = DataTable()
            table.styles.width = 36
            table.add_columns("name", "note")
            for row in ("alpha", "漢字 wide", "emoji 🔎 here", "e\u0301 combined", "omega"):
                table.add_row(row, f"{row} note")
            yield table
            yield Static("beside", id="beside")  # a second chop on the table's lines
        yield Static("a long label that gets shorter", id="label")

    def on_data_table_cell_highlighted(self, event: DataTable.CellHighlighted) -> None:
        self.query_one("#beside", Static).update(f"[green]{event.value}[/] at {event.coordinate}")

    def action_relabel(self) -> None:
        self.query_one("#label", Static).update("short")

    def action_push(self) -> None:
        self.push_screen(Screen())

    def frames_diffed(self) -> bool:
        return True  # headless, as if on a terminal

    def _display(self, screen: Screen[Any], renderable: RenderableType | None) -> None:
        if isinstance(renderable, CompositorUpdate):
            self.kinds.add(type(renderable).__name__)
            self.textual.append(renderable.render_segments(self.console))
        super()._display(screen, renderable)


async def test_the_frame_diff_shows_what_textual_would_have_written(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """`FrameDiffApp` reads Textual's updates (`update_pieces`) where their
    ``render_segments`` writes them: a terminal fed Textual's own output and one fed only
    the differences show the same cells, after full and partial repaints. Fails when
    Textual changes its updates (``LayoutUpdate``, ``ChopsUpdate``) or how ``App._display``
    writes them."""
    written = _capture_writes(monkeypatch)
    app = _Drawn()
    size = (70, 14)
    theirs, ours = pyte.Screen(*size), pyte.Screen(*size)
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        app.query_one(DataTable).focus()
        theirs_bytes = ours_bytes = 0
        for key in [
            "down",
            "right",
            "left",
            "down",
            "x",
            "s",
            "escape",
            "right",
            "down",
            "down",
            "down",
        ]:
            if key == "escape":
                app.pop_screen()
            else:
                await pilot.press(key)
            await pilot.pause()
            theirs_bytes += len("".join(app.textual))
            ours_bytes += len("".join(written))
            pyte.Stream(theirs).feed("".join(app.textual))
            pyte.Stream(ours).feed("".join(written))
            app.textual.clear()
            written.clear()
            assert ours.buffer == theirs.buffer, key
        await pilot.press("down")  # at the last row: nothing changes, nothing is written
        await pilot.pause()
        assert written == []
    assert {"LayoutUpdate", "ChopsUpdate"} <= app.kinds
    assert any("漢字" in line for line in theirs.display), "no wide character drawn"
    assert ours_bytes < theirs_bytes / 2


def test_textual_still_writes_frames_through_display() -> None:
    """The frame diff sees every frame only while Textual draws through App._display
    and writes an update by calling its render_segments."""
    from textual.screen import Screen as TextualScreen

    assert "app._display(self, update)" in inspect.getsource(TextualScreen._compositor_refresh)
    display = inspect.getsource(App._display)
    assert "renderable.render_segments(console)" in display


async def test_a_suspend_a_resume_or_a_resize_forgets_the_frame(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The terminal's cells are unknown then: the next frame is written whole."""
    forgotten: list[str] = []
    forget = Frame.forget

    def spy(frame: Frame, width: int, height: int) -> None:
        forgotten.append("forgotten" if (width, height) == (0, 0) else "sized")
        forget(frame, width, height)

    monkeypatch.setattr(Frame, "forget", spy)
    app = _Drawn()
    async with app.run_test(size=(40, 10)) as pilot:
        await pilot.pause()
        assert forgotten == ["sized"]  # the first frame
        app.app_suspend_signal.publish(app)
        app.app_resume_signal.publish(app)
        assert forgotten[1:] == ["forgotten", "forgotten"]
        forgotten.clear()
        await pilot.resize_terminal(41, 10)
        await pilot.pause()
        assert forgotten[0] == "forgotten"


async def test_ctrl_l_writes_the_whole_screen_over_what_else_was_written(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Something outside the console wrote over the terminal: ctrl+l writes every cell
    again, so the terminal shows the console's frame whole (nothing else would: the
    frame diff writes only what changed since the frame it kept)."""
    written = _capture_writes(monkeypatch)

    class _Redrawn(_Drawn):
        BINDINGS = [("ctrl+l", "redraw_terminal", "Redraw")]

    app = _Redrawn()
    size = (70, 14)
    terminal = pyte.Screen(*size)
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        pyte.Stream(terminal).feed("".join(written))
        drawn = list(terminal.display)
        pyte.Stream(terminal).feed("\x1b[2J\x1b[5;3Hstray output")  # another program
        assert terminal.display != drawn
        written.clear()
        await pilot.press("ctrl+l")
        await pilot.pause()
        pyte.Stream(terminal).feed("".join(written))
        assert terminal.display == drawn


def test_textual_still_defers_a_refresh_in_a_batch_and_writes_nothing_during_one() -> None:
    """What `QuietStartScreen` relies on (7.): the layout's compositor refresh is deferred
    in a batch, which may still be open when it runs; App._display drops it then."""
    layout = inspect.getsource(Screen._refresh_layout)
    assert "if self.app._batch_count:" in layout
    assert "self.call_later(self._compositor_refresh)" in layout
    assert "if self._batch_count:" in inspect.getsource(App._display)


@pytest.mark.parametrize("quiet", [False, True])
async def test_a_quiet_start_screen_draws_only_once_the_app_runs(
    quiet: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    from textual._compositor import Compositor

    from vagent_tui.ui.textual_compat import QuietStartScreen

    base: type[Screen[None]] = QuietStartScreen if quiet else Screen

    class _Shown(base):  # type: ignore[valid-type,misc]
        def compose(self) -> ComposeResult:
            yield Static("hello", id="hello")

    class _App(App[None]):  # as the console starts: in the first screen's mode
        MODES: ClassVar = {"main": _Shown}
        DEFAULT_MODE = "main"

        async def on_mount(self) -> None:
            await asyncio.sleep(0.05)  # a mount that takes a while, inside the batch

    app = _App()
    drawn = {False: 0, True: 0}  # renders outside a batch, and inside one
    render_update = Compositor.render_update

    def counted(compositor: Compositor, *args: Any, **kwargs: Any) -> Any:
        drawn[bool(app._batch_count)] += 1
        return render_update(compositor, *args, **kwargs)

    monkeypatch.setattr(Compositor, "render_update", counted)
    async with app.run_test() as pilot:
        await pilot.pause()
        assert "hello" in str(app.screen.query_one("#hello", Static).render())
    assert drawn[False] >= 1
    assert (drawn[True] == 0) is quiet  # Textual itself draws one for nothing
