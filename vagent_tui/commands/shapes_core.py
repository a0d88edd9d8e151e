"""Item shapes of the commands about the command line itself (`vagent_tui.commands.schemas`)."""

from __future__ import annotations

from pydantic import BaseModel

from vagent_tui.commands.schemas import Item


class KindItem(Item):
    """``vagent-tui schema``: one kind of item the commands write."""

    kind: str
    schema_file: str


SHAPES: dict[str, type[BaseModel]] = {"kinds": KindItem}
