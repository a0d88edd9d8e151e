"""Item shape of ``vagent-tui get accounts`` (`vagent_tui.commands.schemas`)."""

from __future__ import annotations

from pydantic import BaseModel

from vagent_tui.commands.schemas import Item


class AccountItem(Item):
    """One account of the tree below the key, after its parent (depth first)."""

    id: int
    name: str
    """The name the console shows (the account's name, else its username, else ``#ID``)."""
    username: str | None
    type: str
    """The Scope screen's word: ``partner``, ``reseller``, ``organization``, ``agent``
    (``member`` for a key owned by a member)."""
    computer_agent: bool
    """An agent account that is a Computer Agent."""
    parent_id: int | None
    """The account listed above it (None for the key owner)."""
    depth: int
    """Levels below the start of the listing (0: the start)."""
    path: str
    """The names from the start of the listing down to this account, joined by `` › ``."""
    path_ids: list[int]
    """The ids of the same accounts."""
    active: bool | None
    external_account_id: str | None
    external_billing_id: str | None
    error: str | None
    """Why the accounts below this one could not be read (the command exits 3)."""


SHAPES: dict[str, type[BaseModel]] = {"accounts": AccountItem}
