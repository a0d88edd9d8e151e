"""An agent configuration with nothing secret in it: what a pulled folder holds.

A configuration may carry secrets the console never shows in a journal or an error: a
value under a key that names one (an ``apiKey``, a ``password``, a relay's ``headers``:
the journal's rule, `vagent_tui.services.journal.mask_body`, and the wider rule of an
integration's data, `vagent_tui.api.integration_models.secret_name`), a password in a
URL or a ``token=`` pair in free text (`vagent_tui.api.errors.redact_text`), the
connection's own key wherever it appears. `public_config` replaces each with `MASK`,
at any depth. What the platform computes on every read (an action's ``allowed``,
``reason``, ``missingRequirement``; ``effectiveReportingFields``) is left out, as the
configuration diffs leave it out (`vagent_tui.services.diff`): it is nobody's edit.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any

from vagent_tui.api.errors import REDACTED, redact_text
from vagent_tui.api.integration_models import secret_name
from vagent_tui.services.diff import (
    COMPUTED_ENTRY_FIELDS,
    ENTRY_KEYS,
    IGNORED_FIELDS,
    FieldDiff,
    field_change_lines,
    is_long,
    show,
    text_lines,
)
from vagent_tui.services.journal import SECRET_KEYS

MASK = REDACTED
"""What a secret reads as (``***``, as in the journal)."""
NOT_SECRETS = frozenset({("reportingFields", "key"), ("heartbeatConfig", "session"),
                         ("heartbeatConfig", "isolatedSession")})  # fmt: skip
"""Fields of the spec's configuration whose names read like a secret's and are not (a
reporting field's ``key`` names it): ``(the list or object holding it, its name)``."""


def secret_key(name: str) -> bool:
    """Whether a key's value is a secret: the journal's keys, ``headers``, and every name
    an integration's data masks (more masked, never less)."""
    lowered = name.lower()
    return lowered in SECRET_KEYS or lowered == "headers" or secret_name(name)


def _masked_whole(value: Any) -> Any:
    """Every text under a secret key masked; ``true``, numbers and empty values kept (a
    flag such as ``isolatedSession`` is not a secret, and "not set" still reads so)."""
    if isinstance(value, str):
        return MASK if value else value
    if isinstance(value, Mapping):
        return {str(k): _masked_whole(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_masked_whole(v) for v in value]
    return value


Redact = Callable[[str], str]


def _text(text: str, redact: Redact | None) -> str:
    text = redact_text(text)
    return text if redact is None else redact(text)


def _public(value: Any, redact: Redact | None, holder: str = "", computed: bool = False) -> Any:
    """``value`` made public; ``holder``: the name of the field that holds it;
    ``computed``: keep what the platform computes."""
    if isinstance(value, str):
        return _text(value, redact)
    if isinstance(value, Mapping):
        out: dict[str, Any] = {}
        for key, item in value.items():
            name = str(key)
            if holder == "actions" and name in COMPUTED_ENTRY_FIELDS and not computed:
                continue
            if secret_key(name) and (holder, name) not in NOT_SECRETS:
                out[name] = _masked_whole(item)
            else:
                out[name] = _public(item, redact, name, computed)
        return out
    if isinstance(value, list | tuple):
        return [_public(item, redact, holder, computed) for item in value]
    return value


def public_config(
    config: Mapping[str, Any], redact: Redact | None = None, *, computed: bool = False
) -> dict[str, Any]:
    """``config`` with every secret `MASK` and what the platform computes left out (kept
    with ``computed``: a read shows it); ``redact`` masks more in each text (the
    connection's key: `vagent_tui.api.streaming.StreamingTransport.redact`).

    The one rule of what the command line shows of a configuration: a pulled file, ``get
    config``, and every difference a command prints (`shown_diffs`)."""
    kept = config if computed else {k: v for k, v in config.items() if k not in IGNORED_FIELDS}
    public = _public(kept, redact, computed=computed)
    assert isinstance(public, dict)
    return public


SECRET_CHANGED = "(a secret changed)"
"""Said of a difference that masking hides: a secret changed, never a change gone."""


def shown_diffs(diffs: Iterable[FieldDiff], redact: Redact | None = None) -> list[FieldDiff]:
    """``diffs`` as the command line shows them: each side made public by its field's
    name (`public_config`'s rule; an entry of a list by the list's), its path's text
    redacted, its lines computed again from the public sides. A difference in a secret
    alone stays, its sides alike (``***``) and its lines saying `SECRET_CHANGED`."""
    return [_shown(d, redact) for d in diffs]


def _shown(d: FieldDiff, redact: Redact | None) -> FieldDiff:
    name = d.path.split("[", 1)[0]
    if "[" in d.path and name in ENTRY_KEYS:
        old, new = _public(d.old, redact, name), _public(d.new, redact, name)
    elif d.path.endswith(" (order)"):  # the entries' names, in their two orders
        old, new = _public(d.old, redact), _public(d.new, redact)
    else:
        old, new = _public({name: d.old}, redact)[name], _public({name: d.new}, redact)[name]
    lines: tuple[str, ...] = ()
    if d.kind == "changed":
        if isinstance(old, Mapping) and isinstance(new, Mapping):
            lines = _field_lines(d.old, d.new, old, new, redact)
        elif old == new:
            lines = (SECRET_CHANGED,)
        elif d.lines and (is_long(old) or is_long(new)):
            lines = text_lines(str(old or ""), str(new or ""))
    return FieldDiff(_text(d.path, redact), d.kind, old, new, lines)


def _field_lines(
    raw_old: Mapping[str, Any],
    raw_new: Mapping[str, Any],
    old: Mapping[str, Any],
    new: Mapping[str, Any],
    redact: Redact | None,
) -> tuple[str, ...]:
    """An object's changed fields, one line each (long text line by line), from its
    public sides; a field whose change masking hides says `SECRET_CHANGED`."""
    lines: list[str] = []
    for key in [*raw_old.keys(), *(k for k in raw_new if k not in raw_old)]:
        if raw_old.get(key) == raw_new.get(key) or (key not in old and key not in new):
            continue  # unchanged, or a field the public sides leave out (computed)
        a, b = old.get(key), new.get(key)
        key = _text(str(key), redact)
        if a == b:
            lines.append(f"  {key}: {show(a)} → {show(b)} {SECRET_CHANGED}")
        else:
            lines.extend(field_change_lines(key, a, b))
    return tuple(lines)


def holds_mask(value: Any) -> bool:
    """Whether ``value`` holds `MASK` anywhere (a masked secret written back)."""
    if isinstance(value, str):
        return MASK in value
    if isinstance(value, Mapping):
        return any(holds_mask(v) for v in value.values())
    if isinstance(value, list | tuple):
        return any(holds_mask(v) for v in value)
    return False
