"""Configuration diffs: field by field, entry by entry, long text line by line."""

from __future__ import annotations

from vagent_tui.services.diff import diff_configs, summary, text_lines


def test_scalars_changed_added_removed_in_order() -> None:
    old = {"a": 1, "b": "x", "c": True}
    new = {"a": 2, "c": True, "d": None}
    diffs = diff_configs(old, new)
    assert [(d.path, d.kind, d.old, d.new) for d in diffs] == [
        ("a", "changed", 1, 2), ("b", "removed", "x", None), ("d", "added", None, None)
    ]  # fmt: skip


def test_lists_entry_by_entry_by_their_key() -> None:
    old = {"actions": [{"name": "a", "instructions": "x", "allowed": True},
                       {"name": "b", "instructions": "y"}],
           "skills": [{"slug": "s1", "instructions": "i"}]}  # fmt: skip
    new = {"actions": [{"name": "b", "instructions": "y2"}, {"name": "c", "instructions": ""}],
           "skills": [{"slug": "s1", "instructions": "i"}]}  # fmt: skip
    diffs = diff_configs(old, new)
    assert [(d.path, d.kind) for d in diffs] == [
        ("actions[a]", "removed"), ("actions[b]", "changed"), ("actions[c]", "added")
    ]  # fmt: skip
    assert diffs[1].lines == ('  instructions: "y" → "y2"',)
    assert summary(diffs) == "3 functions"


def test_computed_fields_and_effective_fields_are_not_differences() -> None:
    old = {"actions": [{"name": "a", "instructions": "", "allowed": True, "reason": None}],
           "effectiveReportingFields": [{"key": "k"}]}  # fmt: skip
    new = {"actions": [{"name": "a", "instructions": "", "allowed": False, "reason": "paid"}],
           "effectiveReportingFields": []}  # fmt: skip
    assert diff_configs(old, new) == []


def test_repeated_entries_are_told_apart_and_order_changes_are_seen() -> None:
    old = {"actions": [{"name": "t", "instructions": "1"}, {"name": "t", "instructions": "2"}]}
    new = {"actions": [{"name": "t", "instructions": "1"}]}
    assert [d.path for d in diff_configs(old, new)] == ["actions[t #2]"]
    swapped = {"apps": [{"appId": "x"}, {"appId": "y"}]}
    back = {"apps": [{"appId": "y"}, {"appId": "x"}]}
    assert [d.path for d in diff_configs(swapped, back)] == ["apps (order)"]


def test_long_text_line_by_line_with_context() -> None:
    old = {"agentInstructions": "one\ntwo\nthree\nfour\nfive"}
    new = {"agentInstructions": "one\ntwo\nTHREE\nfour\nfive"}
    (diff,) = diff_configs(old, new)
    assert diff.lines == ("  two", "- three", "+ THREE", "  four")
    assert text_lines("a", "b") == ("- a", "+ b")


def test_no_difference() -> None:
    assert diff_configs({"a": [1]}, {"a": [1]}) == []
    assert summary([]) == "no difference"
    assert summary(diff_configs({"a": 1, "b": 1}, {"a": 2, "b": 2})) == "2 settings"


def test_a_long_line_changed_near_its_end_shows_the_change() -> None:
    old = "word " * 100 + "until five"
    new = "word " * 100 + "until six"
    (diff,) = diff_configs({"agentInstructions": old}, {"agentInstructions": new})
    minus, plus = diff.lines
    assert minus.startswith("- …") and minus.endswith("until five")
    assert plus.startswith("+ …") and plus.endswith("until six")
    assert len(minus) < 50
