"""The JSON shapes the commands write: one pydantic model per kind of item.

A command's item is a plain mapping (the commands never build these models: a command
stays fast); the models say what a script may rely on. Each kind's JSON Schema is a file
of ``schema_files/`` (``vagent-tui schema KIND`` prints it, without importing pydantic). The
tests check every command's output against its kind's model (no field missing, none
more, each of its type) and each file against its model: a change of shape is made on
purpose, with `vagent_tui.commands.contract.CONTRACT_VERSION` when a script would notice.

The models live in the modules `SHAPE_MODULES` names (``shapes_<area>``), each with
``SHAPES: dict[str, type[BaseModel]]``.
"""

from __future__ import annotations

import importlib
import json
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict

from vagent_tui.commands.contract import CONTRACT_VERSION

SCHEMA_DIR = Path(__file__).with_name("schema_files")
SHAPE_MODULES: tuple[str, ...] = (
    "shapes_core", "shapes_reads", "shapes_fleet", "shapes_rollout", "shapes_pull",
    "shapes_exports", "shapes_onboard", "shapes_accounts",
)  # fmt: skip


class Item(BaseModel):
    """Base of the item models: a field more than the model says is an error (tests)."""

    model_config = ConfigDict(extra="forbid", strict=True)


def shapes() -> dict[str, type[BaseModel]]:
    """Every kind's item model."""
    found: dict[str, type[BaseModel]] = {}
    for name in SHAPE_MODULES:
        module = importlib.import_module(f"vagent_tui.commands.{name}")
        for kind, model in module.SHAPES.items():
            if kind in found:
                raise RuntimeError(f"two shapes of {kind!r}")
            found[kind] = model
    return found


def document_schema(kind: str, model: type[BaseModel]) -> dict[str, Any]:
    """The JSON Schema of ``-o json``'s document and of one ``-o jsonl`` line of ``kind``."""
    item = model.model_json_schema(ref_template="#/$defs/{model}")
    defs = item.pop("$defs", {})
    defs[model.__name__] = item
    ref = {"$ref": f"#/$defs/{model.__name__}"}
    head = {
        "version": {"const": CONTRACT_VERSION},
        "kind": {"const": kind},
    }
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": f"vagent-tui {kind}",
        "oneOf": [
            {
                "description": "-o json: one document",
                "type": "object",
                "properties": {**head, "items": {"type": "array", "items": ref}},
                "required": ["version", "kind", "items"],
                "additionalProperties": False,
            },
            {
                "description": "-o jsonl: one line per item",
                "type": "object",
                "properties": {**head, "item": ref},
                "required": ["version", "kind", "item"],
                "additionalProperties": False,
            },
        ],
        "$defs": defs,
    }


def schema_text(kind: str, model: type[BaseModel]) -> str:
    """The file ``schema_files/KIND.json`` holds."""
    return json.dumps(document_schema(kind, model), indent=2, sort_keys=True) + "\n"


def write_all(directory: Path = SCHEMA_DIR) -> list[Path]:
    """Write every kind's schema file (``python -m vagent_tui.commands.schemas``)."""
    directory.mkdir(parents=True, exist_ok=True)
    written = []
    for kind, model in sorted(shapes().items()):
        path = directory / f"{kind}.json"
        path.write_text(schema_text(kind, model), encoding="utf-8")
        written.append(path)
    return written


if __name__ == "__main__":
    for path in write_all():
        print(path)
