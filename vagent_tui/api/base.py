"""The base of response models: lenient, unknown fields kept, camelCase on the wire.

The platform promises no field as required and shows types only by example, so a
``null`` where a string or a list was expected must not cost the whole record: the
field types `NullAsEmpty` and `Items` read it as an empty value instead.
"""

from __future__ import annotations

from typing import Annotated, Any, TypeVar

from pydantic import BaseModel, BeforeValidator, ConfigDict
from pydantic.alias_generators import to_camel

T = TypeVar("T")


def _null_as_empty(value: Any) -> Any:
    return "" if value is None else value


def _skip_nulls(value: Any) -> Any:
    if value is None:
        return []
    if isinstance(value, list):
        return [item for item in value if item is not None]
    return value


NullAsEmpty = Annotated[str, BeforeValidator(_null_as_empty)]
"""A string field that reads ``null`` as ``""`` (screens show an empty value as ``—``)."""

Items = Annotated[list[T], BeforeValidator(_skip_nulls)]
"""A list field that reads ``null`` as ``[]`` and skips ``null`` items."""


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
