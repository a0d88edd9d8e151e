"""An inline status line for a screen: loading, an error with its retry key, or info."""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal

from rich.text import Text
from textual.message import Message
from textual.widgets import Static

from vagent_tui.api.errors import (
    ApiError,
    MalformedResponse,
    PlatformError,
    outcome_unknown,
    redact_text,
)

__all__ = [
    "StatusLine",
    "StatusReport",
    "describe_error",
    "outcome_unknown",
    "token_advice",
    "token_refused",
]
from vagent_tui.inert import inert
from vagent_tui.ui.css import stylesheet
from vagent_tui.ui.failures import next_step

if TYPE_CHECKING:
    from vagent_tui import config as cfg

UNSURE = " (the change may have been made: check before retrying)"
"""After a write got no reply or an unreadable one, the platform may have carried it out."""


class StatusLine(Static):
    """Shows what a screen is doing. Every message is shown inert, never as markup."""

    DEFAULT_CSS = stylesheet(__file__)

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__("", id=id, markup=False)

    def info(self, message: str) -> None:
        self.remove_class("-error", "-ok")
        self.update(Text(inert(message)))

    def ok(self, message: str) -> None:
        self.remove_class("-error")
        self.add_class("-ok")
        self.update(Text("✓ " + inert(message)))

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
        self.update(Text("✗ " + inert(message)))

    def clear(self) -> None:
        self.remove_class("-error", "-ok")
        self.update("")


class StatusReport(Message):
    """A widget's word for its screen's status line (the screen owns the line).

    A pane inside a screen posts one (``StatusReport.error(exc, retry_key="t")``);
    `BaseScreen` shows it on its `StatusLine`.
    """

    def __init__(
        self,
        kind: Literal["info", "ok", "busy", "error"],
        what: BaseException | str,
        retry_key: str | None = "r",
        cause: BaseException | None = None,
    ) -> None:
        super().__init__()
        self.kind = kind
        self.what = what
        self.retry_key = retry_key
        self.cause = cause

    @classmethod
    def info(cls, message: str) -> StatusReport:
        return cls("info", message)

    @classmethod
    def ok(cls, message: str) -> StatusReport:
        return cls("ok", message)

    @classmethod
    def busy(cls, what: str = "Loading") -> StatusReport:
        return cls("busy", what)

    @classmethod
    def error(
        cls,
        error: BaseException | str,
        *,
        retry_key: str | None = "r",
        cause: BaseException | None = None,
    ) -> StatusReport:
        return cls("error", error, retry_key, cause)

    def show_on(self, line: StatusLine) -> None:
        if self.kind == "error":
            line.error(self.what, retry_key=self.retry_key, cause=self.cause)
        elif self.kind == "ok":
            line.ok(describe_error(self.what))
        elif self.kind == "busy":
            line.busy(describe_error(self.what))
        else:
            line.info(describe_error(self.what))


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


def describe_error(error: BaseException | str) -> str:
    """One readable line for a failure; the server's message for an API error."""
    if isinstance(error, str):
        return error
    if isinstance(error, PlatformError):
        status = error.status if isinstance(error, ApiError | MalformedResponse) else None
        prefix = f"HTTP {status}: " if status and f"HTTP {status}" not in error.message else ""
        return prefix + error.message + (UNSURE if outcome_unknown(error) else "")
    return redact_text(f"{type(error).__name__}: {error}")
