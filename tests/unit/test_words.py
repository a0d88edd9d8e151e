"""Counted words (`vagent_tui.words`): a count and its noun agree."""

from __future__ import annotations

import ast
import re

import pytest

from tests import source
from vagent_tui.words import counted, noun_for, plural


@pytest.mark.parametrize(
    ("count", "noun", "said"),
    [
        (0, "voice", "0 voices"),
        (1, "whitelisted address", "1 whitelisted address"),
        (2, "whitelisted address", "2 whitelisted addresses"),
        (1, "destination", "1 destination"),
        (3, "entry", "3 entries"),
        (2, "day", "2 days"),
        (2, "more match", "2 more matches"),
        (1234, "agent account", "1,234 agent accounts"),
    ],
)
def test_a_count_and_its_noun_agree(count: int, noun: str, said: str) -> None:
    assert counted(count, noun) == said


def test_an_irregular_plural_is_given() -> None:
    assert counted(2, "room on this page", "rooms on this page") == "2 rooms on this page"
    assert noun_for(1, "is", "are") == "is" and noun_for(5, "is", "are") == "are"
    assert plural("box") == "boxes"


HEDGED = re.compile(r"^[a-z]*\((e)?s\)")
"""``field(s)``, ``address(es)``."""
COUNTING = re.compile(r"len\(|count|total|^n$|rows|shown|written|left|rest|unfinished")
"""A value that counts something (by its source)."""


def hand_made(source: str, following: str) -> bool:
    """Whether ``{source}`` then ``following`` in an f-string makes a plural by hand."""
    if source.startswith(("counted(", "noun_for(")):
        return False
    words = following.split()
    if following.startswith(("s", "es")) and not following[:2].isalpha():
        return True  # {n} field{'s' ...}: the suffix is the next constant
    if (words and HEDGED.match(words[0])) or "(s)" in following[:30]:
        return True
    return bool(
        COUNTING.search(source)
        and following.startswith(" ")
        and words
        and re.fullmatch(r"[a-z]+s", words[0])
        and words[0] not in ("is", "was", "has", "does", "as", "this")
    )


def test_no_count_is_followed_by_a_hedged_or_fixed_plural_in_the_console() -> None:
    """The one helper: no f-string in the package counts with a noun of its own making
    (``{n} field(s)``, ``{n} address{plural}``, ``{len(x)} destinations``)."""
    found = []
    for path in source.python_files():
        if "sim" in path.relative_to(source.PACKAGE).parts:
            continue
        for node in ast.walk(source.tree(path)):
            if not isinstance(node, ast.JoinedStr):
                continue
            for value, text in zip(node.values, node.values[1:], strict=False):
                if not (isinstance(value, ast.FormattedValue) and isinstance(text, ast.Constant)):
                    continue
                counted_text, following = ast.unparse(value.value), str(text.value)
                if hand_made(counted_text, following):
                    found.append(f"{path.name}:{node.lineno} {counted_text}{following[:20]!r}")
    assert not found, "counts with nouns not made by vagent_tui.words.counted:\n" + "\n".join(
        sorted(found)
    )
