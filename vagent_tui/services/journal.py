"""The journal: one JSON line per request that changes the platform.

Every non-GET exchange the client reports (`vagent_tui.api.transport.Exchange`) is
appended to ``<state dir>/journal.jsonl`` (mode 0600, append-only): time, profile,
method, path (never the token: the token travels in the query, which is not kept),
target account, body with secrets masked, status, the server's message.

A line is written with one ``os.write`` on a file opened ``O_APPEND``: cheap enough to
do on the UI thread, and lines of concurrent writers never interleave.

`to_curl` rebuilds a request as a shell command with the token as ``$VAGENT_TOKEN``.
"""

from __future__ import annotations

import fcntl
import json
import os
import shlex
import stat
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import asdict, dataclass, field, replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any
from urllib.parse import quote

from vagent_tui.api.errors import REDACTED, redact_text
from vagent_tui.api.transport import API_PREFIX, TARGET_PARAMS, Exchange, env_megabytes
from vagent_tui.config import state_dir

JOURNAL_NAME = "journal.jsonl"
SOURCES = ("console", "cli")
"""Who sent a journal line: a person at the console, or a command (`JournalEntry.source`)."""
SECRET_KEYS = frozenset(
    {"token", "password", "secret", "apikey", "api_key", "access_token", "authorization"}
)
"""Body keys (any case) whose values never reach the journal."""


def journal_path() -> Path:
    return state_dir() / JOURNAL_NAME


def mask_body(value: Any) -> Any:
    """A copy of a request body with every secret value replaced by ``***``.

    Headers are masked too, as a map (``headers: {"Authorization": ...}``) or as the
    published list of single-key objects (``headers: [{"Authorization": ...}]``).
    """
    if isinstance(value, Mapping):
        out: dict[str, Any] = {}
        for key, item in value.items():
            name = str(key)
            if name.lower() in SECRET_KEYS or name.lower() == "headers":
                if name.lower() == "headers" and isinstance(item, Mapping):
                    out[name] = {str(k): REDACTED for k in item}
                elif name.lower() == "headers" and isinstance(item, list):
                    # the published shape: single-key objects, names kept, values masked
                    out[name] = [{str(k): REDACTED for k in h} if isinstance(h, Mapping)
                                 else REDACTED for h in item]  # fmt: skip
                elif item in (None, "") or _already_masked(item):
                    out[name] = item
                else:
                    out[name] = REDACTED
            else:
                out[name] = mask_body(item)
        return out
    if isinstance(value, list | tuple):
        return [mask_body(item) for item in value]
    if isinstance(value, str):
        return redact_text(value)
    return value


_DOTS = "\u2022" * 8


def _already_masked(value: Any) -> bool:
    """``••••••••4242`` (`mask_secret`) tells which token, and no more of it."""
    return isinstance(value, str) and value.startswith(_DOTS) and len(value) <= len(_DOTS) + 4


def _has_mask(value: Any) -> bool:
    if isinstance(value, Mapping):
        return any(_has_mask(v) for v in value.values())
    if isinstance(value, list):
        return any(_has_mask(v) for v in value)
    return isinstance(value, str) and (REDACTED in value or _DOTS in value)


@dataclass(frozen=True)
class JournalEntry:
    """One line of the journal."""

    time: str
    profile: str
    method: str
    path: str
    target: int | None
    body: Any
    status: int | None
    message: str | None
    elapsed_ms: int = 0
    target_param: str = "targetAccountId"
    """The query parameter that carried ``target`` (a reseller's resource:
    ``targetResellerId``); lines written before it was kept are ``targetAccountId``."""
    source: str = "console"
    """Who sent it: ``console`` (a person at the keys) or ``cli`` (a command, `vagent_tui.
    commands`); lines written before it was kept are the console's."""

    @property
    def ok(self) -> bool:
        return self.status is not None and 200 <= self.status < 300

    @property
    def moment(self) -> datetime | None:
        try:
            return datetime.fromisoformat(self.time.replace("Z", "+00:00"))
        except ValueError:
            return None

    @property
    def has_masked(self) -> bool:
        return _has_mask(self.body)

    @classmethod
    def from_json(cls, data: Any) -> JournalEntry | None:
        """An entry from a parsed line; None for a line that is not one of ours."""
        if not isinstance(data, dict):
            return None
        target = data.get("target")
        status = data.get("status")
        message = data.get("message")
        elapsed = data.get("elapsed_ms")
        param = data.get("target_param")
        source = data.get("source")
        return cls(
            time=str(data.get("time", "")),
            profile=str(data.get("profile", "")),
            method=str(data.get("method", "")).upper(),
            path=redact_text(str(data.get("path", ""))),
            target=target if isinstance(target, int) and not isinstance(target, bool) else None,
            body=mask_body(data.get("body")),
            status=status if isinstance(status, int) and not isinstance(status, bool) else None,
            message=message if isinstance(message, str) else None,
            elapsed_ms=elapsed if isinstance(elapsed, int) else 0,
            target_param=param if param in TARGET_PARAMS else "targetAccountId",
            source=source if source in SOURCES else "console",
        )

    def to_line(self) -> str:
        data = asdict(self)
        if data["target_param"] == "targetAccountId":
            del data["target_param"]  # the usual parameter: lines stay as they were
        if data["source"] == "console":
            del data["source"]
        return json.dumps(data, ensure_ascii=False, separators=(",", ":")) + "\n"


@dataclass
class JournalFilter:
    """What the journal screen asks for; empty fields match everything."""

    text: str = ""
    method: str = ""
    status: str = ""
    """``ok``, ``failed`` or empty."""
    profile: str = ""
    source: str = ""
    """``console``, ``cli`` or empty (`JournalEntry.source`)."""

    def matches(self, entry: JournalEntry) -> bool:
        if self.method and entry.method != self.method.upper():
            return False
        if self.source and entry.source != self.source:
            return False
        if self.status == "ok" and not entry.ok:
            return False
        if self.status == "failed" and entry.ok:
            return False
        if self.profile and entry.profile != self.profile:
            return False
        if self.text:
            haystack = " ".join(
                (
                    entry.method,
                    entry.path,
                    str(entry.target or ""),
                    str(entry.status or ""),
                    entry.message or "",
                    entry.profile,
                    json.dumps(entry.body, ensure_ascii=False),
                )
            ).lower()
            return all(word in haystack for word in self.text.lower().split())
        return True


MAX_LINE_BYTES = 1024 * 1024
"""A journal line longer than this is not one of ours: skipped, never read whole."""
_BLOCK = 64 * 1024


def default_max_bytes() -> int:
    """5 MiB, or ``VAGENT_JOURNAL_MAX_MB`` (a positive number) when it is set."""
    return env_megabytes("VAGENT_JOURNAL_MAX_MB", 5)


def _parse(line: bytes | None) -> JournalEntry | None:
    if line is None:
        return None
    try:
        return JournalEntry.from_json(json.loads(line.decode("utf-8", errors="replace")))
    except ValueError:
        return None


def _lines_backwards(path: Path) -> Iterator[bytes | None]:
    """The non-blank lines of ``path``, last first; None for a line that is too long."""
    with path.open("rb") as handle:
        position = handle.seek(0, os.SEEK_END)
        head = b""  # the start of the line being read, not yet complete
        skipping = False  # inside a line past MAX_LINE_BYTES: drop until its start
        while position > 0:
            step = min(_BLOCK, position)
            position -= step
            handle.seek(position)
            chunk = handle.read(step)
            if skipping:
                newline = chunk.rfind(b"\n")
                if newline < 0:
                    continue
                yield None
                skipping = False
                chunk, head = chunk[: newline + 1], b""
            parts = (chunk + head).split(b"\n")
            head = parts[0]
            for line in reversed(parts[1:]):
                if len(line) > MAX_LINE_BYTES:
                    yield None
                elif line.strip():
                    yield line
            if len(head) > MAX_LINE_BYTES:
                head, skipping = b"", True
        if skipping or len(head) > MAX_LINE_BYTES:
            yield None
        elif head.strip():
            yield head


@dataclass(frozen=True)
class JournalPage:
    """One page of the journal, newest entry first."""

    page: int
    entries: list[JournalEntry]
    has_older: bool
    unreadable: int = 0
    """Lines seen while reading that are not entries (edited, cut, too long)."""


@dataclass
class Journal:
    """Appends mutating exchanges to the journal file and reads them back.

    The file rotates past ``max_bytes`` (``journal.jsonl`` -> ``.1`` -> ... ``.keep``,
    the oldest dropped), so it never grows without bound; reading goes on into the
    rotated files.
    """

    path: Path = field(default_factory=journal_path)
    max_bytes: int = field(default_factory=default_max_bytes)
    keep: int = 3
    clock: Callable[[], datetime] = field(default=lambda: datetime.now(UTC))
    listeners: list[Callable[[JournalEntry], None]] = field(default_factory=list)
    error: str | None = None
    """The last write failure (a full disk must not break the console)."""

    def observer(
        self, profile: Callable[[], str] | str, *, source: str = "console"
    ) -> Callable[[Exchange], None]:
        """A `client.observers` callback recording non-GET exchanges under ``profile``,
        sent by ``source`` (`SOURCES`)."""

        def observe(exchange: Exchange) -> None:
            if not exchange.is_change:
                return
            entry = self.entry_for(exchange, profile() if callable(profile) else profile)
            self.append(replace(entry, source=source) if source != "console" else entry)

        return observe

    def entry_for(self, exchange: Exchange, profile: str) -> JournalEntry:
        path = exchange.path.split("?", 1)[0]
        return JournalEntry(
            time=self.clock().astimezone(UTC).isoformat(timespec="milliseconds"),
            profile=profile,
            method=exchange.method.upper(),
            path=redact_text(path),
            target=exchange.target,
            body=mask_body(exchange.body),
            status=exchange.status,
            message=redact_text(exchange.message) if exchange.message else exchange.message,
            elapsed_ms=int(exchange.elapsed * 1000),
            target_param=exchange.target_param,
        )

    def record(self, exchange: Exchange, profile: str) -> JournalEntry:
        entry = self.entry_for(exchange, profile)
        self.append(entry)
        return entry

    def append(self, entry: JournalEntry) -> None:
        data = entry.to_line().encode("utf-8")
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
            fd = os.open(self.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
            try:
                if self._rotate_if_full(fd, len(data)):
                    os.close(fd)
                    fd = os.open(self.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
                if stat.S_IMODE(os.fstat(fd).st_mode) != 0o600:
                    os.fchmod(fd, 0o600)
                os.write(fd, data)
            finally:
                os.close(fd)
            self.error = None
        except OSError as exc:
            self.error = f"The journal could not be written ({self.path}): {exc.strerror}"
        for listener in list(self.listeners):
            listener(entry)

    def rotated(self, index: int) -> Path:
        """The ``index``-th older file (``journal.jsonl.1`` is the newest of them)."""
        return self.path.with_name(f"{self.path.name}.{index}")

    def files(self) -> list[Path]:
        """The journal's files, newest first: the current one, then the rotated ones."""
        return [self.path, *(self.rotated(i) for i in range(1, self.keep + 1))]

    def _rotate_if_full(self, fd: int, size: int) -> bool:
        """Rotate when this write would pass the cap; True when ``fd`` is stale now.

        Under an exclusive lock, and only if the file at the path is still the full
        one: two consoles appending at once rotate once, and neither loses a line.
        """
        if os.fstat(fd).st_size + size <= self.max_bytes:
            return False
        lock_path = self.path.with_name(self.path.name + ".lock")
        lock = os.open(lock_path, os.O_WRONLY | os.O_CREAT, 0o600)
        try:
            fcntl.flock(lock, fcntl.LOCK_EX)
            try:
                current = os.stat(self.path)
            except FileNotFoundError:
                return True
            mine = os.fstat(fd)
            if (current.st_ino, current.st_dev) != (mine.st_ino, mine.st_dev):
                return True  # another console rotated it meanwhile
            if current.st_size + size <= self.max_bytes:
                return False
            for index in range(self.keep, 1, -1):
                older = self.rotated(index - 1)
                if older.exists():
                    os.replace(older, self.rotated(index))
            os.replace(self.path, self.rotated(1))
            return True
        finally:
            os.close(lock)  # closing releases the lock

    def read(
        self, filters: JournalFilter | None = None, *, limit: int | None = None
    ) -> list[JournalEntry]:
        """The newest ``limit`` entries matching ``filters`` (all by default), oldest first."""
        page = self.read_page(0, limit, filters)
        return page.entries[::-1]

    def read_page(
        self, page: int, size: int | None, filters: JournalFilter | None = None
    ) -> JournalPage:
        """Page ``page`` (0 = newest) of ``size`` entries, newest first.

        The files are read from their ends backwards in blocks, so a page near the top
        costs the same whatever the journal's length; a line longer than
        `MAX_LINE_BYTES` (someone's edit) is skipped without being read whole, and
        counted as unreadable like any line that is not an entry.
        """
        skip = page * size if size else 0
        entries: list[JournalEntry] = []
        unreadable = 0
        for line in self._lines_newest_first():
            entry = _parse(line)
            if entry is None:
                unreadable += 1
                continue
            if filters is not None and not filters.matches(entry):
                continue
            if skip:
                skip -= 1
                continue
            if size is not None and len(entries) == size:
                return JournalPage(page, entries, has_older=True, unreadable=unreadable)
            entries.append(entry)
        return JournalPage(page, entries, has_older=False, unreadable=unreadable)

    def entries(self, filters: JournalFilter | None = None) -> Iterator[JournalEntry]:
        """Every entry matching ``filters``, newest first, read as it is asked for (the
        files from their ends; lines that are not entries skipped, as `read_page` does)."""
        for line in self._lines_newest_first():
            entry = _parse(line)
            if entry is not None and (filters is None or filters.matches(entry)):
                yield entry

    def _lines_newest_first(self) -> Iterator[bytes | None]:
        for path in self.files():
            try:
                yield from _lines_backwards(path)
            except FileNotFoundError:
                continue

    def profiles(self, entries: Iterable[JournalEntry] | None = None) -> list[str]:
        return sorted({e.profile for e in (self.read() if entries is None else entries)})


def to_curl(entry: JournalEntry) -> tuple[str, str | None]:
    """The request as a curl command, and a note when masked secrets must be filled in.

    The base URL and the token are ``$VAGENT_BASE_URL`` and ``$VAGENT_TOKEN``.
    """
    path = entry.path if entry.path.startswith(API_PREFIX) else API_PREFIX + entry.path
    query = "token=$VAGENT_TOKEN"
    if entry.target is not None:
        query += f"&{entry.target_param}={entry.target}"
    body = entry.body
    if entry.method.upper() == "GET" and isinstance(body, Mapping):
        # A GET that changes the platform (a one-time login) journals its query as its body.
        query += "".join(f"&{quote(str(k), safe='')}={quote(str(v), safe='')}"
                         for k, v in body.items())  # fmt: skip
        body = None
    parts = [f'curl -X {entry.method} "$VAGENT_BASE_URL{_dq(path)}?{query}"']
    if path.endswith("/workspace/upload") and isinstance(body, Mapping):
        for key, value in body.items():
            if key == "file":
                parts.append(f"-F {shlex.quote('file=@FILE')}")
            else:
                parts.append(f"-F {shlex.quote(f'{key}={value}')}")
    elif body is not None:
        text = json.dumps(body, ensure_ascii=False, separators=(",", ":"))
        parts.append("-H 'Content-Type: application/json'")
        parts.append(f"--data {shlex.quote(text)}")
    note = None
    if entry.has_masked:
        note = "The body holds masked secrets (***): put the real values in before running it."
    elif path.endswith("/workspace/upload"):
        note = "Replace FILE with the file to upload."
    return " ".join(parts), note


def _dq(text: str) -> str:
    """Text safe inside double quotes of a POSIX shell."""
    return "".join("\\" + ch if ch in '"$`\\' else ch for ch in text)
