"""The templates the Migrations screen offers, without an app (ui/screens/migrations_state.py)."""

from __future__ import annotations

from vagent_tui.api.models import Template
from vagent_tui.services.migrations import RecentTemplate
from vagent_tui.ui.caps import ROW_CAP
from vagent_tui.ui.screens.migrations_state import (
    NO_LIST,
    RECENT_PREFIX,
    TemplateChoices,
    typed_sections,
)


def _recent(template_id: str, target: int | None = None) -> RecentTemplate:
    return RecentTemplate(template_id, "sim.local", target, "2026-01-01T00:00:00Z")


def test_a_list_keeps_one_template_per_id_and_at_most_the_cap() -> None:
    choices = TemplateChoices()
    choices.listed_now([Template(id="a", name="one"), Template(id="a", name="two")])
    assert [t.name for t in choices.templates] == ["one"] and choices.error is None
    choices.listed_now([Template(id=str(n)) for n in range(ROW_CAP + 5)])
    assert len(choices.templates) == ROW_CAP


def test_the_lines_are_the_templates_then_the_recent_ids_not_listed() -> None:
    choices = TemplateChoices(recent=[_recent("a"), _recent("z", 1111)])
    choices.listed_now([Template(id="a"), Template(id="b")])
    entries = choices.entries()
    assert [e.option_id for e in entries] == ["a", "b", None, RECENT_PREFIX + "z"]
    assert entries[-1].label.plain == "z · for #1111"
    assert choices.choices == ["a", "b", None, "z"]
    assert (choices.choice(3), choices.choice(2), choices.choice(9)) == ("z", None, None)


def test_why_no_template_is_listed_is_a_line() -> None:
    choices = TemplateChoices()
    choices.not_listed(NO_LIST)
    assert [e.label.plain for e in choices.entries()] == [NO_LIST]
    choices.not_listed("the platform said no")
    assert [e.label.plain for e in choices.entries()] == ["the platform said no"]
    choices.error = None
    assert [e.label.plain for e in choices.entries()] == ["No templates listed for this account"]
    assert choices.choices == [None]


def test_a_list_fills_the_field_unless_an_id_was_typed() -> None:
    choices = TemplateChoices()
    assert choices.to_fill("") is None  # nothing listed
    choices.listed_now([Template(id="a")])
    assert choices.to_fill("") == "a"
    assert choices.to_fill("typed") is None
    choices.fill("gone")  # picked from an earlier list: replaced
    assert choices.to_fill("gone") == "a"
    assert choices.fill("x\x1b") != "x\x1b"  # an id goes in inert


def test_the_field_names_a_listed_template_or_a_typed_one() -> None:
    choices = TemplateChoices()
    choices.listed_now([Template(id="a", name="listed")])
    selected = choices.selected("a")
    assert selected is not None and selected.name == "listed"
    typed = choices.selected("other")
    assert typed is not None and typed.id == "other" and typed.name != "listed"
    assert choices.selected("") is None


def test_typed_sections_each_once_in_order() -> None:
    assert typed_sections(" b, a ,, b ") == ["b", "a"] and typed_sections("") == []
