"""Rendering a room's messages: the table row and the detail pane.

Every text of a message comes from outside (the sender, its words, the addresses of its
attachments) and goes in inert (`vagent_tui.ui.text`), never as markup. An attachment's
address is shown as plain text: no link style is made from data, so nothing on screen
opens an address the platform (or whoever wrote the message) chose; ``y`` copies them.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from vagent_tui.api.models import RoomMessage, party
from vagent_tui.ui.caps import first_fields, not_shown
from vagent_tui.ui.colours import FAILED, OK, UNKNOWN
from vagent_tui.ui.format import fmt_datetime, humanize_age, now
from vagent_tui.ui.text import safe
from vagent_tui.ui.widgets.inbox_rows import literal, truncate

SENDER_WIDTH = 18
"""Characters of a sender's name in the table (less on a narrow terminal)."""

_STATUS = {"success": ("✓", "delivered", OK), "failed": ("✗", "failed", FAILED)}


def delivery_text(status: Any) -> Text:
    """A message record's ``status``, its delivery: ``✓ delivered`` for ``success``
    (api-facts), ``✗ failed``; another value as it came. (Not a call's status: a call's
    log entry says ``completed``, ``missed`` or ``failed`` while its message says
    ``success``.)"""
    if status is None or status == "":
        return Text("—")
    if isinstance(status, str) and status.lower() in _STATUS:
        glyph, word, style = _STATUS[status.lower()]
        return Text(f"{glyph} {word}", style=style)
    return safe(f"? {literal(status)}", style=UNKNOWN)


def when(moment: datetime | None, reference: datetime | None = None) -> str:
    """A message's time in a thread, UTC: ``14:05`` today, ``11-18 03:44`` this year,
    ``2024-11-18 03:44`` before. Messages of one thread are told apart by their times,
    which "1 d ago" would not do."""
    if moment is None:
        return "—"
    moment, reference = moment.astimezone(UTC), (reference or now()).astimezone(UTC)
    if moment.date() == reference.date():
        return moment.strftime("%H:%M")
    if moment.year == reference.year:
        return moment.strftime("%m-%d %H:%M")
    return moment.strftime("%Y-%m-%d %H:%M")


def _plain(value: Any) -> str:
    return value if isinstance(value, str) else literal(value)


def message_cells(
    message: RoomMessage, *, width: int, sender_width: int = SENDER_WIDTH
) -> tuple[Text, ...]:
    """When, sender, delivery, source, attachments (count), the text (one line, cut)."""
    links = message.links
    return (
        Text(when(message.sent_at)),
        Text(truncate(party(message.from_user, message.from_), sender_width)),
        delivery_text(message.status),
        safe(_plain(message.source) if message.source is not None else "—"),
        Text(str(len(links)) if links else ""),
        Text(truncate(_plain(message.message) if message.message is not None else "", width)),
    )


def _who(user: Any, user_id: Any) -> Text:
    text = safe(party(user, user_id))
    if user_id is not None and party(user, user_id) != f"#{user_id}":
        text.append(f" (#{literal(user_id)})", style="dim")
    return text


def message_detail(message: RoomMessage | None) -> RenderableType:
    """The message for reading: sender, receiver, who started the room, time, status,
    source, attachments (one address a line, as text), the whole text; then every field
    as the platform sent it."""
    if message is None:
        return Text("No message highlighted.", style="dim")
    grid = Table.grid(padding=(0, 1), expand=True)
    grid.add_column(style="bold", no_wrap=True)
    grid.add_column(ratio=1, overflow="fold")
    grid.add_row("From", _who(message.from_user, message.from_))
    grid.add_row("To", _who(message.to_user, message.to))
    # roomInitiator: the user name of who first made contact (the vendor's reference).
    grid.add_row("Started by", safe(message.initiator or "—"))
    moment = message.sent_at
    sent = Text(fmt_datetime(moment))
    age = humanize_age(moment)
    if moment is not None and ("ago" in age or age == "just now"):  # not the date again
        sent.append(f", {age}", style="dim")
    grid.add_row("Sent", sent)
    status = delivery_text(message.status)
    if message.status is not None and message.status != "":
        status.append(f" ({literal(message.status)})", style="dim")
    grid.add_row("Delivery", status)
    grid.add_row("Source", safe(_plain(message.source) if message.source is not None else "—"))
    links = message.links
    grid.add_row("Attachments", Text("\n".join(literal(link) for link in links) or "none"))
    text = _plain(message.message) if message.message is not None else ""
    grid.add_row("Message", safe(text or "—", multiline=True))
    fields = Table.grid(padding=(0, 1), expand=True)
    fields.add_column(style="dim", no_wrap=True)
    fields.add_column(ratio=1, overflow="fold")
    fields_sent, more = first_fields(message.wire())
    for key, value in fields_sent:
        fields.add_row(safe(key), Text(literal(value)))
    if more:
        fields.add_row("…", Text(not_shown(more, "field"), style="dim"))
    return Group(grid, Text(""), Text("Every field, as sent", style="bold"), fields)
