"""What a key does to the platform, declared where the key is bound, and the read-only rule.

A screen declares each of its keys once, in its ``BINDINGS``: a plain `Binding` reads;
a `Key` with ``does=WRITES`` changes the platform (or opens a form whose only purpose is
to), with ``does=DESTRUCTIVE`` it deletes, publishes, overwrites or starts what cannot
be taken back (it asks first), with ``does=SPENDS`` it spends money (buys a number, a
plan, an add-on). Everything else is derived from that declaration:

- a read-only profile hides the writing keys from the footer, the palette and the ``?``
  panel (`BaseScreen.check_action`, from `mutating_actions` over the screen's bindings),
  and `ConnectionApp.run_action` refuses them with a reason when they are invoked anyway
  (a keymap override, the palette, a test); the transport refuses any non-GET request on
  a read-only client as the last line (buttons inside forms);
- the list of writing binding ids (`vagent_tui.ui.keys.mutating_binding_ids`) and the
  README's screen table (`vagent-tui keys --write-readme`);
- a key that spends goes through the write path as a `vagent_tui.ui.writes.Spend`: its
  question says what it costs (the action's text, e.g. from the catalog) and makes the
  user type the thing bought; it is sent once, never retried (no retry key either: the
  transport sends a POST once), and a lost reply is read back before anything else
  (the read-back is required). The action supplies the cost and the read-back, nothing
  more.

``tests/unit/ui/test_declared_writes.py`` fails when an action that reaches a write
(the write path's ``self.write``/``written``/``write_from``, `staging_write`, a
``write-*`` worker, a dialog that sends) is bound without ``does=WRITES``,
``DESTRUCTIVE`` or ``SPENDS``, and when an action that builds a `Spend` is not declared
``SPENDS`` (or one declared ``SPENDS`` builds none).
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
    SPENDS = "spends"
    """Spends money (buys a number, a plan, an add-on): asks with the cost and the thing
    bought typed, sends once, reads back a lost reply (`vagent_tui.ui.writes.Spend`)."""

    @property
    def writes(self) -> bool:
        """Changes the platform: hidden and refused on a read-only profile."""
        return self is not Does.READS


READS = Does.READS
WRITES = Does.WRITES
DESTRUCTIVE = Does.DESTRUCTIVE
SPENDS = Does.SPENDS


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
