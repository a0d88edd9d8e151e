"""A select whose list can be held shut while something uses its value."""

from __future__ import annotations

from textual.widgets import Select


class HeldSelect(Select[str]):
    """A select whose list does not open while it is held, and says why instead.

    Disabling a select restyles it and each of its parts: about 6 ms, twice a run of the
    Fleet screen, both times on the run's path (before the first request, after the last
    answer). A hold changes no style; what is running is said by the screen's status line
    and progress bar, and the key that stops it by the footer.
    """

    held: str | None = None
    """Why the list stays shut (said when it is asked to open); None: it opens."""

    def hold(self, reason: str) -> None:
        self.held = reason
        self.expanded = False

    def release(self) -> None:
        self.held = None

    def validate_expanded(self, expanded: bool) -> bool:
        if expanded and self.held is not None:
            self.notify(self.held, severity="warning", markup=False)
            return False
        return expanded
