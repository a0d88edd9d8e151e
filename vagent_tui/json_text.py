"""JSON text that every reader takes: one compact line, NaN and infinities as null.

A lenient read of the platform accepts ``NaN`` and ``Infinity`` (pydantic-core's JSON
reader does); Python's `json.dumps` would write them back as such, and no other JSON
reader (``jq``, a browser, a spreadsheet's import) takes them. What the console writes
as JSON for others to read (the calls export's lines, a command's items) goes through
`dumps`.
"""

from __future__ import annotations

import json
import math
from typing import Any


def dumps(value: Any) -> str:
    """``value`` as compact JSON (text as it is, not ASCII-escaped; an object JSON has
    no type for as its `str`), each NaN or infinite number as null."""
    try:
        return json.dumps(value, ensure_ascii=False, separators=(",", ":"), default=str,
                          allow_nan=False)  # fmt: skip
    except ValueError:  # rare: only then is the value walked
        return json.dumps(finite(value), ensure_ascii=False, separators=(",", ":"),
                          default=str)  # fmt: skip


def finite(value: Any) -> Any:
    """``value`` with each NaN or infinite number as None."""
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if isinstance(value, dict):
        return {k: finite(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [finite(v) for v in value]
    return value
