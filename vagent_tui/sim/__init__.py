"""The embedded platform simulator: an ASGI app implementing the API of api-spec.md.

Serves ``--demo`` in-process (httpx ``ASGITransport``) and ``vagent-tui sim`` over
loopback HTTP. See ``CONTRACT.md`` for routes and reply shapes, and the docstrings of
the submodules for every choice the specification leaves open.
"""

from vagent_tui.sim.app import create_app
from vagent_tui.sim.seed import DEMO_TOKENS
from vagent_tui.sim.state import SimState
from vagent_tui.sim.world import demo_state

__all__ = ["DEMO_TOKENS", "SimState", "create_app", "demo_state"]
