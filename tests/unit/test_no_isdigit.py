"""Text from outside turned into a number is checked with ``isdecimal``, never ``isdigit``.

``"²".isdigit()`` is true and ``int("²")`` raises: a check with ``isdigit`` let a
superscript typed in a field (the key left of 1 on a French keyboard), or sent by the
platform in a header or an id, crash the console at the ``int()`` it guarded.
"""

from __future__ import annotations

import httpx

from tests import source
from tests.source import PACKAGE as PRODUCT
from vagent_tui.api.transport import retry_after_seconds
from vagent_tui.ui.widgets.fleet_export import check_concurrency


def test_no_isdigit_in_the_product() -> None:
    found = [
        f"{path.relative_to(PRODUCT)}:{number}"
        for path in source.python_files()
        for number, line in enumerate(source.text(path).splitlines(), 1)
        if ".isdigit(" in line
    ]
    assert not found, found


def test_a_superscript_is_no_number() -> None:
    superscript = httpx.Response(429, headers={b"Retry-After": "²".encode("latin-1")})
    assert retry_after_seconds(superscript) is None
    assert retry_after_seconds(httpx.Response(429, headers={"Retry-After": "3"})) == 3.0
    assert check_concurrency("²") == check_concurrency("0") is not None
    assert check_concurrency("20") is None
