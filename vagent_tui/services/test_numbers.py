"""The number a test call or text goes to, remembered per profile.

Kept in ``<state dir>/test-numbers.json`` (mode 0600, the folder 0700): one E.164
number per profile, nothing else. It is read to fill the test dialog's field and
written when a test is placed; it is sent nowhere but in the call or text the user
confirmed. A file that is too large, not JSON or of another shape reads as empty.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from vagent_tui.api.models import check_e164
from vagent_tui.config import atomic_write, state_dir

NUMBERS_NAME = "test-numbers.json"
READ_LIMIT = 64 * 1024


@dataclass
class NumberStore:
    """The test number per profile (``None``: the console without a profile)."""

    path: Path = field(default_factory=lambda: state_dir() / NUMBERS_NAME)
    error: str | None = None

    def _read(self) -> dict[str, Any]:
        try:
            with self.path.open("rb") as handle:
                raw = handle.read(READ_LIMIT + 1)
        except OSError:
            return {}
        if len(raw) > READ_LIMIT:
            return {}
        try:
            data = json.loads(raw)
        except (ValueError, RecursionError):
            return {}
        profiles = data.get("profiles") if isinstance(data, dict) else None
        return profiles if isinstance(profiles, dict) else {}

    def load(self, profile: str | None) -> str:
        """The number kept for ``profile`` ("" when none, or not a number)."""
        kept = self._read().get(profile or "")
        if not isinstance(kept, str):
            return ""
        try:
            return check_e164(kept)
        except ValueError:
            return ""

    def keep(self, profile: str | None, number: str) -> None:
        """Keep ``number`` (checked E.164; anything else is not written) for ``profile``."""
        try:
            number = check_e164(number)
        except ValueError:
            return
        profiles = self._read()
        profiles[profile or ""] = number
        text = json.dumps({"version": 1, "profiles": profiles}, indent=1)
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
            atomic_write(self.path, text, mode=0o600)
            self.error = None
        except OSError as exc:
            self.error = (
                f"The number could not be remembered ({self.path}): "
                f"{exc.strerror or os.strerror(exc.errno or 0)}"
            )
