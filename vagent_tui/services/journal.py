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

import json
import os
import shlex
import stat
from collections.abc import Callable, Iterable, Mapping
from dataclasses import asdict, dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from vagent_tui.api.errors import REDACTED, redact_text
from vagent_tui.api.transport import API_PREFIX, Exchange
from vagent_tui.config import state_dir

JOURNAL_NAME = "journal.jsonl"
SECRET_KEYS = frozenset(
    {"token", "password", "secret", "apikey", "api_key", "access_token", "authorization"}
)
"""Body keys (any case) whose values never reach the journal."""


def journal_path() -> Path:
    return state_dir() / JOURNAL_NAME


def mask_body(value: Any) -> Any:
    """A copy of a request body with every secret value replaced by ``***``.

    Header maps are masked too (``headers: {"Authorization": ...}``).
    """
    if isinstance(value, Mapping):
        out: dict[str, Any] = {}
        for key, item in value.items():
            name = str(key)
            if name.lower() in SECRET_KEYS or name.lower() == "headers":
                if name.lower() == "headers" and isinstance(item, Mapping):
                    out[name] = {str(k): REDACTED for k in item}
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
        )

    def to_line(self) -> str:
        return json.dumps(asdict(self), ensure_ascii=False, separators=(",", ":")) + "\n"


@dataclass
class JournalFilter:
    """What the journal screen asks for; empty fields match everything."""

    text: str = ""
    method: str = ""
    status: str = ""
    """``ok``, ``failed`` or empty."""
    profile: str = ""

    def matches(self, entry: JournalEntry) -> bool:
        if self.method and entry.method != self.method.upper():
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


@dataclass
class Journal:
    """Appends mutating exchanges to the journal file and reads them back."""

    path: Path = field(default_factory=journal_path)
    clock: Callable[[], datetime] = field(default=lambda: datetime.now(UTC))
    listeners: list[Callable[[JournalEntry], None]] = field(default_factory=list)
    error: str | None = None
    """The last write failure (a full disk must not break the console)."""

    def observer(self, profile: Callable[[], str] | str) -> Callable[[Exchange], None]:
        """A `client.observers` callback recording non-GET exchanges under ``profile``."""

        def observe(exchange: Exchange) -> None:
            if exchange.method.upper() in ("GET", "HEAD", "OPTIONS"):
                return
            self.record(exchange, profile() if callable(profile) else profile)

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

    def read(self, filters: JournalFilter | None = None) -> list[JournalEntry]:
        """Entries matching ``filters``, oldest first; unreadable lines are skipped."""
        try:
            text = self.path.read_text(encoding="utf-8", errors="replace")
        except FileNotFoundError:
            return []
        out = []
        for line in text.splitlines():
            if not line.strip():
                continue
            try:
                entry = JournalEntry.from_json(json.loads(line))
            except ValueError:
                continue
            if entry is not None and (filters is None or filters.matches(entry)):
                out.append(entry)
        return out

    def profiles(self, entries: Iterable[JournalEntry] | None = None) -> list[str]:
        return sorted({e.profile for e in (self.read() if entries is None else entries)})


def to_curl(entry: JournalEntry) -> tuple[str, str | None]:
    """The request as a curl command, and a note when masked secrets must be filled in.

    The base URL and the token are ``$VAGENT_BASE_URL`` and ``$VAGENT_TOKEN``.
    """
    path = entry.path if entry.path.startswith(API_PREFIX) else API_PREFIX + entry.path
    query = "token=$VAGENT_TOKEN"
    if entry.target is not None:
        query += f"&targetAccountId={entry.target}"
    parts = [f'curl -X {entry.method} "$VAGENT_BASE_URL{_dq(path)}?{query}"']
    body = entry.body
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
