"""The number a test call or text goes to, remembered per profile.

Kept in ``<state dir>/test-numbers.json`` (mode 0600, the folder 0700): one E.164
number per profile, nothing else. It is read to fill the test dialog's field and
written when a test is placed; it is sent nowhere but in the call or text the user
confirmed. A file that is too large, not JSON or of another shape reads as empty.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from vagent_tui.api.models import check_e164
from vagent_tui.config import state_dir
from vagent_tui.services.profile_file import ProfileFile

NUMBERS_NAME = "test-numbers.json"
READ_LIMIT = 64 * 1024


@dataclass
class NumberStore(ProfileFile):
    """The test number per profile (``None``: the console without a profile)."""

    path: Path = field(default_factory=lambda: state_dir() / NUMBERS_NAME)
    what: str = "number"
    read_limit: int = READ_LIMIT

    def load(self, profile: str | None) -> str:
        """The number kept for ``profile`` ("" when none, or not a number)."""
        kept = self.value(profile)
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
        self.put(profile, number)
