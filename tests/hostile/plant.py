"""A platform that plants from the client's side: every field the models read gets it.

The simulator's hostile mode (`vagent_tui.sim.hostile`) plants what *it* serves as text;
a field it serves as a number, or leaves alone because the console sends it back, is
never planted there, however the client's model reads it. This plant works the other way
round: it walks the client's own pydantic models and rewrites every reply the client
parses, field by field, before the model reads it. A new model, or a new field, is
planted without anyone listing it.

Two plants:

* ``text``: every field whose type accepts text (``str``, ``Any``, ``int | str``; ids
  too) gets a hostile string, in turn from `FORMS`; a list of text gets one more,
  hostile item; a field of the model's own shape (a before-validator of its own) gets
  its strings replaced where they are; every record gets one unknown field whose name
  and value are hostile (models keep unknown fields).
* ``null``: every field is ``null`` (nested records are kept, with their own fields
  null) and every list, the reply's own list included, gets one ``null`` item.

The plant sits where the client turns JSON into models (`vagent_tui.api.replies`
``parse_model``, ``parse_list``, ``list_envelope``), so it knows which model reads which
object: keyed by the model's field paths, not by guessing from key names.
`test_every_parse_goes_through_the_plant` checks that no other place of ``api/``
validates a reply.
"""

from __future__ import annotations

import itertools
import types
import typing
from collections.abc import Callable, Iterator
from typing import Any, Literal

from pydantic import BaseModel
from pydantic.fields import FieldInfo

from vagent_tui.api import replies, transport
from vagent_tui.api.as_sent import as_sent
from vagent_tui.api.base import Resource

Kind = Literal["text", "null"]

FORMS: tuple[str, ...] = (
    "osc52 \x1b]52;c;UFdORUQ=\x07 clip",  # writes "PWNED" into the clipboard
    "\x1b]0;pwned\x07 title",  # retitles the window
    "wipe \x1b[2J\x1b[H screen",  # clears the screen
    "csi \x1b[31mred\x1b[0m \x1b[?1049l alt",  # colours, leaves the alternate screen
    "c1 \x9b2J \x9d0;pwned\x9c \x85 nel",  # C1 controls: CSI, OSC, ST, NEL
    "bidi \u202eevil\u202c txt",  # reverses the line
    "[bold]loud [/] [/] close",  # markup; a lone [/] ends a markup parse
    "[@click=app.screenshot()]click me[/]",  # an action run by markup
    "[link=http://evil.example]link[/link]",
    "\x1b]52;c;UFdORUQ=\x07\x1b]0;pwned\x07\x1b[2J\x9b2J\u202e[bold]all[/][/]",  # all at once
)
"""The hostile forms, planted in turn."""

HOSTILE_KEY = "x\x1b]0;pwned\x07[bold]key"
"""The name of the unknown field planted in every record."""


def _args(tp: Any) -> tuple[Any, ...]:
    return typing.get_args(tp)


def _origin(tp: Any) -> Any:
    return typing.get_origin(tp)


def _strip(tp: Any) -> Any:
    """The type without ``Annotated`` and without ``None`` in a union of two."""
    while _origin(tp) is typing.Annotated:
        tp = _args(tp)[0]
    return tp


def _arms(tp: Any) -> tuple[Any, ...]:
    tp = _strip(tp)
    if _origin(tp) in (typing.Union, types.UnionType):
        return tuple(_strip(a) for a in _args(tp))
    return (tp,)


def accepts_text(tp: Any) -> bool:
    """Whether a value of type ``tp`` may be a string (``str``, ``Any``, a union with one)."""
    return any(arm is str or arm is Any or arm is object for arm in _arms(tp))


def is_model(tp: Any) -> bool:
    return isinstance(tp, type) and issubclass(tp, BaseModel)


def list_item(tp: Any) -> Any | None:
    """The item type of a list (or of a list in a union), else None."""
    for arm in _arms(tp):
        if _origin(arm) in (list, tuple, set, frozenset) and _args(arm):
            return _args(arm)[0]
    return None


def nested_model(tp: Any) -> type[BaseModel] | None:
    for arm in _arms(tp):
        if is_model(arm):
            return typing.cast("type[BaseModel]", arm)
    return None


def dict_value(tp: Any) -> Any | None:
    for arm in _arms(tp):
        if _origin(arm) is dict and len(_args(arm)) == 2:
            return _args(arm)[1]
    return None


def own_shape(model: type[BaseModel], name: str) -> bool:
    """A field with a before-validator of the model's own: its wire shape is not its type."""
    decorators = model.__pydantic_decorators__
    return any(
        name in d.info.fields and d.info.mode in ("before", "wrap", "plain")
        for d in decorators.field_validators.values()
    )


def wire_names(name: str, field: FieldInfo) -> list[str]:
    """The names a field is read under: its alias, its alias choices, its own name."""
    names = [field.alias or name]
    choices = getattr(field.validation_alias, "choices", None)
    for choice in choices or ():
        if isinstance(choice, str) and choice not in names:
            names.append(choice)
    return names


def response_models() -> list[type[Resource]]:
    """Every response model of the client (every `Resource`, nested ones included): every
    module of the client is imported first, so that a run of this file alone walks the
    models a whole suite has loaded (an area's models load at their first use)."""
    import importlib
    import pkgutil

    import vagent_tui.api

    for module in pkgutil.iter_modules(vagent_tui.api.__path__):
        importlib.import_module(f"vagent_tui.api.{module.name}")

    seen: dict[type[Resource], None] = {}
    todo = list(Resource.__subclasses__())
    while todo:
        model = todo.pop()
        if model not in seen:
            seen[model] = None
            todo.extend(model.__subclasses__())
    return sorted(seen, key=lambda m: m.__name__)


def plant_points(model: type[BaseModel], prefix: str = "") -> Iterator[str]:
    """The dotted field paths a text plant reaches in ``model`` (for the report)."""
    for name, field in model.model_fields.items():
        path = f"{prefix}{field.alias or name}"
        tp = field.annotation
        inner = nested_model(tp) or nested_model(list_item(tp))
        if inner is not None:
            yield from plant_points(inner, path + ("[]." if list_item(tp) else "."))
        elif accepts_text(tp) or accepts_text(list_item(tp)) or own_shape(model, name):
            yield path
        elif dict_value(tp) is not None and accepts_text(dict_value(tp)):
            yield path + "{}"


class Plant:
    """Rewrites the JSON a model is about to read: hostile text or nulls, per field."""

    def __init__(self, kind: Kind, *, spare: tuple[type[BaseModel], ...] = ()) -> None:
        self.kind = kind
        self.spare = spare
        """Models read as they came (the key owner's account: its type says where to go)."""
        self._turn = itertools.count()
        self.planted: dict[str, int] = {}
        """Per model and field, how many values were planted (what the walk reached)."""

    def form(self) -> str:
        return FORMS[next(self._turn) % len(FORMS)]

    def _note(self, model: type[BaseModel], name: str) -> None:
        key = f"{model.__name__}.{name}"
        self.planted[key] = self.planted.get(key, 0) + 1

    # ------------------------------------------------------------------ models

    def record(self, model: type[BaseModel], value: Any) -> Any:
        """``value`` (a JSON object ``model`` reads) planted; anything else as it is."""
        if not isinstance(value, dict) or model in self.spare:
            return value
        out = dict(value)
        for name, field in model.model_fields.items():
            names = wire_names(name, field)
            key = next((n for n in names if n in value), names[0])
            old = value.get(key)
            new = self.field(model, name, field.annotation, old)
            if new is not _KEEP:
                self._note(model, name)
                out[key] = new
        if self.kind == "text" and model.model_config.get("extra") == "allow":
            out[HOSTILE_KEY] = self.form()
        return out

    def field(self, model: type[BaseModel], name: str, tp: Any, old: Any) -> Any:
        inner = nested_model(tp)
        item = list_item(tp)
        item_model = nested_model(item) if item is not None else None
        if self.kind == "null":
            if inner is not None and isinstance(old, dict):
                return self.record(inner, old)
            if item is not None and isinstance(old, list):
                planted = [self.record(item_model, v) if item_model else v for v in old]
                return [None, *planted]
            return None
        # text
        if inner is not None:
            return self.record(inner, old) if isinstance(old, dict) else _KEEP
        if item_model is not None:
            if isinstance(old, list):
                return [self.record(item_model, v) for v in old]
            return _KEEP
        if own_shape(model, name):
            return self.anything(old) if old is not None else _KEEP
        if item is not None and accepts_text(item):
            return [*(self.form() for _ in (old or [])[:3]), self.form()]
        if accepts_text(tp):
            if any(arm is Any or arm is object for arm in _arms(tp)):
                return self.anything(old) if isinstance(old, dict | list) else self.form()
            return self.form()
        value_type = dict_value(tp)
        if value_type is not None and accepts_text(value_type):
            values = {k: self.anything(v) for k, v in (old or {}).items()}
            return {**values, HOSTILE_KEY: self.form()}
        return _KEEP

    def anything(self, value: Any) -> Any:
        """Strings (and numbers) in a value of no known shape, planted where they are."""
        if isinstance(value, dict):
            return {k: self.anything(v) for k, v in value.items()}
        if isinstance(value, list):
            return [self.anything(v) for v in value]
        if isinstance(value, bool) or value is None:
            return value
        return self.form()

    # ------------------------------------------------------------------ replies

    def reply_list(self, model: type[BaseModel], payload: Any, key: str) -> Any:
        """A list reply: its records planted; the null plant adds a null record."""
        if not isinstance(payload, dict) or not isinstance(payload.get(key), list):
            return payload
        items = [self.record(model, item) for item in payload[key]]
        if self.kind == "null":
            items.insert(len(items) // 2, None)
        return {**payload, key: items}


_KEEP = object()


class _PlantedEnvelope:
    """`list_envelope`'s validator with the reply planted first (JSON in, models out)."""

    def __init__(self, plant: Plant, model: type[BaseModel], key: str) -> None:
        self.plant, self.model, self.key = plant, model, key
        self.real = _REAL["list_envelope"](model, key)

    def validate_json(self, raw: bytes | str) -> Any:
        from pydantic_core import from_json

        payload = self.plant.reply_list(self.model, from_json(raw), self.key)
        return self.real.validate_python(payload)


_REAL: dict[str, Any] = {
    "parse_model": replies.parse_model,
    "parse_list": replies.parse_list,
    "list_envelope": replies.list_envelope,
    "as_sent": as_sent,
}


def install(
    kind: Kind,
    setattr_: Callable[[Any, str, Any], None] = setattr,
    *,
    spare: tuple[type[BaseModel], ...] = (),
) -> Plant:
    """Plant every reply the client parses from now on; ``setattr_``: a monkeypatch's."""
    plant = Plant(kind, spare=spare)

    def parse_model(model: type[Any], value: Any, **kwargs: Any) -> Any:
        return _REAL["parse_model"](model, plant.record(model, value), **kwargs)

    def parse_list(model: type[Any], payload: Any, key: str, url: str) -> Any:
        return _REAL["parse_list"](model, plant.reply_list(model, payload, key), key, url)

    def list_envelope(model: type[BaseModel], key: str) -> Any:
        return _PlantedEnvelope(plant, model, key)

    def as_sent(model: type[Any], value: Any, **kwargs: Any) -> Any:
        return _REAL["as_sent"](model, plant.record(model, value), **kwargs)

    for owner in (replies, transport):
        setattr_(owner, "list_envelope", list_envelope)
    setattr_(replies, "parse_model", parse_model)
    setattr_(replies, "parse_list", parse_list)
    setattr_(transport.ApiTransport, "_parse", staticmethod(parse_model))
    setattr_(transport.ApiTransport, "_parse_list", staticmethod(parse_list))
    setattr_(transport.ApiTransport, "_as_sent", staticmethod(as_sent))
    return plant


__all__ = ["FORMS", "Plant", "install", "plant_points", "response_models"]
