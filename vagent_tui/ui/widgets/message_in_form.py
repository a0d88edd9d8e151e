"""A test message in, as a contact would send it (``POST /agent/receiveMessage``).

A reseller's or partner's key only (the platform refuses another: its message shows in
the form). The agent's answer is not sent back here: the platform POSTs it to the
webhook URL of the form, or, left empty, to the organization's default outbound
message webhook. The form says so; the Agent screen then looks for the message and its
answer in the platform's recent messages (`answer_lines`).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from vagent_tui.api.agent_extras_models import InboundMessage, QueuedMessage
from vagent_tui.api.log_models import ConversationMessage
from vagent_tui.services.session import Connection
from vagent_tui.ui.text import inert
from vagent_tui.ui.widgets.entry_forms import FormModal, build, text_input
from vagent_tui.ui.widgets.form import FormField

ORG_DEFAULT = "the organization's default outbound message webhook"


def answer_goes_to(request: InboundMessage) -> str:
    return request.outbound_message_webhook_url or ORG_DEFAULT


def answer_lines(
    request: InboundMessage, queued: QueuedMessage, recent: Sequence[ConversationMessage]
) -> list[str]:
    """What the recent messages show of the message sent and the agent's answer."""
    uuid = queued.message_uuid or ""
    mine = [m for m in recent
            if uuid and isinstance(m.uuid, str) and m.uuid.startswith(uuid)]  # fmt: skip
    lines = [f"Sent from {request.source_address}: {request.message}",
             f"Queued as {uuid or '(no uuid sent)'}; the answer goes to "
             f"{answer_goes_to(request)}."]  # fmt: skip
    if not mine:
        lines.append("The platform's recent messages do not show it (yet): look at the "
                     "webhook for the answer, or at the Calls screen later.")  # fmt: skip
        return [inert(line, multiline=True) for line in lines]
    lines.append("")
    lines.append("In the platform's recent messages:")
    for m in sorted(mine, key=lambda m: m.at.timestamp() if m.at else 0):
        lines.append(f"{m.from_user or m.from_}: {m.message}")
    return [inert(line, multiline=True) for line in lines]


class MessageInForm(FormModal):
    """From whom and what; dismissed with ``(request, QueuedMessage)`` once queued."""

    TITLE_TEXT = "Test message to the agent"
    CONFIRM = "Send"

    def __init__(self, agent_id: int, who: str) -> None:
        super().__init__(
            _send,
            subtitle=f"A message to {who} as a contact would send it (POST "
            "/agent/receiveMessage; reseller and partner keys only). The agent answers "
            "by webhook: to the URL below, or, left empty, to " + ORG_DEFAULT + ".",
            read_back=_read_back,
        )
        self.agent_id = agent_id

    def make_fields(self) -> Iterable[FormField]:
        yield FormField("From", text_input("source_address", "+15551230001"),
                        name="source_address", hint="the sender's number or address")  # fmt: skip
        yield FormField("Message", text_input("message", "Hello, are you open on Saturday?"),
                        name="message")  # fmt: skip
        yield FormField("Answer to", text_input("outbound_message_webhook_url",
                                                "https://hooks.example.com/answers"),
                        name="outbound_message_webhook_url",
                        hint="optional: empty is the organization's default")  # fmt: skip

    def build_request(self) -> InboundMessage:
        hook = "outbound_message_webhook_url"
        values = {"target_agent": str(self.agent_id),
                  "source_address": self.value("source_address"),
                  "message": self.value("message"), hook: self.value(hook)}  # fmt: skip
        return build(InboundMessage, values, "source_address", "message")


async def _send(conn: Connection, request: InboundMessage) -> QueuedMessage:
    return await conn.api.receive_message(request)


async def _read_back(conn: Connection, request: InboundMessage) -> str:
    """No reply came: whether the recent messages hold this message from this sender."""
    recent = await conn.api.recent_messages(target=conn.target_id)
    there = any(str(m.from_) == request.source_address and m.message == request.message
                for m in recent)  # fmt: skip
    if there:
        return "the message IS in the recent messages: it was received."
    return (
        "the message is NOT in the recent messages (the platform may not list it): "
        "look at the answer webhook before sending it again."
    )
