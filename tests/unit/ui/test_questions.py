"""Every question the console asks answers to the same keys (`ui/dialogs.Question`).

``y`` or the confirm button go ahead; ``n`` and esc cancel; esc only ever cancels; where a
text field has the focus, ``y`` and ``n`` are letters typed into it. The questions are
found in the code, not listed here: every dialog class of the console is a `Question` or
says below why it is not one, every question class has its cases below, and every place
that builds a question uses only keyword arguments that those cases exercise. Each case
runs in a minimal app that hosts the dialog alone: its answer is the only thing it sends.
"""

from __future__ import annotations

import ast
import importlib
import inspect
import pkgutil
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from rich.text import Text
from textual.app import App
from textual.pilot import Pilot
from textual.screen import ModalScreen
from textual.widgets import Input, Static

import vagent_tui.ui as ui_package
from vagent_tui.api.agent_extras_models import SlugCheck
from vagent_tui.ui.dialogs import ConfirmModal, PromptModal, Question, QuitConfirm, ReviewModal
from vagent_tui.ui.footer import KeysFooter
from vagent_tui.ui.widgets.slug_prompt import SlugPrompt

UI = Path(ui_package.__file__).parent

NOT_QUESTIONS = {
    "ConsolePalette": "the command palette: finds a screen or an action by name",
    "KeysScreen": "the list of keys: it asks nothing (esc or ? closes it)",
    "FormModal": "a form: its fields take what is typed; its button asks a Question",
    "LimitsModal": "a form of limits; saving asks a ReviewModal",
    "CallTestModal": "a form, then the task's state; placing asks a ConfirmModal",
    "RolloutForm": "a form: the change and the accounts; nothing is sent from it",
    "_Dialog": "Calls' filters, export and columns: forms that send nothing",
    "AccountPickerModal": "ticks accounts for a form; sends nothing",
    "SavedRolloutsModal": "picks a saved plan; sends nothing",
    "NewTokenModal": "shows a new token once (y copies it there); asks nothing",
    "DiffModal": "a diff to read",
    "EditorModal": "text to edit (ctrl+s saves into the form that opened it)",
    "TextModal": "text to read and select",
}
"""The console's dialogs that are not questions, and why (a new dialog is one or the other)."""


def _import_ui() -> None:
    for info in pkgutil.walk_packages(ui_package.__path__, f"{ui_package.__name__}."):
        importlib.import_module(info.name)


def _subclasses(cls: type[Any]) -> set[type[Any]]:
    found: set[type[Any]] = set()
    sub: type[Any]
    for sub in cls.__subclasses__():
        found |= {sub, *_subclasses(sub)}
    return found


_import_ui()
DIALOGS = sorted(
    (c for c in _subclasses(ModalScreen) if c.__module__.startswith("vagent_tui.")),
    key=lambda c: c.__qualname__,
)
QUESTIONS = [c for c in DIALOGS if issubclass(c, Question)]


@dataclass(frozen=True)
class Site:
    """A place in the code that builds a question."""

    where: str
    question: str
    keywords: frozenset[str]

    def __str__(self) -> str:
        return f"{self.where}: {self.question}({', '.join(sorted(self.keywords))})"


def _built_questions() -> list[Site]:
    names = {c.__name__ for c in QUESTIONS}
    sites = []
    for path in sorted(UI.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Call):
                continue
            func = node.func
            name = func.id if isinstance(func, ast.Name) else getattr(func, "attr", None)
            if name in names:
                keywords = frozenset(k.arg or "**" for k in node.keywords)
                where = f"{path.relative_to(UI.parent)}:{node.lineno}"
                sites.append(Site(where, name, keywords))
    return sites


SITES = _built_questions()


# ---------------------------------------------------------------------- the cases


@dataclass
class Case:
    """One question as the console builds it, and how it answers."""

    id: str
    question: type[Question[Any]]
    args: tuple[Any, ...]
    kwargs: dict[str, Any]
    yes: object
    """What going ahead answers."""
    no: object
    """What cancelling answers."""
    text: str | None = None
    """For a question with a text field: what it holds when going ahead."""
    wrong: str | None = None
    """A text that is refused: going ahead with it answers nothing."""
    asides: list[str] = field(default_factory=list)

    def build(self) -> Question[Any]:
        if "aside" in self.kwargs:
            self.kwargs["aside"] = lambda: self.asides.append("aside")
        return self.question(*self.args, **self.kwargs)


async def _free(slug: str) -> SlugCheck:
    return SlugCheck(available=True, slug=slug)


def _title_problem(text: str) -> str | None:
    return None if text.strip() else "A title is required"


DIFF = Text("- agentVoice: old\n+ agentVoice: new")
CASES = [
    Case("confirm", ConfirmModal, ("Delete a pending task", "Task 7 to +15551234567."),
         {"confirm_label": "Delete"}, True, False),
    Case("quit", QuitConfirm, ("Quit while migrations run?", "1 migration still running."),
         {"confirm_label": "Quit"}, True, False),
    Case("prompt", PromptModal, ("Export accounts", "A .csv file."),
         {"value": "accounts.csv", "placeholder": "file", "confirm_label": "Export"},
         "accounts.csv", None, text="accounts.csv"),
    Case("prompt-typed-name", PromptModal, ("Delete Harbor Realty", "Type its name."),
         {"placeholder": "its name", "confirm_label": "Delete", "expected": "Harbor Realty"},
         "Harbor Realty", None, text="Harbor Realty", wrong="Harbor"),
    Case("prompt-validated", PromptModal, ("Save a version",),
         {"validate": _title_problem, "confirm_label": "Save"}, "v2", None, text="v2",
         wrong=" "),
    Case("review", ReviewModal, ("Use this voice?", "On staging.", DIFF),
         {"confirm_label": "Write staging"}, True, False),
    Case("review-meanwhile", ReviewModal, ("Use this voice?", "", DIFF),
         {"meanwhile": Text("+ speakingTimeout: 777")}, True, False),
    Case("review-typed-word", ReviewModal, ("Restore into live", "Type live.", DIFF),
         {"confirm_label": "Restore", "expected": "live"}, True, False, text="live",
         wrong="liv"),
    Case("review-aside", ReviewModal, ("Publish?", "", DIFF),
         {"confirm_label": "Publish", "aside": None}, True, False),
    Case("slug", SlugPrompt, ("acme-front", _free), {"body": "The link is acme-front."},
         "new-desk", None, text="new-desk", wrong="acme-front"),
]  # fmt: skip


class Host(App[None]):
    """A minimal app: the dialogs pushed on it, and every answer they gave."""

    def __init__(self) -> None:
        super().__init__()
        self.answers: list[object] = []

    async def ask(self, pilot: Pilot[None], question: Question[Any]) -> None:
        self.push_screen(question, self.answers.append)
        await pilot.pause()
        assert self.screen is question


def _footer(question: Question[Any]) -> list[str]:
    return [item.display for item in question.query_one(KeysFooter).items]


def _said(question: Question[Any]) -> str:
    return str(question.query_one("#question-keys", Static).render())


async def _leave_the_field(pilot: Pilot[None], question: Question[Any], text: str) -> None:
    """Type ``y`` and ``n`` in the field (letters: nothing answered), put ``text`` in it,
    then Tab to the buttons, where the keys answer."""
    field = question.focused
    assert isinstance(field, Input) and question.typing()
    assert "y" not in _footer(question) and "n" not in _footer(question)
    assert _said(question).startswith("Enter ")
    await pilot.press("y", "n")
    assert field.value.endswith("yn")  # (a value given is selected: typing replaces it)
    assert pilot.app.screen is question
    field.value = text
    await pilot.press("tab")
    assert not question.typing()


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.id)
async def test_y_goes_ahead_n_and_esc_cancel_and_nothing_else_is_sent(case: Case) -> None:
    app = Host()
    async with app.run_test(size=(80, 24)) as pilot:
        for key, answer in (("y", case.yes), ("n", case.no), ("escape", case.no)):
            question = case.build()
            await app.ask(pilot, question)
            if case.text is not None and key == "y":
                await _leave_the_field(pilot, question, case.wrong or case.text)
                if case.wrong is not None:
                    await pilot.press("y")  # what is typed is checked: refused
                    assert app.screen is question and app.answers == []
                    question.query_one(Input).value = case.text
            elif case.text is not None and key == "n":
                question.query_one("#cancel").focus()  # off the field, n answers
                await pilot.pause()
            # (esc cancels from the field too: it only ever cancels)
            if not question.typing():
                assert _footer(question)[:3] == ["y", "n", "esc"]
                assert _said(question) == f"y {question.confirm_label}\nn/esc Cancel"
            await pilot.press(key)
            await pilot.pause()
            assert app.screen is not question
            assert app.answers == [answer], key
            app.answers.clear()
        assert case.asides == []  # going ahead or cancelling never runs the aside


@pytest.mark.parametrize("case", [c for c in CASES if c.text is not None], ids=lambda c: c.id)
async def test_enter_in_the_field_goes_ahead_with_what_is_typed(case: Case) -> None:
    app = Host()
    async with app.run_test(size=(80, 24)) as pilot:
        question = case.build()
        await app.ask(pilot, question)
        field = question.focused
        assert isinstance(field, Input)
        field.value = case.text or ""
        await pilot.press("enter")
        await pilot.pause()
        assert app.answers == [case.yes]


async def test_platform_review_answers_no_then_runs_the_aside() -> None:
    [case] = [c for c in CASES if c.id == "review-aside"]
    app = Host()
    async with app.run_test(size=(80, 24)) as pilot:
        question = case.build()
        await app.ask(pilot, question)
        assert "R" in _footer(question)
        await pilot.press("R")
        await pilot.pause()
        assert app.answers == [False] and case.asides == ["aside"]


# ---------------------------------------------------------------------- found in the code


def test_every_dialog_of_the_console_is_a_question_or_says_why_not() -> None:
    def reason(dialog: type) -> bool:
        return any(c.__name__ in NOT_QUESTIONS for c in dialog.__mro__)

    unsorted = [c.__qualname__ for c in DIALOGS if not issubclass(c, Question) and not reason(c)]
    assert unsorted == [], "a dialog that asks before acting is a Question"
    named = {c.__name__ for c in DIALOGS}
    assert set(NOT_QUESTIONS) <= named, "NOT_QUESTIONS names a dialog that is gone"
    assert not any(issubclass(c, Question) for c in DIALOGS if c.__name__ in NOT_QUESTIONS)


def test_every_question_class_has_its_cases() -> None:
    assert {c.question for c in CASES} == set(QUESTIONS) - {Question}


def test_every_question_the_code_builds_is_one_the_cases_answer() -> None:
    exercised: dict[str, set[str]] = {}
    for case in CASES:
        exercised.setdefault(case.question.__name__, set()).update(case.kwargs)
    untested = [str(s) for s in SITES if not s.keywords <= exercised.get(s.question, set())]
    assert untested == [], "a keyword of a question no case exercises: add a case"


def test_the_questions_of_the_console_are_found() -> None:
    """The walk sees the questions the issue named (deletes, removes, the test call, real
    migrations, "Replace the file?", Tasks' add and CSV), and the typed confirmations."""
    where = {s.where.partition(":")[0] for s in SITES}
    assert {
        "ui/screens/tasks.py", "ui/screens/members.py", "ui/screens/tokens.py",
        "ui/screens/sip.py", "ui/screens/webhooks.py", "ui/widgets/migration_rows.py",
        "ui/screens/calls_export.py", "ui/widgets/fleet_export.py", "ui/widgets/call_test.py",
        "ui/widgets/entry_forms.py", "ui/screens/scope.py", "ui/screens/agent_changes.py",
        "ui/connections.py",
    } <= where  # fmt: skip
    assert len(SITES) >= 30
    assert {"ConfirmModal", "QuitConfirm", "PromptModal", "ReviewModal"} <= {
        s.question for s in SITES
    }


def test_the_keys_are_owned_by_the_one_question() -> None:
    """No question binds y, n or esc itself: the keys are the same in every one."""
    for question in QUESTIONS:
        if question is Question:
            continue
        own = {b.key for b in vars(question).get("BINDINGS", []) if not isinstance(b, tuple)}
        assert not own & {"y", "n", "escape"}, question.__name__
        assert inspect.getattr_static(question, "action_cancel") is Question.action_cancel
