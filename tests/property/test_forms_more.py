"""Three more forms driven with hypothesis values on one running app per form: the
saved-version rename prompt, the Computer Agent upload form, the migration options.

Invalid input: a message at the field and no request (the simulator's log does not
grow). Valid input: exactly one request, its method, path and body as the spec says;
the confirmations (overwrite, real run, forced overrides) are accepted explicitly.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import Phase, example, given, settings
from hypothesis import strategies as st
from textual.widgets import (
    Button,
    Checkbox,
    DataTable,
    Input,
    OptionList,
    SelectionList,
    Static,
    Switch,
)

from tests.helpers import MakeApp, settle
from tests.property import strategies as s
from tests.property.driver import Driver
from tests.property.test_forms import PILOT, field_error, valid
from vagent_tui.api.requests import MigrationRequest, TitleRequest, UploadRequest
from vagent_tui.inert import inert
from vagent_tui.sim.routes_agents import MAX_TITLE as SIM_MAX_TITLE
from vagent_tui.sim.routes_computer import PLATFORM_FILES
from vagent_tui.ui.dialogs import ConfirmModal, PromptModal

FORMS = PILOT
"""The examples given, in the app (the titles and upload values hypothesis draws are
checked without it: test_request_models.py, the models and what the simulator answers)."""
FLOWS = settings(PILOT, phases=[Phase.explicit, Phase.generate], max_examples=4)
"""A flow of the screen itself (the migration's questions): a few drawn examples too,
without shrinking (a failing one is reported as drawn rather than after minutes)."""


@pytest.fixture
def drive(make_app: MakeApp) -> Iterator[Callable[..., Driver]]:
    """``drive(screen, **make_app options)``: a running console, closed after the test."""
    drivers: list[Driver] = []

    def start(screen: str, **kwargs: Any) -> Driver:
        drivers.append(Driver(make_app(screen, **kwargs)))
        return drivers[-1]

    yield start
    for driver in drivers:
        driver.close()


async def until(d: Driver, check: Callable[[], object], timeout: float = 10.0) -> None:
    """Wait for a condition of the running app (bounded, so a hang fails the example)."""
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    while not check():
        assert loop.time() < end, f"never reached: {d.app.screen_stack}, focus {d.app.focused}"
        await d.pilot.pause(0.01)


def call(d: Driver, action: Callable[[], object]) -> None:
    """Call ``action`` on the app's loop, without waiting for the workers it starts
    (`Driver.step` would wait for a worker that waits for a dialog)."""

    async def go() -> None:
        action()

    d.run(go())


def accept(modal: Any) -> None:
    """Press a dialog's confirm button (a click could land on a notification toast)."""
    modal.query_one("#confirm", Button).press()


async def enter(modal: PromptModal, text: str) -> None:
    """Type ``text`` in a prompt and press Enter in it."""
    field = modal.query_one("#prompt-input", Input)
    field.value = text
    await field.action_submit()


def prompt_error(modal: PromptModal) -> str:
    return str(modal.query_one("#prompt-error", Static).content)


def closed(d: Driver, modal: object, *, or_refused: bool = False) -> Callable[[], object]:
    """A check for `until`: ``modal`` is no longer on show (or, a prompt, said why not)."""
    if or_refused and isinstance(modal, PromptModal):
        return lambda: d.app.screen is not modal or prompt_error(modal)
    return lambda: d.app.screen is not modal


# --------------------------------------------------------------------------- agent: rename

AGENT = 1111
TITLE_PATH = f"/api/v2/agent/cfg-{AGENT}/versions/{{}}/title"


def test_agent_rename_form(drive: Any) -> None:
    d = drive("agent", account=AGENT)
    screen = d.app.screen
    table = screen.query_one("#agent-versions", DataTable)
    d.step(lambda: screen.action_tab("tab-versions"))
    assert table.row_count >= 2

    @FORMS
    @given(
        title=s.titles | s.padded(s.titles) | s.bad_titles,
        row=st.integers(0, table.row_count - 1),
    )
    @example(title="x" * (SIM_MAX_TITLE + 1), row=0)  # sent: the simulator's limit answers
    @example(title=" " + "y" * SIM_MAX_TITLE + "\t", row=1)  # at its limit once trimmed
    @example(title="  Spring promo  ", row=1)  # sent trimmed
    @example(title=" \t ", row=0)  # blank
    def prop(title: str, row: int) -> None:
        table.move_cursor(row=row)
        version_id = int(table.coordinate_to_cell_key((row, 0)).row_key.value)
        version = next(v for v in d.sim.versions[AGENT] if v["versionId"] == version_id)
        old_title = version["title"]
        before = len(d.writes("/title"))
        d.step(lambda: screen.action_edit("version"))  # the e key
        modal = d.app.screen
        assert isinstance(modal, PromptModal)
        assert modal.query_one("#prompt-input", Input).value == old_title
        d.step(lambda: enter(modal, title))
        writes = d.writes("/title")
        if not valid(TitleRequest, title=title):
            assert len(writes) == before
            assert d.app.screen is modal and prompt_error(modal)
            assert modal.query_one("#prompt-input", Input).value == title  # kept as typed
            d.step(modal.action_cancel)  # the escape key
            assert d.app.screen is screen and version["title"] == old_title
            assert len(d.writes("/title")) == before
            return
        assert len(writes) == before + 1
        sent = writes[-1]
        if len(title.strip()) > SIM_MAX_TITLE:  # the simulator's own limit, not the client's
            assert (sent.path, sent.status) == (TITLE_PATH.format(version_id), 400)
            modal = d.app.screen
            assert isinstance(modal, PromptModal) and "at most" in modal.body_text
            d.step(modal.action_cancel)
            assert d.app.screen is screen and version["title"] == old_title
            return
        assert (sent.method, sent.path, sent.status) == ("PUT", TITLE_PATH.format(version_id), 200)
        assert sent.body == TitleRequest(title=title).wire() == {"title": title.strip()}
        assert d.app.screen is screen
        assert version["title"] == title.strip()
        assert str(table.get_cell_at((row, 0))) == inert(title.strip())  # shown inert

    prop()


# --------------------------------------------------------------------------- computer: upload

COMPUTER = 1118
UPLOAD_PATH = f"/api/v2/computer/accounts/{COMPUTER}/workspace/upload"


def expected_status(files: dict[str, Any], request: UploadRequest) -> int:
    """What the simulator answers a valid upload (its rules: sim/routes_computer.py)."""
    parts = [p for p in request.path.split("/") if p not in ("", ".")]
    if parts[0] in (".system", "public") or (
        len(parts) == 1 and parts[0].lower() in PLATFORM_FILES
    ):
        return 403
    if "/".join(parts) in files and not request.overwrite:
        return 409
    return 200


def test_computer_upload_form(drive: Any, tmp_path: Path) -> None:
    contents = {"hello.txt": b"hello workspace\n", "empty.bin": b"", "data.bin": bytes(range(256))}
    for name, content in contents.items():
        (tmp_path / name).write_bytes(content)
    (tmp_path / "folder").mkdir()
    d = drive("computer", account=COMPUTER)
    screen = d.app.screen
    pane = screen.upload_pane
    exchanges: list[Any] = []  # what the client sent, as the journal hears it
    d.app.connection.api.observers.append(exchanges.append)

    @FORMS
    @given(
        local=st.sampled_from([*contents, "folder", None]),
        path=s.upload_paths | s.padded(s.upload_paths) | s.protected_upload_paths
        | s.bad_upload_paths,
        mode=s.optional_modes | s.bad_modes,
        overwrite=st.booleans(),
    )  # fmt: skip
    @example(local="hello.txt", path="notes/readme.txt", mode="", overwrite=True)  # replaced
    @example(local="hello.txt", path="notes/readme.txt", mode="0600", overwrite=False)  # 409
    @example(local="data.bin", path=" docs/a.bin\t", mode=" 755 ", overwrite=False)  # trimmed
    @example(local="empty.bin", path="AGENTS.md", mode="", overwrite=False)  # 403
    @example(local=None, path="ok.txt", mode="", overwrite=False)  # no file picked
    @example(local="folder", path="ok.txt", mode="0644", overwrite=True)  # a folder
    @example(local="hello.txt", path="../x", mode="8", overwrite=True)  # path and mode
    def prop(local: str | None, path: str, mode: str, overwrite: bool) -> None:
        before = len(d.writes("/workspace/upload"))

        def pick() -> None:
            pane.reset()
            if local is not None:
                pane.pick_file(tmp_path / local)

        d.step(pick)
        screen.query_one("#computer-path", Input).value = path
        screen.query_one("#computer-mode", Input).value = mode
        screen.query_one("#computer-overwrite", Switch).value = overwrite
        files = dict(d.sim.files.get(COMPUTER, {}))
        call(d, screen.action_upload)  # the u key
        try:
            request = UploadRequest(path=path, overwrite=overwrite, mode=mode.strip() or None)
        except ValueError:
            request = None
        if request is None or local not in contents:
            d.run(settle(d.pilot))
            assert len(d.writes("/workspace/upload")) == before
            assert d.app.screen is screen
            assert bool(field_error(screen, "file")) == (local not in contents)
            if request is None:
                assert field_error(screen, "path") or field_error(screen, "mode")
            assert screen.query_one("#computer-path", Input).value == path  # nothing lost
            assert screen.query_one("#computer-mode", Input).value == mode
            return
        if overwrite:  # the replacement is confirmed explicitly
            d.run(until(d, lambda: isinstance(d.app.screen, ConfirmModal)))
            assert len(d.writes("/workspace/upload")) == before  # nothing before confirming
            call(d, lambda: accept(d.app.screen))
        d.run(until(d, lambda: len(d.writes("/workspace/upload")) > before))
        d.run(settle(d.pilot))
        writes = d.writes("/workspace/upload")
        assert len(writes) == before + 1
        sent = writes[-1]
        assert (sent.method, sent.path) == ("POST", UPLOAD_PATH)
        # the simulator logs the names of the multipart fields; the client's observer, values
        assert sent.body == sorted(
            ["file", "overwrite", "path", *(["mode"] if request.mode else [])]
        )
        fields = {"path": request.path, "overwrite": "true" if overwrite else "false"}
        if request.mode:
            fields["mode"] = request.mode
        content = contents[local]
        exchange = [e for e in exchanges if e.path.endswith("/workspace/upload")][-1]
        assert exchange.body == {**fields, "file": f"<{len(content)} bytes>"}
        assert sent.status == expected_status(files, request)
        if sent.status == 200:
            norm = "/".join(p for p in request.path.split("/") if p not in ("", "."))
            stored = d.sim.files[COMPUTER][norm]
            assert stored["size"] == len(content)
            assert stored["mode"] == (request.mode or "0644").rjust(4, "0")
            assert pane.local_file is None  # a success resets the form
        else:  # a refused upload keeps every field as typed
            assert screen.query_one("#computer-path", Input).value == path
            assert screen.query_one("#computer-mode", Input).value == mode
            assert pane.local_file == tmp_path / local

    prop()


# --------------------------------------------------------------------------- migrations


def test_migration_options_form(drive: Any) -> None:
    d = drive("migrations", token="demo-reseller", task_seconds=0.05)
    d.app.watcher.min_interval = 0.01
    screen = d.app.screen
    options = screen.query_one("#mig-templates", OptionList)
    sections = screen.query_one("#mig-sections", SelectionList)
    templates = list(screen.templates)
    assert len(templates) >= 2

    def check(index: int | None, picks: list[int], dry_run: bool, force: bool, typed: str) -> None:
        before = len(d.writes("/migrate"))

        def pick() -> None:
            options.highlighted = index
            if index is None:  # no template: the id field empty too (it holds what runs)
                screen.query_one("#mig-template-id", Input).value = ""

        call(d, pick)
        d.run(d.pilot.pause())  # the sections of the template highlighted
        template = templates[index] if index is not None else None
        names = template.sections if template else []
        chosen = list(dict.fromkeys(names[i % len(names)] for i in picks)) if names else []

        def fill() -> None:
            sections.deselect_all()
            for name in chosen:
                sections.select(name)
            screen.query_one("#mig-dry-run", Checkbox).value = dry_run
            screen.query_one("#mig-force", Checkbox).value = force

        call(d, fill)
        d.run(d.pilot.pause())
        refused = d.run(_start(d, screen, typed))
        writes = d.writes("/migrate")
        if template is None:
            assert len(writes) == before and refused is None
            assert "Pick a template first" in str(screen.status.content)
            return
        if not dry_run and force and typed.strip() != template.id:
            assert len(writes) == before
            assert refused and template.id in refused  # said at the field, then cancelled
            assert "nothing was sent" in str(screen.status.content)
            return
        assert refused is None, (refused, typed)
        assert len(writes) == before + 1
        sent = writes[-1]
        assert (sent.method, sent.path) == ("POST", f"/api/v2/templates/{template.id}/migrate")
        expected = MigrationRequest(
            dry_run=dry_run, sections_to_migrate=chosen, force_migrate_overridden_fields=force
        ).wire()
        assert sent.body == expected
        assert sent.body["dryRun"] is dry_run
        assert sent.body["forceMigrateOverriddenFields"] is force
        assert sent.body.get("sectionsToMigrate", []) == chosen

    # The cases that must be seen whatever hypothesis draws (st.data() rules out @example).
    check(None, [], True, False, "")  # no template highlighted: nothing to start
    check(0, [0, 2], True, True, "")  # a dry run asks nothing, even forced
    check(0, [], False, True, templates[0].id[:-3])  # not the id: refused at the field
    check(2, [1], False, True, f" {templates[2].id}\t")  # the id, padded: accepted
    check(0, [3], False, False, "")  # a real run, confirmed

    @FLOWS
    @given(
        index=st.sampled_from([*range(len(templates)), None]),
        picks=st.lists(st.integers(0, 20), unique=True, max_size=4),
        dry_run=st.booleans(),
        force=st.booleans(),
        data=st.data(),
    )
    def prop(index: int | None, picks: list[int], dry_run: bool, force: bool, data: Any) -> None:
        typed = data.draw(s.confirm_texts(templates[index].id)) if index is not None else ""
        check(index, picks, dry_run, force, typed)

    prop()


async def _start(d: Driver, screen: Any, typed: str) -> str | None:
    """Press s and accept every confirmation; the prompt's refusal if it refused ``typed``."""
    refused = None
    screen.action_start()  # the s key
    while True:
        await until(d, lambda: not screen.starting or d.app.screen is not screen)
        modal = d.app.screen
        if isinstance(modal, ConfirmModal):
            accept(modal)  # the real run, accepted explicitly
        elif isinstance(modal, PromptModal):
            await enter(modal, typed)
            await until(d, closed(d, modal, or_refused=True))
            if d.app.screen is modal:  # refused at the field: nothing to do but cancel
                refused = prompt_error(modal)
                modal.action_cancel()
        else:
            break
        await until(d, closed(d, modal))
    await until(d, lambda: not screen.starting)
    await settle(d.pilot)
    return refused
