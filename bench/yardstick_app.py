"""The start-up yardstick: a minimal Textual app (Header, DataTable, Footer) with the same
third-party imports as ``vagent-tui --demo``, as the issue defines it: textual, httpx,
pydantic, and Starlette (the framework of the simulator that ``--demo`` runs in-process).
It builds one pydantic model per row. Run by ``bench/startup.py``; it shares no code with
the console.

With ``VAGENT_BENCH_EXIT_ON_READY=1`` it quits as soon as the first frame with its table
filled has been drawn, the same hook style as ``vagent-tui --demo``.
"""

from __future__ import annotations

import os

import httpx  # noqa: F401  (the yardstick pays for importing it, as the console does)
from pydantic import BaseModel
from starlette.applications import Starlette  # noqa: F401  (idem: the --demo simulator's)
from starlette.routing import Route  # noqa: F401
from textual.app import App, ComposeResult
from textual.widgets import DataTable, Footer, Header


class Row(BaseModel):
    id: int
    name: str


class Yardstick(App[None]):
    def compose(self) -> ComposeResult:
        yield Header()
        yield DataTable()
        yield Footer()

    def on_mount(self) -> None:
        table = self.query_one(DataTable)
        table.add_columns("id", "name")
        for i in range(20):
            row = Row(id=i, name=f"row {i}")
            table.add_row(str(row.id), row.name, key=str(row.id))
        if os.environ.get("VAGENT_BENCH_EXIT_ON_READY") == "1":
            self.call_after_refresh(self.exit)


if __name__ == "__main__":
    Yardstick().run()
