"""What a script may rely on: exit codes, the output's version, the errors that end a run.

Exit codes (README "Scripts and pipelines", tested in tests/unit/commands/):

* ``0`` done;
* ``1`` an error (the platform's message, a network fault, a bad argument or file);
* ``2`` a plan or a diff that has changes (as ``terraform plan -detailed-exitcode`` and
  ``kubectl diff``): nothing was written;
* ``3`` done, but some accounts failed (each one's line says why);
* ``4`` refused: the key's scope does not reach, the profile is read-only (a prod
  profile is, unless it says otherwise), the platform refused the key (401/403), or a
  write was asked for without ``--yes`` or a plan file.

A usage error (an unknown option, a missing argument) is an error: ``1``, not argparse's
``2``, which means changes here.
"""

from __future__ import annotations

from typing import Final

CONTRACT_VERSION: Final = 1
"""The version of every JSON shape the commands write (``"version"`` in each document
and line). A change a script could notice (a field removed, renamed or of another type)
comes with a new version; a new field does not."""

DONE: Final = 0
ERROR: Final = 1
CHANGES: Final = 2
PARTIAL: Final = 3
REFUSED: Final = 4

EXIT_CODES: Final = {
    DONE: "done",
    ERROR: "error",
    CHANGES: "a plan or diff with changes (nothing written)",
    PARTIAL: "done, some accounts failed",
    REFUSED: "refused: scope, read-only profile, the platform refused the key, or no --yes",
}


class CommandError(Exception):
    """Ends a command with ``code``; the message goes to stderr (made inert there)."""

    code: int = ERROR

    def __init__(self, message: str, code: int | None = None) -> None:
        super().__init__(message)
        if code is not None:
            self.code = code


class Refused(CommandError):
    """The command may not run as asked (exit 4)."""

    code = REFUSED
