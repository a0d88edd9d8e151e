"""The read-only rule comes from each binding's declaration (`vagent_tui.ui.safety.Key`):
a screen's writing actions are hidden and refused, a reading one is not."""

from __future__ import annotations

from textual.binding import Binding

from vagent_tui.ui.keys import mutating_binding_ids, screen_class
from vagent_tui.ui.registry import SCREENS
from vagent_tui.ui.safety import DESTRUCTIVE, WRITES, Key, mutating_actions
from vagent_tui.ui.screens.base import BaseScreen


def _screens() -> dict[str, type[BaseScreen]]:
    found = {}
    for info in SCREENS:
        cls = screen_class(info)
        assert issubclass(cls, BaseScreen)
        found[cls.__name__] = cls
    return found


def test_the_writing_ids_are_the_declared_ones() -> None:
    assert mutating_binding_ids() >= {
        "agent.publish",
        "agent.restore-live",
        "tokens.new",
        "tokens.delete",
        "sip.add",
        "sip.remove",
        "computer.upload",
        "billing.save",
        "billing.save-alt",
        "rollout.apply",
    }
    assert not mutating_binding_ids() & {"screen.reload", "voices.copy", "agent.diff"}


def test_screens_know_their_mutating_actions() -> None:
    by_name = _screens()
    assert set(by_name["SipScreen"].mutating()) == {"add", "delete"}
    assert set(by_name["TokensScreen"].mutating()) == {"add", "delete"}
    assert by_name["VoicesScreen"].mutating() == {"use_voice": "Use for agent"}
    assert set(by_name["FunctionsScreen"].mutating()) == {"toggle_function", "add", "edit"}
    assert by_name["JournalScreen"].mutating() == {}


def test_only_a_declared_binding_writes() -> None:
    assert mutating_actions([Key("z", "save('x')", "Save", id="b.save", does=WRITES)]) == {
        "save": "Save"
    }
    assert mutating_actions([Key("d", "delete", "Delete", id="b.d", does=DESTRUCTIVE)]) == {
        "delete": "Delete"
    }
    assert mutating_actions([Binding("z", "save('x')", "Save", id="b.save")]) == {}
    assert mutating_actions([Key("y", "copy", "Copy", id="b.copy")]) == {}
