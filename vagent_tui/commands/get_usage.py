"""``vagent-tui get usage`` (placeholder: the exports helper replaces this file)."""

from __future__ import annotations

import argparse


def add_usage(
    sub: argparse._SubParsersAction[argparse.ArgumentParser], common: argparse.ArgumentParser
) -> None:
    """Add ``get usage`` to ``get``'s subcommands (placeholder)."""
