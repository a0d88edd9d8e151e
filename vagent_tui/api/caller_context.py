"""What an agent knows about a caller: ``GET /context`` and ``POST /context``
(sim/CONTRACT.md, choices 110-111)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from vagent_tui.api import models as m
from vagent_tui.api.errors import ApiError
from vagent_tui.api.streaming import StreamingTransport

if TYPE_CHECKING:
    from vagent_tui.api import context_models as cm


class ContextApi(StreamingTransport):
    """The text an agent is given about a caller (a number or a username)."""

    async def get_caller_context(
        self, caller: str, *, target: int | None = None
    ) -> cm.CallerContext | None:
        """``GET /context?target=<caller>``: the text the agent of ``target`` knows about
        ``caller``; None for a 404 (the reference lists one: nothing known, or no such
        caller; the screen says which it was told)."""
        from vagent_tui.api import context_models as cm  # built on first use

        try:
            return await self.get(
                "/context",
                lambda p: self._parse(cm.CallerContext, p, url="/context"),
                target=target,
                params={"target": caller},
            )
        except ApiError as exc:
            if exc.status == 404:
                return None
            raise

    async def update_caller_context(
        self, update: cm.ContextRequest, *, target: int | None = None
    ) -> m.Envelope:
        """``POST /context``: the whole text the agent of ``target`` knows about a
        caller, sent once (it replaces what was there: choice 110)."""
        return await self._envelope("POST", "/context", target=target, json=update.wire())
