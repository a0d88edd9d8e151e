"""``vagent-tui get accounts`` (placeholder: the speed helper replaces this file)."""

from __future__ import annotations

import argparse


def add_accounts(
    sub: argparse._SubParsersAction[argparse.ArgumentParser], common: argparse.ArgumentParser
) -> None:
    """Add ``get accounts`` to ``get``'s subcommands (placeholder)."""
