"""The client calls every operation of the vendor's OpenAPI file.

`vendor_operations.txt` lists them (method and path, from ``apiv2.json``); each is
matched by a request-shape case of ``test_api_requests.py``, whose requests the client
makes (a path parameter matches any one segment). README's "The platform's operations"
says the same, and names what the client asks beyond the file.
"""

from __future__ import annotations

import re
from pathlib import Path

from tests.unit.api.test_api_requests import CASES

LISTED = Path(__file__).with_name("vendor_operations.txt")


def vendor_operations() -> list[tuple[str, str]]:
    lines = LISTED.read_text(encoding="utf-8").splitlines()
    return [(line.split()[0], line.split()[1]) for line in lines if line and line[0] != "#"]


def _pattern(path: str) -> re.Pattern[str]:
    return re.compile("^" + re.sub(r"\\\{[^}]*\\\}", "[^/]+", re.escape(path)) + "$")


def test_the_list_is_the_vendors_102_operations() -> None:
    operations = vendor_operations()
    assert len(operations) == len(set(operations)) == 102


def test_the_client_calls_every_operation_of_the_vendors_file() -> None:
    sent = {(case.method, case.path) for case in CASES}
    missing = [
        f"{method} {path}"
        for method, path in vendor_operations()
        if not any(m == method and _pattern(path).match(p) for m, p in sent)
    ]
    assert not missing, missing
