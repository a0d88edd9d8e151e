"""The read-only list names real bindings: a renamed binding id must not silently
become available on a read-only profile."""

from __future__ import annotations

import importlib

from textual.binding import Binding

from vagent_tui.ui.registry import SCREENS
from vagent_tui.ui.safety import MUTATING_BINDING_IDS, mutating_actions


def _screen_classes() -> list[type]:
    out = []
    for info in SCREENS:
        module, _, name = info.target.partition(":")
        out.append(getattr(importlib.import_module(module), name))
    return out


def test_every_listed_id_is_a_binding_of_a_screen() -> None:
    ids = {
        b.id
        for cls in _screen_classes()
        for klass in cls.__mro__  # a screen's bindings include its bases' (AgentChanges)
        for b in getattr(klass, "BINDINGS", ())
        if isinstance(b, Binding)
    }
    assert ids >= MUTATING_BINDING_IDS, MUTATING_BINDING_IDS - ids


def test_screens_know_their_mutating_actions() -> None:
    by_name = {cls.__name__: cls for cls in _screen_classes()}
    assert set(by_name["SipScreen"].mutating()) == {"add", "remove"}  # type: ignore[attr-defined]
    assert set(by_name["TokensScreen"].mutating()) == {"new_token", "delete_token"}  # type: ignore[attr-defined]
    assert by_name["VoicesScreen"].mutating() == {"use_voice": "Use for agent"}  # type: ignore[attr-defined]
    assert set(by_name["FunctionsScreen"].mutating()) == {  # type: ignore[attr-defined]
        "toggle_function",
        "add_entry",
        "edit_instructions",
    }
    assert by_name["JournalScreen"].mutating() == {}  # type: ignore[attr-defined]
    assert mutating_actions([Binding("z", "save('x')", "Save", id="billing.save")]) == {
        "save": "Save"
    }
