"""The console's second face: commands that run without a person at the keys.

``vagent-tui get accounts -o json``, ``vagent-tui fleet ask …``, ``vagent-tui rollout
apply PLAN.json``: each command is a module here with ``add_parser`` (argparse only,
cheap to import) and ``run`` (imports what it needs when it runs). They work on the same
services as the screens (`vagent_tui.services`), never on Textual or `vagent_tui.ui`.

The contract every command keeps (`vagent_tui.commands.contract`, README "Scripts and
pipelines"): data on stdout only, in a documented shape with a version field; progress
and messages on stderr; documented exit codes; nothing written without ``--yes`` or a
plan file; the token never on the command line.
"""
