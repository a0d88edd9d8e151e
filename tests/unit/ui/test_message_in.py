"""What a test message says of itself and of the agent's answer (ui/widgets/message_in_form.py)."""

from __future__ import annotations

from vagent_tui.api.agent_extras_models import InboundMessage, QueuedMessage
from vagent_tui.api.log_models import ConversationMessage
from vagent_tui.ui.widgets.message_in_form import answer_lines


def test_no_message_found_says_where_to_look_and_where_the_answer_went() -> None:
    sent = InboundMessage(target_agent="1", source_address="+15551230001", message="Hi",
                          outbound_message_webhook_url="https://hooks.example.com/a")  # fmt: skip
    other = ConversationMessage.model_validate({"uuid": "msg-9", "message": "not mine"})
    lines = answer_lines(sent, QueuedMessage(message_uuid="msg-1"), [other])
    assert "the answer goes to https://hooks.example.com/a" in lines[1]
    assert "do not show it" in lines[2] and "not mine" not in "".join(lines)
