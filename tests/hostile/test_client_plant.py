"""Every screen with every reply planted from the client's models: the terminal obeys nothing.

`tests.hostile.plant` rewrites each reply where the client parses it: every field a
model reads as text (ids, and numbers the model would take as text, such as a
template's ``revision``) gets hostile text, or every field ``null`` and a ``null`` item
in every list. Each screen is then drawn by Textual as it would be on a terminal (a
driver that records what would be written instead of writing it), and the bytes are
checked: no escape sequence, C1 control or bidi override of the data, no markup obeyed,
no action run. The plant points come from walking the models, so a new model or field
is planted without being listed here.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any, ClassVar

import pytest
from pydantic import ValidationError
from textual.drivers.headless_driver import HeadlessDriver
from textual.widgets import Select

from tests.helpers import settle
from tests.hostile.plant import Plant, install, plant_points, response_models
from tests.hostile.test_hostile_walk import ACCOUNT_FOR, NAMES, assert_inert
from vagent_tui.api import base
from vagent_tui.api.base import Resource


class RecordingDriver(HeadlessDriver):
    """A driver that takes what Textual writes to the terminal (headless one does not draw)."""

    written: ClassVar[list[str]] = []

    @property
    def is_headless(self) -> bool:
        return False

    def write(self, data: str) -> None:
        RecordingDriver.written.append(data)


# What Textual itself writes: colours (SGR), cursor moves, synchronised output, cursor
# and pointer shapes. Anything else that obeys (another CSI, an OSC, a C1 control, a
# bidi override) came from the data.
OWN_SEQUENCES = re.compile(
    r"\x1b\[[0-9;:]*m"  # SGR
    r"|\x1b\[\d+;\d+H"  # cursor to row;column
    r"|\x1b\[K"  # erase to the end of the row (the frame diff's blank row end)
    r"|\x1b\[\?(?:2026|25|1004|1000|1003|1015|1006|2004)[hl]"  # modes Textual sets
    r"|\x1b\]22;[a-z-]+\x07"  # pointer shape
    r"|\x1b\]8;[^\x07\x1b]*\x1b\\\\"  # a link (Textual's own: its target is checked below)
)
OBEYED = re.compile("[\x00-\x09\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069\u200e\u200f]")
"""Characters a terminal obeys (newline is Textual's own line end)."""
PLANTED_MARKS = ("pwned", "UFdORUQ", "evil.example")


def check_written(written: str, where: str) -> None:
    """No sequence or control character of the data in what was written to the terminal."""
    assert len(written) > 1_000, f"{where}: nothing was drawn"
    for link in re.findall(r"\x1b\]8;[^\x07\x1b]*", written):
        assert not any(mark in link for mark in PLANTED_MARKS), f"{where}: a planted link"
    rest = OWN_SEQUENCES.sub("", written)
    found = OBEYED.findall(rest)
    if found:
        at = OBEYED.search(rest)
        assert at is not None
        context = rest[max(0, at.start() - 60) : at.start() + 40]
        raise AssertionError(f"{where}: {found[:6]!r} written to the terminal, at {context!r}")


@pytest.fixture
def recorded() -> Iterator[list[str]]:
    RecordingDriver.written.clear()
    yield RecordingDriver.written
    RecordingDriver.written.clear()


async def visit(app: Any, pilot: Any, name: str) -> None:
    """What the hostile walk does on each screen: its question, its options, its rows."""
    await settle(pilot)
    # A planted accountType is no agent account: Fleet may find none to ask, Rollout none
    # to change; then the screen says so, and that is drawn and checked like the rest.
    if name == "fleet":
        await pilot.press("s")
        await settle(pilot)
    if name == "rollout":
        await pilot.press("c")
        await settle(pilot)
        if app.screen.query("#rollout-settings"):
            app.screen.query_one("#rollout-settings").value = "speakingTimeout=901"
            await pilot.press("enter")
            await settle(pilot)
    for box in app.screen.query(Select):
        box.expanded = True
        await settle(pilot)
        assert_inert(app, f"{name}, {box.id or 'a select'} open")
        box.expanded = False
    tables = app.screen.query("DataTable, RecordTable")  # RecordTable: a table of records
    if tables:
        tables.first().focus()
        await pilot.press("down", "down")
        await settle(pilot)


@pytest.mark.parametrize("name", NAMES)
async def test_every_text_field_planted_reaches_the_terminal_inert(
    make_app: Any, monkeypatch: pytest.MonkeyPatch, recorded: list[str], name: str
) -> None:
    plant = install("text", monkeypatch.setattr)
    app = make_app(name, account=ACCOUNT_FOR.get(name))
    app.driver_class = RecordingDriver
    calls: list[str] = []
    app.action_screenshot = lambda *a, **k: calls.append("screenshot")
    async with app.run_test(headless=False, size=(120, 40)) as pilot:
        await visit(app, pilot, name)
        assert plant.planted, f"{name}: no reply was planted"
        check_written("".join(recorded), name)
        assert_inert(app, name)
        assert calls == [], f"{name}: markup from the data ran an action"
        other = "2" if name == "scope" else "1"
        app.set_focus(None)
        await pilot.press(other)
        await settle(pilot)
        assert app.is_running


async def test_the_template_list_draws_a_planted_revision_inert(
    make_app: Any, monkeypatch: pytest.MonkeyPatch, recorded: list[str]
) -> None:
    """The issue's case: a template's ``revision`` (a number in the simulator) as text."""
    plant = install("text", monkeypatch.setattr)
    app = make_app("migrations", account=ACCOUNT_FOR["migrations"])
    app.driver_class = RecordingDriver
    async with app.run_test(headless=False, size=(120, 40)) as pilot:
        await settle(pilot)
        assert plant.planted.get("Template.revision"), "the revision was not planted"
        check_written("".join(recorded), "migrations")
        assert "· rev " in assert_inert(app, "migrations")


REFUSED = ("unexpected type", "not a list", "not JSON", "Unexpected error")
"""What the console says when it refuses a reply (an error of the platform's own, such as
403 for an account whose type came null, is the platform answering, not a refusal)."""


@pytest.mark.parametrize("name", NAMES)
async def test_nulls_everywhere_cost_no_screen_its_reply(
    make_app: Any, monkeypatch: pytest.MonkeyPatch, name: str
) -> None:
    """Every field null and a null item in every list: each screen still shows its data."""
    install("null", monkeypatch.setattr)
    app = make_app(name, account=ACCOUNT_FOR.get(name))
    async with app.run_test(size=(120, 40)) as pilot:
        await visit(app, pilot, name)
        status = str(app.screen.query_one("#status").content)
        assert not any(word in status for word in REFUSED), f"{name}: {status!r}"
        assert app.is_running


@pytest.mark.parametrize(
    ("name", "selector"),
    [("inbox", "#inbox-table"), ("webhooks", "#relay-table"), ("migrations", "#mig-templates")],
)
async def test_a_null_item_is_skipped_and_counted(
    make_app: Any, monkeypatch: pytest.MonkeyPatch, name: str, selector: str
) -> None:
    """The issue's three screens: the records kept, the null entries counted on the line.

    The accounts are spared: a key owner whose type came null leads nowhere (a reseller
    not known as one is refused the templates by the platform).
    """
    from vagent_tui.api.models import Account

    install("null", monkeypatch.setattr, spare=(Account,))
    app = make_app(name, account=ACCOUNT_FOR.get(name))
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        status = str(app.screen.query_one("#status").content)
        assert "the platform sent empty" in status, f"{name}: {status!r}"
        assert re.search(r"\b1 entry the platform sent empty|\b\d+ entries the platform", status)
        widget = app.screen.query_one(selector)
        assert getattr(widget, "row_count", getattr(widget, "option_count", 0)) > 0


# ---------------------------------------------------------------------- the models themselves


@pytest.mark.parametrize("model", response_models(), ids=lambda m: m.__name__)
def test_every_model_keeps_a_record_whose_fields_are_all_null(model: type[Resource]) -> None:
    """A null field keeps its record, whatever the field's type: nothing refused."""
    plant = Plant("null")
    record = plant.record(model, {})
    try:
        model.model_validate(record)
    except ValidationError as exc:
        pytest.fail(f"{model.__name__} refuses null in {[e['loc'] for e in exc.errors()]}")
    lists_null = {key: None for key in record}
    try:
        model.model_validate(lists_null)
    except ValidationError as exc:
        pytest.fail(f"{model.__name__} refuses a null list in {[e['loc'] for e in exc.errors()]}")


@pytest.mark.parametrize("model", response_models(), ids=lambda m: m.__name__)
def test_every_model_reads_planted_text(model: type[Resource]) -> None:
    """Every field planted reads the hostile text as it came (nothing refused)."""
    model.model_validate(Plant("text").record(model, {}))


def test_the_walk_reaches_ids_and_numbers_taken_as_text() -> None:
    points = {m.__name__: set(plant_points(m)) for m in response_models()}
    assert {"id", "revision"} <= points["Template"]
    assert {"id", "name"} <= points["Voice"]
    assert "organizationId" in points["Account"]
    assert "rooms[].roomId" in points["JunkRoomPage"]


API = Path(__file__).resolve().parents[2] / "vagent_tui" / "api"
VALIDATES = re.compile(r"\.model_validate\(|TypeAdapter\(|\.validate_json\(|\.validate_python\(")
NOT_REPLIES = {
    "client.py": "m.WebhookRequest.model_validate(",  # a request the console builds
    "scope.py": "account = Account.model_validate(account)",  # an account the caller read
    "transport.py": "list_envelope(model, key).validate_json(",  # the plant's own
    "logs.py": "return BatchReply.model_validate({",  # batches already read, combined
}


def test_every_parse_goes_through_the_plant() -> None:
    """The plant sits in `replies` (parse_model, parse_list, list_envelope): a reply read
    into a model anywhere else in ``api/`` would not be planted, so none is."""
    for path in sorted(API.glob("*.py")):
        if path.name == "replies.py":
            continue
        for line in path.read_text(encoding="utf-8").splitlines():
            if VALIDATES.search(line):
                allowed = NOT_REPLIES.get(path.name)
                assert allowed is not None and allowed in line, f"{path.name}: {line.strip()}"


def test_null_items_are_counted() -> None:
    """The model layer counts what it skips (the status line says how many)."""
    from vagent_tui.api.models import Voice

    with base.counting_empty() as empty:
        Voice.model_validate({"languages": [None, "en", None]})
    assert empty.count == 2
