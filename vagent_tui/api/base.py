"""The base of response models: lenient, unknown fields kept, camelCase on the wire.

The platform promises no field as required and shows types only by example, so a
``null`` anywhere must not cost the whole record: a field that has no ``None`` of its
own reads it as its default (`NullAsEmpty`, `NullAsDefault`), and a list skips its
``null`` items (`Items`, `MaybeItems`). `tests/hostile/test_client_plant.py` plants a null
in every field and list of every model.

A skipped item is counted: a read inside `counting_empty` learns how many entries the
platform sent empty, which the console says on the status line.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Annotated, Any, TypeVar

from pydantic import BaseModel, BeforeValidator, ConfigDict
from pydantic.alias_generators import to_camel
from pydantic_core import PydanticUseDefault

T = TypeVar("T")


class EmptyEntries:
    """How many ``null`` entries the replies read inside `counting_empty` held."""

    def __init__(self) -> None:
        self.count = 0


_counting: ContextVar[EmptyEntries | None] = ContextVar("vagent_empty_entries", default=None)


@contextmanager
def counting_empty() -> Iterator[EmptyEntries]:
    """Count the ``null`` list items skipped by the reads inside (this task's only)."""
    counter = EmptyEntries()
    token = _counting.set(counter)
    try:
        yield counter
    finally:
        _counting.reset(token)


def skipped_empty(count: int) -> None:
    """Record ``count`` skipped ``null`` entries with the innermost `counting_empty`."""
    counter = _counting.get()
    if counter is not None and count:
        counter.count += count


def empty_count() -> int:
    """The entries counted so far by the innermost `counting_empty` (0 outside one)."""
    counter = _counting.get()
    return counter.count if counter is not None else 0


def set_empty_count(count: int) -> None:
    """Put the count back (a validation tried and abandoned counted what is read again)."""
    counter = _counting.get()
    if counter is not None:
        counter.count = count


def without_nulls(items: list[Any]) -> list[Any]:
    """``items`` without its ``null`` entries, which are counted."""
    kept = [item for item in items if item is not None]
    skipped_empty(len(items) - len(kept))
    return kept


def _null_as_empty(value: Any) -> Any:
    return "" if value is None else value


def _null_as_default(value: Any) -> Any:
    if value is None:
        raise PydanticUseDefault()
    return value


def _skip_nulls(value: Any) -> Any:
    if value is None:
        return []
    if isinstance(value, list):
        return without_nulls(value)
    return value


def _skip_null_items(value: Any) -> Any:
    return without_nulls(value) if isinstance(value, list) else value


NULL_REPLACED = frozenset({_null_as_empty, _null_as_default})
"""The validators that turn a ``null`` into another value (`vagent_tui.api.as_sent`)."""

NULL_ITEMS_DROPPED = frozenset({_skip_nulls, _skip_null_items})
"""The validators that drop a list's ``null`` items (and read a ``null`` list as ``[]``
when the list has no ``None`` of its own)."""

NullAsEmpty = Annotated[str, BeforeValidator(_null_as_empty)]
"""A string field that reads ``null`` as ``""`` (screens show an empty value as ``—``)."""

NullAsDefault = Annotated[T, BeforeValidator(_null_as_default)]
"""A field without ``None`` of its own that reads ``null`` as its default."""

Items = Annotated[list[T], BeforeValidator(_skip_nulls)]
"""A list field that reads ``null`` as ``[]`` and skips (and counts) ``null`` items."""

MaybeItems = Annotated[list[T] | None, BeforeValidator(_skip_null_items)]
"""A list field where ``null`` means "not said" (kept as None); ``null`` items skipped."""


class Resource(BaseModel):
    """Base of response models: every field optional, unknown fields kept.

    A model builds its validator when first used (``defer_build``), not at import: the
    start-up only pays for the models its first screen reads (`Account`, `AccountPage`).
    """

    model_config = ConfigDict(
        alias_generator=to_camel,
        populate_by_name=True,
        extra="allow",
        defer_build=True,
    )

    def wire(self) -> dict[str, Any]:
        """The model as the server spelt it (aliases, extras kept, unset left out)."""
        return self.model_dump(by_alias=True, exclude_unset=True)
