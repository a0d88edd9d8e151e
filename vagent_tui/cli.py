"""Command line: ``vagent-tui [--demo | --base-url URL --token TOKEN] [--screen NAME]``.

Subcommands: ``vagent-tui sim`` serves the platform simulator on loopback, ``serve`` the
console in a browser, ``profile``, ``info`` and ``keys`` (`vagent_tui.cli_profiles`).
``--version`` says the version. Shell completion (subcommands, options, ``--screen``
names, profile names) is argcomplete's: the shell runs the command with ``_ARGCOMPLETE``
set, and `main` answers with the completions before doing anything else.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable, Sequence
from functools import partial
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from vagent_tui.api.client import PlatformClient


def _positive_int(text: str) -> int:
    value = int(text)
    if value < 0:
        raise argparse.ArgumentTypeError("must be 0 or more")
    return value


def build_parser(
    *, commands: bool = True, subcommands: bool = True, only: str | None = None
) -> argparse.ArgumentParser:
    """The whole command line; ``commands`` False: the commands named, not built (the
    console's start: `vagent_tui.commands.registry.add_commands`); ``only``: that command
    built, the others named; ``subcommands`` False: the console's own options only (a
    command line that names no command and asks for no help: naming two dozen commands
    took 2 ms of every start)."""
    from vagent_tui import __version__
    from vagent_tui.cli_profiles import add_subcommands, complete_profiles
    from vagent_tui.commands.registry import VagentParser, add_commands

    console = VagentParser(
        prog="vagent-tui",
        description="A keyboard-driven console for the voice-agent platform API.",
    )
    parser: argparse.ArgumentParser = console
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    parser.add_argument(
        "--demo", action="store_true", help="run against the embedded simulator (no account needed)"
    )
    parser.add_argument(
        "--demo-token",
        default="demo-partner",
        metavar="TOKEN",
        help="which demo key to use with --demo (default demo-partner)",
    )
    complete_profiles(
        parser.add_argument("--profile", metavar="NAME", help="connection profile to use")
    )
    parser.add_argument(
        "--read-only",
        action="store_true",
        help="hide and refuse every action that changes the platform (prod profiles: default)",
    )
    parser.add_argument("--base-url", metavar="URL", help="platform base URL (or VAGENT_BASE_URL)")
    parser.add_argument(
        "--token", metavar="TOKEN", help="API token (prefer the VAGENT_TOKEN environment variable)"
    )
    from vagent_tui.ui.registry import BY_NAME

    parser.add_argument(
        "--screen", choices=list(BY_NAME), default="scope", help="screen to open first"
    )
    parser.add_argument(
        "--account", type=int, metavar="ID", help="start with this target account selected"
    )
    parser.add_argument(
        "--rooms",
        type=_positive_int,
        default=240,
        help="with --demo: junk inbox rooms per agent account",
    )
    parser.add_argument(
        "--task-seconds",
        type=float,
        default=10.0,
        help="with --demo: how long a migration task runs",
    )
    parser.add_argument(
        "--hostile",
        action="store_true",
        help="with --demo: the simulator plants terminal-hostile text in every reply",
    )
    if not subcommands:
        parser.set_defaults(command=None)
        console.whole = partial(build_parser, commands=False)
        return parser
    sub = parser.add_subparsers(dest="command")
    sim = sub.add_parser("sim", help="serve the platform simulator over loopback HTTP")
    sim.add_argument("--host", default="127.0.0.1")
    sim.add_argument("--port", type=int, default=8765)
    sim.add_argument(
        "--rooms",
        type=_positive_int,
        default=240,
        help="junk inbox rooms per agent account (up to 1,000,000)",
    )
    sim.add_argument(
        "--latency-ms", type=_positive_int, default=0, help="added latency of every reply"
    )
    sim.add_argument(
        "--task-seconds", type=float, default=10.0, help="how long a migration task takes"
    )
    sim.add_argument(
        "--hostile",
        action="store_true",
        help="plant terminal-hostile text (escape sequences, markup) in every reply",
    )
    sim.add_argument(
        "--huge",
        action="store_true",
        help="serve the replies of unpublished shape (usage, plans) with 100,000 keys and "
        "an 8 MiB name",
    )
    sim.add_argument(
        "--accounts",
        type=_positive_int,
        default=0,
        metavar="N",
        help="grow the demo partner's tree to N agent accounts (up to 100,000)",
    )
    sim.add_argument(
        "--calls",
        type=_positive_int,
        default=2_000,
        metavar="N",
        help="call log entries per voice agent account (up to 1,000,000; default 2,000)",
    )
    # Fault injection (vagent_tui/sim/faults.py; not imported here: start-up stays fast).
    sim.add_argument(
        "--jitter-ms", type=_positive_int, default=0, metavar="J",
        help="random extra latency of each reply, 0..J ms",
    )  # fmt: skip
    sim.add_argument(
        "--fail-rate", type=float, default=None, metavar="F",
        help="fraction 0..1 of requests that fail (with the --fault kinds, or a mix of all)",
    )  # fmt: skip
    sim.add_argument(
        "--fault", action="append", default=[], metavar="KIND",
        help="fault kind, repeatable or comma-separated: timeout, 500, 503, 429, refused, "
        "malformed, truncated, wrong-types, extra-fields, unknown-status, all",
    )  # fmt: skip
    sim.add_argument(
        "--fault-seed", type=int, default=None, metavar="N", help="seed of the fault draws"
    )
    sim.add_argument(
        "--max-in-flight", type=_positive_int, default=None, metavar="N",
        help="a rate limit: 429 with Retry-After past N requests at once",
    )  # fmt: skip
    serve = sub.add_parser(
        "serve",
        help="serve the console in a browser on 127.0.0.1 (needs the 'serve' extra)",
        description="Serve the console in a web browser, on the loopback interface only. "
        "Arguments after -- go to the console, e.g. vagent-tui serve --port 8000 -- --demo",
    )
    serve.add_argument("--port", type=int, default=8000)
    serve.add_argument("app_args", nargs=argparse.REMAINDER, help="arguments of the console")
    add_subcommands(sub)
    add_commands(sub, full=commands, only=only)
    return parser


def entry() -> int:
    """The ``vagent-tui`` program (its script and ``python -m vagent_tui``): `main`, then
    the process left to end without the interpreter's last walks of everything it made
    (`vagent_tui.collector.ending`)."""
    from vagent_tui import collector

    code = main()
    collector.ending()
    return code


def main(argv: Sequence[str] | None = None) -> int:
    from vagent_tui.commands.registry import COMMAND_NAMES, first_word

    words = sys.argv[1:] if argv is None else list(argv)
    first = first_word(words)
    if first not in COMMAND_NAMES or "_ARGCOMPLETE" in os.environ:
        return _main(argv, words, first)
    from vagent_tui import collector
    from vagent_tui.commands import early

    # A command starts as the console does (`run_console`): no cycle collections while
    # it imports and connects; then it runs with the console's thresholds
    # (`vagent_tui.commands.runner`): with the interpreter's, an export of 50,000 calls
    # spent a sixth of its CPU in the collector.
    with collector.starting():
        early.start(words)  # the first request, on its way while the rest is imported
        return _main(argv, words, first)


def _main(argv: Sequence[str] | None, words: list[str], first: str | None) -> int:
    from vagent_tui.commands.registry import COMMAND_NAMES, VagentParser

    command_line = first in COMMAND_NAMES
    completing = "_ARGCOMPLETE" in os.environ
    console_only = first is None and not completing and not {"-h", "--help"} & set(words)
    parser = build_parser(
        commands=command_line or completing,
        subcommands=not console_only,
        only=first if command_line and not completing else None,
    )
    if completing:
        _complete(parser)
    # 2 means "changes" to a command's caller: its usage errors exit 1 (set each time: a
    # process calling main twice, as the tests do, gets each line's own)
    VagentParser.usage_exit = 1 if command_line else 2
    VagentParser.words = words
    args = parser.parse_args(argv)
    command: str | None = getattr(args, "run", None)
    if command is not None:
        from vagent_tui.commands import runner

        return runner.run(args, command)
    if args.command == "sim":
        from vagent_tui.sim.faults import from_args as faults_from_args
        from vagent_tui.sim.serve import run

        if args.calls > 1_000_000:
            parser.error("--calls must be between 0 and 1000000")
        run(
            host=args.host,
            port=args.port,
            rooms=args.rooms,
            latency_ms=args.latency_ms,
            task_seconds=args.task_seconds,
            accounts=args.accounts,
            faults=faults_from_args(args, parser),
            hostile=args.hostile,
            calls=args.calls,
            huge=args.huge,
        )
        return 0
    if args.command == "serve":
        return run_serve(args.port, args.app_args)
    if args.command in ("profile", "info", "keys"):
        from vagent_tui import cli_profiles

        commands: dict[str, Callable[[argparse.Namespace], int]] = {
            "profile": cli_profiles.run_profile,
            "info": cli_profiles.run_info,
        }
        run_command = commands.get(args.command, cli_profiles.run_keys)
        return run_command(args)
    return run_console(args)


def _complete(parser: argparse.ArgumentParser) -> None:
    """Answer the shell's completion request and end (argcomplete's protocol).

    Registered with ``eval "$(register-python-argcomplete vagent-tui)"`` (README).
    """
    try:
        import argcomplete
    except ImportError:  # installed without its dependencies: no completion, no error
        return
    argcomplete.autocomplete(parser)


def _say(message: object) -> None:
    """One line on stderr; config text and error texts are outside text: made inert."""
    from vagent_tui.inert import inert

    print(f"vagent-tui: {inert(message)}", file=sys.stderr)


def _no_textual_logs() -> None:
    """Turn off Textual's developer log (``TEXTUAL_LOG``) and devtools (``TEXTUAL=devtools``)
    before Textual is imported, and say so: they record every key pressed and every field's
    value, a password or a provider's credential typed included."""
    if os.environ.pop("TEXTUAL_LOG", None) is not None:
        _say("warning: TEXTUAL_LOG ignored: Textual's log records every key typed, secrets too")
    features = [f for f in os.environ.get("TEXTUAL", "").split(",") if f.strip()]
    kept = [f for f in features if f.strip().lower() != "devtools"]
    if len(kept) != len(features):
        os.environ["TEXTUAL"] = ",".join(kept)
        _say("warning: TEXTUAL=devtools ignored: the devtools console sees every key typed")


def run_console(args: argparse.Namespace) -> int:
    from vagent_tui import collector

    _no_textual_logs()
    with collector.starting():  # resumed by the app half a second after it mounted
        return _run_console(args)


def _run_console(args: argparse.Namespace) -> int:
    from vagent_tui import config as cfg
    from vagent_tui import credentials
    from vagent_tui.services.connect import demo_client, real_client
    from vagent_tui.ui.keyspec import config_warnings

    config_error = None
    warnings: list[str] = []
    try:
        config = cfg.load()
    except cfg.ConfigError as exc:
        # The app still starts (demo, flags, or the setup screen, which shows the
        # problem); the file is left exactly as it is.
        config_error = str(exc)
        config = None
    if config is not None:
        warnings = config_warnings(config)
    for warning in warnings:  # also shown in the app; these stay once it has quit
        _say(f"warning: {warning}")
    connection = None
    if not args.demo:
        try:
            connection = credentials.resolve_connection(
                config or cfg.Config(),
                profile_name=args.profile,
                base_url=args.base_url,
                token=args.token,
            )
        except cfg.ConfigError as exc:
            if config_error:
                _say(config_error)
            _say(exc)
            return 2
        except KeyboardInterrupt:  # while a token command waited for a passphrase
            _say("interrupted")
            return 130
        if connection is None and config is not None and config.profiles:
            _say(
                "several profiles and no default: pick one with --profile NAME "
                f"or `vagent-tui profile use NAME` ({', '.join(config.profiles)})"
            )
            return 2
    client: PlatformClient | None = None
    label = ""
    if args.demo:
        client = demo_client(
            args.demo_token,
            rooms=args.rooms,
            task_seconds=args.task_seconds,
            hostile=args.hostile,
        )
        label = f"demo · {args.demo_token}"
    elif connection is not None:
        try:
            client = real_client(connection.base_url, connection.token)
        except cfg.ConfigError as exc:
            _say(exc)
            return 2
        label = connection.label if connection.profile else client.host
    # Otherwise (first run: no profile, no flags) the app opens the setup screen.

    from vagent_tui.ui.app import VagentApp

    profile = connection.profile if connection is not None else None
    account = args.account
    if account is None and profile is not None:
        account = profile.target_account
    theme = (profile.theme if profile else None) or (config.theme if config else None)
    app = VagentApp(
        client,
        profile_label=label,
        initial_screen=args.screen,
        initial_account=account,
        theme=theme,
        tier=profile.tier if profile else "",
        extra_theme_dirs=(cfg.user_themes_dir(),),
        config=config,
        config_error=config_error,
        config_warnings=warnings,
        profile=profile,
        read_only=args.read_only,
    )
    try:
        app.run()
    except Exception as exc:  # escaped Textual's own handler (e.g. the terminal driver)
        app.crash_error = app.crash_error or exc
    if app.crash_error is None and not app.return_code:
        return 0
    from vagent_tui.crash import report

    # Every client's token is remembered by real_client; these may be unused (--demo).
    secrets = (args.token, os.environ.get("VAGENT_TOKEN"))
    print(report(app.crash_error, secrets=secrets), file=sys.stderr)
    return app.return_code or 1


def run_serve(port: int, app_args: Sequence[str]) -> int:
    """Serve the console in a browser with textual-serve, bound to 127.0.0.1 only.

    The hardening (a secret per run, origin check, relative page, the token kept off
    command lines and out of print) is `vagent_tui.serve_web`'s.
    """
    try:
        import textual_serve  # noqa: F401  (the optional 'serve' extra)
    except ImportError:
        print(
            "vagent-tui serve needs the optional 'serve' extra: "
            'pip install "vagent-tui[serve]" (from a checkout: pip install ".[serve]")',
            file=sys.stderr,
        )
        return 2
    forwarded = list(app_args)
    if forwarded[:1] == ["--"]:
        forwarded = forwarded[1:]
    if any(a in ("serve", "sim") for a in forwarded[:1]):
        print("vagent-tui serve: give console options after --, not a command", file=sys.stderr)
        return 2
    from vagent_tui import serve_web

    parser = build_parser(commands=False)
    run = serve_web.launch(forwarded)
    # The console's own parser checks its options now rather than in each browser tab;
    # the token is out of them already, so no message of the parser can show it.
    checked = parser.parse_args(run.args)
    if checked.command is not None or checked.token is not None:
        print("vagent-tui serve: these console options cannot be served", file=sys.stderr)
        return 2
    serve_web.serve(run, port)
    return 0
