"""``vagent-tui profile add|list|remove|use`` and ``vagent-tui info``."""

from __future__ import annotations

import argparse
import getpass
import os
import sys
from pathlib import Path

from vagent_tui import config as cfg
from vagent_tui import credentials
from vagent_tui.api.errors import redact_url
from vagent_tui.inert import inert


def profile_names(**_context: object) -> list[str]:
    """The profile names of the config file, for shell completion (none if unreadable).

    argcomplete calls it with the prefix typed and more (``_context``); it filters.
    """
    try:
        return list(cfg.load().profiles)
    except (cfg.ConfigError, OSError):
        return []


def complete_profiles(action: argparse.Action) -> argparse.Action:
    """``action`` completes to the profile names (argcomplete reads its ``completer``)."""
    action.completer = profile_names  # type: ignore[attr-defined]
    return action


def add_subcommands(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    profile = sub.add_parser("profile", help="manage connection profiles")
    psub = profile.add_subparsers(dest="profile_command", required=True)

    add = psub.add_parser("add", help="add or replace a profile")
    add.add_argument("name")
    add.add_argument("--base-url", required=True, metavar="URL")
    add.add_argument("--tier", choices=cfg.TIERS, default="dev")
    add.add_argument("--account", type=int, metavar="ID", help="default target account")
    add.add_argument("--theme")
    ro = add.add_mutually_exclusive_group()
    ro.add_argument("--read-only", dest="read_only", action="store_const", const=True)
    ro.add_argument(
        "--read-write",
        dest="read_only",
        action="store_const",
        const=False,
        help="allow changes even on a prod profile",
    )
    src = add.add_mutually_exclusive_group(required=True)
    src.add_argument("--token-env", metavar="VAR", help="read the token from this variable")
    src.add_argument(
        "--token-command",
        metavar="CMD",
        help="run this command; its output is the token (e.g. a password manager)",
    )
    src.add_argument(
        "--token-stdin",
        action="store_true",
        help="read the token from standard input into the 0600 credentials file",
    )
    add.add_argument("--default", action="store_true", help="make it the default profile")

    psub.add_parser("list", help="list profiles")
    remove = psub.add_parser("remove", help="remove a profile (and its stored token)")
    complete_profiles(remove.add_argument("name"))
    use = psub.add_parser("use", help="make a profile the default")
    complete_profiles(use.add_argument("name"))

    sub.add_parser("info", help="print every path the app uses")
    keys = sub.add_parser("keys", help="list the binding ids a profile's keymap can override")
    keys.add_argument(
        "--markdown",
        action="store_true",
        help="print the key convention as the README's Markdown table instead",
    )
    keys.add_argument(
        "--write-readme",
        metavar="README",
        help="write the key convention's and the screens' tables between their markers in README",
    )


def _say(message: object) -> None:
    """One line on stderr. A config file is outside text too: made inert."""
    print(f"vagent-tui: {inert(message)}", file=sys.stderr)


def _load() -> cfg.Config | None:
    try:
        return cfg.load()
    except cfg.ConfigError as exc:
        _say(f"{exc} (the file was not changed: fix it by hand)")
        return None


def _warn(config: cfg.Config, *, binding_ids: bool = False) -> None:
    """Say on stderr what the file holds that is ignored; ``binding_ids``: check those too.

    Binding ids need every screen imported (half a second): only `profile list` does.
    """
    from vagent_tui.ui.keyspec import config_warnings

    warnings = config_warnings(config)
    if binding_ids:
        from vagent_tui.ui.keys import keymap_warning, unknown_ids

        for profile in config.profiles.values():
            unknown = unknown_ids(profile.keymap) if profile.keymap else []
            if unknown:
                warnings.append(f"{config.path}: {keymap_warning(profile.name, unknown)}")
    for warning in warnings:
        _say(f"warning: {warning}")


def run_profile(args: argparse.Namespace) -> int:
    config = _load()
    if config is None:
        return 2
    command = args.profile_command
    if command == "list":
        _warn(config, binding_ids=True)
        if not config.profiles:
            print(
                f"No profiles in {inert(config.path)}. "
                "Add one with: vagent-tui profile add NAME ..."
            )
        for name, profile in config.profiles.items():
            mark = "*" if name == config.default_profile else " "
            ro = "read-only" if profile.is_read_only else "read-write"
            print(
                f"{mark} {inert(name, limit=60):<16} {profile.tier:<8} {ro:<10} "
                f"{inert(redact_url(profile.base_url), limit=200)}  "
                f"token from {inert(profile.token_source(), limit=200)}"
            )
        return 0
    if command == "add":
        return _add(config, args)
    if args.name not in config.profiles:
        _say(f"no profile named {args.name!r}")
        return 1
    if command == "remove":
        del config.profiles[args.name]
        if config.default_profile == args.name:
            config.default_profile = None
        cfg.save(config)
        credentials.forget_token(args.name)
        print(f"Removed profile {args.name}")
        return 0
    config.default_profile = args.name
    cfg.save(config)
    print(f"Default profile is now {args.name}")
    return 0


def _add(config: cfg.Config, args: argparse.Namespace) -> int:
    profile = cfg.Profile(
        name=args.name,
        base_url=args.base_url.rstrip("/"),
        target_account=args.account,
        theme=args.theme,
        tier=args.tier,
        read_only=args.read_only,
        token_env=args.token_env,
        token_command=args.token_command,
        token_file=True if args.token_stdin else None,
    )
    problem = cfg.base_url_problem(profile.base_url)
    if problem:
        _say(f"--base-url {problem}")
        return 2
    if args.token_stdin:
        token = (getpass.getpass("Token: ") if sys.stdin.isatty() else sys.stdin.readline()).strip()
        if not token:
            print("vagent-tui: no token given", file=sys.stderr)
            return 2
        try:
            where = credentials.store_token(args.name, token)
        except cfg.ConfigError as exc:
            print(f"vagent-tui: {exc}", file=sys.stderr)
            return 1
        print(f"Token stored in {where} (mode 0600)")
    config.profiles[args.name] = profile
    if args.default or config.default_profile is None:
        config.default_profile = args.name
    cfg.save(config)
    print(f"Saved profile {args.name} to {config.path}")
    return 0


def run_keys(args: argparse.Namespace) -> int:
    from vagent_tui.ui import convention

    if getattr(args, "write_readme", None):
        path = Path(args.write_readme)
        try:
            path.write_text(_readme_tables(path.read_text(encoding="utf-8")), encoding="utf-8")
        except (OSError, ValueError) as exc:
            _say(f"{path}: {exc}")
            return 2
        return 0
    if getattr(args, "markdown", False):
        lines = [convention.markdown()]
    else:
        from vagent_tui.ui.keys import catalog

        lines = [
            'Binding ids for a profile\'s [profiles.NAME.keymap] table, e.g. "voices.copy" = "c"'
        ]
        for i in catalog():
            key = "(none)" if i.key.startswith(convention.NO_KEY_PREFIX) else i.key
            lines.append(f"{i.id:<26} {key:<16} {i.description:<20} {i.owner}")
    try:
        print("\n".join(lines), flush=True)
    except BrokenPipeError:  # `vagent-tui keys | head`
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    return 0


def _readme_tables(text: str) -> str:
    """``text`` with every generated table whose markers it has written anew: the key
    convention's (`convention`) and the screens' (`keys`: the registry and each screen's
    writing keys); at least one of them."""
    from vagent_tui.ui import convention, keys

    written = 0
    for table in (convention.readme_with_table, keys.readme_with_screens):
        try:
            text = table(text)
        except ValueError:
            continue
        written += 1
    if not written:
        raise ValueError("no markers of a generated table (keys, screens)")
    return text


def run_info(_args: argparse.Namespace | None = None) -> int:
    for label, path in cfg.paths().items():
        state = "exists" if path.exists() else "absent"
        print(f"{label:<18} {inert(path)}  ({state})")
    config = _load()  # and whether the config file can be used
    if config is None:
        return 2
    _warn(config)
    return 0
