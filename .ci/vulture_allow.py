"""vulture's allow-list (`.ci/run` runs ``vulture``; settings in pyproject's [tool.vulture]).

pyproject ignores by pattern what a framework calls by name: Textual's ``on_*``,
``action_*``, ``watch_*``, ``compose``, its class settings (``BINDINGS``, ``CSS_PATH``,
``AUTO_FOCUS``, ...), handlers decorated with ``@on``/``@work``, pydantic's validators,
screens made from their "module:Class" name (`vagent_tui.ui.registry`), and the modules
of wire models (`api/agent_config.py`, `resources.py`, `replies.py`,
`migration_models.py`: pydantic reads every field from the platform's JSON).

What is left here is named one by one, each with why it is kept. A new entry needs a
reason as good: code only a test calls is dead code (remove it and its test).
"""

# ruff: noqa: B018, F821
# mypy: ignore-errors
from vagent_tui.api import base, models, requests
from vagent_tui.services import accounts
from vagent_tui.ui import textual_compat

# Read by a framework, not by our code.
base.NullAsEmpty  # type aliases that pydantic reads as field annotations
base.Items
models.__getattr__  # the module's lazy names (PEP 562)
models.__dir__
_.refresh_styles  # events.ScreenResume's, read by Textual's Screen (call.py sets it)
models.AccountPage.page_number  # a wire field
requests.MigrationRequest.sections_to_migrate  # sent by keyword (migrations screen)
requests.MigrationRequest.force_migrate_overridden_fields
requests.MemberInvite.redirect_url  # filled by keyword from the invite form (members screen)
requests.MemberInvite.send_welcome_email  # filled by keyword from the invite form
# Provisioning's requests: filled by keyword from the Scope screen's forms (entry_forms).
requests.NewReseller.reseller_name
requests.NewReseller.reseller_status
requests.NewOrganization.org_name
requests.NewOrganization.account_name
requests.NewOrganization.org_account_type
requests.NewOrganization.hipaa_setting
requests.NewAgentAccount.account_name
requests.AccountUpdate.account_name
requests.OrganizationUpdate.org_name
_.completer  # cli_profiles: argcomplete reads an argument's completer
_.stt  # commands/shapes_fleet: a field of an item model (the JSON a script reads)
textual_compat._fatal_error  # Textual's hook, overridden in the one compat module
textual_compat._clipboard
_.container  # Widget.get_content_height's arguments (an override keeps the names)
_.viewport
_.pointer  # Textual's Style attribute

# Checks and controls that tests and CI run on purpose (not product code left over).
_.paused  # collector: whether the cycle collector is paused (tests/unit/test_collector.py)
_.problems  # convention: the key convention check (tests/unit/ui/test_convention.py)
_.LIST_KEYS
_.mutating_binding_ids  # keys: every writing binding id (tests/unit/config)
_.NAMES  # colours: the semantic style names (tests/unit/ui/test_colours.py)
_.api_routes  # simulator: its route table (tests/unit/sim, startup imports)
_.lift  # simulator: faults lifted, state log cleared between test steps
_.clear_log
accounts.Matches.how  # which way a search went ("search" or "walk"), asserted by tests

# Counters a screen or widget keeps about its own drawing, asserted by the tests that
# keep redraws bounded (tests/pilot/test_inbox_drawing.py, test_fleet.py, migrations).
_.lines_drawn
_.repainted_rows
_.cells_drawn
_.table_updates
_.last_outcome  # webhooks: the outcome of the last delete, asserted by tests

# The calls core (api/logs.py, services/calls.py, sim/calls.py), merged ahead of the
# Calls screen that drives it: each is pinned by its unit tests (tests/unit/api/
# test_api_logs.py, tests/unit/services/test_calls.py, tests/unit/sim/test_sim_logs.py).
_.recent_messages  # GET /messages/recent
_.parse_filters  # LogQuery: the filter field's text to pairs
_.with_range  # CallFilters: a typed time range
_.cleared
_.gap  # the follower: a page was missed between two polls
_.EVENT_TYPES  # the simulator's call mix, checked against its patterns
_.STATUSES

# Outbound tasks (api/task_models.py): a task's fields as the platform names them, read by
# the detail (the model's wire()) and by tests; request fields a form fills by keyword.
_.started_at
_.finished_at
_.log_id
_.greeting
_.external_task_id
_.inserted
_.valid  # CsvUpload: the rows the platform found valid, as it says

# TaskLimitsUpdate (api/task_models.py): fields the limits form fills by keyword and wire()
# reads by name (LIMIT_GROUPS).
_.cooldown_calls
_.cooldown_texts
_.daily_calls
_.daily_texts
_.daily_tasks

# HeldSelect (ui/widgets/held_select.py): Textual calls validate_<reactive> by name.
_.validate_expanded

# api/pool.never_resend: read by aiohttp itself (its switch for resending a PUT or DELETE).
_._retry_connection

# Plans and billing (api/billing_models.py): request fields a form or a key fills by
# keyword (model_validate of the fields' values) and wire() sends by alias.
_.product_plan_id
_.api_key
_.publishable_key
_.webhook_signing_key
_.site
_.webhook_username
_.webhook_password

# AgentLinkRequest (api/agent_extras_models.py): a field the Agent screen fills by keyword
# and wire() sends by name.
_.target_username

# OwnDetails (api/agent_extras_models.py): fields the own-details form fills by keyword
# (OWN_DETAILS) and wire() sends by name.
_.first_name
_.last_name
_.business_name
_.business_address
_.image

# InboundMessage (api/agent_extras_models.py): filled by keyword by the test message form.
_.target_agent

# The commands' item models (commands/shapes_*.py): each field is in its kind's schema
# file; a command writes the item as a dict, so the name is only a key there.
_.s2s_engines
_.unavailable_reason
_.eventType  # CallItem: the wire fields of a call log entry
_.agentOutcome
_.fromNumber
_.toNumber
_.contactName
_.roomId
_.failureReason
# Commands (vagent_tui/commands/rollout.py, agent.py): run by name, from the parser's
# run="module:function" (commands/runner.py imports and calls them).
_.run_plan
_.run_apply
_.run_publish
_.run_diff
# Commands run by their "module:function" name (commands/registry.py, set_defaults(run=...)).
_.plan_from  # commands/pull.py: vagent-tui plan-from

# The commands' item shapes (commands/shapes_onboard.py): fields of a JSON Schema, written
# by the commands as plain dicts and read by scripts and the tests, never as attributes.
_.column_number
_.brings
_.earlier
_.path_ids  # AccountItem (commands/shapes_accounts.py)

# vagent-tui schema: the field a kinds item has (commands/shapes_core.py)
_.schema_file
# VagentApp (ui/app.py): Textual's App reads animation_level (the console draws none).
_.animation_level
