"""A small JSON file of the state folder holding one value per profile.

The Calls columns (`services.call_columns`) and the test number
(`services.call_test_numbers`) keep a choice per profile this way: ``{"version": 1,
"profiles": {name: value}}``, mode 0600 in a 0700 folder, written whole and atomically. A
file too large, not JSON or of another shape reads as empty: a choice is lost, never the
console. What could not be written is said in ``error`` (the screen shows it).
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from vagent_tui.config import atomic_write


@dataclass
class ProfileFile:
    """The values per profile in ``path`` (the profile ``None``: the console without one)."""

    path: Path
    what: str
    """What is kept, for the error: "The columns could not be remembered"."""
    read_limit: int = 64 * 1024
    error: str | None = None

    def read(self) -> dict[str, Any]:
        """Every profile's value as kept ({} when the file is missing or unreadable)."""
        try:
            with self.path.open("rb") as handle:
                raw = handle.read(self.read_limit + 1)
        except OSError:
            return {}
        if len(raw) > self.read_limit:
            return {}
        try:
            data = json.loads(raw)
        except (ValueError, RecursionError):
            return {}
        profiles = data.get("profiles") if isinstance(data, dict) else None
        return profiles if isinstance(profiles, dict) else {}

    def value(self, profile: str | None) -> Any:
        return self.read().get(profile or "")

    def put(self, profile: str | None, value: Any) -> None:
        """Keep ``value`` for ``profile`` (None: forget it); the file is written whole."""
        profiles = self.read()
        if value is None:
            profiles.pop(profile or "", None)
        else:
            profiles[profile or ""] = value
        text = json.dumps({"version": 1, "profiles": profiles}, ensure_ascii=False, indent=1)
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
            atomic_write(self.path, text, mode=0o600)
            self.error = None
        except OSError as exc:
            self.error = (
                f"The {self.what} could not be remembered ({self.path}): "
                f"{exc.strerror or os.strerror(exc.errno or 0)}"
            )
