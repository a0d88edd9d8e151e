"""``vagent-tui schema [KIND]``: the JSON shapes the commands write.

Without a kind: the kinds (an item each). With one: its JSON Schema (a file of the
package, printed as it is: no platform, no pydantic).
"""

from __future__ import annotations

import argparse
from importlib import resources
from typing import TYPE_CHECKING

from vagent_tui.commands.contract import CommandError
from vagent_tui.commands.registry import completes

if TYPE_CHECKING:
    from vagent_tui.commands.runner import Context


def _kinds() -> list[str]:
    folder = resources.files("vagent_tui.commands") / "schema_files"
    return sorted(
        p.name.removesuffix(".json") for p in folder.iterdir() if p.name.endswith(".json")
    )


def add_parser(
    sub: argparse._SubParsersAction[argparse.ArgumentParser], common: argparse.ArgumentParser
) -> None:
    parser = sub.add_parser(
        "schema", parents=[common], help="the JSON Schema of what a command writes",
        description="Without KIND: the kinds of item the commands write. With KIND: its "
        "JSON Schema (the -o json document and the -o jsonl line).",
    )  # fmt: skip
    completes(parser.add_argument("kind", nargs="?", metavar="KIND"), lambda **_: _kinds())
    parser.set_defaults(run="schema:run", connects=False)


async def run(ctx: Context) -> int:
    kinds = _kinds()
    kind: str | None = ctx.args.kind
    if kind is None:
        with ctx.output("kinds", ("kind", "schema_file")) as out:
            for name in kinds:
                out.write({"kind": name, "schema_file": f"{name}.json"})
        return 0
    if kind not in kinds:
        raise CommandError(f"no kind {kind!r}: one of {', '.join(kinds)}")
    folder = resources.files("vagent_tui.commands") / "schema_files"
    ctx.stdout.write((folder / f"{kind}.json").read_text(encoding="utf-8"))
    return 0
