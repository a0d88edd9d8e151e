"""Start-up imports what the first screen shows, and the rest when it is first used."""

from __future__ import annotations

import json
import subprocess
import sys

from vagent_tui.sim import create_app
from vagent_tui.sim.app import LazyRoutes, api_routes

# What `vagent-tui --demo` imports before the scope screen's first frame: the command
# line, the app, the first screen, and a demo client (the simulator in-process).
FIRST_FRAME = """
import json, sys
from vagent_tui import cli
cli.build_parser(commands=False)
from vagent_tui.services.connect import demo_client
from vagent_tui.ui.app import VagentApp
from vagent_tui.ui.screens.scope import ScopeScreen
VagentApp(demo_client())
print(json.dumps(sorted(sys.modules)))
"""

DEFERRED = (
    "vagent_tui.commands.get",  # the commands' parsers: built when a command runs
    "vagent_tui.commands.rollout",
    "vagent_tui.api.resources",  # response models other than the account's
    "vagent_tui.api.migration_models",
    "vagent_tui.api.agent_config",
    "vagent_tui.api.requests",
    "vagent_tui.api.log_models",  # the conversation logs' models, at their first request
    "vagent_tui.services.calls",
    "vagent_tui.services.journal",  # opened with the first change or the Journal screen
    "vagent_tui.services.migrations",  # the watcher, made with the first migration
    "vagent_tui.ui.dialogs",
    "vagent_tui.ui.screens.setup",
    "vagent_tui.ui.screens.agent",  # every other screen loads when first shown
    "vagent_tui.sim.routes_agents",  # routes other than the accounts', at first request
    "vagent_tui.sim.routes_admin",
    "vagent_tui.sim.routes_staging",
    "vagent_tui.sim.routes_logs",
    "vagent_tui.sim.calls",
    "vagent_tui.sim.call_entries",
    "tomli_w",  # the config writer
    "aiohttp",  # the real platform's pool, made with the first client of one (the demo's
    # simulator is in-process): 60-80 ms of start-up (bench/startup.py)
    "vagent_tui.services.calls_follow",  # the call log's services, at their first use
    "vagent_tui.services.calls_export",
    "vagent_tui.services.calls_summary",
    "vagent_tui.services.agent_listing",  # Fleet's, Rollout's and Usage's listing
    "vagent_tui.services.agent_rows",
    "vagent_tui.ui.writes",  # the machinery of a change, at the first one
    "vagent_tui.ui.command_palette",  # at the first ctrl+p or :
    "textual.widgets._data_table",  # Scope has no table: 2.5-3 ms of start-up
)


def test_the_first_frame_imports_none_of_the_deferred_modules() -> None:
    result = subprocess.run(
        [sys.executable, "-c", FIRST_FRAME], capture_output=True, text=True, timeout=120
    )
    assert result.returncode == 0, result.stderr
    loaded = set(json.loads(result.stdout.splitlines()[-1]))
    assert "vagent_tui.ui.screens.scope" in loaded  # the check itself is live
    assert sorted(loaded.intersection(DEFERRED)) == []


def test_models_reexports_the_deferred_models() -> None:
    from vagent_tui.api import models
    from vagent_tui.api.resources import Voice

    assert models.Voice is Voice
    assert all(hasattr(models, name) for name in models.__all__)


async def test_a_lazy_route_answers_like_any_other() -> None:
    from vagent_tui.services.connect import demo_client

    client = demo_client()
    lazy = [r for r in client.sim_app.routes if isinstance(r, LazyRoutes)]
    assert lazy, "the simulator has no lazy route group"
    voices = await client.list_voices(target=1111)  # a route of routes_agents
    assert voices
    await client.aclose()


def test_api_routes_lists_the_lazy_groups_routes() -> None:
    paths = {route.path for route in api_routes(create_app())}
    assert "/api/v2/agent/voices" in paths and "/api/v2/account" in paths
