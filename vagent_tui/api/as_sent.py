"""A reply's record taken as sent when its model would give it back unchanged.

A rollout plan reads two agent configurations per account (about 70 fields each, some
lists of records) and needs them as the platform spelt them (`Resource.wire`). Building
the model and dumping it again cost more CPU than the request itself, and the objects it
allocated and dropped made the garbage collector scan the plans held so far again and
again: at 1,000 accounts, about half of the console's own CPU per account.

`as_sent` checks the record against the model's fields instead, building nothing: every
known field holds exactly a type the model keeps as it is (a ``str`` for a ``str``, an
``int`` for an ``int``, a list of such, a nested record checked the same way) and is
spelt as the model spells it on the wire. Such a record is what ``model.wire()`` would
give back, so it is returned itself. Anything else (a null the model turns into ``""``
or drops from a list, a number sent as text, a field spelt in snake case, a type the
check does not know) goes through the model as before: the result is the same either
way, only its cost differs. `tests/unit/api/test_as_sent.py` checks that against the
model.
"""

from __future__ import annotations

import types
import typing
from collections.abc import Callable
from typing import Any, Union

from pydantic import BaseModel, BeforeValidator

from vagent_tui.api.base import NULL_ITEMS_DROPPED, NULL_REPLACED, Resource
from vagent_tui.api.replies import parse_model

Check = Callable[[Any], bool]
"""True when the model certainly keeps a value as it is (False: let the model decide)."""

_RECORDS: dict[type[BaseModel], Check] = {}
_EXACT: dict[Any, type] = {str: str, int: int, bool: bool, float: float}


def _never(value: Any) -> bool:
    return False


def _always(value: Any) -> bool:
    return True


def _is_none(value: Any) -> bool:
    return value is None


def _exact(kind: type) -> Check:
    # ``type() is``: a bool is no int here, an int no float (the model would convert).
    return lambda value: type(value) is kind


def _any_of(checks: list[Check]) -> Check:
    def check(value: Any) -> bool:
        # A loop, not any() over a generator: this runs for every field of every reply.
        for one in checks:  # noqa: SIM110
            if one(value):
                return True
        return False

    return check


def _list_of(item: Check) -> Check:
    if item is _always:
        return lambda value: type(value) is list

    def check(value: Any) -> bool:
        if type(value) is not list:
            return False
        for one in value:  # noqa: SIM110 (as in _any_of)
            if not item(one):
                return False
        return True

    return check


def _list_of_plain(kinds: frozenset[type]) -> Check:
    def check(value: Any) -> bool:
        if type(value) is not list:
            return False
        for one in value:  # noqa: SIM110 (as in _any_of)
            if type(one) not in kinds:
                return False
        return True

    return check


def _no_null_items(inner: Check) -> Check:
    return lambda value: inner(value) and (type(value) is not list or None not in value)


def _not_null(inner: Check) -> Check:
    return lambda value: value is not None and inner(value)


def _plain_types(annotation: Any) -> frozenset[type] | None:
    """The types a value of ``annotation`` may have, when it is plain (``str``, ``int |
    None``...): a value of exactly one of them is kept as it is. None: not plain."""
    args = typing.get_args(annotation)
    if typing.get_origin(annotation) not in (Union, types.UnionType):
        args = (annotation,)
    kinds: set[type] = set()
    for arg in args:
        if arg is None or arg is type(None):
            kinds.add(type(None))
        elif arg in _EXACT:
            kinds.add(_EXACT[arg])
        else:
            return None
    return frozenset(kinds)


def _plain_field_types(annotation: Any, metadata: list[Any]) -> frozenset[type] | None:
    """`_plain_types` of a field, its validators included: a ``null`` the model
    replaces (`NullAsEmpty`) is not one of them. None: the field needs its own check."""
    kinds = _plain_types(annotation)
    if kinds is None or not metadata:
        return kinds
    (validator,) = metadata if len(metadata) == 1 else (None,)
    if isinstance(validator, BeforeValidator) and validator.func in NULL_REPLACED:
        return kinds - {type(None)}
    return None


def _check_of(annotation: Any) -> Check:
    """The check of one annotation; `_never` for a type it does not know."""
    if annotation is Any:
        return _always
    if annotation is None or annotation is type(None):
        return _is_none
    if annotation in _EXACT:
        return _exact(_EXACT[annotation])
    origin = typing.get_origin(annotation)
    if origin is typing.Annotated:
        inner, *metadata = typing.get_args(annotation)
        return _field_check(inner, metadata)
    if origin in (Union, types.UnionType):
        kinds = _plain_types(annotation)
        if kinds is not None:  # the usual ``str | None``: one look at the value's type
            return lambda value: type(value) in kinds
        return _any_of([_check_of(arg) for arg in typing.get_args(annotation)])
    if origin is list:
        args = typing.get_args(annotation)
        item_kinds = _plain_types(args[0]) if args else None
        if item_kinds is not None:  # a list of text or numbers: no call per item
            return _list_of_plain(item_kinds)
        return _list_of(_check_of(args[0]) if args else _always)
    if isinstance(annotation, type) and issubclass(annotation, Resource):
        return _record_check(annotation)
    return _never


def _field_check(annotation: Any, metadata: list[Any]) -> Check:
    """A field's check, with its validators: only `vagent_tui.api.base`'s are known."""
    if not metadata:
        return _check_of(annotation)
    if len(metadata) != 1 or not isinstance(metadata[0], BeforeValidator):
        return _never
    func = metadata[0].func
    if func in NULL_REPLACED:
        return _not_null(_check_of(annotation))
    if func in NULL_ITEMS_DROPPED:
        return _no_null_items(_check_of(annotation))
    return _never


_STR_CONFIG = ("str_strip_whitespace", "str_to_lower", "str_to_upper", "str_max_length",
               "str_min_length")  # fmt: skip


def _plain_model(model: type[BaseModel]) -> bool:
    """Whether ``model`` gives back what it read, but for what its fields' types change:
    no validator or serializer of its own, no computed or excluded field, no other
    name on the way out, extra fields kept, `Resource.wire` as it is."""
    decorators = model.__pydantic_decorators__
    config = model.model_config
    if (
        config.get("extra") != "allow"
        or any(config.get(name) for name in _STR_CONFIG)
        or decorators.model_validators
        or decorators.field_validators
        or decorators.field_serializers
        or decorators.model_serializers
        or decorators.computed_fields
        or getattr(model, "wire", Resource.wire) is not Resource.wire
    ):
        return False
    for name, info in model.model_fields.items():
        alias = info.alias or name
        if info.exclude or (info.serialization_alias or alias) != alias:
            return False
        choices = getattr(info.validation_alias, "choices", [info.validation_alias])
        if any(c is not None and not isinstance(c, str) for c in choices):
            return False  # an AliasPath: the value is read from elsewhere
    return True


def _record_check(model: type[BaseModel]) -> Check:
    """The check of a record of ``model``: a dict whose known fields pass theirs."""
    known = _RECORDS.get(model)
    if known is not None:
        return known
    if not _plain_model(model):
        _RECORDS[model] = _never
        return _never
    simple: dict[str, frozenset[type]] = {}
    """Fields of plain types (``str | None``...): the value's type is one of these."""
    table: dict[str, Check] = {}
    """The other fields' checks; `_never` for a name the model reads besides its alias
    (it would give the value back under the alias)."""

    def check(value: Any) -> bool:
        if type(value) is not dict:
            return False
        kinds_of, check_of = simple.get, table.get
        for key, item in value.items():
            kinds = kinds_of(key)
            if kinds is not None:
                if type(item) not in kinds:
                    return False
                continue
            ok = check_of(key)  # None: a field the model does not know, kept as sent
            if ok is not None and not ok(item):
                return False
        return True

    # Registered before its fields are compiled: a model that holds itself terminates.
    _RECORDS[model] = check
    others: set[str] = set()
    for name, info in model.model_fields.items():
        alias = info.alias or name
        kinds = _plain_field_types(info.annotation, info.metadata)
        if kinds is not None:
            simple[alias] = kinds
        else:
            table[alias] = _field_check(info.annotation, list(info.metadata))
        choices = getattr(info.validation_alias, "choices", [info.validation_alias])
        others.update(c for c in (name, *choices) if isinstance(c, str) and c != alias)
    for other in others - simple.keys() - table.keys():
        table[other] = _never
    return check


def as_sent(model: type[Resource], value: Any, *, method: str = "GET", url: str = "") -> Any:
    """``value`` as ``model``'s ``wire()`` would give it back once read: ``value``
    itself when the model would keep it unchanged, else that dump.

    Raises:
        MalformedResponse: the model refuses ``value`` (as `parse_model` says).
    """
    if _record_check(model)(value):
        return value
    return parse_model(model, value, method=method, url=url).wire()
