"""Every field of an agent configuration, grouped so that a person can read it.

Groups follow the spec's table: identity and instructions; model and thinking; voice
and speech engines; call handling and timing; transfers; CNAM rules; functions;
reporting fields; effective reporting fields; apps; skills; heartbeat; event rules.
Any field not named in a group (a new field of the API, or a simulator extra such as
``templateId``) lands in "Other fields", so nothing the server sends is hidden. Server
text, field names included, is always inert `rich.text.Text` (`vagent_tui.ui.text`),
never markup: a ``str`` cell of a Rich table would be read as Rich markup. Texts of
several lines (instructions, the welcome message) keep their lines.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, TypeVar

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.containers import VerticalScroll
from textual.widgets import Static

from vagent_tui.api.agent_extras_models import MODEL_SETTINGS, ModelCatalog
from vagent_tui.api.models import (
    AgentConfig,
    EffectiveReportingField,
    ReportingField,
    Resource,
)
from vagent_tui.ui.caps import ROW_CAP, first_fields, not_shown
from vagent_tui.ui.colours import ACCENT, FAILED, HEADING, WARN
from vagent_tui.ui.format import flag, joined, plain
from vagent_tui.ui.text import inert, safe

T = TypeVar("T")

GROUPS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("Identity and instructions", ("id", "title", "description", "brandName",
     "agentInstructions", "welcomeMessage", "links", "keywords", "timezone")),
    ("Model and thinking", ("agentModel", "agentThinking", "agentThinkingModel",
     "postConvoForceThinking")),
    ("Voice and speech engines", ("agentVoice", "agentTtsEngine", "agentLang", "agentS2SEngine",
     "agentSttEngine", "agentSttSmartFormatting", "backgroundAudio")),
    ("Call handling and timing", ("waitOnAnswer", "waitToGreet", "postAnswerDtmf",
     "preAnswerRingTime", "preAnswerSkipProcessingResults", "enableRingback",
     "interruptionWordCount", "interruptionMinimumSpeakingTime", "speakingTimeout",
     "speechProcessingDelay", "speechProcessingDelayInterruptionStep",
     "speechProcessingDelayMaxMultiplier", "callerResponseTimeout",
     "callerResponseTimeoutHangupCounter", "ignoreSpeech", "noContactInjection",
     "noConvoHistory", "autoRecordingNotification", "recordingNotificationPhrase")),
    ("Transfers", ("useAgentNumberForTransfers", "confirmTransfers", "monitorTransfers",
     "attendedTransfers", "attendedTransferBridgeTrigger", "attendedTransferCheckInTimeout",
     "transferConfirmTimeout", "announceTransferConnecting", "announceTransferConnected",
     "preTransferNotificationStart", "preTransferNotificationEnd", "enableTransferRingback")),
    ("CNAM rules", ("cnamAutoRejectRegex", "cnamAutoRejectCode", "cnamAutoTransferRegex",
     "cnamAutoTransferDestination")),
)  # fmt: skip

LISTED = frozenset(
    {"actions", "computerDelegateAccountId", "reportingFields", "effectiveReportingFields",
     "apps", "skills", "heartbeatInstructions", "heartbeatEvery", "heartbeatConfig",
     "activeEventRules"}
)  # fmt: skip
"""Fields shown by the dedicated sections below the plain groups."""

MULTILINE = frozenset(
    {"agentInstructions", "welcomeMessage", "description", "heartbeatInstructions",
     "recordingNotificationPhrase"}
)  # fmt: skip
"""Fields whose text keeps its lines; other fields show a newline as ``⏎``."""


def value_text(value: Any, *, multiline: bool = False) -> Text:
    """One field value: booleans as glyph + word + colour, text inert."""
    if isinstance(value, bool) or value is None:
        return flag(value)
    if isinstance(value, Resource):
        value = value.wire()
    if isinstance(value, dict):
        return Text(_pairs(value) or "—")
    if isinstance(value, str) and value == "":
        return Text('"" (empty)', style="dim")
    if isinstance(value, str) and multiline:
        return safe(value, multiline=True)
    return Text(plain(value))


def _pairs(values: dict[Any, Any], sep: str = ", ") -> str:
    """``k=v, k=v`` of a mapping from outside, inert; made only as far as one value is
    shown, then how many pairs more (as `vagent_tui.ui.format.joined`)."""
    pairs = (f"{inert(key)}={plain(value)}" for key, value in values.items())
    return joined(pairs, sep, total=len(values))


def _key(key: str) -> Text:
    """A field name as a table cell: Rich reads a ``str`` cell as markup."""
    return safe(key)


def _grid() -> Table:
    grid = Table.grid(padding=(0, 2), expand=True)
    grid.add_column(style="bold", no_wrap=True, max_width=38)
    grid.add_column(ratio=1, overflow="fold")
    return grid


def _title(text: str, count: int | None = None) -> Text:
    title = Text(f"\n▌ {text}", style=HEADING)
    if count is not None:
        title.append(f"  ({count})", style="dim")
    return title


def _extras(item: Resource) -> str:
    return _pairs(item.model_extra or {}, "; ")


def _table(*headers: str) -> Table:
    table = Table(box=None, expand=True, padding=(0, 1), show_edge=False, header_style="bold")
    for header in headers:
        table.add_column(header, overflow="fold")
    return table


def _capped(items: Sequence[T]) -> Sequence[T]:
    """The first `ROW_CAP` items of a list: a table shows no more."""
    return items[:ROW_CAP]


def _more(table: Table, total: int) -> Table:
    """A last row saying how many rows `_capped` left out, if any."""
    if total > ROW_CAP:
        more = Text(f"… {total - ROW_CAP:,} more not shown (J: the raw JSON)", style="dim")
        table.add_row(more, *([""] * (len(table.columns) - 1)))
    return table


def _functions(config: AgentConfig) -> RenderableType:
    table = _table("Function", "Allowed", "Reason · missing requirement", "Instructions")
    for action in _capped(config.actions):
        why = " · ".join(inert(x) for x in (action.reason, action.missing_requirement) if x)
        extra = _extras(action)
        instructions = safe(action.instructions or "—", multiline=True)
        if extra:
            instructions.append(f" [{extra}]")
        reason = Text(why or "—", style=FAILED if why else "dim")
        table.add_row(safe(action.name or "—", "bold"), flag(action.allowed), reason,
                      instructions)  # fmt: skip
    return _more(table, len(config.actions))


def _reporting(fields: Sequence[ReportingField], *, source: bool) -> RenderableType:
    headers = ["Key", "Label", "Kind", "Choices", "Instructions"]
    table = _table(*headers, *(["Source"] if source else []))
    for item in _capped(fields):
        kind, choices = (item.values.kind, item.values.choices) if item.values else (None, None)
        row = [safe(item.key or "—", "bold"), safe(item.label or "—"), Text(plain(kind)),
               Text(plain(choices)), safe(item.instructions or "—", multiline=True)]  # fmt: skip
        if source:
            origin = item.source if isinstance(item, EffectiveReportingField) else None
            row.append(Text(plain(origin), style=ACCENT))
        table.add_row(*row)
    return _more(table, len(fields))


def _apps(config: AgentConfig) -> RenderableType:
    table = _table("App", "Version", "Enabled", "Instructions")
    for app in _capped(config.apps):
        table.add_row(safe(app.app_id or "—", "bold"), Text(plain(app.version)),
                      flag(app.enabled), safe(app.instructions or "—", multiline=True))  # fmt: skip
    return _more(table, len(config.apps))


def _skills(config: AgentConfig) -> RenderableType:
    table = _table("Skill", "Instructions")
    for skill in _capped(config.skills):
        table.add_row(safe(skill.slug or "—", "bold"),
                      safe(skill.instructions or "—", multiline=True))  # fmt: skip
    return _more(table, len(config.skills))


def _heartbeat(config: AgentConfig) -> RenderableType:
    grid = _grid()
    grid.add_row("heartbeatInstructions", value_text(config.heartbeat_instructions, multiline=True))
    grid.add_row("heartbeatEvery", value_text(config.heartbeat_every))
    hb = config.heartbeat_config
    if hb is None:
        grid.add_row("heartbeatConfig", value_text(None))
        return grid
    grid.add_row("heartbeatConfig", Text(""))
    fields, more = first_fields(hb.wire())
    for key, value in fields:
        if key == "activeHours" and isinstance(value, dict):
            start, end = inert(value.get("start")) or "?", inert(value.get("end")) or "?"
            hours = Text(f"{start}–{end}")
            if value.get("timezone"):
                hours.append(f" {inert(value['timezone'])}")
            rest = {k: v for k, v in value.items() if k not in ("start", "end", "timezone")}
            if rest:
                hours.append(" " + value_text(rest).plain)
            grid.add_row("  activeHours", hours)
        else:
            grid.add_row(_key(f"  {key}"), value_text(value))
    if more:
        grid.add_row(Text("  …"), Text(not_shown(more, "field"), style="dim"))
    return grid


def model_text(value: Any, models: ModelCatalog | None) -> Text:
    """A model setting's value, and its provider from what the platform offers."""
    text = value_text(value)
    if models is None or not isinstance(value, str) or not value:
        return text
    text.append("  ")
    offered = value in models.models
    text.append_text(safe(f"({models.describe(value)})", "dim" if offered else WARN))
    return text


def config_renderable(config: AgentConfig, models: ModelCatalog | None = None) -> RenderableType:
    """The whole configuration as titled groups of fields and tables; ``models``, what
    the platform offers, names the provider of each model setting."""
    wire = config.wire()
    parts: list[RenderableType] = []
    shown: set[str] = set(LISTED)
    for title, keys in GROUPS:
        grid = _grid()
        for key in keys:
            shown.add(key)
            if key in MODEL_SETTINGS:
                grid.add_row(key, model_text(wire.get(key), models))
                continue
            grid.add_row(key, value_text(wire.get(key), multiline=key in MULTILINE))
        parts += [_title(title), grid]
    delegate = Text(f"computerDelegateAccountId: {plain(config.computer_delegate_account_id)}")
    parts += [_title("Functions (actions)", len(config.actions)), delegate, _functions(config)]
    parts += [_title("Reporting fields", len(config.reporting_fields)),
              _reporting(config.reporting_fields, source=False)]  # fmt: skip
    parts += [_title("Effective reporting fields", len(config.effective_reporting_fields)),
              _reporting(config.effective_reporting_fields, source=True)]  # fmt: skip
    parts += [_title("Apps", len(config.apps)), _apps(config)]
    parts += [_title("Skills", len(config.skills)), _skills(config)]
    parts += [_title("Heartbeat"), _heartbeat(config)]
    rules = config.active_event_rules
    parts += [_title("Event rules", len(rules)), Text(plain(rules))]
    other = {k: v for k, v in wire.items() if k not in shown}
    if other:
        grid = _grid()
        fields, more = first_fields(other)
        for key, value in fields:
            grid.add_row(_key(key), value_text(value))
        if more:
            grid.add_row(Text("…"), Text(f"{not_shown(more, 'field')} (J: the raw JSON)",
                                         style="dim"))  # fmt: skip
        parts += [_title("Other fields (not in the spec)", len(other)), grid]
    return Group(*parts)


class ScrollPane(VerticalScroll):
    """A focusable scroll pane where j/k (and the arrows) scroll."""

    def action_cursor_down(self) -> None:
        self.scroll_down(animate=False)

    def action_cursor_up(self) -> None:
        self.scroll_up(animate=False)


class AgentView(ScrollPane):
    """A scrollable view of one configuration, every field grouped."""

    def compose(self) -> ComposeResult:
        yield Static("", id="agent-fields")

    def show(self, config: AgentConfig | None, models: ModelCatalog | None = None) -> None:
        body = self.query_one("#agent-fields", Static)
        body.update(
            config_renderable(config, models) if config else Text("No configuration.", style="dim")
        )
