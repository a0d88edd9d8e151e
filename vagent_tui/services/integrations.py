"""An integration's data as the console shows and edits it, and the slugs used before.

Shown: each leaf of ``appData`` a row (``path``, value), secrets masked
(`integration_models.masked`). Edited: the data as JSON with each secret's value
replaced by `UNCHANGED`; what comes back has `UNCHANGED` put back to the value it
stood for (`restore`), so a secret is never shown and stays as it was unless typed
anew. The change is shown as `changes` (secrets said as changed, never shown). Just
before the PUT the data is read again (`edit_again`): what moved meanwhile is said and
the edit asked again against it.

Recent: the slugs and versions opened, newest first, per platform host, in
``<state dir>/recent-integrations.json`` (0600): slugs, versions, hosts and times only.
"""

from __future__ import annotations

import contextlib
import json
import os
import tempfile
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from vagent_tui.api.integration_models import MASK, masked, name_problem, secret_name
from vagent_tui.config import state_dir

if TYPE_CHECKING:
    from vagent_tui.api.client import PlatformClient
    from vagent_tui.api.integration_models import IntegrationData

UNCHANGED = "<unchanged secret>"
"""What a secret's value reads in the editor: left so, the value stays as it was."""


def rows(data: Any, path: str = "") -> list[tuple[str, str]]:
    """Every leaf of ``data`` as ``(path, text)``, secrets masked."""
    return _leaves(masked(data), path)


def _leaves(node: Any, path: str) -> list[tuple[str, str]]:
    if isinstance(node, dict) and node:
        out: list[tuple[str, str]] = []
        for key, value in node.items():
            out += _leaves(value, f"{path}.{key}" if path else str(key))
        return out
    if isinstance(node, list) and node and any(isinstance(v, dict | list) for v in node):
        out = []
        for index, value in enumerate(node):
            out += _leaves(value, f"{path}[{index}]")
        return out
    text = node if isinstance(node, str) else json.dumps(node, ensure_ascii=False)
    return [(path or "(appData)", text)]


def editable(data: dict[str, Any]) -> str:
    """The data as JSON to edit, each secret's value `UNCHANGED`; pure printable ASCII
    (other characters escaped as JSON does), so that the editor shows it as it is and
    what is saved is what was read."""
    return json.dumps(masked(data, mask=UNCHANGED), indent=2, ensure_ascii=True)


def restore(edited: Any, old: Any) -> Any:
    """``edited`` with each `UNCHANGED` put back to the value it stood for in ``old``
    (a secret's key renamed or gone has nothing to stand for: ValueError)."""
    if isinstance(edited, dict):
        base = old if isinstance(old, dict) else {}
        out = {}
        for key, value in edited.items():
            if value == UNCHANGED:
                if not secret_name(str(key)) or key not in base:
                    raise ValueError(f"{key}: {UNCHANGED} stands for no secret kept here")
                out[key] = base[key]
            else:
                out[key] = restore(value, base.get(key))
        return out
    if isinstance(edited, list):
        base_list = old if isinstance(old, list) else []
        return [
            restore(v, base_list[i] if i < len(base_list) else None) for i, v in enumerate(edited)
        ]
    return edited


def parse_edit(text: str, old: dict[str, Any]) -> dict[str, Any]:
    """The edited text as the ``appData`` to send, or ValueError saying why not."""
    try:
        edited = json.loads(text)
    except ValueError as exc:
        raise ValueError(f"not JSON: {exc}") from None
    if not isinstance(edited, dict):
        raise ValueError("appData is a JSON object: { ... }")
    restored = restore(edited, old)
    assert isinstance(restored, dict)
    return restored


def edit_again(
    text: str, old: dict[str, Any], fresh: dict[str, Any]
) -> tuple[dict[str, Any], list[tuple[str, str, str]]]:
    """The edit ``text`` made on ``old``, parsed again against ``fresh`` (the data read
    again just before the PUT), and what moved from ``old`` to ``fresh`` meanwhile
    (`changes`: secrets compared, said as changed, never shown); nothing moved: ``[]``.

    Each `UNCHANGED` then stands for the secret as the platform holds it now, not as it
    was read when the data was opened (a key rotated meanwhile is not put back to the
    old one). ValueError: the edit no longer fits (a secret kept is gone meanwhile).
    """
    moved = changes(old, fresh) if fresh != old else []
    return parse_edit(text, fresh), moved


@dataclass
class FreshEdit:
    """The data read again just before a PUT, and the edit made again on it."""

    read: IntegrationData
    data: dict[str, Any]
    sending: dict[str, Any] | None = None
    """What the PUT sends (None: the edit no longer fits, `problem` says why)."""
    moved: list[tuple[str, str, str]] = field(default_factory=list)
    problem: str | None = None


async def read_again(
    api: PlatformClient, slug: str, version: str, text: str, old: dict[str, Any],
    *, target: int | None,
) -> FreshEdit:  # fmt: skip
    """Read the data again (one request) and make the edit ``text`` on it (`edit_again`)."""
    read = await api.get_integration(slug, version, target=target)
    data = dict(read.app_data)
    try:
        sending, moved = edit_again(text, old, data)
    except ValueError as exc:
        return FreshEdit(read, data, problem=str(exc))
    return FreshEdit(read, data, sending, moved)


def changes(old: dict[str, Any], new: dict[str, Any]) -> list[tuple[str, str, str]]:
    """``(path, was, becomes)`` of each leaf that differs; a secret's value is said as
    masked, ``(changed)`` when it changed, never shown."""

    def flat(data: dict[str, Any]) -> dict[str, Any]:
        return dict(_leaves(masked(data), ""))

    marked_old, marked_new = flat(old), flat(new)
    plain_old, plain_new = dict(_leaves(old, "")), dict(_leaves(new, ""))
    out = []
    for path in dict.fromkeys([*marked_old, *marked_new]):
        if plain_old.get(path) == plain_new.get(path):
            continue
        was, becomes = marked_old.get(path, "(none)"), marked_new.get(path, "(none)")
        if was == becomes == MASK:
            becomes = f"{MASK} (changed)"
        out.append((path, was, becomes))
    return out


# --------------------------------------------------------------------------- recent

RECENT_NAME = "recent-integrations.json"
RECENT_READ_LIMIT = 64 * 1024


@dataclass
class RecentIntegrations:
    """The slugs and versions opened, newest first, per platform host (no token, no
    data). A file that cannot be read is taken as empty; a write that fails is said in
    `error`."""

    path: Path = field(default_factory=lambda: state_dir() / RECENT_NAME)
    keep: int = 10
    error: str | None = None

    def _read(self) -> list[dict[str, str]]:
        try:
            with self.path.open("rb") as handle:
                raw = handle.read(RECENT_READ_LIMIT + 1)
            data = json.loads(raw) if len(raw) <= RECENT_READ_LIMIT else {}
        except (OSError, ValueError, RecursionError):
            return []
        items = data.get("recent") if isinstance(data, dict) else None
        return [
            {k: item[k] for k in ("host", "slug", "version", "usedAt")}
            for item in items or ()
            if isinstance(item, dict)
            and all(isinstance(item.get(k), str) for k in ("host", "slug", "version", "usedAt"))
            and name_problem("slug", item["slug"]) is None
            and name_problem("version", item["version"]) is None
        ]

    def load(self, host: str) -> list[tuple[str, str]]:
        """``(slug, version)`` opened on ``host``, the most recent first."""
        return [(e["slug"], e["version"]) for e in self._read() if e["host"] == host][: self.keep]

    def remember(self, host: str, slug: str, version: str) -> None:
        """Put ``slug``/``version`` first for ``host`` (once)."""
        now = datetime.now(UTC).isoformat(timespec="seconds")
        entry = {"host": host, "slug": slug, "version": version, "usedAt": now}
        others = [e for e in self._read() if (e["host"], e["slug"], e["version"]) != (
            host, slug, version)]  # fmt: skip
        mine = [entry, *(e for e in others if e["host"] == host)][: self.keep]
        kept = mine + [e for e in others if e["host"] != host][: self.keep * 20]
        raw = json.dumps({"version": 1, "recent": kept}, indent=1).encode()
        tmp: str | None = None
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
            fd, tmp = tempfile.mkstemp(prefix=".recent-", dir=self.path.parent)
            with os.fdopen(fd, "wb") as handle:  # mkstemp makes it 0600 already
                handle.write(raw)
            os.replace(tmp, self.path)
            self.error = None
        except OSError as exc:
            if tmp is not None:
                with contextlib.suppress(OSError):
                    os.unlink(tmp)
            self.error = f"The slugs used could not be kept ({self.path}): {exc.strerror}"
