"""``vagent-tui get KIND``: the console's lists, as data.

Cheap to import (argparse only). ``get accounts`` (`get_accounts`), ``get calls``
(`get_calls`) and ``get usage`` (`get_usage`) are added by their own modules: each has an
``add_KIND(sub, common)`` that this module's `add_parser` calls.
"""

from __future__ import annotations

import argparse

from vagent_tui.commands.get_accounts import add_accounts
from vagent_tui.commands.get_calls import add_calls
from vagent_tui.commands.get_usage import add_usage


def add_parser(
    sub: argparse._SubParsersAction[argparse.ArgumentParser], common: argparse.ArgumentParser
) -> None:
    parser = sub.add_parser(
        "get", parents=[common], help="the console's lists as data (json, jsonl, csv, table)",
        description="Read one of the console's lists: the same services and filters as its "
        "screens, written as json (one document), jsonl (a line per item, streamed), csv or "
        "a table (the default on a terminal).",
    )  # fmt: skip
    kinds = parser.add_subparsers(dest="kind", required=True, metavar="KIND")
    add_accounts(kinds, common)
    add_calls(kinds, common)
    add_usage(kinds, common)
