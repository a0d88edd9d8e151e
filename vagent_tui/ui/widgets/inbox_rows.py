"""Rendering junk inbox rooms: the table row and the detail pane (every field, literally).

Server text, field names included, always goes in inert (`vagent_tui.ui.text`), never
as markup.
"""

from __future__ import annotations

import json
import re
from typing import Any

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text
from textual.geometry import Size
from textual.strip import Strip
from textual.visual import Visual, VisualType
from textual.widgets import Static

from vagent_tui.api.models import JunkRoom
from vagent_tui.inert import DISPLAY_LIMIT
from vagent_tui.ui.caps import first_fields, not_shown
from vagent_tui.ui.colours import HEADING
from vagent_tui.ui.format import fmt_datetime, humanize_age
from vagent_tui.ui.text import inert, safe

_SPACES = re.compile(r"[ \t\r\n\f\v]+")
UNREAD = "●"
MESSAGE_WIDTH = 34


def room_unread(room: JunkRoom, *, unread_filter: bool) -> bool | None:
    """True / False when known; a page fetched with ``unread=true`` holds only unread rooms."""
    extra = room.model_extra or {}
    value = extra.get("unread")
    if isinstance(value, bool):
        return value
    return True if unread_filter else None


def room_name(room: JunkRoom) -> Text:
    if room.unregistered and room.unregistered_display_name:
        return safe(room.unregistered_display_name, "italic")
    return safe(room.name or room.unregistered_display_name or "—")


def truncate(text: str | None, width: int = MESSAGE_WIDTH) -> str:
    """One line of at most ``width`` characters, inert; whitespace runs become one space.

    Only the start of the text is read: a huge message costs no more than a short one.
    """
    head = (text or "")[: max(width, 0) * 4 + DISPLAY_LIMIT]
    # Only plain whitespace collapses: other separators and controls show (inert).
    line = inert(_SPACES.sub(" ", head).strip(" "), limit=0)
    return line if len(line) <= width else line[: width - 1] + "…"


def room_cells(
    room: JunkRoom, *, unread_filter: bool, width: int = MESSAGE_WIDTH
) -> tuple[Text, ...]:
    """Unread marker, name, phone, last message (truncated), humanized time."""
    unread = room_unread(room, unread_filter=unread_filter)
    marker = Text(UNREAD, style=HEADING) if unread else Text(" ")
    return (
        marker,
        room_name(room),
        safe(room.vida_phone_number or "—"),
        Text(truncate(room.last_message, width)),
        Text(humanize_age(room.last_message_at)),
    )


def literal(value: Any) -> str:
    """A JSON value as the server sent it, inert: strings bare, everything else as JSON."""
    if isinstance(value, str):
        return inert(value)
    try:
        return inert(json.dumps(value, ensure_ascii=False))
    except (TypeError, ValueError):
        return inert(repr(value))


def room_detail(
    room: JunkRoom | None, *, unread_filter: bool = False, compact: bool = False
) -> RenderableType:
    """Every field of the room (unknown extras included), keys as the server spelt them.

    ``compact`` puts two short fields on a line (a pane under the table at 80 columns).
    """
    if room is None:
        return Text("No room highlighted.", style="dim")
    unread = room_unread(room, unread_filter=unread_filter)
    state = "unread" if unread else ("read" if unread is False else "unknown")
    fields: list[tuple[str, Text]] = [("status", Text(f"{UNREAD if unread else '○'} {state}"))]
    sent, more = first_fields(room.wire())
    for key, value in sent:
        text = Text(literal(value))
        if key == "lastMessageTimestamp" and room.last_message_at is not None:
            moment = room.last_message_at
            text.append(f" ({fmt_datetime(moment)}, {humanize_age(moment)})", style="dim")
        fields.append((key, text))
    if more:
        fields.append(("…", Text(not_shown(more, "field"), style="dim")))
    grid = Table.grid(padding=(0, 1), expand=True)
    if not compact:
        grid.add_column(style="bold", no_wrap=True)
        grid.add_column(ratio=1, overflow="fold")
        for key, text in fields:
            grid.add_row(safe(key), text)
        return grid
    for _ in range(2):
        grid.add_column(style="bold", no_wrap=True)
        grid.add_column(ratio=1, overflow="fold")
    short = [f for f in fields if len(f[1]) <= 28]
    long = [f for f in fields if len(f[1]) > 28]
    for k in range(0, len(short), 2):
        left = short[k]
        right = short[k + 1] if k + 1 < len(short) else ("", Text(""))
        grid.add_row(safe(left[0]), left[1], safe(right[0]), right[1])
    rest = Table.grid(padding=(0, 1), expand=True)
    rest.add_column(style="bold", no_wrap=True)
    rest.add_column(ratio=1, overflow="fold")
    for key, text in long:
        rest.add_row(safe(key), text)
    return Group(grid, rest)


class DetailText(Static):
    """A Static that renders its content once per width and lays the screen out again
    only when its height changes.

    A `Static` with a Rich renderable renders it twice on each update (once to measure
    its height, once to draw) and asks for a layout of the whole screen; the room
    detail changes on every page move and mostly keeps its height.

    ``show(..., hold=True)`` keeps at least the height shown (blank lines below a
    shorter content): for a placeholder about to be replaced (Calls: "Transcript:
    loading…" on a page move), so that the screen is laid out once, when the content
    comes, and not also for the placeholder.
    """

    def __init__(self, content: VisualType = "", **kwargs: Any) -> None:
        super().__init__(content, **kwargs)
        self._rendered: tuple[int, list[Strip]] | None = None
        self._floor = (0, 0)
        """(width, lines): the content is shown at least this tall at this width."""
        self.renders = 0
        """How many times the content was rendered (tests: once per content and width)."""

    def show(self, content: VisualType, *, hold: bool = False) -> None:
        width = self.size.width
        before = len(self._rendered[1]) if self._rendered and self._rendered[0] == width else None
        self._floor = (width, before) if hold and before is not None else (0, 0)
        self.update(content, layout=False)
        self._rendered = None
        if not width or before is None or len(self._strips(width)) != before:
            self.refresh(layout=True)

    def _strips(self, width: int) -> list[Strip]:
        if self._rendered is None or self._rendered[0] != width:
            strips = Visual.to_strips(self, self.visual, width, None, self.visual_style)
            self.renders += 1
            floor_width, floor = self._floor
            if floor_width == width and len(strips) < floor:
                strips = strips + [Strip.blank(width, self.rich_style)] * (floor - len(strips))
            self._rendered = (width, strips)
        return self._rendered[1]

    def notify_style_update(self) -> None:
        self._rendered = None  # another theme: other colours
        super().notify_style_update()

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        return len(self._strips(width))

    def render_line(self, y: int) -> Strip:
        width = self.size.width
        strips = self._strips(width)
        return strips[y] if 0 <= y < len(strips) else Strip.blank(width, self.rich_style)
