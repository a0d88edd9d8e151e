"""The start-up yardstick: a minimal Textual app (Header, DataTable, Footer) that imports
httpx and pydantic, as the issue defines it. Run by ``bench/startup.py``.

With ``VAGENT_BENCH_EXIT_ON_READY=1`` it quits as soon as the first frame with its table
filled has been drawn, the same hook style as ``vagent-tui --demo``.
"""

from __future__ import annotations

import os

import httpx  # noqa: F401  (the yardstick pays for importing it, as the console does)
from pydantic import BaseModel
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
