"""Read-only mode: which actions change the platform, and how they are refused.

Every binding that changes the platform (or opens a form whose only purpose is to do
so) is listed here by its binding id. A screen derives the action names to hide from
its own ``BINDINGS``; `ConnectionApp.run_action` refuses them with a reason when they are
invoked anyway (a keymap override, the palette, a test). The transport refuses any
non-GET request on a read-only client as the last line (buttons inside forms).

A new screen with a mutating binding adds its id below.
"""

from __future__ import annotations

from collections.abc import Iterable

from textual.binding import Binding, BindingType

MUTATING_BINDING_IDS: frozenset[str] = frozenset(
    {
        "agent.rename",
        "agent.edit",
        "agent.publish",
        "agent.revert",
        "agent.save-version",
        "agent.restore",
        "agent.restore-live",
        "voices.use",
        "functions.toggle",
        "functions.add",
        "functions.instructions",
        "tokens.new",
        "tokens.delete",
        "sip.add",
        "sip.remove",
        "webhooks.add",
        "webhooks.delete",  # destinations and relay configurations
        "computer.start",
        "computer.stop",
        "computer.browser_session",
        "computer.upload",
        "billing.save",
        "billing.save-alt",
        "migrations.start",
        "rollout.apply",
        "rollout.publish",
    }
)


def mutating_actions(bindings: Iterable[BindingType]) -> dict[str, str]:
    """Action name -> description of the mutating bindings among ``bindings``."""
    found: dict[str, str] = {}
    for binding in bindings:
        if isinstance(binding, Binding) and binding.id in MUTATING_BINDING_IDS:
            name = binding.action.partition("(")[0]
            found[name] = binding.description or name.replace("_", " ")
    return found


def refusal(what: str) -> str:
    return f"Read-only profile: {what} is disabled"
