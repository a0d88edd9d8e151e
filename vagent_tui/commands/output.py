"""What a command writes: data on stdout in one of four shapes, everything else on stderr.

* ``json``: one document, ``{"version": 1, "kind": KIND, "items": [ITEM, …]}``, written
  as the items come (a 100,000-call export never sits in memory);
* ``jsonl``: one line per item, ``{"version": 1, "kind": KIND, "item": ITEM}``, flushed
  line by line (``| jq -c .item`` sees each as it is read);
* ``csv``: a header row of the kind's columns, then one row per item; a cell a
  spreadsheet would run as a formula is quoted (`vagent_tui.inert.csv_cell`), nested
  values are their JSON;
* ``table``: for a person: the columns, each value made inert (`vagent_tui.inert.inert`),
  cut to the terminal's width. The default when stdout is a terminal; ``json`` otherwise.

Each kind's item shape is a model in `vagent_tui.commands.schemas` (``vagent-tui schema
KIND`` prints its JSON Schema). `Messages` writes progress and messages to stderr: a
progress line only when stderr is a terminal, never on stdout.
"""

from __future__ import annotations

import csv
import io
import json
import os
import re
import shutil
import sys
import time
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, Literal, TextIO

from vagent_tui import json_text
from vagent_tui.commands.contract import CONTRACT_VERSION
from vagent_tui.csv_text import rows_of
from vagent_tui.inert import csv_cell, inert

Format = Literal["table", "json", "jsonl", "csv"]
FORMATS: tuple[Format, ...] = ("table", "json", "jsonl", "csv")
TABLE_SAMPLE = 200
"""Rows a table reads before it sizes its columns; the rest stream in those widths."""
TABLE_CELL = 60
"""Characters of one table cell at most (the width of the terminal shares the rest)."""


def default_format(stream: TextIO | None = None) -> Format:
    """``table`` for a person at a terminal, ``json`` for a pipe or a file."""
    stream = sys.stdout if stream is None else stream
    try:
        return "table" if stream.isatty() else "json"
    except (AttributeError, ValueError):
        return "json"


_RISKY_IN_JSON = {
    code: f"\\u{code:04x}"
    for code in (*range(0x7F, 0xA0), 0x061C, *range(0x200B, 0x2010), *range(0x2028, 0x202F),
                 *range(0x2060, 0x2070), 0xFEFF)
}  # fmt: skip
"""What JSON leaves raw but a terminal obeys or hides: DEL and the C1 controls (``U+009B``
is a CSI), bidi controls and invisible characters. JSON escapes C0 itself."""


_RISKY_FOUND = re.compile("[" + "".join(map(chr, _RISKY_IN_JSON)) + "]")


def json_safe(text: str) -> str:
    """JSON text with `_RISKY_IN_JSON` written as ``\\uXXXX`` escapes: the same data once
    parsed, nothing a terminal would act on when the output is shown as it is."""
    # Every risky character but DEL is outside ASCII, and whether a text is ASCII is
    # known without reading it (CPython keeps it with the text): most lines of an export
    # are, and skip the search. Otherwise looked for before translating: a search runs
    # in C over the text, a translation looks up each character (an export of 50,000
    # calls spent a second and more translating).
    if text.isascii():
        return text.translate(_RISKY_IN_JSON) if "\x7f" in text else text
    return text.translate(_RISKY_IN_JSON) if _RISKY_FOUND.search(text) else text


def _json_lines(head: str, texts: Sequence[str]) -> str:
    """Each JSON text as the line ``head`` + text + ``}``, all `json_safe`.

    The page is joined and checked at once: a line's own search only where it is not
    ASCII, DEL over the whole page (a call of `json_safe` per line was a twentieth of an
    export's CPU, a search of the whole page more: one line in twelve of an export's may
    be not ASCII, which makes the whole page not ASCII). The head holds no risky character.
    """
    page = head + ("}\n" + head).join(texts) + "}\n"
    risky = "\x7f" in page or any(_RISKY_FOUND.search(t) for t in texts if not t.isascii())
    return page.translate(_RISKY_IN_JSON) if risky else page


def _dumps(value: Any) -> str:
    return json_safe(json_text.dumps(value))


def cell_text(value: Any) -> str:
    """One value as a CSV or table cell: text as it is, nothing for None, JSON otherwise."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return value
    if isinstance(value, int | float):
        return str(value)
    return _dumps(value)


_NUMBER = re.compile(r"-?\d+(\.\d+)?")
_FORMULA_STARTS = frozenset("=+-@\t\r")
"""The first characters `csv_cell` quotes (checked first: it is most cells' only test)."""
_TEXT_FORMULA_STARTS = tuple(sorted(_FORMULA_STARTS - {"-", "\r"}))
"""The first characters `_formula_safe` quotes by replacing: ``-`` has its own rule (a
number is kept), and unparsed text holds no CR."""
_MINUS_CELL = r"-(?<![^,\n]-)(?!\d+(?:\.\d+)?(?:[,\n]|$))"
"""A cell of unquoted CSV text that starts with ``-`` and is no number (``-12.50`` is
one): `_csv_text` quotes it. The literal first lets `re` skip to each ``-``. Kept as
text: compiled by `re` on first use, not at the command line's start."""


def _formula_safe(text: str) -> str:
    """Unquoted CSV text (rows of ``,`` and ``\\n``) with every cell `_csv_text` would
    quote quoted. A replace per pattern (C, no match object per cell: a CSV of calls has
    two phone numbers a row) rather than one regular expression (3 times slower)."""
    for first in _TEXT_FORMULA_STARTS:
        if first in text:  # one character is looked for at memory's speed, two are not
            text = text.replace("," + first, ",'" + first).replace("\n" + first, "\n'" + first)
    if text[:1] in _TEXT_FORMULA_STARTS:
        text = "'" + text
    if "-" in text and (",-" in text or "\n-" in text or text[:1] == "-"):  # dates, ids
        text = re.sub(_MINUS_CELL, "'-", text)
    return text


def _csv_text(value: Any) -> str:
    """A CSV cell: a number (``-12.50`` as text too: an exact value) as it is, a
    spreadsheet reads it as a number; other text formula-safe."""
    text = cell_text(value)
    if text[:1] not in _FORMULA_STARTS or _NUMBER.fullmatch(text):
        return text  # most cells: nothing a spreadsheet would run
    return csv_cell(text)


class Output:
    """Items of one ``kind`` written to ``stream`` in ``fmt`` as they come.

    Use as a context manager, or call `close` (a ``json`` document is closed there, a
    table's last rows are written there). ``columns`` name the fields a CSV or a table
    shows, in order; JSON writes every field of the item.
    """

    def __init__(
        self,
        kind: str,
        columns: Sequence[str],
        fmt: Format,
        stream: TextIO | None = None,
    ) -> None:
        self.kind = kind
        self.columns = tuple(columns)
        self.fmt: Format = fmt
        self.stream = sys.stdout if stream is None else stream
        self.count = 0
        self._started = False
        kind_head = f'{{"version":{CONTRACT_VERSION},"kind":{_dumps(kind)},'
        self._line_head = kind_head + '"item":'
        """What each JSON line starts with (its item follows)."""
        self._document_head = kind_head + '"items":[\n'
        """What a JSON document starts with (its items follow)."""
        self._closed = False
        self._table_rows: list[list[str]] | None = [] if fmt == "table" else None
        self._widths: list[int] | None = None
        self._line_limit: int | None = None
        self._csv = csv.writer(self.stream, lineterminator="\n") if fmt == "csv" else None
        try:
            self._to_terminal = self.stream.isatty()
        except (AttributeError, ValueError):
            self._to_terminal = False

    def __enter__(self) -> Output:
        return self

    def __exit__(self, exc_type: object, *exc: object) -> None:
        if exc_type is None:
            self.close()
            return
        # Ended by an error: a ``json`` document stays unclosed, so that no script takes
        # the items so far for the whole list (the exit code says it failed too).
        self._closed = True
        if self.fmt == "table" and self._widths is None:
            self._size_table()
        self.stream.flush()

    def write(self, item: Mapping[str, Any]) -> None:
        """One item (a JSON-able mapping)."""
        self.count += 1
        if self.fmt == "jsonl":
            self.stream.write(self._line_head + _dumps(item) + "}\n")
            self.stream.flush()
        elif self.fmt == "json":
            self._json_item(_dumps(item))
        elif self._csv is not None:
            self._csv_header()
            self._csv_row([_csv_text(item.get(c)) for c in self.columns])
        else:
            self._table_row([cell_text(item.get(c)) for c in self.columns])

    def write_texts(self, rows: Sequence[Sequence[str]]) -> None:
        """Items given as their cells' texts in the columns' order (rows of the
        platform's CSV): in a CSV each cell checked as `write` checks it, without an item
        made first (an export of 50,000 calls writes a million cells), and the rows go to
        the stream in one write (the same export wrote each row apart). A missing cell is
        empty, one past the columns is left out, in every format."""
        width = len(self.columns)
        shaped = [[*cells[:width], *[""] * (width - len(cells))] for cells in rows]
        if self._csv is None:
            for row in shaped:
                self.write(dict(zip(self.columns, row, strict=True)))
            return
        for row in shaped:
            for index, text in enumerate(row):
                if text[:1] in _FORMULA_STARTS:  # rare: the one test most cells need
                    row[index] = _csv_text(text)
        self._csv_header()
        self.count += len(shaped)
        if self._to_terminal:  # each cell made inert too
            for row in shaped:
                self._csv_row(row)
            return
        batch = io.StringIO()
        csv.writer(batch, lineterminator="\n").writerows(shaped)
        self.stream.write(batch.getvalue())

    def write_csv_text(self, text: str) -> None:
        """Rows given as CSV text (whole records, each with its line end: the platform's
        CSV), written as `write_texts` writes their rows.

        Text without a quote or a lone carriage return whose every row has the columns'
        width (most of the platform's CSV) is not parsed: its formula cells are quoted in one
        pass and it goes out as it came, the same bytes `write_texts` would write. An
        export of 50,000 calls spent most of its CPU parsing and writing again each of
        its million cells (twice the screen's export of the same calls). Any other text,
        and a CSV to a terminal (made inert cell by cell), is parsed.
        """
        if not text:
            return
        if "\r\n" in text and '"' not in text:  # RFC 4180's line ends: the writer's are \n
            lf = text.replace("\r\n", "\n")
            if "\r" not in lf:  # a CR left (\r\r\n: two row ends) is parsed as it came
                text = lf
        width = len(self.columns)
        if (
            self._csv is None
            or self._to_terminal
            or width < 2  # a one-column row may be empty: the writer quotes it
            or not text.endswith("\n")
            or '"' in text
            or "\r" in text
            or any(line.count(",") != width - 1 for line in text[:-1].split("\n"))
        ):
            self.write_texts(rows_of(text))
            return
        self._csv_header()
        self.count += text.count("\n")
        self.stream.write(_formula_safe(text))

    def _json_item(self, text: str) -> None:
        if not self._started:
            self.stream.write(self._document_head)
            self._started = True
        else:
            self.stream.write(",\n")
        self.stream.write(text)

    def write_all(self, items: Iterable[Mapping[str, Any]]) -> None:
        for item in items:
            self.write(item)

    def write_json(self, texts: Sequence[str]) -> None:
        """Items given as their JSON text (a service made them, e.g. the calls export's
        lines, masked by the client): written as they are in ``json`` and ``jsonl``
        (``jsonl`` flushed once for them all: they came together), read back for a CSV
        or a table."""
        if self.fmt == "jsonl":
            self.stream.write(_json_lines(self._line_head, texts) if texts else "")
            self.count += len(texts)
            self.stream.flush()
        elif self.fmt == "json":
            self.count += len(texts)
            for text in texts:
                self._json_item(json_safe(text))
        else:
            for text in texts:
                self.write(json.loads(text))

    def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        if self.fmt == "json":
            if not self._started:
                self.stream.write(self._document_head)
            self.stream.write("\n]}\n")
        elif self.fmt == "csv" and not self._started and self._csv is not None:
            self._csv_row(list(self.columns))
        elif self.fmt == "table" and self._widths is None:
            self._size_table()
        self.stream.flush()

    def _csv_header(self) -> None:
        """The CSV's header, before its first row."""
        if not self._started:
            self._csv_row(list(self.columns))
            self._started = True

    def _csv_row(self, row: list[str]) -> None:
        """One CSV row, the header too; on a terminal a person reads it: each cell made
        inert, as a table's (a header names what a caller may have given: its columns)."""
        assert self._csv is not None
        self._csv.writerow([inert(c) for c in row] if self._to_terminal else row)

    # ------------------------------------------------------------------ table

    def _table_row(self, cells: list[str]) -> None:
        cells = [inert(c, limit=TABLE_CELL) for c in cells]
        if self._widths is None:
            assert self._table_rows is not None
            self._table_rows.append(cells)
            if len(self._table_rows) >= TABLE_SAMPLE:
                self._size_table()
            return
        self._print_row(cells)

    def _size_table(self) -> None:
        rows = self._table_rows or []
        self._table_rows = None
        header = [c.upper() for c in self.columns]
        widths = [len(h) for h in header]
        for row in rows:
            widths = [max(w, len(c)) for w, c in zip(widths, row, strict=True)]
        terminal = _terminal_width(self.stream)
        # On a terminal a row longer than it would wrap into the next: it is cut there.
        self._line_limit = terminal if self._to_terminal else None
        room = terminal - 2 * (len(widths) - 1)
        while sum(widths) > room and max(widths, default=0) > 8:
            widest = widths.index(max(widths))
            widths[widest] -= 1
        self._widths = widths
        self._print_row(header)
        for row in rows:
            self._print_row(row)

    def _print_row(self, cells: list[str]) -> None:
        assert self._widths is not None
        shown = []
        for width, cell in zip(self._widths, cells, strict=True):
            text = cell if len(cell) <= width else cell[: max(width - 1, 0)] + "…"
            shown.append(text.ljust(width))
        line = "  ".join(shown).rstrip()
        if self._line_limit is not None and len(line) > self._line_limit:
            line = line[: self._line_limit - 1] + "…"
        self.stream.write(line + "\n")


def _terminal_width(stream: TextIO) -> int:
    try:
        if stream.isatty():
            return os.get_terminal_size(stream.fileno()).columns
    except (AttributeError, ValueError, OSError):
        pass
    return shutil.get_terminal_size((160, 24)).columns


class Messages:
    """Progress and messages on stderr (never stdout).

    `say` writes a line (made inert: it may quote the platform); `progress` rewrites one
    status line, only when stderr is a terminal and at most ten times a second; ``quiet``
    keeps everything but warnings and errors off.
    """

    def __init__(self, stream: TextIO | None = None, *, quiet: bool = False) -> None:
        self.stream = sys.stderr if stream is None else stream
        self.quiet = quiet
        try:
            self.live = self.stream.isatty() and not quiet
        except (AttributeError, ValueError):
            self.live = False
        self._shown = 0.0
        self._line = False

    def say(self, message: object) -> None:
        if not self.quiet:
            self._write_line(inert(message))

    def warn(self, message: object) -> None:
        self._write_line(f"warning: {inert(message)}")

    def error(self, message: object) -> None:
        self._write_line(f"error: {inert(message)}")

    def progress(self, done: int, total: int | None, what: str, *, force: bool = False) -> None:
        """``done`` of ``total`` ``what`` (``12 of 300 accounts``), on one rewritten line."""
        if not self.live:
            return
        now = time.monotonic()
        if not force and now - self._shown < 0.1:
            return
        self._shown = now
        of = f" of {total:,}" if total is not None else ""
        width = _terminal_width(self.stream) - 1
        text = inert(f"{done:,}{of} {what}")[:width]
        self.stream.write(f"\r\x1b[K{text}")
        self.stream.flush()
        self._line = True

    def done(self) -> None:
        """Clear the progress line (before a message, or at the end)."""
        if self._line:
            self.stream.write("\r\x1b[K")
            self.stream.flush()
            self._line = False

    def _write_line(self, text: str) -> None:
        self.done()
        self.stream.write(f"vagent-tui: {text}\n")
        self.stream.flush()
