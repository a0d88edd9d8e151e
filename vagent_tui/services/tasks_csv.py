"""Tasks queued from a CSV file (``POST /tasks/csv``), as the Tasks screen's ``u`` and
``vagent-tui tasks`` do it: the file checked here first (a file, at most `MAX_CSV_BYTES`),
then the platform's dry run (its checks of each row: the number, the time, the account,
the limits), then, asked, the real upload.

`not_a_dry_run` guards the question: a platform that ignored ``dryRun`` has queued the
rows already, and asking then would queue them twice.
"""

from __future__ import annotations

from pathlib import Path

from vagent_tui.api.models import CsvRow, CsvUpload
from vagent_tui.words import counted

MAX_CSV_BYTES = 1024 * 1024


def csv_problem(text: str) -> str | None:
    """Why the path typed is not a CSV file to upload (None: it is one)."""
    if not text.strip():
        return "Type the path of a CSV file"
    path = Path(text.strip()).expanduser()
    try:
        size = path.stat().st_size
    except OSError as exc:
        return f"Cannot read {path}: {exc.strerror or exc}"
    if not path.is_file():
        return f"{path} is not a file"
    if size > MAX_CSV_BYTES:
        return f"{path} is larger than 1 MiB (the platform's limit is not published; split it)"
    return None


def not_a_dry_run(result: CsvUpload) -> bool:
    """Whether a dry run's reply says rows were queued (``inserted`` above 0) or that it
    was no dry run (``dryRun`` false). Silent on both: taken as the dry run asked for."""
    inserted = result.inserted
    if isinstance(inserted, str) and inserted.strip().isdecimal():
        inserted = int(inserted)
    queued = isinstance(inserted, int) and not isinstance(inserted, bool) and inserted > 0
    return queued or result.dry_run is False or result.dry_run == "false"


def what_it_queues(queued: list[CsvRow]) -> tuple[int, str]:
    """The real calls among ``queued`` and the words for all of them (``3 real calls and
    1 real text``)."""
    calls = sum(1 for r in queued if r.type != "text")
    texts = len(queued) - calls
    parts = (
        counted(calls, "real call") if calls else "",
        counted(texts, "real text") if texts else "",
    )
    return calls, " and ".join(p for p in parts if p)
