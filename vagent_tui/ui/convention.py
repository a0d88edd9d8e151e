"""The key convention of the whole console, written once.

One table, `CONVENTION`: a verb, its keys, what it means and its action names (one per
verb that writes: ``add``, ``delete``, ``edit``, ``publish``). Every screen, widget and
dialog follows it: a key of the table is bound to nothing but its verb's actions, an
action of a verb with ``only`` set is bound to nothing but the verb's keys, and a verb
that writes is bound with a `vagent_tui.ui.safety.Key` that says so (`problems` checks
all three; a test runs it over every class with ``BINDINGS``). Keys the table does not
name are each screen's own, listed by ``?``.

The same table makes the ``?`` panel's "Everywhere" part (`ui/keys_panel.py`) and the
README's "Keys" section (`markdown`, written by ``vagent-tui keys --markdown``; a test
fails when the README differs).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import NamedTuple

from textual.binding import Binding, BindingsMap, BindingType
from textual.keys import key_to_character

from vagent_tui.ui.safety import DESTRUCTIVE, WRITES, Does, does_of

NO_KEY_PREFIX = "unbound-"
"""A default "key" no terminal sends: an id bindable by the keymap, with no key of its own."""


class Verb(NamedTuple):
    """One verb of the key convention: its keys, what it means, the actions that carry it."""

    name: str
    keys: tuple[str, ...]
    """Textual key names; the first is the one to remember."""
    meaning: str
    actions: frozenset[str]
    """Action names (without arguments) that carry this verb."""
    only: bool = False
    """These actions take no key but the verb's."""
    dialogs: bool = False
    """A dialog's verb (a question asked in a dialog), not a screen's."""
    does: Does | None = None
    """What a key of this verb does to the platform at least (`vagent_tui.ui.safety`):
    its bindings must declare it (``Key(..., does=...)``)."""


def _verb(
    name: str,
    keys: str,
    meaning: str,
    actions: str,
    *,
    only: bool = False,
    dialogs: bool = False,
    does: Does | None = None,
) -> Verb:
    return Verb(
        name,
        tuple(k.strip() for k in keys.split(",")),
        meaning,
        frozenset(actions.split()),
        only=only,
        dialogs=dialogs,
        does=does,
    )


CONVENTION: tuple[Verb, ...] = (
    _verb("screens", "1,2,3,4,5,6,7,8,9,0",
          "go to a screen: Scope, Agent, Voices, Functions, Inboxes, Migrations, Tokens, "
          "SIP, Webhooks, Computer Agents; the others (Calls, Fleet, Rollout, Journal, ADR "
          "export) are in the palette", "show"),
    _verb("palette", "colon,ctrl+p",
          "the command palette: every screen, action, profile and theme by name",
          "command_palette", only=True),
    _verb("keys", "question_mark", "this list and the keys of the screen shown",
          "toggle_keys", only=True),
    _verb("quit", "ctrl+q", "quit", "quit", only=True),
    _verb("nothing", "q", "bound to nothing, so it is never taken for quit (ctrl+q)", ""),
    _verb("open", "enter", "open, pick or show the detail of the highlighted row",
          "open open_room open_account open_row drill_down pick select select_cursor "
          "toggle_detail cycle_detail show_detail"),
    _verb("back", "escape",
          "back, close, cancel, leave the field, stop what runs; never confirms",
          "back cancel close close_form leave leave_field focus_table escape stop dismiss"),
    _verb("move", "j,k,down,up", "move down / up",
          "cursor_down cursor_up match_next match_previous"),
    _verb("first", "g,home", "first row (first page where pages come from the server)",
          "first first_page scroll_home scroll_top", only=True),
    _verb("last", "G,end", "last row (last page where pages come from the server)",
          "last last_page scroll_end scroll_bottom", only=True),
    _verb("page", "pageup,pagedown", "a page up / down (the previous / next page where paged)",
          "page_up page_down prev_page next_page"),
    _verb("refresh", "r", "load the screen again; retry after an error", "reload", only=True),
    _verb("filter", "slash", "filter the list", "focus_filter focus_text", only=True),
    _verb("add", "a", "add: a form opens, nothing is sent before you confirm",
          "add", only=True, does=WRITES),
    _verb("delete", "d", "delete or remove the highlighted item (asks first)",
          "delete", only=True, does=DESTRUCTIVE),
    _verb("edit", "e,E", "edit the highlighted item (E: the Agent's settings form)",
          "edit", only=True, does=WRITES),
    _verb("toggle", "space", "switch on/off, mark, expand", "toggle toggle_function "
          "toggle_node mark"),
    _verb("copy", "y,Y", "copy (Y: the other thing there is to copy)",
          "copy copy_id copy_docs copy_name copy_curl copy_links copy_cdp copy_json",
          only=True),
    _verb("stop / clear", "x", "stop what runs; clear the filters", "cancel stop clear_filters"),
    _verb("export", "w", "write to a file (CSV, JSON)", "export", only=True),
    _verb("publish", "P", "publish staging to live (asks first)", "publish", only=True,
          does=DESTRUCTIVE),
    _verb("save", "ctrl+s,ctrl+o", "save a form (ctrl+o where the terminal keeps ctrl+s)",
          "save", only=True),
    _verb("show copied", "ctrl+y", "show the last copied text, to select it by hand",
          "show_copied", only=True),
    _verb("redraw", "ctrl+l", "write the whole screen again (something else wrote over it)",
          "redraw_terminal", only=True),
    _verb("yes", "y", "go ahead, as the confirm button does (a question's dialog; a letter "
          "where its text field has the focus)", "confirm", dialogs=True),
    _verb("no", "n", "cancel, as esc does (a question's dialog; a letter where its text "
          "field has the focus)", "no", dialogs=True),
)  # fmt: skip

BY_NAME = {verb.name: verb for verb in CONVENTION}


def action_name(action: str) -> str:
    """``"app.show('scope')"`` -> ``"show"``."""
    return action.partition("(")[0].rpartition(".")[2]


def key_display(key: str) -> str:
    """How a Textual key name is written for people: ``slash`` -> ``/``."""
    if key.startswith(NO_KEY_PREFIX):
        return "-"
    names = {"escape": "esc", "pageup": "PgUp", "pagedown": "PgDn", "home": "Home",
             "end": "End", "enter": "Enter", "space": "space", "up": "↑", "down": "↓",
             "slash": "/"}  # fmt: skip
    if key in names:
        return names[key]
    if "+" in key:
        return key
    char = key_to_character(key) if len(key) > 1 else key
    return char or key


def keys_display(keys: Iterable[str]) -> str:
    return " ".join(key_display(k) for k in keys)


def screens_keys() -> str:
    """The screen keys in one word: ``1-0``."""
    keys = BY_NAME["screens"].keys
    return f"{keys[0]}-{keys[-1]}"


# ---------------------------------------------------------------------- checking


def expanded(bindings: Iterable[BindingType]) -> Iterator[Binding]:
    """One `Binding` per key (``"j,down"`` is two), keys as Textual names them."""
    for _key, binding in BindingsMap(list(bindings)):
        yield binding


def reserved(*, dialog: bool) -> dict[str, frozenset[str]]:
    """Key -> the actions it may be bound to, on a screen or in a dialog."""
    allowed: dict[str, set[str]] = {}
    for verb in CONVENTION:
        if verb.dialogs and not dialog:
            continue
        for key in verb.keys:
            allowed.setdefault(_key_name(key), set()).update(verb.actions)
    return {key: frozenset(actions) for key, actions in allowed.items()}


def _key_name(key: str) -> str:
    return next(iter(expanded([Binding(key, "x")]))).key


def problems(owner: str, bindings: Iterable[BindingType], *, dialog: bool = False) -> list[str]:
    """What in ``bindings`` (declared by ``owner``) breaks the convention, one line each."""
    keys_of = reserved(dialog=dialog)
    only = [verb for verb in CONVENTION if verb.only and not verb.dialogs]
    found = []
    for binding in expanded(bindings):
        name = action_name(binding.action)
        allowed = keys_of.get(binding.key)
        if allowed is not None and name not in allowed:
            found.append(
                f"{owner}: {binding.key!r} is bound to {binding.action!r} ({binding.id}); "
                f"the convention keeps {key_display(binding.key)} for "
                + " / ".join(v.name for v in CONVENTION if binding.key in _names(v)),
            )
        for verb in only:
            if name in verb.actions and binding.key not in _names(verb):
                found.append(
                    f"{owner}: {binding.action!r} ({binding.id}) is on {binding.key!r}; "
                    f"the convention puts {verb.name} on {keys_display(verb.keys)}"
                )
    for declared in bindings:
        if not isinstance(declared, Binding):
            continue
        name = action_name(declared.action)
        for verb in CONVENTION:
            if verb.does is None or verb.dialogs or name not in verb.actions:
                continue
            does = does_of(declared)
            if not does.writes or (verb.does is DESTRUCTIVE and does is not DESTRUCTIVE):
                found.append(
                    f"{owner}: {declared.action!r} ({declared.id}) is {verb.name}, which "
                    f"{verb.does.value}: declare it Key(..., does={verb.does.name})"
                )
    return found


def _names(verb: Verb) -> set[str]:
    return {_key_name(k) for k in verb.keys}


LIST_KEYS = ("g", "G", "home", "end", "pageup", "pagedown", "j", "k")
"""What every screen with a list answers to."""


def effective_keys(mro: Iterable[type]) -> dict[str, Binding]:
    """Key -> binding of a class, its bases' bindings overridden as Textual does."""
    keys: dict[str, Binding] = {}
    for klass in reversed(list(mro)):
        for binding in expanded(vars(klass).get("BINDINGS", [])):
            keys[binding.key] = binding
    return keys


# ---------------------------------------------------------------------- the README


MARK_BEGIN = "<!-- keys:begin (made by `vagent-tui keys --markdown`; edit ui/convention.py) -->"
MARK_END = "<!-- keys:end -->"


def markdown() -> str:
    """The README's table of the convention."""
    lines = [
        "| Key | Does, on every screen |",
        "|---|---|",
    ]
    for verb in CONVENTION:
        keys = (
            f"`{screens_keys()}`"
            if verb.name == "screens"
            else " ".join(f"`{key_display(k)}`" for k in verb.keys)
        )
        lines.append(f"| {keys} | {verb.meaning} |")
    return "\n".join(lines)


def between_markers(readme: str, begin: str, end: str, body: str, what: str) -> str:
    """``readme`` with the text between the ``begin`` and ``end`` markers made ``body``.

    Raises:
        ValueError: README has no such markers (``what`` names them).
    """
    head, found_begin, rest = readme.partition(begin)
    _, found_end, tail = rest.partition(end)
    if not found_begin or not found_end:
        raise ValueError(f"README has no {what} markers")
    return f"{head}{begin}\n{body}\n{end}{tail}"


def readme_with_table(readme: str) -> str:
    """``readme`` with the text between the markers replaced by `markdown`."""
    return between_markers(readme, MARK_BEGIN, MARK_END, markdown(), "keys")
