"""The agent's public link (``U``), a test message in (``M``) and the key owner's details
(``O``) on the Agent screen.

``GET /agentUrl`` answers the link and, says the vendor, makes one when the agent has
none: it is asked only when the user asks, after a question that says so, and sent as a
change (once, refused on a read-only profile, journaled). ``POST /agentUrl`` replaces
the link: its question names the old slug, which stops working at once.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar

from textual import work
from textual.binding import BindingType
from textual.widgets import Static

from vagent_tui.api.agent_extras_models import (
    AgentLink,
    AgentLinkRequest,
    InboundMessage,
    QueuedMessage,
    slug_of,
)
from vagent_tui.services.session import Connection
from vagent_tui.ui.dialogs import ConfirmModal, TextModal
from vagent_tui.ui.safety import WRITES, Key
from vagent_tui.ui.screens.agent_replace import VersionReplace
from vagent_tui.ui.screens.base import who_of
from vagent_tui.ui.text import safe
from vagent_tui.ui.widgets.message_in_form import MessageInForm, answer_goes_to, answer_lines
from vagent_tui.ui.widgets.own_details_form import OwnDetailsForm
from vagent_tui.ui.widgets.slug_prompt import SlugPrompt
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


class AgentMore(VersionReplace):
    """The Agent screen's public link and the key owner's details."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Key("O", "owner_details", "Your details", show=False, id="agent.owner-details",
            does=WRITES, tooltip="The key owner's own details (POST /account), in a form"),
        Key("M", "message_in", "Test message", show=False, id="agent.message-in", does=WRITES,
            tooltip="Send the agent a message as a contact would (reseller and partner keys); "
                    "its answer goes to a webhook"),
        Key("U", "link", "Link", show=False, id="agent.link", does=WRITES,
            tooltip="The agent's public link (asks first: the platform makes one when there "
                    "is none), then a new slug, checked as it is typed"),
    ]  # fmt: skip

    link: tuple[int | None, str | None] | None = None
    """The public link asked for (``U``): the account it is of, and its slug."""

    # ------------------------------------------------------------------ a message in

    def action_message_in(self) -> None:
        """M: a message to the agent as a contact would send it; then what the platform
        shows of it and of the answer."""
        conn = self.connection
        agent = conn.acting_id
        if not conn.is_agent_selected or agent is None:
            self.status.info("Select a voice agent account on the Scope screen (1) first")
            return

        def sent(done: tuple[Any, Any] | None) -> None:
            if done is not None:
                request, queued = done
                self.show_message_in(request, queued)

        self.app.push_screen(MessageInForm(agent, who_of(self, with_id=True)), sent)

    @work(exclusive=True, group="open-message-in", exit_on_error=False)
    async def show_message_in(self, request: InboundMessage, queued: QueuedMessage) -> None:
        self.status.ok(f"Message queued; the answer goes to {answer_goes_to(request)}")
        ok, recent = await self.load(
            lambda c: c.api.recent_messages(target=c.target_id),
            note="Looking for the message and its answer in the recent messages",
        )
        if not ok or recent is None:
            return
        lines = answer_lines(request, queued, recent)
        await self.app.push_screen_wait(TextModal("Test message", "\n".join(lines)))

    # ------------------------------------------------------------------ the key owner

    def action_owner_details(self) -> None:
        self.open_owner_details()

    @work(exclusive=True, group="open-owner-details", exit_on_error=False)
    async def open_owner_details(self) -> None:
        """O: the key owner's details read now, in a form (its details only: no target)."""
        ok, owner = await self.load(
            lambda c: c.api.get_account(), note="Reading your account's details",
            follows_target=False,
        )  # fmt: skip
        if not ok or owner is None:
            return
        who = f"{owner.display_name} (#{owner.id})"
        form = OwnDetailsForm(owner.details or {}, who)

        def saved(done: tuple[Any, Any] | None) -> None:
            if done is not None:
                self.status.ok("Your account's details are saved")

        self.status.info("Change what you like; only changed fields are sent")
        self.app.push_screen(form, saved)

    # ------------------------------------------------------------------ the public link

    def _show_link(self, link: tuple[int | None, str | None] | None) -> None:
        self.link = link
        line = self.query_one("#agent-link", Static)
        line.update(safe(link_line(link[1])) if link is not None else "")
        line.set_class(link is not None, "-shown")

    def action_link(self) -> None:
        """U: ask for the public link (it may be made then), then offer a new slug."""
        conn = self.connection
        account = conn.acting_as
        if not conn.is_agent_selected or account is None or not account.username:
            self.status.info("Select a voice agent account on the Scope screen (1) first")
            return
        username, who = account.username, who_of(self)
        if self.link is not None and self.link[0] == conn.acting_id:
            self._ask_slug(username, self.link[1])
            return
        acting = conn.acting_id

        def after(written: Written[AgentLink]) -> None:
            if written.result is not None and self.connection.acting_id == acting:
                self._show_link((acting, written.result.slug))
                self._ask_slug(username, written.result.slug)

        self.write(read_link(username, who, after))

    def _ask_slug(self, username: str, current: str | None) -> None:
        start = self.connection
        who = who_of(self)
        body = (f"The public link of {who} is {current or '(no slug sent)'}. A new slug "
                "replaces it (lowercased, as the platform keeps it); you are asked again "
                "before anything is sent.")  # fmt: skip
        prompt = SlugPrompt(
            current or "",
            lambda slug: start.api.check_agent_link(username, slug, target=start.target_id),
            body=body,
        )

        def chosen(slug: str | None) -> None:
            if slug is None:
                self.status.info("No new link; nothing was sent")
                return
            acting = start.acting_id

            def after(written: Written[AgentLink]) -> None:
                if written.result is not None and self.connection.acting_id == acting:
                    self._show_link((acting, written.result.slug or slug_of(slug)))

            self.write(set_link(username, who, current, slug_of(slug), after), start)

        self.app.push_screen(prompt, chosen)
