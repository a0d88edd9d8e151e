"""Item shapes of ``pull`` and ``plan-from`` (`vagent_tui.commands.schemas`)."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel

from vagent_tui.commands.schemas import Item


class PulledItem(Item):
    """``vagent-tui pull DIR``: one account's file (or one stale file)."""

    account_id: int
    name: str
    """The account's name; empty for a stale file (no account has its id)."""
    file: str
    """The file's name in DIR."""
    result: Literal["written", "unchanged", "failed", "stale", "pruned"]
    message: str
    """Why it failed, the file's old name when the account was renamed, or why stale."""


class FolderPlanItem(Item):
    """``vagent-tui plan-from DIR``: what the plan writes to one account."""

    account_id: int
    name: str
    file: str
    outcome: Literal["change", "already", "refused", "unreadable"]
    changes: list[str]
    """One line per difference the write makes: ``speakingTimeout: 1200 → 900``."""
    reasons: list[str]
    """Why refused (the account's voices or functions), or why it could not be read."""
    notes: list[str]


SHAPES: dict[str, type[BaseModel]] = {"pulled": PulledItem, "folder-plan": FolderPlanItem}
