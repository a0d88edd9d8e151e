"""Building a `PlatformClient`: on a real platform, or on the embedded simulator."""

from __future__ import annotations

from typing import Any

import httpx

from vagent_tui import config as cfg
from vagent_tui import crash
from vagent_tui.api.client import PlatformClient

DEMO_BASE_URL = "http://demo.sim"
DEMO_TOKEN = "demo-partner"


def real_client(base_url: str, token: str, **options: Any) -> PlatformClient:
    """A client of the platform at ``base_url`` (the standalone simulator included).

    Raises:
        ConfigError: ``base_url`` is not a usable URL (said without repeating it: it
            may hold a password).
    """
    problem = cfg.base_url_problem(base_url)
    if problem:
        raise cfg.ConfigError(f"the base URL {problem}")
    # A crash report masks them, wherever they turn up in its traceback.
    crash.remember_secret(token)
    crash.remember_url(base_url)
    try:
        return PlatformClient(base_url, token, **options)
    except httpx.InvalidURL as exc:
        raise cfg.ConfigError(f"the base URL is not valid ({crash.redact(str(exc))})") from None


class SimClient(PlatformClient):
    """A client of an in-process simulator (no socket); ``sim_app`` is the simulator.

    Tests reach the simulator's state through ``client.sim_app.state.sim``.
    """

    def __init__(self, app: Any, token: str = DEMO_TOKEN, **options: Any) -> None:
        super().__init__(DEMO_BASE_URL, token, transport=httpx.ASGITransport(app=app), **options)
        self.sim_app = app

    @property
    def platform_id(self) -> str:
        """The embedded simulator's own identity: every simulator is made from the seed, a
        new platform, though each has the same address (``demo.sim``). Clients of one
        simulator (another profile of the same ``--demo`` run, a console started again on
        it in a test) share it; a second ``--demo`` run's is another, so an earlier run's
        onboarding or rollout log never speaks for it."""
        state = getattr(getattr(self.sim_app, "state", None), "sim", None)
        instance = getattr(state, "instance", None)
        return f"{self.host} run {instance}" if isinstance(instance, str) else self.host


def demo_client(token: str = DEMO_TOKEN, *, sim_app: Any = None, **sim_options: Any) -> SimClient:
    """A client of an in-process simulator: no socket, no account needed.

    ``sim_app`` serves instead of a new simulator; ``sim_options`` go to
    `vagent_tui.sim.create_app`.
    """
    from vagent_tui.sim import create_app

    return SimClient(sim_app if sim_app is not None else create_app(**sim_options), token)
