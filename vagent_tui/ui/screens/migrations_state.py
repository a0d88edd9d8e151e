"""What the Migrations screen holds between keys, without an app: the templates offered
(listed by the platform, or why not, and the ids used before), and what the lines of a
task's detail depend on.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import NamedTuple

from rich.text import Text

from vagent_tui.api.models import Template
from vagent_tui.services.migrations import RecentTemplate, WatchedTask, template_id_problem
from vagent_tui.ui.caps import ROW_CAP
from vagent_tui.ui.colours import FAILED, WARN
from vagent_tui.ui.text import inert, safe
from vagent_tui.ui.widgets.migration_rows import template_label

NO_LIST = "This platform lists no templates: type a template id (i)"
RECENT_PREFIX = "\x00recent\x00"
"""Option ids of recent ids: never the id of a listed template (no id holds a NUL)."""


class Entry(NamedTuple):
    """One line of the template list: its text, its option id (None: a note, not
    picked) and the template id it fills in."""

    label: Text
    option_id: str | None = None
    choice: str | None = None


@dataclass
class TemplateChoices:
    """The templates the list offers.

    Attributes:
        templates: the templates the platform lists (empty when it lists none).
        error: why none are listed (`NO_LIST`: the platform has no list), None: listed.
        recent: ids used on this platform before, the most recent first.
        choices: the template id of each line of the list (None: a heading or a note).
        filled: the last id put in the field from the list (the field holds a typed id
            else).
    """

    templates: list[Template] = field(default_factory=list)
    error: str | None = None
    recent: list[RecentTemplate] = field(default_factory=list)
    choices: list[str | None] = field(default_factory=list)
    filled: str | None = None

    def listed_now(self, templates: list[Template]) -> None:
        """The platform's list: one per id (an option list refuses a repeated id), capped."""
        by_id: dict[str, Template] = {}
        for template in templates:
            by_id.setdefault(template.id, template)
        self.templates, self.error = list(by_id.values())[:ROW_CAP], None

    def not_listed(self, error: str) -> None:
        self.templates, self.error = [], error

    def listed(self, template_id: str) -> Template | None:
        return next((t for t in self.templates if t.id == template_id), None)

    def choice(self, index: int) -> str | None:
        """The template id the list's line ``index`` fills in (None: a note)."""
        return self.choices[index] if 0 <= index < len(self.choices) else None

    def to_fill(self, field_value: str) -> str | None:
        """After a list came: the id to put in the field, its first template unless an id
        was typed (an id filled from an earlier list that is gone is replaced)."""
        typed = field_value.strip()
        picked = bool(typed) and field_value == self.filled  # from a list, not typed
        if self.templates and (not typed or (picked and self.listed(typed) is None)):
            return self.templates[0].id
        return None

    def fill(self, template_id: str) -> str:
        """The text a picked id goes in the field as: its inert picture (an id holding
        control characters, which no template id can hold, names no listed template)."""
        self.filled = inert(template_id)
        return self.filled

    def selected(self, typed: str) -> Template | None:
        """The template the id field names: listed (name, revision, sections), or only typed."""
        if template_id_problem(typed) is not None:
            return None
        return self.listed(typed) or Template(id=typed)

    def entries(self) -> list[Entry]:
        """The list's lines: the listed templates (or why there are none), then the
        recent ids not listed; `choices` follows them."""
        entries = [Entry(template_label(t), t.id, t.id) for t in self.templates]
        if self.error == NO_LIST:
            entries.append(Entry(Text(NO_LIST, style=WARN)))
        elif self.error:
            entries.append(Entry(safe(self.error, style=FAILED)))
        elif not self.templates:
            entries.append(Entry(Text("No templates listed for this account", "dim")))
        listed = {t.id for t in self.templates}
        recent = [r for r in self.recent if r.template_id not in listed]
        if recent:
            entries.append(Entry(Text("Recent ids (not listed)", style="bold dim")))
            for entry in recent:
                label = safe(entry.template_id)
                if entry.target is not None:
                    label.append(f" · for #{inert(entry.target)}", style="dim")
                entries.append(Entry(label, RECENT_PREFIX + entry.template_id, entry.template_id))
        self.choices = [e.choice for e in entries]
        return entries


def typed_sections(text: str) -> list[str]:
    """The sections typed as ``a, b``: each once, in order (none: all)."""
    return list(dict.fromkeys(part.strip() for part in text.split(",") if part.strip()))


def detail_shape(task: WatchedTask | None) -> tuple[object, ...] | None:
    """What decides the lines of ``task``'s detail: a poll that changed only the values of
    the counts (not how many digits they have) needs no layout of the screen."""
    if task is None:
        return None
    c = task.counts
    digits = None
    if c is not None:
        values: tuple[int | None, ...] = (c.total, c.processed, c.changed, c.skipped)
        values += (c.overrides_kept, c.overrides_replaced)
        digits = tuple(len(str(v)) for v in values)
    return (task.task_id, len(task.history), task.error, task.message, digits)
