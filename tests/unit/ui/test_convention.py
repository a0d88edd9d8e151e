"""The key convention (ui/convention.py) is followed by every binding of the console,
and the README's "Keys" table is the convention's table."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.binding import Binding
from textual.screen import ModalScreen, Screen

from vagent_tui.ui import convention
from vagent_tui.ui.keys import SCREENS_BEGIN, binding_owners, catalog, readme_with_screens
from vagent_tui.ui.registry import SCREENS
from vagent_tui.ui.safety import WRITES, Key

README = Path(__file__).resolve().parents[3] / "README.md"


def _ours() -> list[type]:
    return [owner for owner in binding_owners() if owner.__module__.startswith("vagent_tui.")]


def test_every_screen_widget_and_dialog_follows_the_convention() -> None:
    found = []
    for owner in _ours():
        dialog = issubclass(owner, ModalScreen)
        found += convention.problems(owner.__name__, vars(owner)["BINDINGS"], dialog=dialog)
    assert found == []


@pytest.mark.parametrize(
    ("binding", "said"),
    [
        (Binding("d", "toggle_detail", id="x.detail"), "keeps d for delete"),
        (Binding("d", "toggle_dry_run", id="x.dry"), "keeps d for delete"),
        (Binding("n", "add", id="x.new"), "puts add on a"),
        (Binding("a", "add", id="x.add"), "declare it Key(..., does=WRITES)"),
        (Key("d", "delete", id="x.d", does=WRITES), "does=DESTRUCTIVE"),
        (Binding("a", "new_token", id="x.new"), "keeps a for add"),
        (Binding("q", "next_question", id="x.q"), "keeps q for nothing"),
        (Binding("c", "copy_id", id="x.copy"), "puts copy on y Y"),
        (Binding("e", "export", id="x.export"), "keeps e for edit"),
        (Binding("ctrl+e", "export", id="x.export"), "puts export on w"),
        (Binding("g", "next_question", id="x.g"), "keeps g for first"),
        (Binding("slash", "search", id="x.search"), "keeps / for filter"),
    ],
)
def test_a_key_bound_outside_its_verb_is_named(binding: Binding, said: str) -> None:
    found = convention.problems("SomeScreen", [binding])
    assert found and said in found[0]


def test_yes_and_no_are_a_dialogs_keys_only() -> None:
    assert convention.problems("D", [Binding("y", "confirm", id="m.y")], dialog=True) == []
    assert convention.problems("D", [Binding("n", "no", id="m.n")], dialog=True) == []
    assert convention.problems("S", [Binding("y", "confirm", id="s.y")], dialog=False)


def _screen_classes() -> list[type[Screen[object]]]:
    from vagent_tui.ui.screens.base import BaseScreen

    classes = {info.load().__class__ for info in SCREENS}
    classes |= {owner for owner in _ours() if issubclass(owner, BaseScreen)}
    return sorted(classes, key=lambda c: c.__name__)


def test_every_screen_answers_to_the_list_keys() -> None:
    missing = {}
    for screen in _screen_classes():
        keys = convention.effective_keys(screen.__mro__)
        lacking = [k for k in convention.LIST_KEYS if k not in keys]
        if lacking:
            missing[screen.__name__] = lacking
    assert missing == {}
    assert len(_screen_classes()) >= len(SCREENS)


def test_every_screen_has_an_id_for_the_keymap() -> None:
    ids = {info.id for info in catalog()}
    assert {f"goto.{info.name}" for info in SCREENS} <= ids
    assert {"goto.fleet", "goto.journal", "goto.billing", "goto.rollout"} <= ids


def test_every_binding_of_the_console_has_an_id() -> None:
    without = [
        (owner.__name__, b.key)
        for owner in _ours()
        for b in convention.expanded(vars(owner)["BINDINGS"])
        if not b.id
    ]
    assert without == []


def test_the_readme_keys_section_is_the_conventions_table() -> None:
    text = README.read_text(encoding="utf-8")
    assert convention.readme_with_table(text) == text, (
        "README's Keys table differs from ui/convention.py: "
        "run `vagent-tui keys --write-readme README.md`"
    )


def test_the_readme_screens_table_is_the_registrys_with_each_screens_keys() -> None:
    text = README.read_text(encoding="utf-8")
    assert SCREENS_BEGIN in text
    assert readme_with_screens(text) == text, (
        "README's screens table differs from the screens: "
        "run `vagent-tui keys --write-readme README.md`"
    )
    for info in SCREENS:
        assert f"| `{info.name}` |" in text


def test_the_readme_table_is_written_between_the_markers(tmp_path: Path) -> None:
    from vagent_tui import cli

    readme = tmp_path / "README.md"
    readme.write_text(
        f"# x\n\n{convention.MARK_BEGIN}\nold table\n{convention.MARK_END}\n\nafter\n",
        encoding="utf-8",
    )
    assert cli.main(["keys", "--write-readme", str(readme)]) == 0
    text = readme.read_text(encoding="utf-8")
    assert "old table" not in text and text.endswith(f"{convention.MARK_END}\n\nafter\n")
    assert "| `d` | delete" in text
    readme.write_text("no markers\n", encoding="utf-8")
    assert cli.main(["keys", "--write-readme", str(readme)]) == 2


def test_keys_markdown_prints_the_table(capsys: pytest.CaptureFixture[str]) -> None:
    from vagent_tui import cli

    assert cli.main(["keys", "--markdown"]) == 0
    assert capsys.readouterr().out.strip() == convention.markdown()
