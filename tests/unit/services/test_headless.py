"""The core layers never import Textual (they run and test without a terminal)."""

from __future__ import annotations

import subprocess
import sys


def test_core_layers_do_not_import_textual() -> None:
    code = (
        "import sys\n"
        "import vagent_tui.api.client, vagent_tui.api.scope\n"
        "import vagent_tui.services.session, vagent_tui.services.accounts\n"
        "import vagent_tui.services.inbox, vagent_tui.services.migrations\n"
        "import vagent_tui.services.agents, vagent_tui.services.connect\n"
        "assert 'textual' not in sys.modules, 'textual was imported'\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)
