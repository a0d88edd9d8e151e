"""``vagent-tui get KIND``: the console's lists, as data.

Each kind reads what its screen reads, through the same services, with the screen's
filters as options; `vagent_tui.commands.get_reads` runs them (imported only then).
Cheap to import (argparse only). ``get accounts`` (`get_accounts`), ``get calls``
(`get_calls`) and ``get usage`` (`get_usage`) are added by their own modules: each has an
``add_KIND(sub, common)`` that this module's `add_parser` calls.
"""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from vagent_tui.commands.get_accounts import add_accounts
from vagent_tui.commands.get_calls import add_calls
from vagent_tui.commands.get_usage import add_usage

if TYPE_CHECKING:
    Sub = argparse._SubParsersAction[argparse.ArgumentParser]

TASK_STATES = ("pending", "processing", "running", "finished", "errored", "canceled")
"""The Tasks screen's states (`vagent_tui.api.task_models.TASK_STATES`: a test checks)."""
TASK_WINDOWS = ("any", "hour", "day", "week")
"""The Tasks screen's windows of time (`vagent_tui.services.tasks.WINDOWS`, in order)."""
FUNCTION_VIEWS = ("all", "unavailable", "configured", "problems")
"""The Functions screen's views (`vagent_tui.services.agents.FUNCTION_VIEWS`)."""


def _limit(text: str) -> int:
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError("must be 1 or more")
    return value


def _kind(
    sub: Sub, common: argparse.ArgumentParser, name: str, help_: str, description: str
) -> argparse.ArgumentParser:
    parser = sub.add_parser(name, parents=[common], help=help_, description=description)
    parser.set_defaults(run=f"get_reads:get_{name.replace('-', '_')}")
    parser.add_argument(
        "--limit", type=_limit, metavar="N", help="at most N items (default: every one)"
    )
    return parser


def _words(parser: argparse.ArgumentParser, what: str) -> None:
    parser.add_argument(
        "--filter", metavar="WORDS", default="",
        help=f"only the {what} holding every word, in any case (the screen's /)",
    )  # fmt: skip


def add_parser(sub: Sub, common: argparse.ArgumentParser) -> None:
    parser = sub.add_parser(
        "get", parents=[common], help="the console's lists as data (json, jsonl, csv, table)",
        description="Read one of the console's lists: the same services and filters as its "
        "screens, written as json (one document), jsonl (a line per item, streamed), csv or "
        "a table (the default on a terminal). --account ID reads as that account, as the "
        "console's target does. Each kind's item is documented: vagent-tui schema KIND.",
    )  # fmt: skip
    kinds = parser.add_subparsers(dest="kind", required=True, metavar="KIND")
    add_accounts(kinds, common)

    agents = _kind(
        kinds, common, "agents", "the agent accounts below the key (Fleet, Rollout)",
        "Every voice agent account below the key (or below --below ID), as Fleet and "
        "Rollout list them: id, name, username, parent and the names above it. One listing "
        "of the whole tree, then the items.",
    )  # fmt: skip
    agents.add_argument(
        "--below", type=int, metavar="ID", help="only the accounts below this one (or it)"
    )
    _words(agents, "accounts whose name, username or id, or a name above them,")

    config = _kind(
        kinds, common, "config", "one agent's staging and live configuration (Agent)",
        "One agent account's configuration as the Agent screen shows it: an item per slot "
        "(staging, then live), staging standing in with live's when it is empty "
        "(staging_is_empty). Give the agent with --account ID (or use an agent's key). "
        "Secrets are masked as *** (values under a secret's name: token, password, "
        "secret, apiKey, headers...; a password in a URL; the key itself), as pull masks "
        "them.",
    )  # fmt: skip
    slot = config.add_mutually_exclusive_group()
    slot.add_argument("--live", dest="slot", action="store_const", const="live",
                      help="only the live configuration")  # fmt: skip
    slot.add_argument("--staging", dest="slot", action="store_const", const="staging",
                      help="only the staging configuration")  # fmt: skip

    voices = _kind(
        kinds, common, "voices", "the voices of the account (Voices)",
        "The voices the account may use, with the Voices screen's filters.",
    )  # fmt: skip
    voices.add_argument("--language", metavar="LANG", help="only voices speaking LANG (en-US)")
    voices.add_argument("--engine", metavar="ENGINE", help="only voices of this S2S engine")
    tts = voices.add_mutually_exclusive_group()
    tts.add_argument("--tts", dest="tts", action="store_true", default=None,
                     help="only voices with standard TTS")  # fmt: skip
    tts.add_argument("--no-tts", dest="tts", action="store_false",
                     help="only voices without standard TTS")  # fmt: skip
    avail = voices.add_mutually_exclusive_group()
    avail.add_argument("--available", dest="available", action="store_true", default=None,
                       help="only voices available to the account")  # fmt: skip
    avail.add_argument("--unavailable", dest="available", action="store_false",
                       help="only voices not available to the account")  # fmt: skip
    voices.add_argument(
        "--filter", metavar="TEXT", default="",
        help="only voices whose id, name, description or provider hold TEXT, in any case",
    )  # fmt: skip

    functions = _kind(
        kinds, common, "functions", "the functions list, checked against the agent (Functions)",
        "The functions list evaluated for the account; for an agent account, each one's "
        "entries in live (configured) and staging (staged) and the problems the Functions "
        "screen finds (configured but not allowed, over its limit, unknown).",
    )  # fmt: skip
    functions.add_argument(
        "--view", choices=FUNCTION_VIEWS, default="all",
        help="the screen's views: all, unavailable, configured (in live), problems",
    )  # fmt: skip
    _words(functions, "functions")

    members = _kind(
        kinds, common, "members", "the members of the account's organization (Members)",
        "Who can act where: the members of the organization of the account, each one's "
        "role and the accounts it is limited to (none: every account).",
    )  # fmt: skip
    _words(members, "members")

    numbers = _kind(
        kinds, common, "numbers", "the phone numbers the account holds (Numbers)",
        "The phone numbers the agent account holds: where, how it came (bought or "
        "brought), the monthly price and since when.",
    )  # fmt: skip
    _words(numbers, "numbers")

    tasks = _kind(
        kinds, common, "tasks", "the outbound tasks of the account and below it (Tasks)",
        "The outbound calls and texts queued, newest first, paged from the platform to the "
        "end (or --limit), with the Tasks screen's filters.",
    )  # fmt: skip
    tasks.add_argument("--state", choices=TASK_STATES, help="only the tasks in this state")
    tasks.add_argument(
        "--window", choices=TASK_WINDOWS, default="any",
        help="only the tasks changed in the last hour, day or week",
    )  # fmt: skip
    _words(tasks, "tasks")

    journal = _kind(
        kinds, common, "journal", "the local journal of changes (Journal)",
        "Every request that changed the platform, from this machine's journal, newest "
        "first, with the Journal screen's filters; source says who sent it (console or "
        "cli). Needs no connection.",
    )  # fmt: skip
    journal.set_defaults(connects=False)
    journal.add_argument(
        "--filter", metavar="WORDS", default="",
        help="only entries holding every word (path, message, body, target...)",
    )  # fmt: skip
    journal.add_argument("--method", choices=("POST", "PUT", "PATCH", "DELETE"))
    journal.add_argument("--status", choices=("ok", "failed"), help="how the request ended")
    journal.add_argument("--journal-profile", metavar="NAME", dest="journal_profile",
                         help="only the changes sent through this profile")  # fmt: skip
    journal.add_argument("--source", choices=("console", "cli"), help="who sent it")

    tokens = _kind(
        kinds, common, "tokens", "the account's API tokens, masked (Tokens)",
        "The account's API tokens, each masked as the Tokens screen shows it (its last "
        "four characters): the value is never written.",
    )  # fmt: skip
    _words(tokens, "tokens")

    webhooks = _kind(
        kinds, common, "webhooks", "the account's webhooks (Webhooks)",
        "The webhooks the account's events are sent to.",
    )  # fmt: skip
    _words(webhooks, "webhooks")

    whitelist = _kind(
        kinds, common, "sip-whitelist", "the addresses allowed to send SIP traffic (SIP)",
        "The IP addresses the account takes SIP traffic from (the SIP screen's whitelist).",
    )  # fmt: skip
    _words(whitelist, "addresses")

    routes = _kind(
        kinds, common, "sip-routes", "the outbound SIP routes (SIP)",
        "The outbound SIP routes of the account, as the platform holds them.",
    )  # fmt: skip
    _words(routes, "routes")

    add_calls(kinds, common)
    add_usage(kinds, common)
