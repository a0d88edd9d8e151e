"""An inline status line for a screen: loading, an error with its retry key, or info."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.text import Text

from vagent_tui.api.errors import ApiError, outcome_unknown

__all__ = [
    "UNSURE",
    "StatusLine",
    "StatusReport",
    "describe_error",
    "outcome_unknown",
    "token_advice",
    "token_refused",
]
from vagent_tui.inert import inert
from vagent_tui.ui.css import stylesheet
from vagent_tui.ui.failures import UNSURE, StatusReport, describe_error, next_step
from vagent_tui.ui.widgets.fitted import FittedStatic

if TYPE_CHECKING:
    from vagent_tui import config as cfg


class StatusLine(FittedStatic):
    """Shows what a screen is doing. Every message is shown inert, never as markup.

    A new message lays the screen out again only when the line needs another height
    (`FittedStatic.show`): a screen says what it does at every start and end of a load,
    and a layout redraws the whole screen."""

    DEFAULT_CSS = stylesheet(__file__)

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__("", id=id, markup=False)
        self._empty: dict[str, int] = {}

    def count_empty(self, read: str, count: int) -> None:
        """How many entries the last reply of ``read`` (a worker group) held empty
        (``null`` list items, skipped): said after the screen's own words."""
        if count:
            self._empty[read] = count
        else:
            self._empty.pop(read, None)

    @property
    def counts_empty(self) -> bool:
        """Whether the line says (after its words) that entries came empty."""
        return bool(self._empty)

    def _empty_note(self) -> str:
        count = sum(self._empty.values())
        if not count:
            return ""
        return f" · {count:,} {'entry' if count == 1 else 'entries'} the platform sent empty"

    def info(self, message: str) -> None:
        self.remove_class("-error", "-ok")
        self.show(Text(inert(message) + self._empty_note()))

    def ok(self, message: str) -> None:
        self.remove_class("-error")
        self.add_class("-ok")
        self.show(Text("✓ " + inert(message) + self._empty_note()))

    def busy(self, what: str = "Loading") -> None:
        self.info(f"⟳ {what}…")

    def error(
        self,
        error: BaseException | str,
        *,
        retry_key: str | None = "r",
        prefix: str = "",
        cause: BaseException | None = None,
    ) -> None:
        """Show an error where it happened, with the server's message and what to do next.

        ``retry_key`` (the key that asks again) is offered only where a retry may help,
        by the error's kind (`vagent_tui.ui.failures.next_step`): a refusal or a route
        the platform lacks says what to do instead. Text says its own next step, unless
        ``cause`` names the error it tells of. A refused token (401) gets how to give a
        new one.
        """
        self.remove_class("-ok")
        self.add_class("-error")
        message = prefix + describe_error(error)
        kind = cause if cause is not None and isinstance(error, str) else error
        if token_refused(kind):
            step = advice_for(getattr(self.app, "connection", None))
        else:
            step = next_step(kind, retry_key)
        if step:
            message += "  — " + step
        self.show(Text("✗ " + inert(message)))

    def clear(self) -> None:
        self.remove_class("-error", "-ok")
        self.show(Text(self._empty_note().removeprefix(" · ")))


def advice_for(connection: object) -> str:
    """`token_advice` for the connection in force (None outside the console): its
    profile's source of the token, or the demo's keys."""
    from vagent_tui.services.connect import SimClient

    demo = isinstance(getattr(connection, "client", None), SimClient)
    return token_advice(getattr(connection, "profile", None), demo=demo)


def token_refused(error: BaseException | str) -> bool:
    """The platform refused the token itself (HTTP 401): no retry will get through."""
    return isinstance(error, ApiError) and error.status == 401


def token_advice(profile: cfg.Profile | None, *, demo: bool = False) -> str:
    """What to do about a refused token: where this one came from, and how to set another.

    Never the token itself; a profile's source is named (its variable, command or file).
    ``demo``: the embedded simulator refused a key it does not know (``--demo-token``).
    """
    if demo:
        return (
            "the token needs replacing, not a retry: restart with --demo-token and a demo "
            "key (demo-partner, demo-org, …; README: Demo keys)"
        )
    new = 'ctrl+p "profile: new…" saves a profile with a new token'
    if profile is None:
        return (
            f"the token needs replacing, not a retry: restart with a valid VAGENT_TOKEN, or {new}"
        )
    name = inert(profile.name)
    if profile.token_env:
        where = f"put a valid token in ${inert(profile.token_env)} and restart"
    elif profile.token_command:
        where = "fix what the profile's token command prints, then restart"
    else:
        # `profile add` replaces the whole profile: the tier (prod stays read-only) and
        # the rest of what it holds are named again.
        keep = f" --tier {inert(profile.tier)}"
        if profile.read_only:
            keep += " --read-only"
        if profile.target_account is not None:
            keep += f" --account {profile.target_account}"
        if profile.theme:
            keep += f" --theme {inert(profile.theme)}"
        where = (
            f"store a new one: vagent-tui profile add {name} --base-url "
            f"{inert(profile.base_url)}{keep} --token-stdin"
        )
    return f"the token of profile {name} needs replacing, not a retry: {where}; or {new}"
