"""After a crash: one line for a person, the traceback in a private file.

Textual's own crash output prints the values of local variables, which may hold the
token; the console turns it off (`vagent_tui.ui.textual_compat`) and reports here
instead. The saved traceback has no local variables, the token and any password of a
URL masked, and outside text made inert (the file is meant to be read with ``cat``).
No dependency on Textual.
"""

from __future__ import annotations

import contextlib
import os
import platform
import sys
import time
import traceback
from collections.abc import Iterable
from pathlib import Path
from urllib.parse import urlsplit

from vagent_tui import __version__
from vagent_tui.api.errors import redact_text
from vagent_tui.config import state_dir
from vagent_tui.inert import inert

REPORT_LIMIT = 1_000_000
"""Characters of a saved report (an exception message may carry a whole reply)."""

_secrets: set[str] = set()


def remember_secret(value: str | None) -> None:
    """Mask ``value`` (a token, a password) in every crash report of this process."""
    if value:
        _secrets.add(value)


def remember_url(url: str) -> None:
    """Mask the password of ``url``'s userinfo, if it has one."""
    with contextlib.suppress(ValueError):  # not a URL: nothing to mask
        remember_secret(urlsplit(url).password)


def redact(text: str, secrets: Iterable[str | None] = ()) -> str:
    """``text`` with URL userinfo, ``token=`` pairs and every known secret masked (all by
    `redact_text`).

    A secret is masked in every form `redact_text` knows (as it is, URL-encoded,
    JSON-escaped, base64).
    """
    values = {s for s in (*_secrets, *secrets) if s}
    # Longest first: a secret that contains another is masked whole.
    return redact_text(text, *sorted(values, key=len, reverse=True))


def save_report(
    error: BaseException, *, directory: Path | None = None, secrets: Iterable[str | None] = ()
) -> Path:
    """Write ``error``'s traceback to a new file of mode 0600 in the state folder.

    Raises:
        OSError: The file could not be written.
    """
    directory = directory or state_dir()
    directory.mkdir(parents=True, exist_ok=True, mode=0o700)
    path = directory / f"crash-{time.strftime('%Y%m%d-%H%M%S')}-{os.getpid()}.txt"
    # format_exception shows code lines only, never local variables (capture_locals=False).
    trace = "".join(traceback.format_exception(error))
    header = (
        f"vagent-tui {__version__} crashed at {time.strftime('%Y-%m-%d %H:%M:%S %z')}\n"
        f"Python {platform.python_version()} on {sys.platform}\n\n"
    )
    text = inert(redact(header + trace, secrets), multiline=True, limit=REPORT_LIMIT)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as handle:
        os.fchmod(handle.fileno(), 0o600)  # whatever the umask
        handle.write(text + "\n")
    return path


def report(
    error: BaseException | None,
    *,
    directory: Path | None = None,
    secrets: Iterable[str | None] = (),
) -> str:
    """Save ``error``'s report and say in one line what happened and where it is.

    Never raises: a report that cannot be saved is said in the line.
    """
    if error is None:
        return "vagent-tui: stopped after an unexpected error (shown above, if anything)"
    secrets = tuple(secrets)
    message = inert(redact(str(error), secrets), limit=200)
    what = f"{type(error).__name__}: {message}" if message else type(error).__name__
    try:
        path = save_report(error, directory=directory, secrets=secrets)
    except OSError as exc:
        return (
            f"vagent-tui crashed ({what}); the traceback could not be saved: "
            f"{exc.strerror or type(exc).__name__}"
        )
    return (
        f"vagent-tui crashed ({what}); traceback saved to {inert(path)} "
        "(no local variables, secrets masked)"
    )
