"""Running a command: its connection, its output, its exit code.

`run` builds a `Context` (the connection opened as the console opens one, with the same
profile rules: a read-only or prod profile refuses changes; the journal records every
change, marked ``"source": "cli"``), runs the command's coroutine and turns what ends it
into the exit code `vagent_tui.commands.contract` documents: the platform's message or the
fault on stderr (made inert, never the token), nothing half-written on stdout but what
was streamed before.
"""

from __future__ import annotations

import argparse
import asyncio
import importlib
import os
import sys
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, TextIO, cast

from vagent_tui import collector
from vagent_tui.commands.contract import DONE, ERROR, REFUSED, CommandError, Refused
from vagent_tui.commands.output import Format, Messages, Output, default_format, json_safe

if TYPE_CHECKING:
    from vagent_tui.api.client import PlatformClient
    from vagent_tui.services.journal import Journal
    from vagent_tui.services.session import Connection

CommandFunction = Callable[["Context"], Awaitable[int]]


@dataclass
class Context:
    """What a command runs with."""

    args: argparse.Namespace
    connection: Connection
    messages: Messages
    journal: Journal | None = None
    stdout: Any = field(default_factory=lambda: sys.stdout)

    @property
    def format(self) -> Format:
        fmt: Format | None = getattr(self.args, "output", None)
        return fmt or default_format(self.stdout)

    def output(self, kind: str, columns: Sequence[str]) -> Output:
        """The writer of this command's items (``kind``: its schema's name). A progress
        line on stderr is cleared before each write (on one terminal the two would mix)."""
        stream = cast("TextIO", _AfterProgress(self.stdout, self.messages))
        return Output(kind, columns, self.format, stream)

    def plan_to_stdout(self, out: str | None) -> bool:
        """Whether a plan goes to stdout (``--out -``), asked before any read: refused
        (exit 1) when stdout is a terminal. A plan holds what was read unmasked (each
        account's configuration, secrets included; a file's phone numbers): it is meant
        for a pipe or a file, never for a screen, a scrollback or a recording.

        Raises:
            CommandError: ``--out -`` with stdout a terminal.
        """
        if out != "-":
            return False
        if _is_terminal(self.stdout):
            raise CommandError(
                "--out - writes the plan to stdout, and stdout is a terminal: the plan holds "
                "the configurations as read, secrets unmasked. Pipe it (--out - | ...) or "
                "give a file (--out PLAN.json, written readable by you only)"
            )
        return True

    def write_plan(self, out: str, text: str) -> None:
        """A plan file (``--out PLAN.json``): whole or not at all, mode 0600 (it holds
        what was read, unmasked: `vagent_tui.services.rollout_apply.write_private`).

        Raises:
            CommandError: it could not be written (the reason said).
        """
        from pathlib import Path

        from vagent_tui.services.rollout_apply import write_private

        try:
            write_private(Path(out).expanduser(), text)
        except OSError as exc:
            raise CommandError(f"could not write {out}: {exc.strerror or exc}") from None

    def write_document(self, text: str) -> None:
        """A command whose data is a file (a plan with ``--out -``): its JSON text on
        stdout, as the file holds it but for what a terminal would obey (`json_safe`);
        never on a terminal (`plan_to_stdout`).

        Raises:
            CommandError: stdout is a terminal.
        """
        self.plan_to_stdout("-")
        self.stdout.write(json_safe(text))
        self.stdout.flush()

    def may_write(self, *, planned: bool = False) -> None:
        """Refuse (exit 4) a change on a read-only connection, or one asked for with
        neither ``--yes`` nor a plan file (``planned``: the plan is the question)."""
        if self.connection.read_only:
            raise Refused(
                "read-only: the profile "
                + (f"{self.connection.label!r} " if self.connection.profile else "")
                + "or --read-only refuses every change (a prod profile is read-only unless "
                "it says read_only = false)"
            )
        if not planned and not getattr(self.args, "yes", False):
            raise Refused("this changes the platform: add --yes (or apply a plan file)")


class _AfterProgress:
    """stdout, clearing the progress line of ``messages`` before anything is written."""

    def __init__(self, stream: Any, messages: Messages) -> None:
        self.stream = stream
        self.messages = messages

    def write(self, text: str) -> int:
        self.messages.done()
        return int(self.stream.write(text))

    def flush(self) -> None:
        self.stream.flush()

    def isatty(self) -> bool:
        return bool(self.stream.isatty())

    def fileno(self) -> int:
        return int(self.stream.fileno())


def _is_terminal(stream: Any) -> bool:
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError):
        return False


def run(args: argparse.Namespace, function: str) -> int:
    """Run the command ``function`` names (``"module:function"`` of this package)."""
    messages = Messages(quiet=bool(getattr(args, "quiet", False)))
    module_name, _, name = function.partition(":")
    try:
        return asyncio.run(_run(args, messages, module_name, name))
    except CommandError as exc:
        messages.error(exc)
        return exc.code
    except KeyboardInterrupt:
        messages.done()
        messages.error("interrupted")
        return 130
    except BrokenPipeError:
        # The reader stopped early (``| head``): what it wanted was written. Quietly, as
        # a pipeline expects; stdout pointed at nothing so that the flush at exit is not
        # an error of its own.
        _stdout_to_nowhere()
        return DONE


def _stdout_to_nowhere() -> None:
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):
        pass


async def _run(args: argparse.Namespace, messages: Messages, module_name: str, name: str) -> int:
    module = importlib.import_module(f"vagent_tui.commands.{module_name}")
    command: CommandFunction = getattr(module, name)
    if getattr(args, "connects", True) is False:
        collector.resume()
        return await command(Context(args, _unconnected(), messages))
    connection = await connect(args, messages)
    collector.resume()  # imported and connected: collected as in a running console
    try:
        journal = _journal_of(connection)
        ctx = Context(args, connection, messages, journal)
        return await command(ctx)
    except CommandError:
        raise
    except Exception as exc:
        return _failed(exc, messages)
    finally:
        messages.done()
        await connection.api.aclose()


def _unconnected() -> Connection:
    from vagent_tui.services.session import Connection

    return Connection()


def _failed(exc: BaseException, messages: Messages) -> int:
    from vagent_tui.api.errors import ApiError, PlatformError, ReadOnlyRefused

    if isinstance(exc, ReadOnlyRefused):
        messages.error(exc.describe())
        return REFUSED
    if isinstance(exc, ApiError) and exc.status in (401, 403):
        messages.error(exc.describe())
        return REFUSED
    if isinstance(exc, PlatformError):
        messages.error(exc.describe())
        return ERROR
    if isinstance(exc, BrokenPipeError):
        raise exc  # the reader went away: `run` ends quietly
    # A fault of the console's own: one line (secrets masked, inert) and the traceback
    # saved where the console saves its crash reports, never a raw traceback on stderr.
    from vagent_tui.crash import report

    messages.done()
    messages.stream.write(report(exc, secrets=(os.environ.get("VAGENT_TOKEN"),)) + "\n")
    return ERROR


def _journal_of(connection: Connection) -> Journal:
    from vagent_tui.services.journal import Journal

    journal = Journal()
    connection.api.observers.append(journal.observer(connection.label, source="cli"))
    return journal


async def connect(args: argparse.Namespace, messages: Messages) -> Connection:
    """The connection the options name, opened (the key owner read, the target resolved).

    Raises:
        Refused: ``--token`` given (``ps`` would show it), or the platform refused the key.
        CommandError: no platform configured, a bad config file or base URL, the platform
            unreachable.
    """
    from vagent_tui import config as cfg
    from vagent_tui import credentials
    from vagent_tui.api.errors import ApiError, PlatformError
    from vagent_tui.services.connect import demo_client, real_client
    from vagent_tui.services.session import open_connection

    if getattr(args, "token", None):
        raise Refused(
            "--token would show the key to anyone who lists the processes: set VAGENT_TOKEN "
            "or use a profile (vagent-tui profile add)"
        )
    profile = None
    client: PlatformClient
    if getattr(args, "demo", False):
        token = getattr(args, "demo_token", None) or "demo-partner"
        client = demo_client(token)
        label = f"demo · {token}"
        read_only = bool(getattr(args, "read_only", False))
    else:
        try:
            config = cfg.load()
            found = credentials.resolve_connection(
                config, profile_name=getattr(args, "profile", None),
                base_url=getattr(args, "base_url", None),
            )  # fmt: skip
        except cfg.ConfigError as exc:
            raise CommandError(str(exc)) from None
        if found is None:
            names = ", ".join(config.profiles)
            raise CommandError(
                "no platform: give --profile NAME"
                + (f" ({names})" if names else "")
                + ", set VAGENT_BASE_URL and VAGENT_TOKEN, or add a profile "
                "(vagent-tui profile add)"
            )
        try:
            client = real_client(found.base_url, found.token)
        except cfg.ConfigError as exc:
            raise CommandError(str(exc)) from None
        from vagent_tui.commands.early import hand_over

        hand_over(client)  # the key owner's read, sent while the program was imported
        profile = found.profile
        label = found.label
        read_only = bool(getattr(args, "read_only", False)) or bool(
            profile is not None and profile.is_read_only
        )
    client.read_only = read_only
    account = getattr(args, "account", None)
    if account is None and profile is not None:
        account = profile.target_account
    try:
        return await open_connection(
            client, label=label, profile=profile, tier=profile.tier if profile else "",
            read_only=read_only, target_account=account,
        )  # fmt: skip
    except ApiError as exc:
        await client.aclose()
        if exc.status == 401:
            said = f"the platform refused the key: {exc.describe()}"
        elif exc.status in (403, 404) and account is not None:
            said = f"the key may not act as account {account}: {exc.describe()}"
        else:
            said = f"could not connect: {exc.describe()}"
        code = REFUSED if exc.status in (401, 403, 404) else ERROR
        raise CommandError(said, code) from None
    except PlatformError as exc:
        await client.aclose()
        raise CommandError(f"could not connect: {exc.describe()}") from None
    except LookupError as exc:  # the target is not below the key
        await client.aclose()
        raise Refused(str(exc)) from None
