"""Whether a profile's keymap values name keys Textual can deliver.

Textual takes any string as a key and never says when one cannot match: a keymap entry
``"goto.scope" = "F2"`` (key names are lower case) silently removes the binding's own
key and binds one no key press produces. `config.load` already drops values that are
not strings; this checks the strings, with Textual's own key names.
"""

from __future__ import annotations

from textual.keys import KEY_ALIASES, KEY_NAME_REPLACEMENTS, Keys, key_to_character

from vagent_tui import config as cfg

MODIFIERS = frozenset({"ctrl", "shift", "alt", "meta", "super", "hyper"})
_NAMES = frozenset(
    {key.value.rpartition("+")[2] for key in Keys}
    | set(KEY_NAME_REPLACEMENTS.values())
    | {alias.rpartition("+")[2] for aliases in KEY_ALIASES.values() for alias in aliases}
)


def _known_name(name: str) -> bool:
    if len(name) == 1 or name in _NAMES:
        return True
    # A character's name, as Textual spells it: "question_mark", "full_stop".
    return name == name.lower() and key_to_character(name) is not None


def key_problem(keys: str) -> str | None:
    """What is wrong with a keymap value (``"f2"``, ``"ctrl+g,f3"``); None when it is fine."""
    for key in keys.split(","):
        key = key.strip()
        if not key:
            return "has an empty key"
        if len(key) == 1:
            continue
        *modifiers, name = key.split("+")
        unknown = [m for m in modifiers if m not in MODIFIERS]
        if unknown:
            return f"has {key!r}: {unknown[0]!r} is not a modifier ({', '.join(sorted(MODIFIERS))})"
        if not _known_name(name):
            return f"has {key!r}, not a key name Textual knows (e.g. f2, ctrl+g, question_mark)"
    return None


def keymap_warnings(config: cfg.Config) -> list[str]:
    """One line per keymap value of ``config`` that names no key, with file and profile."""
    warnings = []
    for profile in config.profiles.values():
        for binding_id, keys in profile.keymap.items():
            problem = key_problem(keys)
            if problem:
                warnings.append(
                    f"{config.path}: profile {profile.name!r}: keymap {binding_id!r} {problem}"
                )
    return warnings


def config_warnings(config: cfg.Config) -> list[str]:
    """Every warning about ``config``: what `config.load` ignored, then keymap values."""
    return [*config.warnings, *keymap_warnings(config)]
