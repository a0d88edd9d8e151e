"""The one masked field: a password, a token, a provider's credential, a billing key.

Textual's ``Input(password=True)`` only draws the text masked: its copy and cut still
put the text on the clipboard (select all, then ctrl+c). A `SecretInput` draws it masked
and keeps it: copy and cut do nothing. Every field that takes a secret is one.
"""

from __future__ import annotations

from textual.widgets import Input


class SecretInput(Input):
    """A masked field whose text never leaves it: copy and cut do nothing."""

    def __init__(self, *, placeholder: str = "typed masked", id: str | None = None) -> None:
        super().__init__(placeholder=placeholder, password=True, id=id, compact=True)
        self.cursor_blink = False

    def action_copy(self) -> None:
        return

    def action_cut(self) -> None:
        return
