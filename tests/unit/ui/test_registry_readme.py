"""README's list of ``--screen`` names is the registry's table (``ui/registry.py``, written
with each screen's writing keys by ``ui/keys.py``)."""

from __future__ import annotations

import re
from pathlib import Path

from vagent_tui import cli
from vagent_tui.ui import convention, keys, registry

README = Path(__file__).resolve().parents[3] / "README.md"


def test_the_readme_screens_table_is_the_registrys() -> None:
    text = README.read_text(encoding="utf-8")
    assert keys.SCREENS_BEGIN in text, "README lost its screens markers"
    assert keys.readme_with_screens(text) == text, (
        "README's --screen table differs from ui/registry.py: "
        "run `vagent-tui keys --write-readme README.md`"
    )


def test_the_table_names_every_screen_the_command_line_takes() -> None:
    table = keys.screens_markdown()
    names = re.findall(r"^\| `([a-z]+)` \|", table, re.MULTILINE)
    screen = next(a for a in cli.build_parser()._actions if a.dest == "screen")
    assert names == list(screen.choices or ()) == list(registry.BY_NAME)
    assert {"journal", "fleet", "rollout"} <= set(names)
    assert "| `voices` | `3` | Voices |" in table
    assert "| `rollout` | palette | Rollout |" in table


def test_a_readme_that_drifted_from_the_registry_is_caught() -> None:
    text = README.read_text(encoding="utf-8")
    drifted = re.sub(r"^\| `rollout` .*\n", "", text, flags=re.MULTILINE)
    assert drifted != text
    assert keys.readme_with_screens(drifted) != drifted


def test_write_readme_writes_both_tables_between_their_markers(tmp_path: Path) -> None:
    readme = tmp_path / "README.md"
    readme.write_text(
        f"# x\n\n{keys.SCREENS_BEGIN}\n| `scope` |\n{keys.SCREENS_END}\n\n"
        f"{convention.MARK_BEGIN}\nold\n{convention.MARK_END}\n\nafter\n",
        encoding="utf-8",
    )
    assert cli.main(["keys", "--write-readme", str(readme)]) == 0
    text = readme.read_text(encoding="utf-8")
    assert keys.screens_markdown() in text and convention.markdown() in text
    assert text.endswith(f"{convention.MARK_END}\n\nafter\n")
    # a README with the screens markers only is written too
    readme.write_text(f"{keys.SCREENS_BEGIN}\n{keys.SCREENS_END}\n", encoding="utf-8")
    assert cli.main(["keys", "--write-readme", str(readme)]) == 0
    assert "| `fleet` |" in readme.read_text(encoding="utf-8")
