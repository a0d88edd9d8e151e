"""CSV text read as rows: the platform's calls export as a command passes it on.

Python's reader refuses a field longer than `csv.field_size_limit`, 128 KiB unless told
otherwise, with "field larger than field limit": a long call's transcript is one cell of
the platform's CSV and may well be longer. `rows_of` reads fields up to `FIELD_LIMIT`.
"""

from __future__ import annotations

import csv
import io

FIELD_LIMIT = 256 * 1024 * 1024
"""The longest field read, in characters: far beyond any transcript; a text this long is
beyond what a reply holds anyway. (The limit is the process's: csv keeps one.)"""


def rows_of(text: str) -> list[list[str]]:
    """The rows of CSV ``text``; a lone CR ends a row, as RFC 4180 readers do."""
    if not text:
        return []
    if csv.field_size_limit() < FIELD_LIMIT:
        csv.field_size_limit(FIELD_LIMIT)
    return list(csv.reader(io.StringIO(text, newline="")))
