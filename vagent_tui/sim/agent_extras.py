"""The rest of the agent: the models the platform offers (CONTRACT choice 120)."""

from __future__ import annotations

from typing import Any

SUPPORTED_MODELS: dict[str, dict[str, Any]] = {
    "claude-haiku-4-5-20251001": {"provider": "anthropic", "canReason": True},
    "claude-opus-4-5-20251101": {"provider": "anthropic", "canReason": True},
    "claude-sonnet-4-5-20250929": {"provider": "anthropic", "canReason": True},
    "gemini-3-pro-preview": {"provider": "google", "canReason": True},
    "gemini-2.5-flash": {"provider": "google", "canReason": True},
    "gemini-2.5-pro": {"provider": "google", "canReason": True},
    "openai/gpt-oss-120b": {"provider": "groq", "canReason": True},
    "gpt-5.1": {"provider": "openai", "canReason": True},
    "gpt-4.1": {"provider": "openai", "canReason": False},
    # Not in the vendor's example, but named by the seeded configurations (`configs.py`).
    "gpt-4.1-mini": {"provider": "openai", "canReason": False},
    "o4-mini": {"provider": "openai", "canReason": True},
}
"""The vendor's example reply, and the two models the seeded agents use besides."""


def supported_models() -> dict[str, dict[str, Any]]:
    """``GET /models/supported``'s reply: a copy (a reply is never the state itself)."""
    return {key: dict(value) for key, value in SUPPORTED_MODELS.items()}
