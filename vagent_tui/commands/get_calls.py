"""``vagent-tui get calls`` (placeholder: the exports helper replaces this file)."""

from __future__ import annotations

import argparse


def add_calls(
    sub: argparse._SubParsersAction[argparse.ArgumentParser], common: argparse.ArgumentParser
) -> None:
    """Add ``get calls`` to ``get``'s subcommands (placeholder)."""
