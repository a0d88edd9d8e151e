"""What an agent knows about a caller (``GET/POST /context``): the reply's text and
what the console sends.

``target`` is a phone number in E.164 or a username (the reference's words); the text
is personal data. Whether a POST replaces the text or adds to it is not published: the
console sends the whole text as it will be (sim/CONTRACT.md, choice 110), and reads it
back after a write to say what the platform holds.
"""

from __future__ import annotations

import re
from typing import Any

from pydantic import ConfigDict, Field, field_validator

from vagent_tui.api.base import NullAsEmpty, Resource
from vagent_tui.api.requests import Request

MAX_CONTEXT = 10_000
"""Characters of one caller's text the console sends (the simulator's limit, choice 111)."""
_E164 = re.compile(r"^\+[1-9][0-9]{6,14}$")
_USERNAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{1,63}$")


def check_caller(value: str) -> str:
    """A caller: a number in E.164 (``+15551234567``) or a username, else ValueError."""
    text = value.strip()
    if not (_E164.match(text) or _USERNAME.match(text)):
        raise ValueError("a number in E.164 (+15551234567) or a username")
    return text


class CallerContext(Resource):
    """``GET /context``: the text the agent is given about one caller ("" when none)."""

    context: NullAsEmpty = ""


class ContextRequest(Request):
    """``POST /context``: the caller and the whole text the agent will know about them.

    The text is sent exactly as typed (not stripped: a line break is part of it)."""

    model_config = ConfigDict(str_strip_whitespace=False)

    target: str
    context: str = Field(max_length=MAX_CONTEXT)

    @field_validator("target")
    @classmethod
    def _target(cls, value: str) -> str:
        return check_caller(value)

    def wire(self) -> dict[str, Any]:
        return {"target": self.target, "context": self.context}
