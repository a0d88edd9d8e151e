"""The Agent screen's changes: diff, publish, revert, save a version, restore one, settings.

Every change is shown as a diff before it is made (`ReviewModal`), and the slot it
changes is read again just before: if someone changed it meanwhile, what moved is shown
and the question asked again. Restoring into live asks for the word ``live`` typed:
live answers calls at once. Nothing is retried: when a reply never came, both slots are
read back and the screen says what the platform holds.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from typing import Any, ClassVar, Literal

from textual import work
from textual.binding import Binding, BindingType

from vagent_tui.api.errors import PlatformError
from vagent_tui.api.models import CreatedVersion, Envelope, Published, SavedVersion
from vagent_tui.services.diff import FieldDiff, diff_configs, summary
from vagent_tui.services.session import Connection
from vagent_tui.services.staging import Slots, read_slots
from vagent_tui.ui.dialogs import DiffModal, PromptModal, ReviewModal
from vagent_tui.ui.diff_text import diff_text
from vagent_tui.ui.format import fmt_datetime
from vagent_tui.ui.safety import DESTRUCTIVE, WRITES, Key
from vagent_tui.ui.screens.base import BaseScreen, who_of
from vagent_tui.ui.screens.settings import SettingsScreen
from vagent_tui.ui.widgets.status import describe_error
from vagent_tui.ui.writes import Write, Written
from vagent_tui.words import counted

SlotName = Literal["staging", "live"]


@dataclass(frozen=True)
class StagingVerb:
    """The words and the call of a change of the whole staging slot (publish, revert)."""

    verb: str
    reading: str
    """The busy line while both slots are read again ("" : none)."""
    empty: str
    """Staging is empty: nothing to do."""
    title: str
    intro: str
    confirm: str
    doing: str
    done: str
    unknown: str
    """After a lost reply, with what the slots hold: what to do."""
    sides: Callable[[Slots], tuple[Mapping[str, Any] | None, Mapping[str, Any] | None]]
    """The diff's two sides: before, after."""
    send: Callable[[Connection], Awaitable[Published | Envelope]]


PUBLISH = StagingVerb(
    "publish",
    reading="Reading the staging and live configuration of {who}",
    empty="Staging is empty: nothing to publish.",
    title="Publish the staging of {who} to live?",
    intro="Live answers calls at once. {summary} change; a version of the new live is "
    "saved by the platform. R asks the platform to review staging first.",
    confirm="Publish",
    doing="Publishing the staging of {who}",
    done="Published: live of {who} is the former staging{saved}. T places a test call.",
    unknown="compare live with what you published (D).",
    sides=lambda s: (s.live, s.staging),
    send=lambda c: c.api.publish_staging(target=c.target_id),
)
REVERT = StagingVerb(
    "revert",
    reading="",
    empty="Staging is already empty (it shows live).",
    title="Revert the staging of {who}?",
    intro="Staging is emptied and shows live again: {summary} of unpublished changes are "
    "lost. Live is not touched.",
    confirm="Revert",
    doing="Reverting the staging of {who}",
    done="Staging of {who} reverted: it is live's again.",
    unknown="revert again only if it is still set.",
    sides=lambda s: (s.staging, s.live),
    send=lambda c: c.api.revert_staging(target=c.target_id),
)


def title_problem(text: str) -> str | None:
    """The prompt's own check, before anything is sent: not empty (no length limit of
    the console's own: the platform answers a title it refuses)."""
    if not text.strip():
        return "A title cannot be empty"
    return None


class AgentChanges(BaseScreen):
    """The change keys of the Agent screen (which supplies what is on show)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("D", "diff", "Diff", id="agent.diff",
                tooltip="Staging against live (on Versions: the version against the slot shown)"),
        Key("E", "edit('settings')", "Edit", id="agent.edit", does=WRITES,
                tooltip="Edit the staging settings in a form (reviewed before writing)"),
        Key("P", "publish", "Publish", id="agent.publish", does=DESTRUCTIVE,
                tooltip="Publish staging to live (the diff is shown first)"),
        Key("X", "revert", "Revert", show=False, id="agent.revert", does=DESTRUCTIVE,
                tooltip="Empty staging: it becomes live's again"),
        Key("S", "save_version", "Save version", show=False, id="agent.save-version", does=WRITES,
                tooltip="Save a version of the slot on show, with a title"),
        Key("o", "restore('staging')", "Restore", show=False, id="agent.restore", does=WRITES,
                tooltip="Restore the highlighted version into staging"),
        Key("L", "restore('live')", "Restore to live", show=False, id="agent.restore-live",
            tooltip="Restore the highlighted version into live (type 'live' to confirm)",
            does=DESTRUCTIVE),
    ]  # fmt: skip

    slot: str
    """The slot on show: ``staging`` or ``live`` (the Agent screen's)."""

    def shown_slots(self) -> Slots | None:
        """Staging and live as the screen shows them (None before the first load)."""
        raise NotImplementedError

    def highlighted_version(self) -> SavedVersion | None:
        raise NotImplementedError

    def review_aside(self) -> Callable[[], object] | None:
        """What ``R`` in the publish question opens instead (None: nothing)."""
        return None

    def on_versions_tab(self) -> bool:
        raise NotImplementedError

    done_note = ""
    """What the last change did: the status line says it once the screen has reloaded."""
    done_failed = False

    def changes_done(self, note: str = "", *, failed: bool = False) -> None:
        """After a change (or a failed one): load again to show what the platform holds.

        ``note`` (an error when ``failed``) replaces the "Loaded" line of that load.
        """
        self.done_note, self.done_failed = note, failed
        self.action_reload()

    # ------------------------------------------------------------------ helpers

    def _live_id(self, slots: Slots) -> str | None:
        value = (slots.live or {}).get("id")
        return value if isinstance(value, str) and value else None

    async def _fresh(self, start: Connection | None = None) -> Slots | None:
        """Both slots now, for ``start`` (the connection a change began with)."""
        conn = start or self.connection
        try:
            return await read_slots(conn.api, conn.target_id)
        except PlatformError as exc:
            if conn.same_context(self.connection):
                self.status.error(exc)
            return None

    def _moved_away(self, start: Connection) -> bool:
        """True (and said) when the target or profile changed since ``start``."""
        if start.same_context(self.connection):
            return False
        self.status.info("The target account changed meanwhile; nothing was sent.")
        return True

    async def _review(
        self,
        title: str,
        intro: str,
        diffs: list[FieldDiff],
        moved: list[FieldDiff],
        *,
        confirm: str,
        expected: str | None = None,
        aside: Callable[[], object] | None = None,
    ) -> bool:
        review = ReviewModal(
            title, intro, diff_text(diffs),
            meanwhile=diff_text(moved) if moved else None,
            confirm_label=confirm, expected=expected, aside=aside,
        )  # fmt: skip
        confirmed: bool = await self.app.push_screen_wait(review)
        return confirmed

    async def _until_still(
        self,
        start: Connection,
        slots: Slots,
        watched: Callable[[Slots], Mapping[str, Any] | None],
        ask: Callable[[Slots, list[FieldDiff]], Awaitable[bool]],
        moved: list[FieldDiff],
    ) -> Slots | None:
        """Ask (``ask`` shows a review) until the ``watched`` slot has not moved between
        the question and the answer; the slots to write from, or None: nothing to send.

        ``ask`` says itself why it returns False (cancelled, nothing to do).
        """
        while True:
            if not await ask(slots, moved) or self._moved_away(start):
                return None
            again = await self._fresh(start)
            if again is None:
                return None
            moved = diff_configs(watched(slots), watched(again))
            if not moved:
                return again
            slots = again  # someone else wrote meanwhile: show what moved, ask again

    # ------------------------------------------------------------------ diff

    def action_diff(self) -> None:
        self.show_diff()

    @work(exclusive=True, group="agent-diff", exit_on_error=False)
    async def show_diff(self) -> None:
        who = who_of(self)
        version = self.highlighted_version() if self.on_versions_tab() else None
        if version is None:
            slots = await self._fresh()
            if slots is None:
                return
            if slots.staging is None:
                self.status.info("Staging is empty: it is the live configuration")
            diffs = diff_configs(slots.live, slots.staging or slots.live)
            title = f"{who}: live → staging ({summary(diffs)})"
            note = "What publishing staging would change in live."
        else:
            slot = "live" if self.slot == "live" else "staging"
            found = await self._version_with_snapshot(version)
            slots = await self._fresh()
            if found is None or slots is None or found.snapshot is None:
                return
            current = slots.live if slot == "live" else (slots.staging or slots.live)
            diffs = diff_configs(current, found.snapshot)
            title = f"{who}: {slot} → “{version.title}” ({summary(diffs)})"
            note = (
                f"What restoring this version (saved {fmt_datetime(version.saved_at)}) "
                f"into {slot} would change. s switches between staging and live."
            )
        self.status.info(title)
        await self.app.push_screen_wait(DiffModal(title, note, diff_text(diffs)))

    async def _snapshot_and_slots(
        self, version: SavedVersion, start: Connection
    ) -> tuple[Mapping[str, Any], Slots, str] | None:
        """Just before a version is written back or over: its snapshot, the slots read
        again, and live's id (None: one could not be read; the status line says why)."""
        found = await self._version_with_snapshot(version, start)
        slots = await self._fresh(start)
        if found is None or found.snapshot is None or slots is None:
            return None
        live_id = self._live_id(slots)
        if live_id is None:
            return None
        return found.snapshot, slots, live_id

    async def _version_with_snapshot(
        self, version: SavedVersion, start: Connection | None = None
    ) -> SavedVersion | None:
        slots = self.shown_slots()
        live_id = self._live_id(slots) if slots else None
        if live_id is None:
            self.status.error("No live configuration: its versions cannot be read", retry_key=None)
            return None
        conn = start or self.connection
        self.status.busy(f"Reading version {version.version_id} with its snapshot")
        try:
            versions = await conn.api.list_versions(
                live_id, include_data=True, target=conn.target_id
            )
        except PlatformError as exc:
            self.status.error(exc)
            return None
        found = next((v for v in versions if v.version_id == version.version_id), None)
        if found is None or found.snapshot is None:
            self.status.error(
                f"Version {version.version_id} is no longer listed with a snapshot", retry_key=None
            )
            return None
        return found

    # ------------------------------------------------------------------ publish, revert

    def action_publish(self) -> None:
        self.change_staging(PUBLISH)

    def action_revert(self) -> None:
        self.change_staging(REVERT)

    def change_staging(self, kind: StagingVerb) -> None:
        """Publish staging to live, or empty it (revert): one flow, two sets of words.

        Both slots are read again first; the review shows the diff (and what moved
        since the screen showed it) and is asked again while staging moves meanwhile.
        """
        who = who_of(self)
        shown = self.shown_slots()
        ready: list[Slots] = []

        async def confirm() -> bool:
            start = self.connection
            if kind.reading:
                self.status.busy(kind.reading.format(who=who))
            slots = await self._fresh(start)
            if slots is None:
                return False
            moved = diff_configs(shown.staging, slots.staging) if shown is not None else []

            async def ask(slots: Slots, moved: list[FieldDiff]) -> bool:
                if slots.staging is None:
                    if moved:  # someone published or reverted meanwhile: show it
                        self.changes_done(f"Staging is empty now: nothing to {kind.verb}.")
                    else:
                        self.status.info(kind.empty)
                    return False
                before, after = kind.sides(slots)
                diffs = diff_configs(before, after)
                confirmed = await self._review(
                    kind.title.format(who=who), kind.intro.format(summary=summary(diffs)),
                    diffs, moved, confirm=kind.confirm,
                    # Before publishing, R asks the platform to review staging instead.
                    aside=self.review_aside() if kind is PUBLISH else None,
                )  # fmt: skip
                if not confirmed:
                    self.status.info(f"{kind.verb.capitalize()} cancelled; nothing was sent.")
                return confirmed

            fresh = await self._until_still(start, slots, lambda s: s.staging, ask, moved)
            ready[:] = [fresh] if fresh is not None else []
            return fresh is not None

        def after(written: Written[Published | Envelope]) -> None:
            result = written.result
            if result is not None:
                saved = ""
                if isinstance(result, Published) and result.version_id:
                    saved = f"; version {result.version_id} saved"
                    self.notify_if_away(f"Published {who}{saved}")
                if kind is PUBLISH:
                    self.slot = "live"
                self.changes_done(kind.done.format(who=who, saved=saved))
            elif written.outcome in ("refused", "unknown", "gone"):
                self.changes_done(written.line, failed=True)

        self.write(
            Write[Published | Envelope](
                f"agent-{kind.verb}",
                kind.doing.format(who=who),
                kind.send,
                confirm=confirm,
                read_back=lambda c: self._slots_now(c, kind.unknown),
                after=after,
            )
        )

    async def _slots_now(self, conn: Connection, what: str) -> str:
        """After a reply that never came: what both slots hold now, and what to do."""
        after = await read_slots(conn.api, conn.target_id)
        return f"staging is {'empty' if after.staging is None else 'set'}; {what}"

    # ------------------------------------------------------------------ versions

    def action_save_version(self) -> None:
        slots = self.shown_slots()
        if slots is None or self._live_id(slots) is None:
            self.status.error("No live configuration to save a version of", retry_key=None)
            return
        source: SlotName = "live" if self.slot == "live" else "staging"
        if source == "staging" and slots.staging is None:
            self.status.error("Staging is empty: show live (s) to save a version of it",
                              retry_key=None)  # fmt: skip
            return
        if not self.busy_writing():
            self.save_version(source, self._live_id(slots) or "")

    @work(group="write-agent-save-version", exit_on_error=False)
    async def save_version(self, source: SlotName, live_id: str) -> None:
        """Ask for a title, then save through the write path; a title the platform
        refused is offered again as typed."""
        start = self.connection
        who = who_of(self)
        title, problem = "", ""
        while True:
            body = (f"A snapshot of the {source} configuration of {who}, kept with a title "
                    "(s switches between staging and live).")  # fmt: skip
            if problem:
                body += f"\n\n✗ Not saved: {problem}"
            modal = PromptModal(
                f"Save a version of {source}", body, value=title,
                placeholder="Title, e.g. Before the spring prices",
                confirm_label="Save", validate=title_problem,
            )  # fmt: skip
            typed = await self.app.push_screen_wait(modal)
            if typed is None:
                self.status.info("Nothing saved.")
                return
            title = typed
            written = await self.written(self._save_write(source, live_id, title), start)
            if written.outcome != "refused" or written.error is None:
                break
            problem = describe_error(written.error)  # the title is offered again, as typed
        if written.result is not None:
            created = written.result
            self.changes_done(f"Version “{created.title or title}” ({created.version_id}) saved.")
        elif written.outcome == "unknown":
            self.changes_done(written.line, failed=True)

    def _save_write(self, source: SlotName, live_id: str, title: str) -> Write[CreatedVersion]:
        slot: Literal["staging", "default"] = "default" if source == "live" else "staging"
        return Write(
            "agent-save-version",
            f"Saving a version of {source}",
            lambda c: c.api.save_version(live_id, title, slot, target=c.target_id),
            read_back=lambda c: self._versions_titled(c, live_id, title),
        )

    async def _versions_titled(self, conn: Connection, live_id: str, title: str) -> str:
        versions = await conn.api.list_versions(live_id, target=conn.target_id)
        count = sum(1 for v in versions if v.title == title)
        if not count:
            return f"no version is titled “{title}”."
        versions_titled = counted(count, "version")
        return f"{versions_titled} titled “{title}”: look at the versions (v) before saving again."

    def action_restore(self, into: str) -> None:
        version = self.highlighted_version() if self.on_versions_tab() else None
        if version is None:
            self.status.error("Highlight a saved version on the Versions tab (v) first",
                              retry_key=None)  # fmt: skip
            return
        self.restore(version, "live" if into == "live" else "staging")

    def restore(self, version: SavedVersion, into: SlotName) -> None:
        who = who_of(self)
        target_slot: Literal["staging", "default"] = "default" if into == "live" else "staging"
        live_ids: list[str] = []

        def current(s: Slots) -> Mapping[str, Any] | None:
            return s.live if into == "live" else (s.staging or s.live)

        live_warning = (
            "Live answers calls at once: type live to confirm. "
            if into == "live" else "Live is not changed until you publish. "
        )  # fmt: skip

        async def confirm() -> bool:
            start = self.connection
            read = await self._snapshot_and_slots(version, start)
            if read is None:
                return False
            snapshot, slots, live_id = read
            live_ids[:] = [live_id]

            async def ask(slots: Slots, moved: list[FieldDiff]) -> bool:
                diffs = diff_configs(current(slots), snapshot)
                confirmed = await self._review(
                    f"Restore “{version.title}” into {into} of {who}?",
                    f"{live_warning}{summary(diffs) + ' change' if diffs else 'Nothing differs'}.",
                    diffs, moved,
                    confirm=f"Restore into {into}",
                    expected="live" if into == "live" else None,
                )  # fmt: skip
                if not confirmed:
                    self.status.info("Restore cancelled; nothing was sent.")
                return confirmed

            return await self._until_still(start, slots, current, ask, []) is not None

        def after(written: Written[Envelope]) -> None:
            if written.result is not None:
                self.notify_if_away(f"Restored “{version.title}” into {into}")
                self.slot = into
                self.changes_done(f"“{version.title}” restored into {into} of {who}.")
            elif written.outcome in ("refused", "unknown", "gone"):
                self.changes_done(written.line, failed=True)

        self.write(
            Write[Envelope](
                "agent-restore",
                f"Restoring version {version.version_id} into {into}",
                lambda c: c.api.restore_version(
                    live_ids[0], version.version_id, target_slot, target=c.target_id
                ),
                confirm=confirm,
                read_back=lambda c: self._slots_now(c, f"compare {into} with the version (D)."),
                after=after,
            )
        )

    # ------------------------------------------------------------------ settings

    def action_edit(self, what: str = "settings") -> None:
        """E: the staging settings in a form (reviewed before writing); what its write
        said is said here once it closes (its own status line goes with it)."""
        form = SettingsScreen()
        self.app.push_screen(form, lambda _closed: self.changes_done(form.saved_line))
