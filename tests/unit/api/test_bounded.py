"""Open replies bounded as they are read: the first entries, the start of each string,
and a count of what was left out (issue 38, item 5: 100,000 usage keys and an 8 MB plan
name cost hundreds of MB and seconds of the event loop)."""

from __future__ import annotations

from typing import Any

from vagent_tui.api import bounded as b
from vagent_tui.api.usage_models import OpenReply
from vagent_tui.inert import DISPLAY_LIMIT, cut, inert

NAME = "Huge plan " + "N" * (8 * 1024 * 1024)


def huge_usage() -> dict[str, Any]:
    return {
        "success": True,
        "usage": {f"metric{i:06d}": i for i in range(100_000)},
        "currency": "USD",
        "plan": {"name": NAME},
    }


def test_a_reply_of_100_000_keys_and_an_8_mb_name_is_bounded() -> None:
    kept, left = b.bounded(huge_usage())
    assert len(kept["usage"]) == b.ENTRIES
    assert list(kept["usage"])[:2] == ["metric000000", "metric000001"], "the first are kept"
    assert left == b.LeftOut(keys=100_000 - b.ENTRIES, texts=1)
    name = kept["plan"]["name"]
    assert len(name) <= DISPLAY_LIMIT and name.startswith("Huge plan NNN")
    assert name.endswith(f"…(+{len(NAME) - name.index('…'):,} characters)")
    assert kept["currency"] == "USD"


def test_a_reply_within_the_bounds_is_kept_as_sent() -> None:
    sent = {"usage": {"minutes": 5, "texts": "3"}, "series": [{"date": "2026-01-01"}] * 1_096}
    kept, left = b.bounded(sent)
    assert kept == sent and not left


def test_the_values_of_the_whole_reply_are_bounded() -> None:
    # 20 keys of 2,000 numbers each: 20 + 40,000 values, 20,000 kept in the order sent
    kept, left = b.bounded({f"k{i}": list(range(2_000)) for i in range(20)})
    lengths = [len(v) for v in kept.values()]
    assert lengths[:9] == [2_000] * 9 and lengths[9] == 1_980 and not any(lengths[10:])
    assert left == b.LeftOut(items=40_000 - (b.VALUES - 20))  # the 20 keys were kept


def test_nesting_deeper_than_depth_is_kept_empty() -> None:
    deep: dict[str, Any] = {}
    node = deep
    for _ in range(b.DEPTH + 5):
        node["in"] = {}
        node = node["in"]
    kept, left = b.bounded(deep)
    assert left == b.LeftOut(keys=1)  # the key inside the first object too deep
    depth = 0
    while kept:
        kept, depth = kept["in"], depth + 1
    assert depth == b.DEPTH


def test_long_keys_are_cut_and_two_alike_once_cut_keep_the_first() -> None:
    long = "k" * 10_000
    kept, left = b.bounded({long + "a": 1, long + "b": 2, long * 2: 3})
    assert all(len(key) <= DISPLAY_LIMIT for key in kept)
    assert list(kept.values()) == [1, 3]
    assert left == b.LeftOut(keys=1, texts=3)


def test_an_open_reply_says_what_it_left_out() -> None:
    reply = OpenReply.model_validate(huge_usage())
    assert len(reply.body()["usage"]) == b.ENTRIES
    assert reply.left_out.entries == 100_000 - b.ENTRIES
    assert reply.left_out.texts == 1
    assert not OpenReply.model_validate({"usage": {"minutes": 1}}).left_out


def test_a_cut_text_counts_what_its_mark_says_when_cut_again() -> None:
    once = cut(NAME, DISPLAY_LIMIT)
    assert inert(once) == once, "cut to the display limit, inert leaves it"
    again = inert(once, limit=80)
    assert again.endswith(f"…(+{len(NAME) - 80:,} characters)")
    assert cut(once, 100).endswith(f"…(+{len(NAME) - cut(once, 100).index('…'):,} characters)")
