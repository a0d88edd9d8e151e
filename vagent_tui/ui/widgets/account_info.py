"""Renderables of the Scope screen: the key/scope summary, account lines and details.

Server text (names, usernames) goes in inert (`vagent_tui.ui.text`), never as markup.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.console import RenderableType
from rich.text import Text

from vagent_tui.api.models import Account
from vagent_tui.api.scope import ScopeLevel
from vagent_tui.services.account_text import account_kind
from vagent_tui.services.session import Connection
from vagent_tui.ui.colours import FAILED, FAILED_STRONG, OK_STRONG, WARN
from vagent_tui.ui.failures import next_step
from vagent_tui.ui.format import flag, joined, plain
from vagent_tui.ui.text import inert, safe
from vagent_tui.ui.widgets.field_grid import FieldGrid
from vagent_tui.ui.widgets.status import advice_for, describe_error, token_refused

if TYPE_CHECKING:
    # Only a type: the details widgets (and the agent services they need) are not
    # imported by the first screen.
    from vagent_tui.ui.widgets.details import Field

CURRENT = "●"

_KIND_NAMES = {"account": "agent", "user": "member"}


def kind_name(account: Account) -> str:
    """The account type in words: ``agent``, ``computer agent``, ``member``, ``reseller``..."""
    kind = account_kind(account)
    if kind == "account" and account.scope_field("computerAgent"):
        return "computer agent"
    return inert(_KIND_NAMES.get(kind, kind or "?"))


def scope_info(connection: Connection, error: BaseException | None) -> RenderableType:
    """Four short lines: owner, scope and its rule, access, and whom we act as."""
    grid = FieldGrid()
    owner, scope = connection.owner, connection.scope
    if error is not None:
        grid.add_row(Text("Error", style=FAILED_STRONG), _failure(error, connection))
    if owner is None or scope is None:
        if error is None:
            grid.add_row("Key owner", Text("connecting…", style="italic"))
        return grid
    who = safe(owner.display_name, "bold")
    who.append(f"  #{inert(owner.id)} · {kind_name(owner)}", style="dim")
    grid.add_row("Key owner", who)
    verdict = safe(scope.label, "bold")
    if scope.rule:
        verdict.append(f" — rule {inert(scope.rule)} of 4: ")
    else:
        verdict.append(" — ")
    verdict.append(inert(scope.reason))
    grid.add_row("Scope", verdict)
    grid.add_row("Access", _access(connection))
    acting = Text()
    if connection.target is None:
        acting.append("the key owner (no targetAccountId sent)")
        if scope.restricted:
            # Rule 5: such a key acts on its permitted accounts and nothing else.
            acting.append(" — rule 5: pick a permitted account below to act on it", WARN)
        elif scope.root_id is not None and scope.root_id != scope.account_id:
            # A user-shaped admin acts as its partner/reseller/organization by naming it.
            level = scope.level.value
            acting.append(f" — to act as {level} #{inert(scope.root_id)}, pick it below", "dim")
    else:
        acting.append(inert(connection.target.display_name), style="bold")
        target = connection.target
        acting.append(f"  #{inert(target.id)} · {kind_name(target)}", style="dim")
        acting.append("  (o: key owner)", style="dim")
    grid.add_row(Text(f"{CURRENT} Acting as", style="bold"), acting)
    return grid


def _failure(error: BaseException, connection: Connection) -> Text:
    """What failed, in the words of what is true now, and what to do about it."""
    if connection.connected:  # connected, but not as the account asked for (--account)
        what = "Could not act as the account asked for"
        then = "pick one below"
    else:
        what = "Could not connect"
        then = next_step(error, "r") or "r connects again"
    if token_refused(error):
        then = advice_for(connection)
    return safe(f"✗ {what}: {describe_error(error)} — {then}", FAILED)


def _access(connection: Connection) -> Text:
    scope = connection.scope
    assert scope is not None
    if scope.restricted:
        ids = ", ".join(str(i) for i in scope.permitted_account_ids)
        text = Text(f"restricted by permittedAccountIds to {ids} (rule 5)", style=WARN)
        text.append("; other accounts are hidden, or dimmed and not selectable", style="dim")
        return text
    if scope.level is ScopeLevel.AGENT:
        return Text("its own agent account only")
    if scope.level is ScopeLevel.UNKNOWN:
        return Text("no scope rule matched: only the key owner itself", style=WARN)
    below = {
        ScopeLevel.PARTNER: "resellers › organizations › agents",
        ScopeLevel.RESELLER: "organizations › agents",
        ScopeLevel.ORGANIZATION: "agent accounts",
    }[scope.level]
    root = scope.root_id
    if root is not None and root != scope.account_id:
        # A user-shaped admin: the account its rule names is not its own.
        return Text(f"every child account of {scope.level.value} #{inert(root)} ({below})")
    return Text(f"every child account ({below})")


def account_line(account: Account, *, current: bool, selectable: bool, suffix: str = "") -> Text:
    """A tree or list line: marker, name, id and type; dimmed when not selectable."""
    text = Text()
    text.append(f"{CURRENT} " if current else "  ", style=OK_STRONG)
    text.append(inert(account.display_name), style="bold" if current else "")
    text.append(f" #{inert(account.id)} {kind_name(account)}", style="dim")
    if account.scope_field("active") is False:
        text.append(" ✗ inactive", style=FAILED)
    if not selectable:
        text.append(" (not permitted)", style="dim italic")
        text.stylize("dim")
    if suffix:
        text.append(suffix, style="italic")
    return text


def account_detail(account: Account | None, path: list[Account], permits: bool) -> RenderableType:
    """Every field of the highlighted account that matters for picking it."""
    if account is None:
        return Text("No account highlighted.", style="dim")
    fields: list[Field] = [
        ("Name", safe(account.display_name, "bold")),
        ("Id", plain(account.id)),
        ("Type", kind_name(account)),
        ("Username", plain(account.username)),
        ("Premium", flag(account.scope_field("vidaPremium"))),
        ("Active", flag(account.scope_field("active"))),
        ("Pickable", flag(permits, yes="yes", no="not permitted")),
    ]
    if account.scope_field("computerAgent"):
        fields.append(("Computer", flag(True, yes="Computer Agent")))
    if account.external_account_id:
        fields.append(("Ext. id", safe(account.external_account_id)))
    if account.external_billing_id:
        fields.append(("Billing", safe(account.external_billing_id)))
    parents = [p.display_name for p in path[:-1]]
    if parents:
        fields.append(("Path", joined(parents, " › ")))
    grid = FieldGrid(label_width=9)
    for label, value in fields:
        grid.add_row(Text(label), value if isinstance(value, Text) else safe(value))
    return grid


def selectable(connection: Connection, account: Account) -> bool:
    """Whether the key may act as ``account``: its owner, or a permitted account."""
    if connection.owner is not None and account.id == connection.owner.id:
        return True
    return account.id is not None and (
        connection.scope is None or connection.scope.permits(account.id)
    )


def label_for(connection: Connection, account: Account, suffix: str = "") -> Text:
    """The tree / list line of ``account`` for this connection (current target marked)."""
    current = connection.acting_id == account.id
    return account_line(
        account, current=current, selectable=selectable(connection, account), suffix=suffix
    )
