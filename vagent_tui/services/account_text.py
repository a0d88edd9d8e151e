"""How an account matches text typed to find it: a fuzzy score over its name, username,
id and kind (the console's filter), and what ``searchAccounts`` matches (``holds``)."""

from __future__ import annotations

from vagent_tui.api.models import Account


def account_kind(account: Account) -> str:
    return str(account.scope_field("accountType") or "").lower()


def fuzzy_score(query: str, text: str) -> int | None:
    """A subsequence match score (higher is better), or None when ``query`` doesn't match.

    Every character of the query must appear in order; consecutive runs and matches at
    word starts score more, so ``acme`` ranks "Acme Dental" above "A Custom Media Edge".
    """
    query = query.strip().lower()
    if not query:
        return 0
    haystack = text.lower()
    score = 0
    position = -1
    previous = -2
    for char in query:
        if char == " ":
            continue
        found = haystack.find(char, position + 1)
        if found < 0:
            return None
        score += 1
        if found == previous + 1:
            score += 3
        if found == 0 or not haystack[found - 1].isalnum():
            score += 2
        previous = position = found
    return score * 100 - len(haystack)


def account_search_text(account: Account) -> str:
    return " ".join(
        str(part)
        for part in (account.display_name, account.username, account.id, account_kind(account))
        if part
    )


def filter_accounts(accounts: list[Account], query: str) -> list[Account]:
    """Accounts matching ``query`` fuzzily, best first."""
    scored = [
        (score, account)
        for account in accounts
        if (score := fuzzy_score(query, account_search_text(account))) is not None
    ]
    scored.sort(key=lambda pair: -pair[0])
    return [account for _, account in scored]


def holds(text: str, account: Account) -> bool:
    """Whether the name or username holds ``text`` (what ``searchAccounts`` matches)."""
    needle = text.strip().lower()
    return any(
        needle in str(part or "").lower() for part in (account.display_name, account.username)
    )
