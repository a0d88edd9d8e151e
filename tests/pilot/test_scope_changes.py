"""Scope changes the tree: create (validated at the field), edit (reviewed, a partial
success named), delete (the name typed first; an organization at once, the question
naming what goes with it), 404 on delete, an unknown outcome read back, a lookup by
external id (a reseller's or partner's key only), a read-only profile."""

from __future__ import annotations

from typing import Any

from textual.containers import Vertical
from textual.pilot import Pilot
from textual.widgets import Input, Label, Select
from textual.widgets.tree import TreeNode

from tests.helpers import MakeApp, settle, shown, sim_of
from vagent_tui.api.models import Account
from vagent_tui.ui.app import VagentApp
from vagent_tui.ui.dialogs import PromptModal, ReviewModal
from vagent_tui.ui.screens.onboard import OnboardScreen
from vagent_tui.ui.screens.scope import ScopeScreen
from vagent_tui.ui.widgets.account_forms import AccountEditForm, NewAccountForm
from vagent_tui.ui.widgets.form import FormField

RESELLER, ORG, HARBOR = 1100, 1110, 1120


def _app(make_app: MakeApp, token: str = "demo-reseller") -> VagentApp:
    return make_app("scope", token=token)


def _status(app: Any) -> str:
    return str(shown(app, ScopeScreen).status.content)


def _writes(app: Any) -> list[Any]:
    return [r for r in sim_of(app).requests if r.method != "GET"]


def _node(app: Any, account_id: int) -> TreeNode[Account] | None:
    tree = shown(app, ScopeScreen).account_tree

    def walk(node: TreeNode[Account]) -> TreeNode[Account] | None:
        if node.data is not None and node.data.id == account_id:
            return node
        for child in node.children:
            found = walk(child)
            if found is not None:
                return found
        return None

    return walk(tree.root)


async def _highlight(pilot: Pilot[None], account_id: int) -> None:
    node = _node(pilot.app, account_id)
    assert node is not None, account_id
    shown(pilot.app, ScopeScreen).account_tree.move_cursor(node)
    await pilot.pause()


async def _open(pilot: Pilot[None], account_id: int) -> None:
    node = _node(pilot.app, account_id)
    assert node is not None
    node.expand()
    await settle(pilot)


async def _new_organization_form(pilot: Pilot[None]) -> NewAccountForm:
    """The create form of an organization under the reseller (``a`` on it)."""
    await settle(pilot)
    await _highlight(pilot, RESELLER)
    await pilot.press("a")
    await settle(pilot)
    form = pilot.app.screen
    assert isinstance(form, NewAccountForm)
    return form


async def test_create_an_organization_puts_it_in_the_tree(make_app: MakeApp) -> None:
    app = _app(make_app)
    async with app.run_test(size=(120, 40)) as pilot:
        form = await _new_organization_form(pilot)
        assert form.kind == "organization"
        form.query_one("#form-org-name", Input).value = "Orbit Clinic"
        form.query_one("#form-email", Input).value = "not an email"
        await pilot.press("ctrl+s")  # the convention's save keys send a form
        await settle(pilot)
        assert "not an email address" in form.query_one("#field-email", FormField).error
        assert _writes(app) == []
        form.query_one("#form-email", Input).value = ""
        form.query_one("#form-external-account-id", Input).value = "crm-9"
        await pilot.press("ctrl+o")
        await settle(pilot)
        screen = shown(app, ScopeScreen)
        [sent] = _writes(app)
        assert sent.path == "/api/v2/createOrganization"
        assert sent.query["targetResellerId"] == str(RESELLER)
        made = next(a for a in sim_of(app).accounts.values() if a.name == "Orbit Clinic")
        node = _node(app, made.id)
        assert node is not None and node.parent is not None and node.parent.data is not None
        assert node.parent.data.id == RESELLER
        assert f"Created Orbit Clinic (#{made.id})" in _status(app)
        await settle(pilot)
        cursor = screen.account_tree.cursor_node
        assert cursor is node
        [entry] = app.journal.read()
        assert entry.method == "POST" and entry.path.endswith("/createOrganization")
        gets = sum(1 for r in sim_of(app).requests if r.path == "/api/v2/listOrganizations")
        assert gets == 1  # in place: the reseller's list was not read again


async def test_edit_is_reviewed_and_a_partial_failure_is_named(make_app: MakeApp) -> None:
    app = _app(make_app)
    sim = sim_of(app)
    sim.accounts[1111].external_account_id = "taken"
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await _open(pilot, ORG)
        await _highlight(pilot, 1112)
        await pilot.press("e")
        await settle(pilot)
        form = app.screen
        assert isinstance(form, AccountEditForm)
        assert form.query_one("#form-name", Input).value == "Acme Dental Spanish Line"
        form.submit()
        await settle(pilot)
        assert "Nothing changed" in str(form.query_one("#form-error", Label).content)
        form.query_one("#form-name", Input).value = "Acme Español"
        form.query_one("#form-active", Select).value = "no"
        form.query_one("#form-external-account-id", Input).value = "taken"
        form.submit()
        await settle(pilot)
        review = app.screen
        assert isinstance(review, ReviewModal)
        diff = review.diff.plain
        assert "Acme Dental Spanish Line → Acme Español" in diff and "(none) → taken" in diff
        await pilot.press("escape")  # cancel: the form stays, nothing sent
        await settle(pilot)
        assert app.screen is form and _writes(app) == []
        shown(app, AccountEditForm).submit()
        await settle(pilot)
        await pilot.press("y")
        await settle(pilot)
        screen = shown(app, ScopeScreen)
        [sent] = _writes(app)
        assert sent.body == {"accountName": "Acme Español", "active": False,
                             "externalAccountId": "taken"}  # fmt: skip
        status = _status(app)
        assert "saved status, name;" in status
        assert "NOT saved: external id (is already used by another account)" in status
        node = _node(app, 1112)
        assert node is not None and node.data is not None
        assert node.data.name == "Acme Español" and node.data.active is False
        assert node.data.external_account_id is None  # refused: not shown as saved
        assert screen.directory is not None and screen.directory.known[1112] is node.data


async def test_delete_asks_for_the_name_then_deletes(make_app: MakeApp) -> None:
    app = _app(make_app)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await _open(pilot, HARBOR)
        await _highlight(pilot, 1122)
        await pilot.press("d")
        await settle(pilot)
        modal = app.screen
        assert isinstance(modal, PromptModal)
        assert "configuration" in modal.body_text and "cannot be undone" in modal.body_text
        modal.query_one("#prompt-input", Input).value = "Harbor"
        await pilot.press("enter")
        await settle(pilot)
        assert app.screen is modal and _writes(app) == []  # not the name: nothing sent
        await pilot.press("escape")
        await settle(pilot)
        assert "Cancelled" in _status(app) and _writes(app) == []
        await pilot.press("d")
        await settle(pilot)
        app.screen.query_one("#prompt-input", Input).value = "Harbor Realty Rentals"
        await pilot.press("enter")
        await settle(pilot)
        [sent] = _writes(app)
        assert sent.method == "DELETE" and sent.query["targetOrganizationId"] == str(HARBOR)
        assert sent.body == {"targetAccountId": 1122}
        assert 1122 not in sim_of(app).accounts and _node(app, 1122) is None
        assert "Deleted Harbor Realty Rentals (#1122)" in _status(app)


async def test_an_organization_goes_at_once_and_the_question_names_what_goes_with_it(
    make_app: MakeApp,
) -> None:
    """The vendor: "Delete (immediately)", no conflict named. Its tree not opened, the
    question still counts and names its agent accounts (read first), then it goes with
    them in one request."""
    app = _app(make_app)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await _highlight(pilot, HARBOR)
        await pilot.press("d")
        await settle(pilot)
        modal = app.screen
        assert isinstance(modal, PromptModal) and _writes(app) == []
        body = modal.body_text
        assert "2 agent accounts (Harbor Realty Leads, Harbor Realty Rentals)" in body
        assert "at once" in body and "keys stop working" in body
        modal.query_one("#prompt-input", Input).value = "Harbor Realty"
        await pilot.press("enter")
        await settle(pilot)
        [sent] = _writes(app)
        assert sent.path.endswith("/deleteOrganization") and sent.body == {
            "targetOrganizationId": HARBOR}  # fmt: skip
        assert not {HARBOR, 1121, 1122} & set(sim_of(app).accounts)
        assert _node(app, HARBOR) is None and "Deleted Harbor Realty (#1120)" in _status(app)
        screen = shown(app, ScopeScreen)
        cursor = screen.account_tree.cursor_node
        assert cursor is not None and cursor.data is not None and cursor.data.id == RESELLER
        assert screen._detail_of is cursor.data  # the pane leaves the deleted account


async def test_delete_of_one_already_gone_takes_it_off_the_tree(make_app: MakeApp) -> None:
    app = _app(make_app)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await _open(pilot, HARBOR)
        await _highlight(pilot, 1121)
        del sim_of(app).accounts[1121]
        await pilot.press("d")
        await settle(pilot)
        app.screen.query_one("#prompt-input", Input).value = "Harbor Realty Leads"
        await pilot.press("enter")
        await settle(pilot)
        assert "already gone" in _status(app) and _node(app, 1121) is None


async def test_a_delete_whose_reply_is_lost_is_read_back_not_resent(make_app: MakeApp) -> None:
    app = _app(make_app)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await _open(pilot, HARBOR)
        await _highlight(pilot, 1121)
        sim_of(app).faults.set("truncated", path_contains="/deleteAccount", methods={"DELETE"})
        await pilot.press("d")
        await settle(pilot)
        app.screen.query_one("#prompt-input", Input).value = "Harbor Realty Leads"
        await pilot.press("enter")
        await settle(pilot)
        status = _status(app)
        assert "may have been made" in status and "Harbor Realty Leads is gone." in status
        assert len(_writes(app)) == 1
        assert _node(app, 1121) is None  # the organization's accounts read again


async def test_find_by_external_id_opens_the_tree_down_to_it(make_app: MakeApp) -> None:
    app = _app(make_app)
    sim_of(app).accounts[1122].external_account_id = "crm-1122"
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await pilot.press("i")
        await settle(pilot)
        app.screen.query_one("#prompt-input", Input).value = "crm-1122"
        await pilot.press("enter")
        await settle(pilot)
        screen = shown(app, ScopeScreen)
        cursor = screen.account_tree.cursor_node
        assert cursor is not None and cursor.data is not None and cursor.data.id == 1122
        assert "has the external id crm-1122" in _status(app)
        await pilot.press("i")
        await settle(pilot)
        app.screen.query_one("#prompt-input", Input).value = "nobody"
        await pilot.press("enter")
        await settle(pilot)
        assert "No account this key reaches has the external id nobody" in _status(app)


async def test_the_external_id_keys_are_not_offered_to_an_organization_key(
    make_app: MakeApp,
) -> None:
    """getAccountByExternalId is "Reseller/Partner only": i and O (which matches rows
    by it) are hidden from an organization's key and do nothing when pressed."""
    app = _app(make_app, token="demo-org")
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        enabled = {key for key, b in app.active_bindings.items() if b.enabled}
        assert "d" in enabled and not {"i", "O"} & enabled
        await pilot.press("i", "O")
        await settle(pilot)
        assert isinstance(app.screen, ScopeScreen)
        await app.run_action("app.show('onboard')")  # the palette still finds the screen
        await settle(pilot)
        assert isinstance(app.screen, OnboardScreen)
        assert "a reseller or partner key only" in str(app.screen.status.content)
        assert not {"c", "p", "A"} & {k for k, b in app.active_bindings.items() if b.enabled}
        assert not [r for r in sim_of(app).requests if "ExternalId" in r.path]


async def test_export_writes_the_tree_to_a_private_file(make_app: MakeApp, tmp_path: Any) -> None:
    app = _app(make_app)
    path = tmp_path / "tree.csv"
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await pilot.press("w")
        await settle(pilot)
        field = app.screen.query_one("#prompt-input", Input)
        assert field.value.startswith("accounts-") and field.value.endswith(".csv")
        field.value = str(path)
        await pilot.press("enter")
        await settle(pilot)
        assert path.stat().st_mode & 0o777 == 0o600
        lines = path.read_text(encoding="utf-8").splitlines()
        # 1100 and below, and the members of 1100 and 1110
        assert lines[0].startswith("id,name,type") and len(lines) == 1 + 9 + 3
        assert f"9 accounts and 3 members written to {path}" in _status(app)
        await pilot.press("w")
        await settle(pilot)
        app.screen.query_one("#prompt-input", Input).value = str(tmp_path)  # a folder
        await pilot.press("enter")
        await settle(pilot)
        assert "Export failed" in _status(app)
        assert _writes(app) == []  # a local file: nothing sent


async def test_a_long_form_error_wraps_in_the_dialog(make_app: MakeApp) -> None:
    """The form's error line (a refusal, an unknown outcome read back) wraps: a Label as
    wide as its text was cut at the dialog's frame."""
    app = _app(make_app)
    async with app.run_test(size=(80, 24)) as pilot:
        form = await _new_organization_form(pilot)
        said = "✗ " + "the platform said something long " * 6 + "THE END"
        form.set_form_error(said)
        await settle(pilot)
        error = form.query_one("#form-error", Label)
        frame = form.query_one(Vertical)  # the dialog's frame
        assert error.size.height >= 3
        assert error.region.right <= frame.region.right


async def test_a_fields_error_goes_once_its_value_is_changed(make_app: MakeApp) -> None:
    """An error under a field is said of what was typed: changing it takes the error
    away (the next check says it again if it still holds); not changing it keeps it."""
    app = _app(make_app)
    async with app.run_test(size=(120, 40)) as pilot:
        form = await _new_organization_form(pilot)
        form.query_one("#form-org-name", Input).value = "Orbit Clinic"
        email = form.query_one("#form-email", Input)
        email.value = "not an email"
        form.submit()  # the value set just before: its change event comes after the check
        await settle(pilot)
        field = form.query_one("#field-email", FormField)
        assert "not an email address" in field.error
        email.focus()
        await pilot.press("end", "x")
        await settle(pilot)
        assert field.error == "" and email.value == "not an emailx"
        form.submit()
        await settle(pilot)
        assert "not an email address" in field.error and _writes(app) == []
