"""Every key that changes the platform, as a row of one table: found, not listed.

The rows are each registered screen's keys declared ``Key(..., does=WRITES)`` or
``DESTRUCTIVE`` (`vagent_tui.ui.keys.writing_keys` over `vagent_tui.ui.registry.SCREENS`):
a new screen or a new writing key is a new row with nothing to edit here. The columns:

- **read-only**: on a read-only profile the key is hidden (``check_action``), not in the
  footer, refused with its reason when pressed, and nothing is sent (one app walks every
  screen);
- **at the key** (one app walks every screen, each on the demo account it shows best):
  the key asks (a `Question`: the one its `Write` carries), opens a form or a screen,
  says why it cannot (the status line, or at a field), or sends; a ``DESTRUCTIVE`` key
  sends nothing before it asks but a dry run; ESC leaves what it opened and nothing is sent;
  a form (`FormModal`) can read back after a lost reply (its ``read_back``, which its
  send through the one write path uses), and sent with its text fields empty is refused
  at its required fields (the first one takes the focus) with nothing sent, or, when no
  field is required, sends once (what each field refuses is tested on its request
  model, ``tests/unit/api/test_api_models.py``);
- **the `Write` it hands to the one write path** (`vagent_tui.ui.writes.perform`), when
  the key builds one before its question: a ``DESTRUCTIVE`` one asks (``confirm``); a
  delete says what a 404 means (``gone``) and reads back; replayed through the screen's
  own `BaseScreen.written` with the send replaced: a 404 of a delete is "already gone",
  an unknown outcome is sent once through the connection the user saw and read back from
  the platform (never resent), a refusal is said and not retried; after a delete's 404 or
  unknown outcome the screen reads its list again.

How `perform` treats each outcome is tested without an app in
``tests/unit/ui/test_writes.py``; how a question answers ``y``, ``n`` and ESC in
``tests/unit/ui/test_questions.py``.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

import pytest
from textual.binding import Binding
from textual.pilot import Pilot
from textual.screen import ModalScreen, Screen
from textual.widgets import Input

from tests.helpers import DEMO_ACCOUNT_FOR, settle, shown, sim_of
from vagent_tui.api.client import ONE_TIME_LOGIN
from vagent_tui.api.errors import ApiError, RequestTimeout
from vagent_tui.services.connect import demo_client
from vagent_tui.sim.state import LoggedRequest, SimState
from vagent_tui.ui import writes
from vagent_tui.ui.app import VagentApp
from vagent_tui.ui.convention import action_name
from vagent_tui.ui.keys import screen_class, writing_keys
from vagent_tui.ui.registry import SCREENS, ScreenInfo
from vagent_tui.ui.safety import DESTRUCTIVE, does_of, refusal
from vagent_tui.ui.screens.base import BaseScreen
from vagent_tui.ui.widgets.entry_forms import FormModal
from vagent_tui.ui.widgets.form import FormField

WRITING = [info for info in SCREENS if writing_keys(screen_class(info))]
"""The registered screens with a key that writes (the rows' screens)."""


def _first_key(binding: Binding) -> str:
    return binding.key.split(",")[0].strip()


READ_POSTS = frozenset({"/api/v2/conversation/batch", "/api/v2/agent/autoReviewAgentConfiguration"})
"""POSTs that only read (the client sends them with ``reads=True``): Calls reads a page's
conversations with one, and Calls has a writing key (``K``)."""


def _changes(sim: SimState) -> list[LoggedRequest]:
    """What the simulator was asked to change: every request but a plain read."""
    return [r for r in sim.requests if (r.method != "GET" and r.path not in READ_POSTS)
            or r.path.endswith(ONE_TIME_LOGIN)]  # fmt: skip


def _notes(app: Any) -> list[str]:
    return [str(n.message) for n in app._notifications]


@dataclass
class Handed:
    """Every `Write` handed to the one write path while a row's key runs."""

    writes: list[writes.Write[Any]] = field(default_factory=list)


@pytest.fixture
def handed(monkeypatch: pytest.MonkeyPatch) -> Handed:
    seen = Handed()
    real = writes.perform

    async def perform(write: writes.Write[Any], **kwargs: Any) -> writes.Written[Any]:
        seen.writes.append(write)
        return await real(write, **kwargs)

    # The write path's one entry: a screen's (`BaseScreen.written`, which imports it at
    # the first write) and a pane's (`write_from`) both call `writes.perform`.
    monkeypatch.setattr(writes, "perform", perform)
    return seen


# ---------------------------------------------------------------------- read-only


PARTS = 3
"""The read-only walk in this many apps, side by side (one app walked every screen)."""


@pytest.mark.parametrize("part", range(PARTS))
async def test_read_only_hides_and_refuses_every_writing_key_and_sends_nothing(part: int) -> None:
    app = VagentApp(demo_client(), profile_label="ro", initial_screen="scope", read_only=True)
    async with app.run_test(size=(120, 40), notifications=True) as pilot:
        await settle(pilot)
        for info in WRITING[part::PARTS]:
            app.action_show(info.name)
            await settle(pilot)
            screen = shown(app, BaseScreen)
            assert isinstance(screen, screen_class(info)), info.name
            mutating = screen.mutating()
            on_footer = {b.binding.id for b in app.active_bindings.values() if b.binding.show}
            for binding in writing_keys(screen_class(info)):
                row = f"{info.name}: {binding.id}"
                assert screen.check_action(action_name(binding.action), ()) is False, row
                assert binding.id not in on_footer, row
                app.clear_notifications()
                await pilot.press(_first_key(binding))
                await settle(pilot)
                assert app.screen is screen, f"{row} opened {app.screen}"
                what = mutating[action_name(binding.action)]
                assert refusal(what) in _notes(app), row
        assert _changes(sim_of(app)) == []


# ---------------------------------------------------------------------- each key, each screen


async def _leave(pilot: Pilot[None], home: Screen[Any]) -> None:
    """ESC until the screen is back (a form, then the question a form may ask)."""
    for _ in range(4):
        if pilot.app.screen is home:
            return
        await pilot.press("escape")
        await settle(pilot)
    assert pilot.app.screen is home, f"ESC does not leave {pilot.app.screen}"


def _dry_run(request: LoggedRequest) -> bool:
    body = request.body if isinstance(request.body, dict) else {}
    return bool(body.get("dryRun")) or request.query.get("dryRun") == "true"


async def _submit_empty(pilot: Pilot[None], form: FormModal, row: str) -> None:
    """A form sent with every text field empty: refused at a field (the first one in
    error has the focus) and nothing sent, unless no field is required (then it is sent
    once, or asked first)."""
    sim = sim_of(pilot.app)
    before = len(_changes(sim))
    for text in form.query(Input):
        text.value = ""
    form.submit()
    await settle(pilot)
    sent = _changes(sim)[before:]
    if pilot.app.screen is not form:
        assert len(sent) <= 1, f"{row}: the form sent {len(sent)} requests"
        return
    assert sent == [], f"{row}: sent, yet the form is still open"
    wrong = [f for f in form.query(FormField) if f.error]
    assert wrong, f"{row}: nothing sent and nothing said at a field"
    focused = pilot.app.focused
    assert focused is not None and wrong[0] in focused.ancestors_with_self, row


async def _reads_again(pilot: Pilot[None], write: writes.Write[Any], row: str) -> None:
    """After a delete that may have been made, its screen reads its list again."""
    sim = sim_of(pilot.app)
    reads = sim.count("GET")
    await settle(pilot)
    if write.gone is not None:
        assert sim.count("GET") > reads, f"{row}: the list is not read again"


async def _replay(pilot: Pilot[None], home: BaseScreen, write: writes.Write[Any], row: str) -> None:
    """The row's `Write` through the screen's write path, its send replaced by one that
    fails: a 404, a lost reply, a refusal. The platform itself is read back."""
    app = pilot.app
    assert isinstance(app, VagentApp)
    sent: list[object] = []

    def failing(error: Exception) -> writes.Write[Any]:
        async def send(conn: object) -> object:
            sent.append(conn)
            raise error

        return replace(write, confirm=None, send=send)

    sent.clear()
    lost = await home.written(failing(RequestTimeout("No answer", method="POST")))
    assert lost.outcome == "unknown", row
    assert sent == [app.connection], f"{row}: sent once, through the connection seen"
    if write.read_back is not None:
        assert "Read back now:" in lost.line, f"{row}: {lost.line}"
    else:
        assert lost.line.endswith(write.unsure), row
    await _reads_again(pilot, write, row)

    sent.clear()
    missing = await home.written(failing(ApiError(404, "Not found", method="DELETE")))
    assert len(sent) == 1, row
    if write.gone is not None:
        assert missing.outcome == "gone" and write.gone in missing.line, f"{row}: {missing.line}"
    else:
        assert missing.outcome == "refused", row
    await _reads_again(pilot, write, row)

    sent.clear()
    refused = await home.written(failing(ApiError(409, "Conflict", method="POST")))
    assert refused.outcome == "refused" and len(sent) == 1, row
    await settle(pilot)


@pytest.mark.parametrize("info", WRITING, ids=lambda info: info.name)
async def test_each_writing_key_asks_or_says_why_and_hands_the_write_path_its_write(
    info: ScreenInfo, handed: Handed
) -> None:
    """One app per screen (the rows of a screen share it), so that the screens' rows run
    side by side: one app for all of them was the suite's longest test by far."""
    # Each screen on the account it shows best (the key's own when none).
    app = VagentApp(
        demo_client(),
        profile_label="demo",
        initial_screen=info.name,
        initial_account=DEMO_ACCOUNT_FOR.get(info.name),
    )
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        home = shown(app, BaseScreen)
        assert isinstance(home, screen_class(info)), info.name
        for binding in writing_keys(screen_class(info)):
            await _row(pilot, home, binding, handed, f"{info.name}: {binding.id}")


async def _row(
    pilot: Pilot[None], home: BaseScreen, binding: Binding, handed: Handed, row: str
) -> None:
    app = pilot.app
    sim = sim_of(app)
    destructive = does_of(binding) is DESTRUCTIVE
    handed.writes.clear()
    home.status.update("")
    before = len(_changes(sim))
    await pilot.press(_first_key(binding))
    await settle(pilot)
    opened = app.screen
    at_key = _changes(sim)[before:]
    if app.screen is home:
        # Sent at once (a write that needs no question), or said why not.
        if destructive:
            assert all(_dry_run(r) for r in at_key), f"{row} sent without asking"
        said = [str(home.status.content), *(f.error for f in home.query(FormField))]
        assert at_key or any(said), f"{row} did nothing, said nothing"
    else:
        assert at_key == [], f"{row} sent while {opened} is open"
    dry = bool(at_key) and all(_dry_run(r) for r in at_key)
    for write in handed.writes:
        if isinstance(write.confirm, ModalScreen):
            assert opened is write.confirm, f"{row}: its question is not the one shown"
        if destructive and not dry:
            assert write.confirm is not None, f"{row} does not ask first"
        if action_name(binding.action) == "delete":
            assert write.gone is not None and write.read_back is not None, row
    if isinstance(opened, FormModal) and not at_key:
        # What it sends is its own write (`FormModal.send_request`, the one path): after
        # a lost reply it reads back what the platform holds.
        assert opened.read_back is not None, f"{row}: its form cannot read back"
        await _submit_empty(pilot, opened, row)
        at_key = _changes(sim)[before:]
    await _leave(pilot, home)
    assert _changes(sim)[before:] == at_key, f"{row}: ESC sent something"
    for write in list(handed.writes):
        await _replay(pilot, home, write, row)
    assert app.screen is home, row
