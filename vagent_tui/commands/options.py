"""The options several commands share, parsed one way wherever they are taken.

A set of accounts: ``--accounts 1111,1112`` and ``--accounts-file FILE`` (both
repeatable; ``-`` reads stdin), in one syntax: decimal ids separated by commas, spaces or
line breaks, ``#`` starting a comment to the end of its line (a file written for one
command is read alike by every other). A bad token is named with where it was (``--accounts``,
``accounts.txt line 3``). ``--concurrency N``: a whole number from 1 to the engine's
most, said in the help and checked as the command line is read.

Cheap to import (argparse only): every command module's parser uses it; the services'
bounds are named here (`ROLLOUT_MOST`, `FLEET_MOST`) and a test checks they are theirs.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from typing import Any

from vagent_tui.commands.contract import CommandError

ROLLOUT_MOST = 64
"""The most items in flight of a rollout, a pull or an onboarding: the bound of
``VAGENT_ROLLOUT_CONCURRENCY`` (`vagent_tui.services.bulk.rollout_concurrency`)."""
ROLLOUT_DEFAULT = "VAGENT_ROLLOUT_CONCURRENCY, else 32, as the screens"
FLEET_MOST = 200
"""The most requests in flight of a fleet question (`vagent_tui.services.fleet.MAX_CAP`)."""
FLEET_DEFAULT = "VAGENT_FLEET_CONCURRENCY, else 100; a run starts at half of it and adapts"
NAMED_NONE = "--accounts/--accounts-file named no account"


# ---------------------------------------------------------------------------- a set of accounts


def add_account_set(group: Any, what: str = "agent accounts") -> None:
    """``--accounts`` and ``--accounts-file`` on ``group`` (a parser or an argument
    group); `chosen_ids` reads them."""
    group.add_argument(
        "--accounts", metavar="ID,ID", action="append", default=[],
        help=f"only these {what}: 1111,1112 (repeatable)",
    )  # fmt: skip
    group.add_argument(
        "--accounts-file", metavar="FILE", action="append", default=[],
        help=f"only the {what} listed in FILE: ids separated by commas or line breaks, "
        "'#' comments; '-' reads stdin (repeatable)",
    )  # fmt: skip


def parse_id(token: str, where: str) -> int:
    """One account id (a positive decimal whole number), or a `CommandError` naming
    ``token`` and ``where`` it was."""
    if not (token.isascii() and token.isdecimal()) or int(token) <= 0:
        raise CommandError(f"{where}: {token[:40]!r} is not an account id (a whole number)")
    return int(token)


def ids_of_text(text: str, where: str, *, lines: bool = True) -> list[int]:
    """The ids of ``text``, in order: separated by commas, spaces or line breaks, ``#``
    comments skipped. ``lines``: a bad token's place says its line (a file's text)."""
    ids = []
    for number, line in enumerate(text.splitlines(), start=1):
        place = f"{where} line {number}" if lines else where
        for token in line.split("#", 1)[0].replace(",", " ").split():
            ids.append(parse_id(token, place))
    return ids


def chosen_ids(args: argparse.Namespace) -> list[int] | None:
    """The ids ``--accounts`` and ``--accounts-file`` name, in order, each once; None when
    neither is given.

    Raises:
        CommandError: a token is not an id, a file cannot be read, or none is named.
    """
    given: list[str] = args.accounts
    files: list[str] = args.accounts_file
    if not given and not files:
        return None
    ids: list[int] = []
    for text in given:
        ids.extend(ids_of_text(text, "--accounts", lines=False))
    for name in files:
        if name == "-":
            ids.extend(ids_of_text(sys.stdin.read(), "stdin"))
            continue
        try:
            with open(name, encoding="utf-8") as file:
                text = file.read()
        except (OSError, UnicodeDecodeError) as exc:
            problem = getattr(exc, "strerror", None) or exc
            raise CommandError(f"could not read {name}: {problem}") from None
        ids.extend(ids_of_text(text, name))
    if not ids:
        raise CommandError(NAMED_NONE)
    return list(dict.fromkeys(ids))


# ---------------------------------------------------------------------------- --concurrency


def concurrency_type(most: int) -> Callable[[str], int]:
    """The type of a ``--concurrency`` option: a whole number from 1 to ``most``."""

    def parse(text: str) -> int:
        if not (text.isascii() and text.isdecimal() and 1 <= int(text) <= most):
            raise argparse.ArgumentTypeError(f"{text[:40]!r} is not a number from 1 to {most}")
        return int(text)

    return parse


def add_concurrency(
    parser: Any, what: str, most: int = ROLLOUT_MOST, default: str = ROLLOUT_DEFAULT
) -> None:
    """``--concurrency N`` on ``parser``: ``what`` at a time, 1 to ``most`` (the help
    says the range and ``default``)."""
    parser.add_argument(
        "--concurrency", type=concurrency_type(most), metavar="N", default=None,
        help=f"{what} at a time, 1 to {most} (default: {default})",
    )  # fmt: skip
