"""The Calls table's columns: what is offered, and the choice kept per profile (0600)."""

from __future__ import annotations

import stat
from pathlib import Path

from vagent_tui.services.call_columns import (
    BUILT_IN,
    DEFAULT_COLUMNS,
    ColumnStore,
    column,
    offered,
)


def test_offered_adds_the_schema_fields_no_built_in_column_shows() -> None:
    schema = ["id", "timestamp", "summary", "fromNumber", "usdRate", "metadata.tokens"]
    names = offered(schema)
    assert names[: len(BUILT_IN)] == list(BUILT_IN)
    assert names[len(BUILT_IN) :] == ["id", "usdRate", "metadata.tokens"]


def test_a_schema_field_is_a_column_of_its_own_name() -> None:
    assert column("metadata.tokens").label == "metadata.tokens"
    assert column("route").label == "From → To"


def test_the_choice_is_kept_per_profile_in_a_private_file(tmp_path: Path) -> None:
    store = ColumnStore(tmp_path / "state" / "calls-columns.json")
    assert store.load("prod") == DEFAULT_COLUMNS
    store.keep("prod", ["time", "usdRate", "time", ""])
    store.keep("dev", ["summary"])
    assert store.error is None
    again = ColumnStore(store.path)
    assert again.load("prod") == ("time", "usdRate")
    assert again.load("dev") == ("summary",)
    assert again.load(None) == DEFAULT_COLUMNS
    assert stat.S_IMODE(store.path.stat().st_mode) == 0o600
    store.keep("prod", DEFAULT_COLUMNS)  # the defaults: the choice is forgotten
    assert "prod" not in store.path.read_text(encoding="utf-8")


def test_a_file_it_cannot_read_is_taken_as_no_choice(tmp_path: Path) -> None:
    path = tmp_path / "calls-columns.json"
    for text in ("{not json", '{"profiles": []}', '{"profiles": {"p": [1, null, "id"]}}'):
        path.write_text(text, encoding="utf-8")
        kept = ColumnStore(path).load("p")
        assert kept in (DEFAULT_COLUMNS, ("id",))


def test_a_write_that_fails_is_said(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("", encoding="utf-8")
    store = ColumnStore(blocker / "calls-columns.json")  # its folder is a file
    store.keep("p", ["id"])
    assert store.error is not None and "could not be remembered" in store.error
