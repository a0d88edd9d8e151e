"""The new slug of the agent's public link: lowercased and checked as it is typed.

The platform lowercases a slug (its example checks ``weloveVida`` and answers
``welovevida``), so the field lowercases what is typed and the check is of what would
be sent. A quarter of a second after the last key, ``GET /checkAgentUrl`` says whether
the slug is free; going ahead is refused while it is taken. Nothing is written here:
the screen asks once more (the old link stops working) before it sends.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from textual import on, work
from textual.app import ComposeResult
from textual.timer import Timer
from textual.widgets import Input, Label

from vagent_tui.api.agent_extras_models import SlugCheck, slug_of
from vagent_tui.api.errors import PlatformError
from vagent_tui.ui.css import stylesheet
from vagent_tui.ui.dialogs import PromptModal
from vagent_tui.ui.failures import guarded_read
from vagent_tui.ui.text import safe

CHECK_AFTER = 0.25
"""Seconds after the last key before the slug is checked (one request per pause)."""


def slug_problem(text: str) -> str | None:
    """What is wrong with ``text`` as a slug before the platform is asked (None: ask)."""
    slug = slug_of(text)
    if not slug:
        return "a slug is needed"
    if any(c.isspace() for c in slug) or not slug.isprintable():
        return "a slug has no spaces or control characters"
    return None


class SlugPrompt(PromptModal):
    """A new slug, checked as it is typed; dismissed with it lowercased, or None."""

    DEFAULT_CSS = PromptModal.DEFAULT_CSS + stylesheet(__file__)

    def __init__(
        self, current: str, check: Callable[[str], Awaitable[SlugCheck]], *, body: str
    ) -> None:
        super().__init__("New public link", body, placeholder="new slug, e.g. acme-dental",
                         confirm_label="Next", validate=self._problem)  # fmt: skip
        self.current = current
        self.check = check
        self.checked: dict[str, bool | None] = {}
        """What the platform said of each slug asked (None: it did not say)."""
        self._timer: Timer | None = None

    def compose_question(self) -> ComposeResult:
        yield from super().compose_question()
        yield Label("", id="slug-check", markup=False)

    def _problem(self, text: str) -> str | None:
        problem = slug_problem(text)
        if problem:
            return problem
        slug = slug_of(text)
        if slug == self.current:
            return "this is the link already"
        if self.checked.get(slug) is False:
            return f"{slug} is taken: choose another"
        return None

    @on(Input.Changed, "#prompt-input")
    def typed(self, event: Input.Changed) -> None:
        field = event.input
        # The field as it is now, not as the event saw it: keys typed meanwhile stay.
        lowered = field.value.lower()
        if lowered != field.value:
            cursor = field.cursor_position
            field.value = lowered  # the slug as it would be sent; Changed again
            field.cursor_position = min(cursor, len(lowered))
            return
        if self._timer is not None:
            self._timer.stop()
        label = self.query_one("#slug-check", Label)
        problem = slug_problem(lowered) if lowered else None
        if not lowered or problem:
            label.update(safe(problem or ""))
            return
        label.update(safe(f"checking {slug_of(lowered)}…"))
        self._timer = self.set_timer(CHECK_AFTER, lambda: self.ask(slug_of(lowered)))

    @work(exclusive=True, group="slug-check", exit_on_error=False)
    async def ask(self, slug: str) -> None:
        label = self.query_one("#slug-check", Label)

        def still() -> bool:
            return slug_of(self.query_one("#prompt-input", Input).value) == slug

        def failed(exc: PlatformError) -> None:
            label.update(safe(f"could not check {slug}: {exc.message}"))

        ok, answer = await guarded_read(self.check(slug), still_wanted=still, on_error=failed)
        if not ok or answer is None:
            return
        self.checked[slug] = answer.available
        if slug == self.current:
            label.update(safe(f"{slug} is the link already"))
        elif answer.available is True:
            label.update(safe(f"✓ {slug} is free"))
        elif answer.available is False:
            label.update(safe(f"✗ {slug} is taken"))
        else:
            label.update(safe(f"the platform did not say whether {slug} is free"))
