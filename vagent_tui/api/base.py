"""The base of response models: lenient, unknown fields kept, camelCase on the wire."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict
from pydantic.alias_generators import to_camel


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
