"""Fixtures shared by the whole suite.

`make_app` builds the console on a fresh in-process simulator; snapshot and pilot tests
use it. ``VAGENT_NOW`` pins the clock of every relative time shown on screen.
"""

from __future__ import annotations

import gc
import os
from typing import TYPE_CHECKING, Any

import pytest

from tests.helpers import MakeApp

if TYPE_CHECKING:
    from vagent_tui.ui.app import VagentApp

WORKERS_PER_CORE = 2
"""``-n auto`` starts two test processes per core: a pilot test waits for the console to
go idle (Textual's pilot sleeps 20 ms at a time until the CPU is still) about half its
time, so one process a core left a core idle half the time (measured on 2 cores: 9 min
50 s with two processes, 6 min 8 s with four, every test passing)."""


def pytest_xdist_auto_num_workers(config: pytest.Config) -> int:
    """The processes ``-n auto`` starts: `WORKERS_PER_CORE` per core this process may use."""
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    return WORKERS_PER_CORE * (cores or 1)


GC_THRESHOLDS = (50_000, 20, 100)
"""The cycle collector of a test process runs about 70 times less often than the
interpreter's default (700, 10, 10). A process of the suite holds every module of the
package, Textual's and the syntax trees of the source checks, and each app a pilot
starts makes and drops widgets, styles and strips by the hundred thousand: the
collector's walks were about a sixth of the CPU of a pilot test (measured on the key
bursts and Scope pilots, four processes on 2 cores: 82-87 s of CPU with the default, 69-72 s
with these). Garbage waits a little longer to be freed; nothing here depends on when."""
gc.set_threshold(*GC_THRESHOLDS)

FIXED_NOW = "2025-11-20T12:00:00+00:00"
os.environ.setdefault("VAGENT_NOW", FIXED_NOW)


def _share_parsed_css() -> None:
    """Parse each stylesheet once per test process, not once per app.

    Textual caches parsed CSS per app (``Stylesheet._parse_rules``, keyed by the text, where
    it was read from and its scope; cleared when the theme's variables change): about 950
    tests start an app and each parsed the same stylesheets again, a sixth of a pilot's
    time. Here the cache is shared by the apps of the process, its key the same plus the
    theme's variables, so an app gets the very rules its own parse would give. Test
    machinery only: the product never starts a second app in one process.
    """
    from textual.css.model import RuleSet
    from textual.css.stylesheet import Stylesheet
    from textual.css.types import CSSLocation

    parse_rules = Stylesheet._parse_rules
    parsed: dict[tuple[object, ...], list[RuleSet]] = {}

    def shared(
        self: Stylesheet,
        css: str,
        read_from: CSSLocation,
        is_default_rules: bool = False,
        tie_breaker: int = 0,
        scope: str = "",
    ) -> list[RuleSet]:
        key = (css, read_from, is_default_rules, tie_breaker, scope,
               frozenset(self._variables.items()))  # fmt: skip
        rules = parsed.get(key)
        if rules is None:
            rules = parsed[key] = parse_rules(
                self, css, read_from, is_default_rules, tie_breaker, scope
            )
        return rules

    Stylesheet._parse_rules = shared  # type: ignore[method-assign]


_share_parsed_css()


@pytest.fixture(autouse=True)
def _private_home(
    tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    """No test writes the real home: state (journal) and config go to temporary folders."""
    root = tmp_path_factory.mktemp("home")
    monkeypatch.setenv("XDG_STATE_HOME", str(root / "state"))
    monkeypatch.setenv("VAGENT_CONFIG", str(root / "config" / "config.toml"))


@pytest.fixture
def make_app() -> MakeApp:
    """``make_app(screen="scope", token="demo-partner", account=None, **sim_options)``.

    Returns a `VagentApp` on its own simulator; ``app.connection.api.sim_app.state.sim`` is the
    simulator's state (request log included).
    """

    def build(
        screen: str = "scope",
        *,
        token: str = "demo-partner",
        account: int | None = None,
        **sim_options: Any,
    ) -> VagentApp:
        from vagent_tui.services.connect import demo_client
        from vagent_tui.ui.app import VagentApp

        client = demo_client(token, **sim_options)
        return VagentApp(
            client,
            profile_label=f"demo · {token}",
            initial_screen=screen,
            initial_account=account,
        )

    return build
