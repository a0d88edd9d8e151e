"""Counted words: a count and its noun agree ("1 address", "2 addresses").

The one place the console makes a plural, so that no line says "1 destinations" or
hedges with "account(s)". It imports nothing: every layer may use it.
"""

from __future__ import annotations


def plural(noun: str) -> str:
    """The plural of ``noun`` (of its last word): the rules the console's nouns need."""
    if noun.endswith(("s", "x", "sh", "ch")):
        return noun + "es"
    if noun.endswith("y") and noun[-2:-1] not in ("a", "e", "o", "u"):
        return noun[:-1] + "ies"
    return noun + "s"


def noun_for(count: int, noun: str, many: str = "") -> str:
    """``noun`` when ``count`` is one, else its plural (``many``, when given)."""
    return noun if count == 1 else (many or plural(noun))


def counted(count: int, noun: str, many: str = "") -> str:
    """``1 address``, ``2 addresses``, ``1,234 accounts``: the count, then its noun."""
    return f"{count:,} {noun_for(count, noun, many)}"
