"""A SIP capture saved (the Calls screen's ``K`` with the pcap format): the file is
readable by its owner only (0600) from its first byte, written whole or not at all."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path


def save_capture(path: Path, content: bytes) -> None:
    """Write ``content`` to ``path``, mode 0600: a temporary file beside it (created
    0600, so no other user ever reads a byte), then renamed into place.

    Raises:
        OSError: the folder cannot be written; nothing is left behind.
    """
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.absolute().parent)
    try:
        os.fchmod(fd, 0o600)
        with os.fdopen(fd, "wb") as handle:
            handle.write(content)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
