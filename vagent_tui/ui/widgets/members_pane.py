"""Who can act where: the members pane of Scope, and a member's reach in words.

The pane shows, for the account highlighted in the tree, the members of its home (an
organization, reseller or partner is its own home; an agent account's is its
organization; a member's its parent): email, role and restriction. On an agent account
each member says whether it may act there. A member restricted to accounts is explained
the way Scope explains a restricted key (rule 5): those accounts only.

Platform text goes through `inert` (`vagent_tui.ui.text`), never as markup.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from rich.console import RenderableType
from rich.text import Text

from vagent_tui.services.account_text import account_kind
from vagent_tui.ui.colours import FAILED, OK, WARN
from vagent_tui.ui.text import inert
from vagent_tui.ui.widgets.fitted import FittedStatic
from vagent_tui.words import counted

if TYPE_CHECKING:  # the member model is built on first use, not at start-up
    from vagent_tui.api.models import Account, Member

PANE_ROWS = 12
"""Members listed in the pane; the line after them says how many more (m opens them all)."""

NameOf = Callable[[int], str | None]


def home_of(account: Account, parent_id: int | None) -> int | None:
    """The account whose members may act on ``account`` (module docstring)."""
    if account_kind(account) not in ("account", "user"):
        return account.id
    org = account.organization_id  # a member's is its parent's id, whatever its level
    if isinstance(org, int) and not isinstance(org, bool) and org != account.id:
        return org
    return parent_id


def reach_words(ids: Sequence[int], name_of: NameOf | None = None) -> str:
    """A member's reach in words: every account, or rule 5's accounts by name and id."""
    if not ids:
        return "every account of the organization"
    named = []
    for account_id in ids:
        name = name_of(account_id) if name_of is not None else None
        named.append(f"{name} #{account_id}" if name else f"#{account_id}")
    return f"restricted by permittedAccountIds to {', '.join(named)} (rule 5)"


def reach_text(member: Member, name_of: NameOf | None = None) -> Text:
    """`reach_words` styled as Scope's access line: a restriction in the warning style,
    then what it means for the rest of the organization."""
    if not member.restricted:
        return Text(inert(reach_words(())))
    text = Text(inert(reach_words(member.permitted_account_ids, name_of)), style=WARN)
    text.append("; not the organization itself nor its other accounts", style="dim")
    return text


def members_view(
    account: Account,
    home_name: str,
    members: Sequence[Member],
    name_of: NameOf | None = None,
) -> RenderableType:
    """The pane's text for ``account`` once the members of its home are read."""
    text = Text()
    kind = account_kind(account)
    text.append("Members", style="bold")
    text.append(f" of {inert(home_name)} ({len(members):,})", style="dim")
    if kind == "user":
        me = next((m for m in members if m.id == account.id), None)
        text.append("\n")
        if me is None:
            text.append("This member is not in its organization's list.", style="dim")
            return text
        text.append(inert(me.email or account.display_name), style="bold")
        text.append(f" · {inert(me.role or 'no role')}\n")
        text.append("Reach: ")
        text.append_text(reach_text(me, name_of))
        return text
    if not members:
        text.append("\nNo member listed here.", style="dim")
        return text
    here = account.id if kind == "account" else None
    for member in members[:PANE_ROWS]:
        text.append("\n")
        text.append(inert(member.email or f"member #{member.id}"))
        text.append(f"\n  {inert(member.role or 'no role')}", style="dim")
        if not member.restricted:
            text.append(" · every account", style="dim")
            continue
        if here is not None:
            allowed = here in member.permitted_account_ids
            words, style = (" · acts here", OK) if allowed else (" · not here", FAILED)
            text.append(words, style=style)
        ids = member.permitted_account_ids
        text.append(" · only ", style=WARN)
        text.append(", ".join(_named(i, name_of) for i in ids), style=WARN)
    if len(members) > PANE_ROWS:
        text.append(f"\n… {counted(len(members) - PANE_ROWS, 'more member')}: m lists them all")
    return text


def _named(account_id: int, name_of: NameOf | None) -> str:
    name = name_of(account_id) if name_of is not None else None
    return inert(f"{name} #{account_id}" if name else f"#{account_id}")


class MembersPane(FittedStatic):
    """The members pane under Scope's detail: drawn by its screen, which reads for it."""

    def waiting(self, account: Account) -> None:
        self.show(Text(f"Members of {inert(account.display_name)}: reading…", style="dim"))

    def nothing(self, why: str) -> None:
        self.show(Text(why, style="dim"))

    def failed(self, home_name: str, message: str) -> None:
        text = Text(f"Members of {inert(home_name)}: ", style="dim")
        text.append(inert(message), style=FAILED)
        self.show(text)
