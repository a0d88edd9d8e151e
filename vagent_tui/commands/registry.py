"""The commands' argument parsers, and which module runs each.

Cheap to import (argparse only): the console's parser is built from it at every start.
A command module (`COMMAND_MODULES`) has ``add_parser(sub, common)``, which adds its
parser and sets ``run`` to the name of its coroutine function (``"module:function"``,
imported only when it runs).
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from collections.abc import Callable, Iterable, Sequence
from typing import Any

COMMAND_MODULES: tuple[str, ...] = (
    "schema",
    "get",
    "fleet",
    "rollout",
    "agent",
    "pull",
    "onboard",
    "tasks",
)
"""The modules of `vagent_tui.commands` that add commands, in the order help lists them."""
COMMAND_HELP: dict[str, str] = {
    "schema": "the JSON Schema of what a command writes",
    "get": "the console's lists as data (json, jsonl, csv, table)",
    "fleet": "ask the Fleet screen's questions of many accounts",
    "rollout": "plan, apply and publish one change over many agent accounts",
    "agent": "one agent account: staging against live, publish",
    "pull": "write every agent's staging and live configuration to a folder",
    "plan-from": "plan the staging writes an edited pulled folder asks for",
    "onboard": "plan and apply a CSV of organizations, accounts and members (as the Onboard "
    "screen)",
    "tasks": "queue calls and texts from a CSV file (dry run first)",
}
"""The commands those modules add, each with its one line of help (a test checks both):
the console's own start lists them without building their parsers."""
COMMAND_NAMES: frozenset[str] = frozenset(COMMAND_HELP)
MODULE_OF: dict[str, str] = {name: name for name in COMMAND_MODULES} | {"plan-from": "pull"}
"""The module that adds each command (a test checks it)."""


class VagentParser(argparse.ArgumentParser):
    """The parser of ``vagent-tui`` and all below it. A usage error exits ``usage_exit``:
    2 for the console (argparse's), 1 when a command runs (2 means "changes" there;
    `vagent_tui.cli.main` sets it before parsing)."""

    usage_exit = 2
    words: Sequence[str] = ()
    """The command line being parsed (`vagent_tui.cli.main` sets it): its tokens are
    masked in a usage error."""
    whole: Callable[[], argparse.ArgumentParser] | None = None
    """Builds the whole command line, for the usage a console-only parser's error shows
    (`vagent_tui.cli.build_parser`: the commands are not in it)."""

    def error(self, message: str) -> Any:
        shown_usage = self.whole() if self.whole is not None else self
        shown_usage.print_usage(sys.stderr)  # stdout holds data only
        shown = _without_tokens(message, self.words)
        self.exit(self.usage_exit, f"{self.prog}: error: {shown}\n")


def _without_tokens(message: str, words: Sequence[str]) -> str:
    """``message`` with every token the command line or the environment carries masked:
    argparse quotes what it did not understand (``unrecognized arguments: --token=…``)."""
    secrets = {os.environ.get("VAGENT_TOKEN", "")}
    for index, word in enumerate(words):
        name, equals, value = word.partition("=")
        if name in ("--token", "--demo-token") and equals:
            secrets.add(value)
        elif word in ("--token", "--demo-token") and index + 1 < len(words):
            secrets.add(words[index + 1])
    for secret in sorted((s for s in secrets if len(s) >= 4), key=len, reverse=True):
        message = message.replace(secret, "***")
    return message


Completer = Callable[..., Iterable[str]]
"""What argcomplete calls for an option's or argument's words (it filters by the prefix)."""


def completes(action: argparse.Action, completer: Completer) -> argparse.Action:
    """``action`` completes to what ``completer`` says (argcomplete reads ``completer``)."""
    setattr(action, "completer", completer)  # noqa: B010 (argcomplete's attribute)
    return action


def nothing(**_context: object) -> list[str]:
    """No completion (an id, a URL, a number: not the files argcomplete offers else)."""
    return []


def profile_names(**_context: object) -> list[str]:
    """The profiles of the config file, for ``--profile`` (none if it is unreadable), as
    `vagent_tui.cli_profiles.profile_names` (which this layer may not import)."""
    from vagent_tui import config as cfg

    try:
        return list(cfg.load().profiles)
    except (cfg.ConfigError, OSError):
        return []


def common_options() -> argparse.ArgumentParser:
    """The options every command takes, after its name (``vagent-tui get calls --profile
    prod``) as well as before it. Given after, they win; ``SUPPRESS`` leaves the value
    given before (or the default) when they are not."""
    common = argparse.ArgumentParser(add_help=False)
    s = argparse.SUPPRESS
    group = common.add_argument_group("connection")
    completes(
        group.add_argument("--profile", metavar="NAME", default=s, help="connection profile"),
        profile_names,
    )
    completes(group.add_argument(
        "--base-url", metavar="URL", default=s,
        help="platform base URL (or VAGENT_BASE_URL); the token comes from VAGENT_TOKEN or "
        "the profile, never from an argument",
    ), nothing)  # fmt: skip
    completes(group.add_argument(
        "--account", type=int, metavar="ID", default=s,
        help="act as this account (targetAccountId), as the console's target",
    ), nothing)  # fmt: skip
    group.add_argument("--read-only", action="store_true", default=s, help="refuse every change")
    group.add_argument(
        "--demo", action="store_true", default=s,
        help="the embedded simulator (a fresh one each run: changes do not last)",
    )  # fmt: skip
    # Known, so that argparse never quotes it back as an unknown argument; refused by
    # the runner (`ps` shows it).
    group.add_argument("--token", default=s, help=argparse.SUPPRESS)
    demo_token = group.add_argument(
        "--demo-token", metavar="TOKEN", default=s, help="its key (demo-partner)"
    )
    completes(demo_token, nothing)
    out = common.add_argument_group("output")
    out.add_argument(
        "-o", "--output", choices=("table", "json", "jsonl", "csv"), default=None,
        help="table (default on a terminal), json (default otherwise), jsonl or csv",
    )  # fmt: skip
    out.add_argument("-q", "--quiet", action="store_true", help="no progress or messages on stderr")
    return common


def add_commands(
    sub: argparse._SubParsersAction[argparse.ArgumentParser],
    *,
    full: bool = True,
    only: str | None = None,
) -> None:
    """Add every command's parser to ``sub``; not ``full``: their names and help only
    (the console starting: its ``--help`` lists them, nothing parses them; building
    their options took milliseconds of every start). ``only``: the command the command
    line names, built with the others of its module; the others named only (a command
    line runs one: building them all and importing their modules was 20 ms of its start).
    """
    if not full:
        for name, said in COMMAND_HELP.items():
            sub.add_parser(name, help=said)
        return
    from vagent_tui.commands.contract import EXIT_CODES

    common = common_options()
    before = set(sub.choices)
    built = set(COMMAND_MODULES) if only not in MODULE_OF else {MODULE_OF[only]}
    for name, said in COMMAND_HELP.items():  # in this order, as help lists them
        if name in sub.choices:
            continue  # added with another of its module's
        if MODULE_OF[name] in built:
            module = importlib.import_module(f"vagent_tui.commands.{MODULE_OF[name]}")
            module.add_parser(sub, common)
        else:
            sub.add_parser(name, help=said)
    codes = "; ".join(f"{code} {meaning}" for code, meaning in EXIT_CODES.items())
    for name in set(sub.choices) - before:
        sub.choices[name].epilog = f"Exit codes: {codes}."


CONSOLE_VALUE_OPTIONS = frozenset({
    "--demo-token", "--profile", "--base-url", "--token", "--screen", "--account", "--rooms",
    "--task-seconds",
})  # fmt: skip
"""The options of ``vagent-tui`` itself that take a value (``--screen fleet`` names a
screen, not the command): a test checks them against the parser."""


CONSOLE_FLAGS = frozenset({"--help", "--version", "--demo", "--read-only", "--hostile"})
"""The long options of ``vagent-tui`` itself that take no value (a test checks that with
`CONSOLE_VALUE_OPTIONS` they are every one)."""


def first_word(argv: Sequence[str]) -> str | None:
    """The first word of ``argv`` that is neither an option nor an option's value: where a
    command's name goes (a typo too: the parser says so), None when there is none and
    ``argv`` runs the console (a cheap look before parsing)."""
    skip = False
    for word in argv:
        if skip:
            skip = False
        elif word.startswith("-"):
            skip = _takes_value(word)
        else:
            return word
    return None


def _takes_value(option: str) -> bool:
    """Whether ``option`` takes the next word as its value, as argparse reads it: named
    whole, or by a prefix of one long option only (``--prof lab``: argparse's abbreviation;
    then ``lab`` is no command's name, whatever it says)."""
    if option in CONSOLE_VALUE_OPTIONS:
        return True
    if option in CONSOLE_FLAGS or not option.startswith("--") or "=" in option:
        return False
    named = [name for name in (*CONSOLE_VALUE_OPTIONS, *CONSOLE_FLAGS) if name.startswith(option)]
    return len(named) == 1 and named[0] in CONSOLE_VALUE_OPTIONS
