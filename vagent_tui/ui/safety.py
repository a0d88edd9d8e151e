"""What a key does to the platform, declared where the key is bound, and the read-only rule.

A screen declares each of its keys once, in its ``BINDINGS``: a plain `Binding` reads;
a `Key` with ``does=WRITES`` changes the platform (or opens a form whose only purpose is
to), with ``does=DESTRUCTIVE`` it deletes, publishes, overwrites or starts what cannot
be taken back (it asks first). Everything else is derived from that declaration:

- a read-only profile hides the writing keys from the footer, the palette and the ``?``
  panel (`BaseScreen.check_action`, from `mutating_actions` over the screen's bindings),
  and `ConnectionApp.run_action` refuses them with a reason when they are invoked anyway
  (a keymap override, the palette, a test); the transport refuses any non-GET request on
  a read-only client as the last line (buttons inside forms);
- the list of writing binding ids (`vagent_tui.ui.keys.mutating_binding_ids`) and the
  README's screen table (`vagent-tui keys --write-readme`).

``tests/unit/ui/test_declared_writes.py`` fails when an action that reaches a write
(the write path's ``self.write``/``written``/``write_from``, `staging_write`, a
``write-*`` worker, a dialog that sends) is bound without ``does=WRITES`` or
``DESTRUCTIVE``.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from enum import Enum

from textual.binding import Binding, BindingType


class Does(Enum):
    """What a key does to the platform."""

    READS = "reads"
    WRITES = "writes"
    DESTRUCTIVE = "destructive"
    """Deletes, publishes, restores to live, starts a real migration: asks first."""

    @property
    def writes(self) -> bool:
        return self is not Does.READS


READS = Does.READS
WRITES = Does.WRITES
DESTRUCTIVE = Does.DESTRUCTIVE


@dataclass(frozen=True)
class Key(Binding):
    """A `Binding` that says what it does: ``Key("d", "delete", "Delete", id=..., does=...)``.

    Textual copies bindings into plain `Binding` values when it builds its maps (and
    when a keymap rebinds them), so what a key does is read from the class's
    ``BINDINGS`` (`does_of`), never from an active binding.
    """

    does: Does = Does.READS


def does_of(binding: BindingType) -> Does:
    """What a declared binding does (a plain `Binding` or tuple reads)."""
    return binding.does if isinstance(binding, Key) else Does.READS


def mutating_actions(bindings: Iterable[BindingType]) -> dict[str, str]:
    """Action name -> description of the bindings among ``bindings`` that write."""
    found: dict[str, str] = {}
    for binding in bindings:
        if isinstance(binding, Key) and binding.does.writes:
            name = binding.action.partition("(")[0]
            found[name] = binding.description or name.replace("_", " ")
    return found


def refusal(what: str) -> str:
    return f"Read-only profile: {what} is disabled"
