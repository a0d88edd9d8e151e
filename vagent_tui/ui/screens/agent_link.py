"""The agent's public link, as writes of the Agent screen (``U``).

``GET /agentUrl`` answers the link and, says the vendor, makes one when the agent has
none: it is asked only when the user asks, after a question that says so, and sent as a
change (once, refused on a read-only profile, journaled). ``POST /agentUrl`` replaces
the link: its question names the old slug, which stops working at once.
"""

from __future__ import annotations

from collections.abc import Callable

from vagent_tui.api.agent_extras_models import AgentLink, AgentLinkRequest
from vagent_tui.services.session import Connection
from vagent_tui.ui.dialogs import ConfirmModal
from vagent_tui.ui.writes import Write, Written

ASK_BODY = (
    "GET /agentUrl answers {who}'s public link. When the agent has none, the platform "
    "makes one (a new public address for this agent): asking can change the platform."
)


def link_line(slug: str | None) -> str:
    return f"Public link: {slug or '(the platform sent no slug)'}  (U: a new one)"


def read_link(
    username: str, who: str, after: Callable[[Written[AgentLink]], object]
) -> Write[AgentLink]:
    """Ask for the link (which may make one), after a question that says so."""
    return Write[AgentLink](
        "agent-link",
        f"Asking for the public link of {who}",
        lambda c: c.api.get_agent_link(username, target=c.target_id),
        confirm=ConfirmModal(
            f"Ask for the public link of {who}?", ASK_BODY.format(who=who), confirm_label="Ask"
        ),
        done=lambda link: f"Public link of {who}: {link.slug or '(no slug sent)'}",
        read_back=lambda c: _now(c, username),
        after=after,
    )


def set_link(
    username: str, who: str, old: str | None, new: str,
    after: Callable[[Written[AgentLink]], object],
) -> Write[AgentLink]:  # fmt: skip
    """Replace the link with ``new``; the question says the old one stops working."""
    request = AgentLinkRequest(target_username=username, slug=new)
    stops = (f"The old link, {old}, stops working at once: whoever uses it reaches nothing."
             if old else "The agent's old link, if any, stops working at once.")  # fmt: skip
    gone = f"; {old} no longer works" if old else ""
    return Write[AgentLink](
        "agent-link",
        f"Setting the public link of {who} to {request.slug}",
        lambda c: c.api.set_agent_link(request, target=c.target_id),
        confirm=ConfirmModal(
            f"Set the public link of {who} to {request.slug}?",
            f"POST /agentUrl replaces the agent's link with {request.slug}. {stops}",
            confirm_label="Set link",
        ),
        done=lambda link: f"The public link of {who} is now {link.slug or request.slug}{gone}",
        read_back=lambda c: _now(c, username),
        after=after,
    )


async def _now(conn: Connection, username: str) -> str:
    """No reply came: the link the platform holds now (the agent has one by then)."""
    link = await conn.api.get_agent_link(username, target=conn.target_id)
    return f"the public link is {link.slug}."
