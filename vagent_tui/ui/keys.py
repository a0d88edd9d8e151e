"""Every binding of the console: the ids a profile's ``keymap`` may override, the ones
that write, and the README's table of screens.

Finding them imports every screen module, so this runs only on demand: the
``vagent-tui keys`` command, tests, and a check of a profile's keymap in a thread once
the console is up (an unknown id would otherwise be ignored without a word).
"""

from __future__ import annotations

import importlib
import inspect
import sys
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from textual.binding import Binding
from textual.dom import DOMNode

from vagent_tui.ui.convention import between_markers, key_display
from vagent_tui.ui.registry import SCREENS, ScreenInfo
from vagent_tui.ui.safety import does_of
from vagent_tui.words import noun_for

_EXTRA_MODULES = (
    "vagent_tui.ui.app",
    "vagent_tui.ui.screens.setup",
    "vagent_tui.ui.dialogs",
)


@dataclass(frozen=True)
class KeyInfo:
    """A key as the keys panel lists it: binding id, key, description, declaring class."""

    id: str
    key: str
    description: str
    owner: str  # the class that declares the binding


def binding_owners() -> list[type[DOMNode]]:
    """Every class of the console (and of Textual, as loaded) that declares ``BINDINGS``."""
    for wanted in (*_EXTRA_MODULES, *(info.target.partition(":")[0] for info in SCREENS)):
        importlib.import_module(wanted)
    owners: list[type[DOMNode]] = []
    for name, module in list(sys.modules.items()):
        if not name.startswith(("vagent_tui.", "textual.")) or module is None:
            continue
        owners.extend(_classes_with_bindings(vars(module).values(), name))
    return owners


def catalog() -> list[KeyInfo]:
    """Every binding with an id, from the app, its screens and widgets (sorted by id)."""
    found: dict[str, KeyInfo] = {}
    for owner in binding_owners():
        for binding in owner.BINDINGS:
            if isinstance(binding, Binding) and binding.id and binding.id not in found:
                description = binding.description or binding.tooltip or binding.action
                found[binding.id] = KeyInfo(binding.id, binding.key, description, owner.__name__)
    return sorted(found.values(), key=lambda info: info.id)


def _classes_with_bindings(values: Iterable[object], module: str) -> Iterable[type[DOMNode]]:
    for value in values:
        if (
            inspect.isclass(value)
            and issubclass(value, DOMNode)
            and value.__module__ == module
            and "BINDINGS" in vars(value)
        ):
            yield value


def unknown_ids(keymap: Mapping[str, str]) -> list[str]:
    """The ids of ``keymap`` that name no binding of the console."""
    return sorted(set(keymap) - {info.id for info in catalog()})


def keymap_warning(profile: str, unknown: list[str]) -> str:
    names = ", ".join(repr(i) for i in unknown)
    ids = noun_for(len(unknown), "id")
    return (
        f"Profile {profile!r}: keymap has unknown binding {ids} {names}, ignored. "
        "`vagent-tui keys` lists the ids."
    )


def mutating_binding_ids() -> frozenset[str]:
    """The id of every binding declared to write (`vagent_tui.ui.safety.Key`)."""
    return frozenset(
        binding.id
        for owner in binding_owners()
        for binding in owner.BINDINGS
        if isinstance(binding, Binding) and binding.id and does_of(binding).writes
    )


def screen_class(info: ScreenInfo) -> type[DOMNode]:
    module, _, name = info.target.partition(":")
    found: type[DOMNode] = getattr(importlib.import_module(module), name)
    return found


def writing_keys(screen: type[DOMNode]) -> list[Binding]:
    """The bindings of ``screen`` (its bases' included) declared to write, in order."""
    found: dict[str, Binding] = {}
    for klass in reversed(screen.__mro__):
        for binding in vars(klass).get("BINDINGS", ()):
            if isinstance(binding, Binding) and binding.id and does_of(binding).writes:
                found[binding.id] = binding
    return list(found.values())


SCREENS_BEGIN = (
    "<!-- screens:begin (made by `vagent-tui keys --write-readme`; "
    "from ui/registry.py and each screen's keys) -->"
)
SCREENS_END = "<!-- screens:end -->"


def screens_markdown() -> str:
    """The README's table of screens: ``--screen`` name, key, and the keys that write."""
    lines = [
        "| `--screen` | Key | Screen | Shows | Keys that change the platform "
        "(hidden when read-only) |",
        "|---|---|---|---|---|",
    ]
    for info in SCREENS:
        keys: dict[tuple[str, str], list[str]] = {}
        for b in writing_keys(screen_class(info)):
            shown = keys.setdefault((b.action, b.description), [])
            shown.extend(key_display(k.strip()) for k in b.key.split(","))
        writes = ", ".join(f"`{'/'.join(k)}` {what}" for (_, what), k in keys.items())
        key = f"`{info.key}`" if info.key else "palette"
        lines.append(f"| `{info.name}` | {key} | {info.title} | {info.help} | {writes or '-'} |")
    return "\n".join(lines)


def readme_with_screens(readme: str) -> str:
    """``readme`` with the text between the screens markers replaced by `screens_markdown`."""
    return between_markers(readme, SCREENS_BEGIN, SCREENS_END, screens_markdown(), "screens")
