"""Keys typed ahead land where one key at a time would put them, in every form (issue 38).

Every form of the console is typed twice in the same app: one key at a time, looking at
the focus before each field as a person does (the value, Tab, the next value...), then as
one burst posted to the app with no pause (a fast typist, a paste as keys, a password
manager's auto-type, a script over tmux), the key that opens the form first. Both must
leave the same values in the same fields, and where the form sends something, the same
request at the simulator (which refuses it, so that the second typing meets the same
platform as the first).

The forms are found, not listed. On every registered screen, every key the screen binds
(its own ``BINDINGS``, the convention's moves aside), Tab and, once, the app's own keys
are pressed; what shows an editable text field after a key is a form. `REACH` says for a
few screens from which states to look (a node of each level highlighted, a tab shown).
Each case checks it found the forms `FORMS` says, and
`test_every_form_of_the_package_is_typed_by_a_case` fails when a screen class of the
package builds a text field (a scan of the source) that no case types: a new form, or one
no key reaches.
"""

from __future__ import annotations

import ast
import asyncio
import importlib
import inspect
import pkgutil
import re
import unicodedata
from collections.abc import Awaitable, Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from textual import events
from textual.keys import KEY_NAME_REPLACEMENTS, key_to_character
from textual.pilot import Pilot
from textual.screen import ModalScreen, Screen
from textual.widget import Widget
from textual.widgets import Button, Input, TabbedContent, TextArea

import vagent_tui.ui
from tests.helpers import MakeApp, settle, sim_of, wait_for
from vagent_tui.sim.common import SimError
from vagent_tui.sim.endpoint import Ctx
from vagent_tui.ui import typeahead
from vagent_tui.ui.convention import action_name
from vagent_tui.ui.dialogs import ConfirmModal, ReviewModal
from vagent_tui.ui.fields import is_text_field
from vagent_tui.ui.registry import SCREENS
from vagent_tui.ui.safety import does_of
from vagent_tui.ui.screens.base import BaseScreen
from vagent_tui.ui.screens.paging import PagedScreen
from vagent_tui.ui.widgets.form import FormField

AGENT = 1111
"""A voice agent account of the demo (Acme Dental Front Desk): the target of the screens
that act on one."""

MOVES = frozenset(
    {"cursor_down", "cursor_up", "cursor_left", "cursor_right", "first", "last", "page_up",
     "page_down", "scroll_home", "scroll_end", "scroll_left", "scroll_right", "escape",
     "leave", "leave_field", "close", "cancel", "stop", "quit"}
)  # fmt: skip
"""Actions of keys that move, leave or stop: they open nothing, so they are not tried."""

CONVENTION_OWNERS = (BaseScreen, PagedScreen)
"""Classes whose bindings are the convention's moves (reload, j/k, pages): not tried."""


# --------------------------------------------------------------------------- states

State = Callable[[Pilot[Any]], Awaitable[None]]
"""Sets a state of the screen on show; set again after each key tried (a key may have
changed it), so it costs nothing when the state is there."""


async def as_loaded(pilot: Pilot[Any]) -> None:
    """The screen as it opens."""


def tab_shown(tab: str) -> State:
    """The tab ``tab`` of the screen's tabs shown (the focus goes where the screen puts it)."""

    async def show(pilot: Pilot[Any]) -> None:
        tabs = pilot.app.screen.query_one(TabbedContent)
        if tabs.active != tab:
            tabs.active = tab
            await settle(pilot)

    return show


def tree_at(account_id: int) -> State:
    """Scope with the node of ``account_id`` highlighted (its parents opened)."""

    async def highlight(pilot: Pilot[Any]) -> None:
        from vagent_tui.ui.screens.scope import ScopeScreen

        screen = pilot.app.screen
        assert isinstance(screen, ScopeScreen)
        tree = screen.account_tree
        cursor = tree.cursor_node
        if cursor is not None and cursor.data is not None and cursor.data.id == account_id:
            # Already there (the key owner, at start): its detail may still be loading on
            # a loaded machine, past the usual settle's bound; a Tab typed before it is
            # drawn goes where the drawn detail would not have sent it.
            await settle(pilot, rounds=400)
            return
        for _ in range(4):
            node = next((n for n in _nodes(tree.root) if n.data and n.data.id == account_id), None)
            if node is not None:
                tree.move_cursor(node)
                tree.focus()
                await settle(pilot)
                return
            for closed in [n for n in _nodes(tree.root) if n.allow_expand and not n.is_expanded]:
                closed.expand()
            await settle(pilot)
        raise AssertionError(f"account {account_id} is not in the tree")

    return highlight


def acting_as(account_id: int) -> State:
    """The console acting as ``account_id`` (the target switched, the screen shown again)."""

    async def act(pilot: Pilot[Any]) -> None:
        from vagent_tui.ui.app import VagentApp

        app = pilot.app
        assert isinstance(app, VagentApp)
        if app.connection.acting_id != account_id:
            app.select_target(account_id)
            await wait_for(pilot, lambda: app.connection.acting_id == account_id)
            await settle(pilot)

    return act


async def pending_task(pilot: Pilot[Any]) -> None:
    """Tasks with a pending task highlighted (only a pending task is edited): one is
    queued for an hour from now when the page holds none."""
    import time

    from vagent_tui.sim import outbound
    from vagent_tui.ui.screens.tasks import TasksScreen

    screen = pilot.app.screen
    assert isinstance(screen, TasksScreen)
    table = screen.table
    cursor = table.cursor_row
    if 0 <= cursor < len(table.records) and table.records[cursor].pending:
        return
    if not any(task.pending for task in table.records):
        sim = sim_of(pilot.app)
        item = {"target": "+15551230002", "scheduledFor": int(time.time()) + 3600}
        outbound.queue(sim, sim.accounts[AGENT], [{**item, "greeting": "Hi"}], "call")
        await pilot.press("r")
        await wait_for(pilot, lambda: any(task.pending for task in table.records))
    row = next(i for i, task in enumerate(table.records) if task.pending)
    table.move_cursor(row=row)
    table.focus()
    await settle(pilot)


async def a_call(pilot: Pilot[Any]) -> None:
    """Calls with a call highlighted (a text message has no SIP capture: ``S`` opens its
    form on a call only). Which entry is on top depends on the hour the test runs."""
    from vagent_tui.ui.screens.calls import CallsScreen

    screen = pilot.app.screen
    assert isinstance(screen, CallsScreen)
    table = screen.table
    await wait_for(pilot, lambda: bool(table.records))
    cursor = table.cursor_row
    if 0 <= cursor < len(table.records) and table.records[cursor].sip_call_id:
        return
    table.move_cursor(row=next(i for i, e in enumerate(table.records) if e.sip_call_id))
    table.focus()
    await settle(pilot)


def _nodes(node: Any) -> Iterator[Any]:
    yield node
    for child in node.children:
        yield from _nodes(child)


@dataclass(frozen=True)
class Reach:
    """How a screen is opened for its forms: the app's key and target, and the states to
    look from (each a name and a hook that sets it)."""

    token: str = "demo-partner"
    account: int | None = AGENT
    states: tuple[tuple[str, State], ...] = (("", as_loaded),)
    submit: bool = True
    """Submit the forms typed (False: submitting leaves the test's world)."""


REACH: dict[str, Reach] = {
    # A node of each level with one below: `a` creates the level below it, `e` edits an
    # organization (an agent account's form is the same), `d` deletes.
    "scope": Reach(
        account=None,
        states=(
            ("partner", tree_at(1000)),
            ("reseller", tree_at(1100)),
            ("organization", tree_at(1110)),
        ),
    ),
    "agent": Reach(
        states=(("config", tab_shown("tab-config")), ("versions", tab_shown("tab-versions")))
    ),
    "sip": Reach(
        states=(
            ("whitelist", tab_shown("tab-whitelist")),
            ("routes", tab_shown("tab-routes")),
            ("registration", tab_shown("tab-registration")),
        )
    ),
    "webhooks": Reach(
        states=(
            ("destinations", tab_shown("tab-destinations")),
            ("relays", tab_shown("tab-relays")),
        )
    ),
    "computer": Reach(account=1118),  # the Computer Agent account
    "tasks": Reach(states=(("pending", pending_task),)),
    "calls": Reach(states=(("a call", a_call),)),
    # A billing system is a reseller's or partner's, a billing period an organization's.
    "billing": Reach(states=(("partner", acting_as(1000)), ("organization", acting_as(1110)))),
}
LATENCY_MS = 20
"""The simulator answers after this long, as a platform does: a form that opens after a
read opens after the keys typed behind its key were read."""
FIRST_RUN = "first-run"
"""The console started without a profile: the setup screen. Saving would connect to the
URL typed, so it is typed, not submitted."""
CASES = [*(info.name for info in SCREENS), FIRST_RUN]

FORMS: dict[str, frozenset[str]] = {
    case: frozenset(names.split())
    for case, names in {
        "scope": "ScopeScreen NewAccountForm AccountEditForm PromptModal ConsolePalette",
        "agent": "SettingsScreen CallTestModal PromptModal ReviewModal MessageInForm "
        "OwnDetailsForm",
        "voices": "VoicesScreen",
        "functions": "FunctionsScreen EditorModal",
        "inbox": "InboxScreen",
        "migrations": "MigrationsScreen",
        "tokens": "TokensScreen TokenForm",
        "sip": "SipScreen SipEntryForm SipRouteForm SipRegistrationForm",
        "webhooks": "WebhooksScreen WebhookForm RelayForm",
        "members": "MembersScreen MemberInviteForm MemberEditForm OneTimeLoginForm",
        "computer": "ComputerScreen",
        "calls": "CallsScreen CallFiltersModal CallExportModal CaptureModal EditorModal",
        "tasks": "TasksScreen TaskForm TaskLimitsForm TaskEditForm PromptModal",
        "billing": "BillingScreen BillingPeriodForm BillingSystemForm",
        "integrations": "IntegrationsScreen PromptModal",
        "usage": "UsageScreen PromptModal",
        "numbering": "NumberingScreen ProviderForm",
        "numbers": "NumbersScreen PromptModal",
        "journal": "JournalScreen",
        "fleet": "FleetScreen PromptModal",
        "rollout": "RolloutScreen RolloutForm",
        "onboard": "PromptModal",
        FIRST_RUN: "SetupScreen",
    }.items()
}
"""The classes of the forms each case finds (a screen's own fields: the screen). Checked
both ways: a case that finds another set fails (a form no key opens any more, or a new
one: add it here), and `test_every_form_of_the_package_is_typed_by_a_case` fails when a
screen class of the package that builds a text field is in no case's set."""


# --------------------------------------------------------------------------- keys


def _char_key(char: str) -> str:
    """The key name a terminal gives a typed character (as Textual's pilot does)."""
    if char.isalnum():
        return char
    name = unicodedata.name(char).lower().replace("-", "_").replace(" ", "_")
    return KEY_NAME_REPLACEMENTS.get(name, name)


_CHAR_NAMES = {key: name for name, key in KEY_NAME_REPLACEMENTS.items()}


def key_event(key: str) -> events.Key:
    """A key as the terminal sends it: a name (``tab``, ``slash``, ``a``) or a character."""
    if len(key) == 1:
        return events.Key(_char_key(key), key)
    char = key_to_character(key)
    if char is None and "+" not in key:
        try:
            char = unicodedata.lookup(_CHAR_NAMES.get(key, key).replace("_", " "))
        except KeyError:
            char = None
    return events.Key(key, char)


def post_burst(app: Any, keys: list[str]) -> None:
    """``keys`` posted to the app in one go: no frame, no pause between them."""
    for key in keys:
        app.post_message(key_event(key))


def opening_keys(
    screen: Screen[Any], app: Any, *, first_state: bool, with_app_keys: bool
) -> list[str]:
    """The keys to try on ``screen``: Tab (into the screen's own fields) and those the
    screen's classes of the package bind, but the convention's moves; from the first state
    all of them, from the next ones those that write (`vagent_tui.ui.safety.Key`: a form
    that depends on what is highlighted is a form that writes; the others were tried). With
    ``with_app_keys``, the app's keys too (`:`, ``?``...), but the screen keys."""
    keys = ["tab"] if first_state else []
    owners = [
        c
        for c in type(screen).__mro__
        if c.__module__.startswith("vagent_tui.") and c not in CONVENTION_OWNERS
    ]
    bindings = [b for c in owners for b in c.__dict__.get("BINDINGS", ())]
    if not first_state:
        bindings = [b for b in bindings if does_of(b).writes]
    if with_app_keys:
        bindings += [b for b in type(app).BINDINGS if not (b.id or "").startswith("goto.")]
    for binding in bindings:
        if action_name(binding.action) in MOVES:
            continue
        for key in binding.key.split(","):
            if key.strip() not in keys:
                keys.append(key.strip())
    return keys


# --------------------------------------------------------------------------- fields


def editable(widget: Widget | None) -> bool:
    return (
        widget is not None
        and is_text_field(widget)
        and not getattr(widget, "read_only", False)
        and not widget.disabled
    )


def text_of(widget: Widget) -> str:
    return widget.text if isinstance(widget, TextArea) else widget.value  # type: ignore[attr-defined]


def set_text(widget: Widget, text: str) -> None:
    if isinstance(widget, TextArea):
        widget.text = text
    else:
        assert isinstance(widget, Input)
        widget.value = text


def name_of(widget: Widget, index: int) -> str:
    return widget.id or f"{type(widget).__name__}#{index}"


_DIGITS = frozenset({"port", "timeout", "rotation", "slot", "ttl", "in", "cooldown",
                     "concurrency", "daily", "minutes", "seconds"})  # fmt: skip


def value_for(widget: Widget, n: int, files: Path) -> str:
    """A value of the field's kind, told by its id, its form field's name, its type or
    its placeholder (valid where the kind is known, so that the form can be sent)."""
    form_field = next((a for a in widget.ancestors if isinstance(a, FormField)), None)
    placeholder = getattr(widget, "placeholder", "") or ""
    words = set(re.split(r"[^a-z]+", f"{widget.id} {form_field and form_field.name}".lower()))
    if getattr(widget, "type", "") in ("integer", "number") or getattr(widget, "restrict", None):
        return str(10 + n)
    if "ids" in words:
        return str(AGENT)  # an agent account below the organization the forms are for
    if "email" in words:
        return f"zeta{n}@zeta.example"
    if words & {"url", "redirect"}:
        return f"https://zeta{n}.example/in"
    if "ip" in words:
        return f"203.0.113.{10 + n}"
    if words & {"target", "number", "phone"}:
        return f"+1555010{n:04d}"
    if words & {"path", "file"}:
        return str(files / f"zeta-{n}.csv")
    if "host" in words:
        return f"files{n}.zeta.example"
    if "mode" in words:
        return "0644"
    if "timezone" in words:
        return "Europe/Paris"
    if "days" in words:
        return "1-5"
    if "codes" in words:
        return "200, 202"
    if re.fullmatch(r"\d\d:\d\d", placeholder):
        return f"0{n % 10}:30"
    if placeholder == "YYYY-MM-DD":
        return f"2025-11-{10 + n}"
    if words & _DIGITS or placeholder.isdecimal():
        return str(10 + n)
    return f"Z {n}"


# --------------------------------------------------------------------------- one form


@dataclass
class Typed:
    """One form typed both ways."""

    where: str
    form: type[Screen[Any]]
    typed: list[str]
    """The text typed into each field, in the order typed."""
    slow: list[tuple[str, str]] = field(default_factory=list)
    burst: list[tuple[str, str]] = field(default_factory=list)
    slow_sent: list[tuple[str, str, Any]] = field(default_factory=list)
    burst_sent: list[tuple[str, str, Any]] = field(default_factory=list)

    def wrong(self) -> str:
        """What differs ("" when nothing does)."""
        if self.slow != self.burst:
            return f"{self.where}: typed at once {self.burst}, one key at a time {self.slow}"
        if self.slow_sent != self.burst_sent:
            return f"{self.where}: sent {self.burst_sent} at once, {self.slow_sent} slowly"
        return ""


class Refusing:
    """While on, the simulator logs each write's body and refuses it (409): a form is
    sent as typed, and the platform is the same for the next typing."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.on = False
        refusing = self
        real_json, real_form = Ctx.json, Ctx.form

        async def json(ctx: Ctx, *, required: bool = True) -> dict[str, Any]:
            body = await real_json(ctx, required=required)
            refusing.refuse(ctx)
            return body

        async def form(ctx: Ctx) -> Any:
            body = await real_form(ctx)
            refusing.refuse(ctx)
            return body

        monkeypatch.setattr(Ctx, "json", json)
        monkeypatch.setattr(Ctx, "form", form)

    def refuse(self, ctx: Ctx) -> None:
        if self.on and ctx.request.method != "GET":
            raise SimError(409, "Refused by the test")


async def handled(app: Any) -> None:
    """Every key posted so far handled, and what it started on its way (the app hands a key
    to the focus, a Tab's focus and blur): each round waits until the app, the screen on
    show and every widget from it to the focus have handled what they were sent before it
    (no key held by the gate). Not the whole screen: a form of forty fields has hundreds
    of widgets, and nothing a key does travels outside that line."""
    for _ in range(3):
        for _ in range(10_000):
            if not app.key_gate.holding:
                break
            await asyncio.sleep(0.001)
        focused = app.focused
        nodes = {app, app.screen, *(focused.ancestors_with_self if focused is not None else ())}
        marks: list[asyncio.Event] = []
        for node in nodes:
            mark = asyncio.Event()
            if node.call_later(mark.set):
                marks.append(mark)
        waits = [asyncio.ensure_future(mark.wait()) for mark in marks]
        # a node removed meanwhile never runs its callback: what it held is gone with it
        _, pending = await asyncio.wait(waits, timeout=5)
        for wait in pending:
            wait.cancel()


@dataclass
class Run:
    """One app: the screen's forms typed from each of its states."""

    pilot: Pilot[Any]
    files: Path
    refusing: Refusing
    submit: bool
    found: list[Typed] = field(default_factory=list)
    leaving: set[str] = field(default_factory=set)
    """Keys that went to another screen: not tried again from the next states."""
    state: State = as_loaded
    """The state the forms are opened from (set again after each key)."""

    @property
    def app(self) -> Any:
        return self.pilot.app

    async def every_form(self, name: str, states: tuple[tuple[str, State], ...]) -> list[Typed]:
        app = self.app
        await settle(self.pilot)
        seen: set[tuple[type[Any], tuple[str, ...]]] = set()
        for index, (label, state) in enumerate(states):
            self.state = state
            await state(self.pilot)
            where = f"{name}[{label}]" if label else name
            base, home, mode = app.screen, app.focused, app.current_mode
            keys: list[str | None] = [None] if editable(home) else []
            keys += opening_keys(
                base, app, first_state=index == 0, with_app_keys=name == "scope" and index == 0
            )
            for key in keys:
                if key in self.leaving:
                    continue
                typed = await self.one_form(where, key, base, home, mode, seen)
                if typed is not None:
                    self.found.append(typed)
        return self.found

    async def one_form(
        self,
        where: str,
        key: str | None,
        base: Screen[Any],
        home: Widget | None,
        mode: str,
        seen: set[tuple[type[Any], tuple[str, ...]]],
    ) -> Typed | None:
        app, pilot = self.app, self.pilot
        if key is not None:
            app.post_message(key_event(key))
            await handled(app)
            await settle(pilot)
        if app.current_mode != mode and key is not None:
            self.leaving.add(key)
        screen = app.screen
        focused = app.focused
        opened = app.current_mode == mode and (
            screen is not base or (editable(focused) and (key is None or focused is not home))
        )
        fields = [w for w in screen.focus_chain if editable(w)] if opened else []
        if not fields or (screen is base and not editable(focused)):
            await self.back(base, home, mode, {})
            return None
        identity = (type(screen), tuple(name_of(w, i) for i, w in enumerate(fields)))
        if identity in seen:
            await self.back(base, home, mode, {})
            return None
        seen.add(identity)
        initial = {w: text_of(w) for w in fields} if screen is base else {}
        typed = Typed(f"{where} {key or '(focused)'}", type(screen), [])

        # One key at a time, each handled before the next: look where the focus is,
        # type the field's value, Tab.
        plan: list[str] = []
        visited: list[Widget] = []
        remaining = list(fields)
        while remaining:
            widget = app.focused
            if widget is None or widget in visited or widget.screen is not screen:
                break
            visited.append(widget)
            if editable(widget):
                text = value_for(widget, len(typed.typed) + 1, self.files)
                typed.typed.append(text)
                for char in text:
                    app.post_message(key_event(char))
                    await handled(app)
                plan += list(text)
                if widget in remaining:
                    remaining.remove(widget)
            app.post_message(key_event("tab"))
            plan.append("tab")
            await handled(app)
        done = [w for w in visited if editable(w)]
        assert done, f"{typed.where}: no field took a key"
        typed.slow = self.values(done)
        for (_, value), text in zip(typed.slow, typed.typed, strict=True):
            assert text in value, f"{typed.where}: {text!r} typed, {value!r} in the field"
        places = [fields.index(w) if w in fields else -1 for w in done]
        typed.slow_sent = await self.send(screen, done[0])
        await self.back(base, home, mode, initial)

        # At once: the opening key and every key typed above, in one burst.
        post_burst(app, ([key] if key is not None else []) + plan)
        await self.all_handled()
        again = app.screen
        if again is base:
            same = done
        else:
            chain = [w for w in again.focus_chain if editable(w)]
            same = [chain[i] for i in places if 0 <= i < len(chain)]
        typed.burst = self.values(same) if type(again) is typed.form else []
        if typed.slow_sent and typed.slow == typed.burst:
            typed.burst_sent = await self.send(again, same[0])
        else:
            # Nothing sent (a filter, a prompt that reads), or the values say what is wrong.
            typed.burst_sent = typed.slow_sent
        await self.back(base, home, mode, initial)
        return typed

    async def all_handled(self) -> None:
        """Every key posted was handled: read by the app (handled or held), every key held
        handed on, and the last one handled too."""
        app, pilot = self.app, self.pilot
        await handled(app)
        await wait_for(pilot, lambda: not app.key_gate.holding, seconds=60)
        await handled(app)
        await settle(pilot)

    @staticmethod
    def values(fields: list[Widget]) -> list[tuple[str, str]]:
        return [(name_of(w, i), text_of(w)) for i, w in enumerate(fields)]

    async def send(self, screen: Screen[Any], first: Widget) -> list[tuple[str, str, Any]]:
        """Submit the form on show (its save key, else Enter in its first field; a screen
        of the console's own fields only with a save key), answering its questions yes.
        The writes the simulator received, each refused."""
        app, pilot = self.app, self.pilot
        save = next(
            (
                b.key.split(",")[0]
                for c in type(screen).__mro__
                for b in c.__dict__.get("BINDINGS", ())
                if action_name(b.action) == "save"
            ),
            None,
        )
        own = type(screen).__module__.startswith("vagent_tui.")
        if not self.submit or not own or (save is None and not isinstance(screen, ModalScreen)):
            return []
        sim = sim_of(app)
        before = len(sim.requests)
        self.refusing.on = True
        try:
            if save is not None:
                await pilot.press(save)
            else:
                first.focus()
                await pilot.press("enter")
            await settle(pilot)
            for _ in range(3):
                question = app.screen
                if not isinstance(question, ConfirmModal | ReviewModal):
                    break
                if isinstance(question, ReviewModal) and question.expected is not None:
                    question.query_one("#review-word", Input).value = question.expected
                question.query_one("#confirm", Button).press()
                await settle(pilot)
        finally:
            self.refusing.on = False
        return [(r.method, r.path, r.body) for r in sim.requests[before:] if r.method != "GET"]

    async def back(
        self, base: Screen[Any], home: Widget | None, mode: str, initial: dict[Widget, str]
    ) -> None:
        """Back to the state the form was opened from: dialogs closed (edits discarded),
        the screen's own fields as they were, the focus where it was."""
        app, pilot = self.app, self.pilot
        for _ in range(8):
            if app.current_mode != mode:
                await app.switch_mode(mode)
            elif app.screen is not base:
                shown = app.screen
                await pilot.press("escape")
                await settle(pilot)
                if isinstance(app.screen, ConfirmModal) and not isinstance(shown, ConfirmModal):
                    app.screen.query_one("#confirm", Button).press()  # discard the edits
                elif app.screen is shown:
                    app.pop_screen()
            else:
                break
            await settle(pilot)
        assert app.screen is base, f"{app.screen} left on show"
        await self.state(pilot)
        if not initial and app.focused is home:
            return
        for widget, text in initial.items():
            set_text(widget, text)
        if home is not None and home.is_attached:
            home.focus()
            # focus() takes effect when the app gets to it: on a loaded machine a key sent
            # next could still find the field typed last focused (tasks' "/" once did).
            await wait_for(pilot, lambda: app.focused is home)
        else:
            app.set_focus(None)
        await settle(pilot)


# --------------------------------------------------------------------------- the cases


async def type_the_forms(
    case: str,
    make_app: MakeApp,
    files: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> list[Typed]:
    from vagent_tui.ui.app import VagentApp

    # The console here always settles: give it what a loaded machine needs. The limits
    # guard against a console that never does (tests/unit/ui/test_typeahead.py).
    monkeypatch.setattr(typeahead, "HOLD_LIMIT", 30.0)
    monkeypatch.setattr(typeahead, "LOAD_LIMIT", 30.0)
    reach = REACH.get(case, Reach())
    if case == FIRST_RUN:
        app: VagentApp = VagentApp(None)
        reach = Reach(submit=False)
    else:
        app = make_app(case, token=reach.token, account=reach.account, latency_ms=LATENCY_MS)
    run: Run | None = None
    async with app.run_test(size=(120, 40)) as pilot:
        run = Run(pilot, files, Refusing(monkeypatch), reach.submit)
        await run.every_form(case, reach.states)
    assert run is not None
    return run.found


@pytest.mark.parametrize("case", CASES)
async def test_typed_at_once_as_one_key_at_a_time(
    case: str, make_app: MakeApp, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    found = await type_the_forms(case, make_app, tmp_path, monkeypatch)
    wrong = [t.wrong() for t in found if t.wrong()]
    assert not wrong, "\n".join(wrong)
    assert {t.form.__name__ for t in found} == FORMS[case]


async def test_the_issues_form_and_without_the_gate_the_wrong_fields(
    make_app: MakeApp, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 38's steps: ``a`` on Bluebird Telecom at the reseller's key, then its fields
    at once. With the gate the values are those typed one key at a time; without it
    (`vagent_tui.ui.typeahead`'s fault) the same typing finds them in the wrong fields:
    what makes the test above able to fail."""
    app = make_app("scope", token="demo-reseller", latency_ms=LATENCY_MS)
    async with app.run_test(size=(120, 40)) as pilot:
        run = Run(pilot, tmp_path, Refusing(monkeypatch), submit=True, state=tree_at(1100))
        await settle(pilot)
        await run.state(pilot)
        opened_from = (app.screen, app.focused, app.current_mode)
        gated = await run.one_form("scope[Bluebird]", "a", *opened_from, set())
        assert gated is not None and gated.form.__name__ == "NewAccountForm"
        assert [text for _, text in gated.slow] == gated.typed
        assert not gated.wrong(), gated.wrong()
        assert gated.slow_sent, "the organization was not sent"

        monkeypatch.setattr(app.key_gate, "admit", lambda event: True)  # the gate off
        ungated = await run.one_form("scope[Bluebird]", "a", *opened_from, set())
        assert ungated is not None
        assert ungated.slow == gated.slow
        assert ungated.burst != ungated.slow


# --------------------------------------------------------------------------- completeness


def _called(call: ast.Call) -> str | None:
    func = call.func
    if isinstance(func, ast.Name):
        return func.id
    if isinstance(func, ast.Attribute) and func.attr[:1].isupper():
        return func.attr
    return None


def _read_only(call: ast.Call) -> bool:
    return any(
        k.arg == "read_only" and isinstance(k.value, ast.Constant) and k.value.value is True
        for k in call.keywords
    )


def screens_with_text_fields() -> set[type[Screen[Any]]]:
    """The screen classes of the package that build an editable text field themselves.

    A class or function of a module is "texty" when its body calls Input, TextArea
    (not read-only), a package subclass of them, or another texty class or function; a
    call that makes a screen does not count (that screen holds the fields).
    """
    modules = [
        importlib.import_module(info.name)
        for info in pkgutil.walk_packages(vagent_tui.ui.__path__, "vagent_tui.ui.")
    ]
    classes = [
        obj
        for module in modules
        for obj in vars(module).values()
        if inspect.isclass(obj) and obj.__module__ == module.__name__
    ]
    screens = {c.__name__ for c in classes if issubclass(c, Screen)}
    texty = {"Input", "TextArea"} | {c.__name__ for c in classes if issubclass(c, Input | TextArea)}
    defs: list[ast.AST] = []
    for module in modules:
        tree = ast.parse(Path(str(module.__file__)).read_text(encoding="utf-8"))
        defs += [n for n in tree.body if isinstance(n, ast.ClassDef | ast.FunctionDef)]
    grown = True
    while grown:
        grown = False
        for node in defs:
            name = node.name  # type: ignore[attr-defined]
            if name in texty:
                continue
            calls = [c for c in ast.walk(node) if isinstance(c, ast.Call)]
            if any(
                _called(c) in texty and _called(c) not in screens and not _read_only(c)
                for c in calls
            ):
                texty.add(name)
                grown = True
    return {c for c in classes if issubclass(c, Screen) and c.__name__ in texty}


def test_the_scan_finds_the_forms_it_should() -> None:
    """The scan sees through helpers (`_input`), widgets (the filter row) and inheritance
    of fields (`_MemberForm`), and not read-only text (a token shown once)."""
    from vagent_tui.ui.dialogs import PromptModal, TextModal
    from vagent_tui.ui.screens.computer import ComputerScreen
    from vagent_tui.ui.widgets.entry_forms import SipEntryForm
    from vagent_tui.ui.widgets.member_forms import _MemberForm
    from vagent_tui.ui.widgets.new_token import NewTokenModal

    found = screens_with_text_fields()
    assert {PromptModal, SipEntryForm, _MemberForm, BaseScreen, ComputerScreen} <= found
    assert not {TextModal, NewTokenModal, ConfirmModal} & found


def test_every_form_of_the_package_is_typed_by_a_case() -> None:
    """Each screen class that builds a text field is typed by some case (itself or a
    subclass): a form no key reaches, or a new one, fails here."""
    typed = set().union(*FORMS.values())
    missed = sorted(
        f"{c.__module__}:{c.__qualname__}"
        for c in screens_with_text_fields()
        if not typed & {s.__name__ for s in _subclasses(c)}
    )
    assert not missed, f"forms no case types: {missed}"


def _subclasses(cls: type[Any]) -> Iterator[type[Any]]:
    yield cls
    for sub in cls.__subclasses__():
        yield from _subclasses(sub)
