"""Which failed writes may have been made (never retried blindly) and which surely were not."""

from __future__ import annotations

import pytest

from vagent_tui.api.errors import ApiError, MalformedResponse, RequestTimeout, TransportError
from vagent_tui.ui.widgets.status import outcome_unknown


@pytest.mark.parametrize(
    ("error", "unknown"),
    [
        (TransportError("reset", method="POST", url="/agent"), True),
        (RequestTimeout("slow", method="POST", url="/agent"), True),
        (MalformedResponse("cut", method="POST", url="/agent"), True),
        (ApiError(502, "Bad gateway", method="POST", url="/agent"), True),
        (ApiError(504, "Gateway timeout", method="DELETE", url="/sip"), True),
        (ApiError(500, "Internal error", method="POST", url="/agent"), False),
        (ApiError(400, "agentLang must be", method="POST", url="/agent"), False),
        (ApiError(503, "down", method="GET", url="/agent/voices"), False),
        (TransportError("reset", method="GET", url="/account"), False),
        (ValueError("not a platform error"), False),
    ],
)
def test_outcome_unknown(error: BaseException, unknown: bool) -> None:
    assert outcome_unknown(error) is unknown
