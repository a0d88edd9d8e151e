"""The API layer must stay importable without the UI toolkit."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[3]


def test_api_layer_does_not_import_textual() -> None:
    code = (
        "import vagent_tui.api, vagent_tui.api.client, vagent_tui.api.models, "
        "vagent_tui.api.scope, vagent_tui.api.errors, sys; "
        "assert 'textual' not in sys.modules, sorted(m for m in sys.modules if 'textual' in m)"
    )
    result = subprocess.run(
        [sys.executable, "-c", code],
        cwd=REPO_ROOT,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )

    assert result.returncode == 0, result.stderr
