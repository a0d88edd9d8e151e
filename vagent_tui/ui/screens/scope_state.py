"""What the Scope screen holds between keys, in typed objects that need no app.

`TreeState` is the tree as read (which accounts' children are shown, which are read
again after a change, the members read for the pane); `FilterState` is the filter's
(the answer shown, an enter waiting for its answer, when the last key came). The screen
draws them; these say what is known and what is current. `edited` and `delete_parent`
say what a change of the tree did or acts on.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, NamedTuple

from vagent_tui.services.account_text import account_kind
from vagent_tui.services.accounts import AccountDirectory, Matches
from vagent_tui.ui.text import inert
from vagent_tui.ui.widgets.members_pane import home_of

if TYPE_CHECKING:
    from vagent_tui.api.models import Account, Member, SettingsChange

SEARCH_DEBOUNCE = 0.03
"""Seconds a key that follows another this closely waits for the next before its search
goes out (a newer key cancels it); a key on its own searches at once."""


@dataclass
class TreeState:
    """The tree of the key's accounts as the screen has read it.

    Attributes:
        directory: the accounts read (None: no tree yet, or one to read again).
        fresh: the next tree is read afresh (``r``), not from what the connection read.
        loaded: accounts whose children the tree shows.
        quiet: accounts whose children are read again after a change: the change's line
            stays on the status line, not the count of children.
        members: the members of each home read for the pane, until the tree is read again.
    """

    directory: AccountDirectory | None = None
    fresh: bool = False
    loaded: set[int] = field(default_factory=set)
    quiet: set[int] = field(default_factory=set)
    members: dict[int, list[Member]] = field(default_factory=dict)

    def start(self, directory: AccountDirectory) -> None:
        """A new tree: nothing of the last one's is shown or kept."""
        self.directory = directory
        self.fresh = False
        self.loaded.clear()
        self.members.clear()

    def shown(self, account_id: int) -> bool:
        """The children of ``account_id`` are shown now; False when they already were."""
        if account_id in self.loaded:
            return False
        self.loaded.add(account_id)
        return True

    def announced(self, account_id: int) -> bool:
        """Whether showing the children of ``account_id`` says how many: not when they
        were read again after a change (once)."""
        if account_id in self.quiet:
            self.quiet.discard(account_id)
            return False
        return True

    def read_again(self, account_id: int) -> None:
        """The children of ``account_id`` are to be read again, quietly (a change's
        outcome is unknown): forgotten by the directory and the tree."""
        if self.directory is not None:
            self.directory.forget_children(account_id)
        self.loaded.discard(account_id)
        self.quiet.add(account_id)

    def home(self, account: Account | None) -> int | None:
        """The account whose members may act on ``account`` (`home_of`)."""
        if account is None or account.id is None or self.directory is None:
            return None
        return home_of(account, self.directory.parents.get(account.id))

    def name_of(self, account_id: int) -> str | None:
        known = self.directory.known.get(account_id) if self.directory else None
        return known.display_name if known is not None else None

    def members_target(
        self, account: Account, home: int, owner: Account | None, permitted: tuple[int, ...]
    ) -> int | None:
        """The target that asks for the members of ``home``: an agent account names
        itself (the members of its organization answer); the key ``owner``'s own home is
        the key's (no target), or for a key restricted to accounts (rule 5, which must
        name one: ``permitted``) its first permitted account; any other home names itself."""
        if account_kind(account) == "account":
            return account.id
        if owner is None or self.home(owner) != home:
            return home
        return permitted[0] if permitted else None


@dataclass
class FilterState:
    """The filter's state: the answer shown, and an enter waiting for an answer.

    Attributes:
        answer: the last answer shown (its ``query`` is the text it answers).
        pick_pending: the text an enter waits for the answer of (picks its top match).
        last_key: when the last key of the filter came (`time.monotonic`).
    """

    answer: Matches | None = None
    pick_pending: str | None = None
    last_key: float = 0.0

    def clear(self) -> None:
        """A new tree: no answer, no enter waiting."""
        self.answer = None
        self.pick_pending = None

    def typed(self, text: str) -> None:
        """The text is ``text`` now: an enter for another text no longer waits."""
        if self.pick_pending is not None and self.pick_pending != text:
            self.pick_pending = None

    def answer_for(self, text: str) -> Matches | None:
        """The answer shown for ``text``, if the last answer is for it."""
        return self.answer if self.answer is not None and self.answer.query == text else None

    def debounce(self, now: float) -> float:
        """How long the search of a key at ``now`` waits: at once, unless the keys come in
        a burst."""
        burst = now - self.last_key < SEARCH_DEBOUNCE
        self.last_key = now
        return SEARCH_DEBOUNCE if burst else 0.0

    def take_pick(self, text: str) -> bool:
        """Whether an enter waited for the answer of ``text`` (it waits no longer)."""
        if self.pick_pending == text:
            self.pick_pending = None
            return True
        return False


def match_count(found: Matches) -> str:
    """``1,234 accounts match “fleet”``: the line above an answer."""
    walked = " in the accounts walked so far" if found.partial else ""
    if not found.total:
        return f"No account matches “{inert(found.query)}”{walked}"
    verb = "account matches" if found.total == 1 else "accounts match"
    shown = f", the best {len(found.accounts)} shown" if found.more else ""
    return f"{found.total:,} {verb} “{inert(found.query)}”{shown}{walked}"


def as_id(value: object) -> int | None:
    """An account id given as a number or decimal text; None for anything else."""
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    if isinstance(value, str) and value.isdecimal():
        return int(value)
    return None


def chain_to(account: Account, top: int | None) -> list[int]:
    """The ids from below ``top`` (the tree's root) down to ``account``: its partner,
    reseller, organization and itself, as far as its fields name them."""
    chain: list[int] = []
    for value in (account.partner_id, account.reseller_id, account.organization_id,
                  account.id):  # fmt: skip
        found = as_id(value)
        if found is not None and found not in chain:
            chain.append(found)
    return chain[chain.index(top) + 1 :] if top is not None and top in chain else chain


FIELD_OF = {"accountName": "name", "orgName": "name", "active": "active",
            "externalAccountId": "external_account_id",
            "externalBillingId": "external_billing_id"}  # fmt: skip
"""The account field each setting of an update changes."""

SETTING_NAMES = {"accountName": "name", "orgName": "name", "active": "status",
                 "externalAccountId": "external id", "externalBillingId": "billing id",
                 "email": "email"}  # fmt: skip


class Edited(NamedTuple):
    """What an edit of an account did, as the platform answered it.

    Attributes:
        account: the account as it is now (the settings applied, the others as they were).
        saved: the settings applied, in words (``nothing`` when none).
        refused: the settings the platform refused, each with its reason ("" when none).
    """

    account: Account
    saved: str
    refused: str


def edited(was: Account, sent: dict[str, Any], change: SettingsChange) -> Edited:
    """``was`` after the settings ``sent`` (by their wire names) and the platform's
    ``change``: a reply that names no setting, applied or failed, applied all of them."""
    applied = [s for s in change.updated_settings if s in sent] or (
        [] if change.failed_settings else list(sent)
    )
    update = {FIELD_OF[s]: sent[s] for s in applied if s in FIELD_OF}
    refused = "; ".join(
        SETTING_NAMES.get(s, s) + (f" ({why})" if (why := change.reason(s)) else "")
        for s in change.failed_settings
    )
    saved = ", ".join(SETTING_NAMES.get(s, s) for s in applied) or "nothing"
    return Edited(was.model_copy(update=update), saved, refused)


def delete_parent(account: Account, parent: Account | None) -> int | None:
    """The id a delete of ``account`` names as its parent: an agent account's
    organization, an organization's reseller (from its fields, else the tree's
    ``parent``); None for any other kind, or a parent not known."""
    kind = account_kind(account)
    if kind == "account":
        named = account.organization_id
    elif kind == "organization":
        named = account.reseller_id
    else:
        return None
    return as_id(named) or (parent.id if parent else None)
