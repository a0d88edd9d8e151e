"""Computer Agents: workflow recordings (slot from a browser session) and workspace uploads.

Every Computer endpoint takes the Computer Agent account in its path; the account is
picked from those the key reaches under the current target (the acting account first
when it is one). The two panes own their forms and requests
(`vagent_tui.ui.widgets.computer_recording`, `vagent_tui.ui.widgets.computer_upload`);
the screen owns the account, the keys and the local file tree.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import ClassVar

from textual import on, work
from textual.binding import BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.widget import Widget
from textual.widgets import Button, DataTable, DirectoryTree, Input, Label, Select

from vagent_tui.api.models import ComputerAccount
from vagent_tui.services.agents import computer_accounts_for
from vagent_tui.ui.caps import ROW_CAP
from vagent_tui.ui.css import stylesheet
from vagent_tui.ui.safety import READS, WRITES, Does, Key
from vagent_tui.ui.screens.base import BaseScreen
from vagent_tui.ui.text import safe
from vagent_tui.ui.widgets.computer_recording import RecordingPane
from vagent_tui.ui.widgets.computer_upload import UploadPane
from vagent_tui.ui.widgets.table_filter import filter_binding
from vagent_tui.words import counted

TREE_ROOT: Path | None = None
"""Where the file tree starts; None is the current working directory (tests pin it)."""


def _b(key: str, action: str, text: str, tip: str, *, show: bool = True, does: Does = READS) -> Key:
    return Key(key, action, text, show=show, id=f"computer.{action}", tooltip=tip, does=does)


class ComputerScreen(BaseScreen):
    """Recording on the left, workspace upload on the right (stacked when narrow)."""

    HORIZONTAL_BREAKPOINTS = [(0, "-narrow"), (110, "-wide")]
    BINDINGS: ClassVar[list[BindingType]] = [
        _b("s", "start", "Start", "Start a workflow recording on the slot", does=WRITES),
        _b("x", "stop", "Stop", "Stop the active workflow recording", does=WRITES),
        _b(
            "b",
            "browser_session",
            "Browser",
            "Open a browser automation session for a slot",
            does=WRITES,
        ),
        _b("t", "status", "Status", "Refresh the recording status"),
        _b("f", "toggle_tree", "Pick file", "Show or hide the local file tree"),
        _b("u", "upload", "Upload", "Upload the picked file into the workspace", does=WRITES),
        _b("i", "focus_account", "Account", "Choose the Computer Agent account", show=False),
        _b("y", "copy_cdp", "Copy CDP URL", "Copy the browser session's CDP URL", show=False),
        _b("escape", "leave", "Leave field", "Close the file tree / leave the field", show=False),
        filter_binding("computer"),  # last: the footer drops it first
    ]
    # Its rules are default rules (the widgets' and app.tcss win over them): as CSS_PATH
    # they would win and the screen would look different. The one screen left so; see
    # tests/unit/ui/test_screen_rules.py.
    DEFAULT_CSS = stylesheet(__file__)

    def __init__(self, *, tree_root: Path | None = None) -> None:
        super().__init__()
        self.tree_root = tree_root
        self.accounts: list[ComputerAccount] = []
        self._loaded_account: int | None = None

    # ------------------------------------------------------------------ layout

    def compose_body(self) -> Iterable[Widget]:
        with Horizontal(id="computer-top"):
            yield Label("Computer Agent")
            yield Select[int]([], prompt="none loaded", id="computer-account", compact=True)
        with VerticalScroll(id="computer-body", can_focus=False):
            yield RecordingPane()
            yield UploadPane()
        with Vertical(id="computer-picker"):
            yield Label("Pick a file to upload: Enter picks, f or Esc closes", classes="pane-title")

    @property
    def recording_pane(self) -> RecordingPane:
        return self.query_one(RecordingPane)

    @property
    def upload_pane(self) -> UploadPane:
        return self.query_one(UploadPane)

    def on_mount(self) -> None:
        self.query_one("#computer-account", Select).focus()

    def on_resize(self) -> None:
        self.call_after_refresh(self.recording_pane.show_recording)

    def on_screen_suspend(self) -> None:
        self.recording_pane.stop_polling()

    def on_screen_resume(self) -> None:
        self.recording_pane.resume_polling()

    # ------------------------------------------------------------------ accounts

    @property
    def account_id(self) -> int | None:
        value = self.query_one("#computer-account", Select).value
        return value if isinstance(value, int) else None

    def reload(self) -> None:
        self.load_accounts()

    @work(exclusive=True, group="computer-accounts", exit_on_error=False)
    async def load_accounts(self) -> None:
        ok, choice = await self.load(
            lambda c: computer_accounts_for(c.api, c.target_id, agent_selected=c.is_agent_selected),
            note="Loading Computer Agent accounts",
        )
        if not ok or choice is None:
            return
        # One entry per id: a list that names an account twice must not count it twice.
        by_id: dict[int, ComputerAccount] = {}
        for account in choice.accounts:
            if account.id is not None:
                by_id.setdefault(account.id, account)
        self.accounts = list(by_id.values())[:ROW_CAP]
        by_id = {a.id: a for a in self.accounts if a.id is not None}
        ids = [a.id for a in self.accounts]
        current, acting = self.account_id, self.connection.acting_id
        choose = acting if acting in ids else current if current in ids else None
        if choose is None and ids:
            choose = ids[0]
        select: Select[int] = self.query_one("#computer-account", Select)
        with select.prevent(Select.Changed):
            select.set_options(
                (safe(f"{a.name or a.username} (#{i})"), i) for i, a in by_id.items()
            )
            if choose is not None:
                select.value = choose
        if not ids:
            self.status.info(
                "No Computer Agent account within reach of the acting account: select an "
                "organization or a Computer Agent on the Scope screen (1)."
            )
        elif choice.delegate_of is not None:
            self.status.ok(f"The Computer Agent that agent #{choice.delegate_of} delegates to")
        else:
            n = len(ids)
            self.status.ok(f"{counted(n, 'Computer Agent account')} within reach")
        self._account_changed(force=True)

    @on(Select.Changed, "#computer-account")
    def _account_selected(self, event: Select.Changed) -> None:
        event.stop()
        self._account_changed()

    def _account_changed(self, *, force: bool = False) -> None:
        account = self.account_id
        if account == self._loaded_account and not force:
            return
        self._loaded_account = account
        self.recording_pane.account_changed(account)
        self.upload_pane.account_changed(account)

    def _need_account(self) -> int | None:
        account = self.account_id
        if account is None:
            self.status.error("No Computer Agent account selected", retry_key=None)
        return account

    # ------------------------------------------------------------------ actions

    def action_start(self) -> None:
        if (account := self._need_account()) is not None:
            self.recording_pane.start(account)

    def action_stop(self) -> None:
        if (account := self._need_account()) is not None:
            self.recording_pane.stop_recording(account)

    def action_browser_session(self) -> None:
        if (account := self._need_account()) is not None:
            self.recording_pane.open_session(account)

    def action_status(self) -> None:
        if self._need_account() is not None:
            self.recording_pane.load_status()

    def action_upload(self) -> None:
        if (account := self._need_account()) is not None:
            self.upload_pane.submit(account)

    def action_copy_cdp(self) -> None:
        browser = self.recording_pane.browser
        if browser is None or not browser.cdp_url:
            self.notify("No browser session opened yet", severity="warning")
            return
        self.vapp.copy_text(browser.cdp_url, "CDP URL")

    def action_focus_account(self) -> None:
        self.query_one("#computer-account", Select).focus()

    def action_leave(self) -> None:
        if self.has_class("-picking"):
            self.close_tree()
        else:
            self.query_one("#computer-files", DataTable).focus()

    # ------------------------------------------------------------------ file tree

    def action_toggle_tree(self) -> None:
        if self.has_class("-picking"):
            self.close_tree()
            return
        self.add_class("-picking")
        trees = self.query("#computer-tree")
        if trees:
            trees.first().focus()
            return
        tree = DirectoryTree(self.tree_root or TREE_ROOT or Path.cwd(), id="computer-tree")
        self.query_one("#computer-picker", Vertical).mount(tree)
        tree.focus()

    def close_tree(self, *, refocus: bool = True) -> None:
        if self.has_class("-picking"):
            self.remove_class("-picking")
            if refocus:
                self.query_one("#computer-pick", Button).focus()

    def on_upload_pane_file_chosen(self, event: UploadPane.FileChosen) -> None:
        event.stop()
        self.close_tree(refocus=False)  # the pane has put the focus on the remote path

    @on(DirectoryTree.FileSelected, "#computer-tree")
    def _file_selected(self, event: DirectoryTree.FileSelected) -> None:
        event.stop()
        self.upload_pane.pick_file(Path(event.path))

    # ------------------------------------------------------------------ buttons, Enter

    _BUTTONS: ClassVar[dict[str, str]] = {
        "computer-start": "start",
        "computer-stop": "stop",
        "computer-open-session": "browser_session",
        "computer-refresh-status": "status",
        "computer-pick": "toggle_tree",
        "computer-upload": "upload",
    }
    _ENTER: ClassVar[dict[str, str]] = {
        "computer-slot": "start",
        "computer-ttl": "browser_session",
        "computer-path": "upload",
        "computer-mode": "upload",
    }

    @on(Button.Pressed)
    async def _button(self, event: Button.Pressed) -> None:
        if action := self._BUTTONS.get(event.button.id or ""):
            event.stop()
            await self.run_action(action)

    @on(Input.Submitted)
    async def _submitted(self, event: Input.Submitted) -> None:
        if action := self._ENTER.get(event.input.id or ""):
            event.stop()
            await self.run_action(action)
