"""A saved version replaced with staging or live (``W`` on the Agent screen's Versions tab).

``POST /agent/{agentId}/versions/{versionId}`` overwrites the version's snapshot with a
whole configuration; its title stays. The question shows the diff of the version's
snapshot against the slot shown (``s``), and says the old snapshot is lost. The slot is
read again before the write: when it moved, what moved is shown and the question asked
again. A lost reply is not retried: the version is read back and compared.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from textual.binding import BindingType

from vagent_tui.api.agent_extras_models import ReplacedVersion
from vagent_tui.api.models import SavedVersion
from vagent_tui.services.diff import FieldDiff, diff_configs, summary
from vagent_tui.services.session import Connection
from vagent_tui.services.staging import Slots
from vagent_tui.ui.safety import DESTRUCTIVE, Key
from vagent_tui.ui.screens.agent_changes import AgentChanges, SlotName
from vagent_tui.ui.screens.base import who_of
from vagent_tui.ui.writes import Write, Written


class VersionReplace(AgentChanges):
    """``W``: the highlighted saved version becomes the slot shown."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Key("W", "replace_version", "Replace version", show=False, id="agent.replace-version",
            does=DESTRUCTIVE,
            tooltip="Replace the highlighted saved version with the slot shown (s: staging "
                    "or live), after its diff; the old snapshot is lost"),
    ]  # fmt: skip

    slot: str

    def action_replace_version(self) -> None:
        version = self.highlighted_version() if self.on_versions_tab() else None
        if version is None:
            self.status.error("Highlight a saved version on the Versions tab (v) first",
                              retry_key=None)  # fmt: skip
            return
        self.replace_version(version, "live" if self.slot == "live" else "staging")

    def replace_version(self, version: SavedVersion, source: SlotName) -> None:
        who = who_of(self)
        chosen: list[tuple[str, dict[str, Any]]] = []
        """The live id the version belongs to, and the configuration it is to hold."""

        def current(s: Slots) -> Mapping[str, Any] | None:
            return s.live if source == "live" else (s.staging or s.live)

        async def confirm() -> bool:
            start = self.connection
            read = await self._snapshot_and_slots(version, start)
            if read is None:
                return False
            snapshot, slots, live_id = read

            async def ask(slots: Slots, moved: list[FieldDiff]) -> bool:
                diffs = diff_configs(snapshot, current(slots))
                if not diffs:
                    self.status.info(f"“{version.title}” already holds {source}: nothing to send.")
                    return False
                confirmed = await self._review(
                    f"Replace saved version “{version.title}” of {who} with its {source}?",
                    f"The version's snapshot becomes {source} as it is now ({summary(diffs)} "
                    "change); its title stays. The snapshot it holds now is lost: no copy "
                    "is kept. Staging and live do not change.",
                    diffs, moved, confirm="Replace version",
                )  # fmt: skip
                if not confirmed:
                    self.status.info("Replace cancelled; nothing was sent.")
                return confirmed

            fresh = await self._until_still(start, slots, current, ask, [])
            config = current(fresh) if fresh is not None else None
            if config is None:
                return False
            chosen[:] = [(live_id, dict(config))]
            return True

        def after(written: Written[ReplacedVersion]) -> None:
            if written.result is not None:
                self.changes_done(f"Saved version “{version.title}” now holds {source} of {who}.")
            elif written.outcome in ("refused", "unknown", "gone"):
                self.changes_done(written.line, failed=True)

        self.write(
            Write[ReplacedVersion](
                "agent-replace-version",
                f"Replacing version {version.version_id} with {source}",
                lambda c: c.api.replace_version(
                    chosen[0][0], version.version_id, chosen[0][1], target=c.target_id
                ),
                confirm=confirm,
                read_back=lambda c: _holds(c, chosen[0], version),
                after=after,
            )
        )


async def _holds(conn: Connection, sent: tuple[str, dict[str, Any]], version: SavedVersion) -> str:
    """No reply came: whether the version holds what was sent now."""
    live_id, config = sent
    versions = await conn.api.list_versions(live_id, include_data=True, target=conn.target_id)
    now = next((v for v in versions if v.version_id == version.version_id), None)
    if now is None:
        return f"version {version.version_id} is not listed."
    there = now.snapshot is not None and not diff_configs(now.snapshot, config)
    return f"version {version.version_id} {'holds' if there else 'does NOT hold'} it."
