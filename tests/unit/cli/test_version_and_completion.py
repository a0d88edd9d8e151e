"""``vagent-tui --version`` and shell completion (argcomplete) of the command line.

Completion is tried as the shell does it: the command run with argcomplete's
environment (the line typed, the cursor), its answer read from the file argcomplete
writes it to.
"""

from __future__ import annotations

import argparse
import io
import os
import subprocess
import sys
import tomllib
from collections.abc import Iterator
from pathlib import Path

import pytest
from argcomplete.finders import CompletionFinder

import vagent_tui
from vagent_tui import cli
from vagent_tui.ui.registry import SCREENS

ROOT = Path(__file__).resolve().parents[3]


def test_version_prints_the_version_and_ends_well(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as ended:
        cli.main(["--version"])
    assert ended.value.code == 0
    assert capsys.readouterr().out == f"vagent-tui {vagent_tui.__version__}\n"


def test_the_version_is_the_packages() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    assert vagent_tui.__version__ == project["version"]
    # completion is a dependency, so the README's `pip install .` brings it
    assert any(d.startswith("argcomplete") for d in project["dependencies"])


def complete(line: str, tmp_path: Path) -> list[str]:
    """What ``vagent-tui`` offers for the TAB at the end of ``line``."""
    answer = tmp_path / "completions"
    env = {
        **os.environ,
        "_ARGCOMPLETE": "1",
        "_ARGCOMPLETE_IFS": "\n",
        "_ARGCOMPLETE_STDOUT_FILENAME": str(answer),
        "COMP_LINE": line,
        "COMP_POINT": str(len(line)),
    }
    done = subprocess.run(
        [sys.executable, "-m", "vagent_tui"],
        env=env,
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0 and done.stderr == "", done.stderr
    return [word.strip() for word in answer.read_text().split("\n") if word.strip()]


def test_completes_the_subcommands_and_options(tmp_path: Path) -> None:
    offered = complete("vagent-tui ", tmp_path)
    assert {"sim", "serve", "profile", "info", "keys"} <= set(offered)
    assert {"--screen", "--profile", "--demo", "--version"} <= set(offered)
    assert complete("vagent-tui se", tmp_path) == ["serve"]
    assert complete("vagent-tui profile ", tmp_path)[-4:] == ["add", "list", "remove", "use"]


def test_completes_every_screen_name(tmp_path: Path) -> None:
    assert complete("vagent-tui --screen ", tmp_path) == [s.name for s in SCREENS]
    assert complete("vagent-tui --screen ro", tmp_path) == ["rollout"]


def test_completes_the_profile_names_of_the_config(tmp_path: Path) -> None:
    for name in ("lab", "prod-eu", "prod-us"):
        added = cli.main(["profile", "add", name, "--base-url", "https://x.example",
                          "--token-env", "T"])  # fmt: skip
        assert added == 0
    assert complete("vagent-tui --profile ", tmp_path) == ["lab", "prod-eu", "prod-us"]
    assert complete("vagent-tui --profile prod", tmp_path) == ["prod-eu", "prod-us"]
    assert complete("vagent-tui profile use l", tmp_path) == ["lab"]
    assert complete("vagent-tui profile remove prod-u", tmp_path) == ["prod-us"]


def test_a_broken_config_completes_no_profile_and_says_nothing(isolated: Path) -> None:
    (isolated / "config.toml").write_text("[profiles\n")
    assert complete("vagent-tui --profile ", isolated) == []


class _Finder(CompletionFinder):
    def _init_debug_stream(self) -> None:
        """No debug stream on file descriptor 9 (argcomplete's advice under pytest)."""


def complete_here(line: str, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """`complete` in this process: the shell's request answered by the parser `main` builds."""
    for name, value in {"_ARGCOMPLETE": "1", "_ARGCOMPLETE_IFS": "\n", "COMP_LINE": line,
                        "COMP_POINT": str(len(line))}.items():  # fmt: skip
        monkeypatch.setenv(name, value)
    answer = io.StringIO()
    with pytest.raises(SystemExit) as ended:
        _Finder()(cli.build_parser(), output_stream=answer, exit_method=sys.exit)
    assert ended.value.code == 0
    return [word.strip() for word in answer.getvalue().split("\n") if word.strip()]


def _commands(
    parser: argparse.ArgumentParser, path: tuple[str, ...] = ()
) -> Iterator[tuple[tuple[str, ...], argparse.ArgumentParser, list[str]]]:
    """Each command's words, its parser, and the words of the commands below it."""
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, child in action.choices.items():
                below = [n for a in child._actions if isinstance(a, argparse._SubParsersAction)
                         for n in a.choices]  # fmt: skip
                yield (*path, name), child, below
                yield from _commands(child, (*path, name))


def test_every_command_completes_its_subcommands_and_options(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from vagent_tui.commands.registry import COMMAND_NAMES

    assert set(complete_here("vagent-tui ", monkeypatch)) >= COMMAND_NAMES
    found = [c for c in _commands(cli.build_parser()) if c[0][0] in COMMAND_NAMES]
    assert any(len(path) > 1 for path, _, _ in found)  # the walk went below the top
    for path, parser, below in found:
        line = "vagent-tui " + " ".join(path)
        if below:
            assert set(below) <= set(complete_here(line + " ", monkeypatch)), path
        options = {
            o for a in parser._actions if a.help != argparse.SUPPRESS
            for o in a.option_strings if o.startswith("--")
        }  # fmt: skip
        offered = set(complete_here(line + " --", monkeypatch))
        assert {"--profile", "--output"} | options <= offered, path


def test_a_commands_words_complete(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("lab", "prod-eu"):
        added = cli.main(["profile", "add", name, "--base-url", "https://x.example",
                          "--token-env", "T"])  # fmt: skip
        assert added == 0
    assert complete_here("vagent-tui get accounts --profile ", monkeypatch) == ["lab", "prod-eu"]
    assert complete_here("vagent-tui get accounts --type ", monkeypatch) == [
        "partner", "reseller", "organization", "agent"
    ]  # fmt: skip
    assert complete_here("vagent-tui get accounts --type agent,re", monkeypatch) == [
        "agent,reseller"
    ]
    assert complete_here("vagent-tui get accounts --below ", monkeypatch) == []  # no files
    assert complete_here("vagent-tui get accounts -o j", monkeypatch) == ["json", "jsonl"]
    assert "accounts" in complete_here("vagent-tui schema ", monkeypatch)
    assert complete_here("vagent-tui schema acc", monkeypatch) == ["accounts"]
