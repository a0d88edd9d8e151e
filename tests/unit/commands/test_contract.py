"""The contract every command keeps: output shapes, exit codes, stdout for data only."""

from __future__ import annotations

import io
import json
from typing import Any

import pytest

from tests.unit.commands.conftest import RunCli
from vagent_tui.commands import contract, registry
from vagent_tui.commands.output import Messages, Output
from vagent_tui.commands.schemas import SCHEMA_DIR, schema_text, shapes


def test_every_kind_has_its_schema_file_as_its_model_makes_it() -> None:
    """A change of an item model changes the file too (``python -m
    vagent_tui.commands.schemas``): the shape a script relies on moves only on purpose."""
    models = shapes()
    files = {p.stem for p in SCHEMA_DIR.glob("*.json")}
    assert files == set(models)
    for kind, model in models.items():
        assert (SCHEMA_DIR / f"{kind}.json").read_text(encoding="utf-8") == schema_text(
            kind, model
        ), kind


def test_the_commands_named_are_those_the_modules_add() -> None:
    import argparse

    parser = argparse.ArgumentParser()
    sub = parser.add_subparsers()
    registry.add_commands(sub)
    assert set(sub.choices) == registry.COMMAND_NAMES
    said = {action.dest: action.help for action in sub._choices_actions}
    assert said == registry.COMMAND_HELP  # the console's start lists them as they say
    assert list(said) == list(registry.COMMAND_HELP)  # in this order


@pytest.mark.parametrize("name", sorted(registry.COMMAND_NAMES))
def test_a_command_line_builds_its_own_module_commands_and_names_the_others(name: str) -> None:
    """`add_commands` with ``only``: the module `MODULE_OF` names adds that command (so
    the map is right), each command is listed once with its help, in the usual order."""
    import argparse

    parser = argparse.ArgumentParser()
    sub = parser.add_subparsers()
    registry.add_commands(sub, only=name)
    said = {action.dest: action.help for action in sub._choices_actions}
    assert list(said.items()) == list(registry.COMMAND_HELP.items())
    built = {n for n, p in sub.choices.items() if p._actions[1:]}  # more than -h
    module = registry.MODULE_OF[name]
    assert name in built
    assert built == {n for n in registry.COMMAND_NAMES if registry.MODULE_OF[n] == module}


class _Tty(io.StringIO):
    def isatty(self) -> bool:
        return True


@pytest.mark.parametrize("fmt", ["csv", "jsonl"])
def test_rows_given_as_texts_are_checked_as_items_are(fmt: Any) -> None:
    """`Output.write_texts` (the platform's CSV rows): the same output as `write` of the
    same item; a short row padded, a long one cut to the columns."""
    rows = [["=HYPERLINK(1)", "-12.50", "x"], ["@a", "+1 555"], ["a", "b", "c", "extra"]]
    given, made = io.StringIO(), io.StringIO()
    with Output("calls", ("a", "b", "c"), fmt, given) as out:
        out.write_texts(rows[:1])
        out.write_texts(rows[1:])
    with Output("calls", ("a", "b", "c"), fmt, made) as out:
        for row in rows:
            out.write({n: (row[i] if i < len(row) else "") for i, n in enumerate("abc")})
    assert given.getvalue() == made.getvalue()
    if fmt == "csv":
        assert given.getvalue().splitlines() == [
            "a,b,c", "'=HYPERLINK(1),-12.50,x", "'@a,'+1 555,", "a,b,c",
        ]  # fmt: skip


_CELLS = ["", "x", "+1 555", "+12", "-12", "-12.50", "-12.", "-1x", "-", "--1", "=A1", "@a",
          "\tx", "1-2", "a=b", "-0", "é", "a;b"]  # fmt: skip


@pytest.mark.parametrize("seed", range(40))
def test_csv_text_is_written_as_its_rows_are(seed: int) -> None:
    """`Output.write_csv_text` (the platform's CSV as it came): the same output as
    `write_texts` of its rows, whether the text is written unparsed (no quote, no CR,
    every row the columns' width, CRLF or LF) or parsed (a quoted field, a short or long
    row, a lone CR)."""
    import csv
    import random

    rng = random.Random(seed)
    width = rng.choice([1, 2, 3, 5])
    columns = tuple(f"c{i}" for i in range(width))
    rows = [[rng.choice(_CELLS) for _ in range(width)] for _ in range(rng.randint(1, 30))]
    lines = [",".join(row) for row in rows]
    kind = seed % 4
    if kind == 1 and width > 1:  # a quoted field with a comma in it
        lines[0] = '"a,b",' + lines[0].split(",", 1)[1]
    elif kind == 2:  # a row short of a cell, or one too many
        lines[-1] += rng.choice([",extra", ""]) if width > 1 else ",extra"
        if width > 1 and not lines[-1].endswith("extra"):
            lines[-1] = lines[-1].rsplit(",", 1)[0]
    ending = "\r\n" if kind == 3 else "\n"  # RFC 4180's, as the platform sends it
    text = "".join(line + ending for line in lines)
    if seed % 8 == 4:
        text = "x\ry" + text[1:]  # a lone CR
    given, made = io.StringIO(), io.StringIO()
    with Output("calls", columns, "csv", given) as ours:
        ours.write_csv_text(text)
        ours.write_csv_text("")
    parsed = list(csv.reader(io.StringIO(text, newline="")))  # a lone CR ends a row too
    with Output("calls", columns, "csv", made) as out:
        out.write_texts(parsed)
    assert given.getvalue() == made.getvalue()
    assert ours.count == out.count == len(parsed) >= len(rows)


@pytest.mark.parametrize("text", ["x,y\r\r\n", "x,y\r\n\r\n", "x,y\rz,w\r\n", "-,+\r\n"])
def test_csv_text_with_carriage_returns_is_written_as_its_rows_are(text: str) -> None:
    import csv

    given, made = io.StringIO(), io.StringIO()
    with Output("calls", ("a", "b"), "csv", given) as ours:
        ours.write_csv_text(text)
    with Output("calls", ("a", "b"), "csv", made) as out:
        out.write_texts(list(csv.reader(io.StringIO(text, newline=""))))
    assert given.getvalue() == made.getvalue() and ours.count == out.count


@pytest.mark.parametrize("quoted", [False, True])
def test_a_cell_longer_than_csvs_own_limit_is_written_whole(quoted: bool) -> None:
    """A transcript of 300,000 characters in one cell (csv's reader refuses more than
    131,072 unless told): written whole, unparsed or parsed (a quoted cell)."""
    long = "word " * 60_000
    cell = f'"{long}, said"' if quoted else long
    given = io.StringIO()
    with Output("calls", ("id", "transcript"), "csv", given) as out:
        out.write_csv_text(f"1,{cell}\n")
    assert given.getvalue().splitlines()[1].endswith('said"' if quoted else "word ")
    assert out.count == 1 and len(given.getvalue()) > 300_000


def test_csv_text_unparsed_quotes_formula_cells_but_not_numbers() -> None:
    given = io.StringIO()
    with Output("calls", ("a", "b", "c"), "csv", given) as out:
        out.write_csv_text("+1 555,-12.50,=x\n-,@a,1-2\n")
    assert given.getvalue().splitlines() == ["a,b,c", "'+1 555,-12.50,'=x", "'-,'@a,1-2"]
    assert out.count == 2


def test_rows_given_as_texts_on_a_terminal_are_made_inert_as_items_are() -> None:
    rows = [["=x\x1b[31mred", "a\u202eb"], ["plain", "-1"]]
    given, made = _Tty(), _Tty()
    with Output("calls", ("a", "b"), "csv", given) as out:
        out.write_texts(rows)
    with Output("calls", ("a", "b"), "csv", made) as out:
        for row in rows:
            out.write(dict(zip("ab", row, strict=True)))
    assert given.getvalue() == made.getvalue()
    assert "\x1b" not in given.getvalue() and "\u202e" not in given.getvalue()


@pytest.mark.parametrize("fmt", ["json", "jsonl"])
@pytest.mark.parametrize(
    "items",
    [
        [{"n": "plain"}, {"n": "del\x7fhere"}, {"n": "Müller\u009b2J\u202e"}, {"n": "é"}],
        [{"n": "plain"}, {"n": "é"}, {"n": "Müller\u009b2J\u202e"}],  # no DEL on the page
        [{"n": "plain"}, {"n": "del\x7fhere"}, {"n": "é"}],  # DEL only
        [{"n": "é"}, {"n": "Müller"}],  # nothing to escape
    ],
)
def test_json_lines_given_as_text_are_escaped_each_ascii_or_not(
    fmt: Any, items: list[dict[str, str]]
) -> None:
    """`Output.write_json` (the calls export's lines): a DEL in an ASCII line and a C1 or
    bidi control in a line of other text are escaped, on a page with or without the
    other; the lines read back the same."""
    stream = io.StringIO()
    out = Output("calls", ("n",), fmt, stream)
    out.write_json([json.dumps(item, ensure_ascii=False) for item in items])
    out.close()
    text = stream.getvalue()
    assert not {"\x7f", "\u009b", "\u202e"} & set(text)
    assert "é" in text  # other text as it is
    if fmt == "json":
        assert json.loads(text)["items"] == items
    else:
        assert [json.loads(line)["item"] for line in text.splitlines()] == items


@pytest.mark.parametrize("fmt", ["json", "jsonl", "csv", "table"])
@pytest.mark.parametrize("terminal", [False, True])
def test_an_output_writes_each_format(fmt: Any, terminal: bool) -> None:
    """The data as it is, where a program reads it; nothing a terminal obeys where it may
    be shown (JSON escapes what it leaves raw otherwise; CSV and tables on a terminal are
    made inert)."""
    hostile = "a\x1b[2Jb\u009b2J\u202e"
    stream = _Tty() if terminal else io.StringIO()
    with Output("kinds", ("kind", "n"), fmt, stream) as out:
        out.write({"kind": "=1+1", "n": 3})
        out.write({"kind": hostile, "n": None})
    text = stream.getvalue()
    if fmt in ("json", "jsonl", "table") or terminal:
        assert not {"\x1b", "\u009b", "\u202e"} & set(text)
    if fmt == "json":
        doc = json.loads(text)
        items = [{"kind": "=1+1", "n": 3}, {"kind": hostile, "n": None}]
        assert doc == {"version": 1, "kind": "kinds", "items": items}
    elif fmt == "jsonl":
        lines = [json.loads(line) for line in text.splitlines()]
        assert [line["item"]["n"] for line in lines] == [3, None]
        assert lines[1]["item"]["kind"] == hostile
        assert all(line["version"] == 1 and line["kind"] == "kinds" for line in lines)
    elif fmt == "csv" and not terminal:
        assert text.splitlines() == ["kind,n", "'=1+1,3", f"{hostile},"]
    elif fmt == "csv":
        assert text.splitlines()[:2] == ["kind,n", "'=1+1,3"] and "␛[2J" in text
    else:
        assert text.splitlines()[0].split() == ["KIND", "N"]
        assert "␛[2J" in text


def test_an_empty_json_document_is_still_a_document() -> None:
    stream = io.StringIO()
    Output("kinds", ("kind",), "json", stream).close()
    assert json.loads(stream.getvalue()) == {"version": 1, "kind": "kinds", "items": []}


def test_progress_only_on_a_terminal_and_never_on_stdout() -> None:
    piped = io.StringIO()
    Messages(piped).progress(1, 2, "accounts", force=True)
    assert piped.getvalue() == ""
    tty = _Tty()
    Messages(tty).progress(1, 2, "accounts", force=True)
    assert "1 of 2 accounts" in tty.getvalue()
    quiet = _Tty()
    messages = Messages(quiet, quiet=True)
    messages.progress(1, 2, "accounts", force=True)
    messages.say("hello")
    messages.error("bad")
    assert quiet.getvalue() == "vagent-tui: error: bad\n"


def test_schema_lists_the_kinds_and_prints_one(cli: RunCli) -> None:
    ran = cli("schema", "-o", "json")
    assert ran.code == contract.DONE
    kinds = [item["kind"] for item in ran.items("kinds")]
    assert "kinds" in kinds
    one = cli("schema", "kinds")
    assert json.loads(one.out)["title"] == "vagent-tui kinds"
    missing = cli("schema", "nope")
    assert missing.code == contract.ERROR and missing.out == ""
    assert "no kind 'nope'" in missing.err


def test_a_usage_error_of_a_command_exits_1_not_2(cli: RunCli) -> None:
    """2 means "a plan with changes" to a script: a bad option is an error (1)."""
    import sys

    from vagent_tui.cli import main

    ran_code = None
    argv = ["schema", "--no-such-option"]
    old = sys.argv
    sys.argv = ["vagent-tui", *argv]
    try:
        main(argv)
    except SystemExit as exc:
        ran_code = exc.code
    finally:
        sys.argv = old
        registry.VagentParser.usage_exit = 2
    assert ran_code == contract.ERROR


def test_a_reader_that_stops_early_ends_the_command_quietly(
    cli: RunCli, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``vagent-tui get … | head``: the pipe closes, the command stops, exit 0, no trace."""

    class Closed(io.StringIO):
        def write(self, text: str) -> int:
            raise BrokenPipeError(32, "Broken pipe")

    monkeypatch.setattr("sys.stdout", Closed())
    ran = cli("schema", "-o", "jsonl")
    assert ran.code == contract.DONE
    assert "Traceback" not in ran.err and "Broken pipe" not in ran.err


def test_a_command_is_told_from_the_console_by_its_first_word() -> None:
    """``vagent-tui --screen fleet`` opens the console on Fleet; ``vagent-tui fleet ask``
    runs a command (only a command's usage errors exit 1, only it sends a request early)."""
    from vagent_tui.cli import build_parser

    assert registry.first_word(["--screen", "fleet"]) is None
    assert registry.first_word(["--profile", "get", "--demo"]) is None
    assert registry.first_word([]) is None
    assert registry.first_word(["--profile", "prod", "fleet", "ask", "voice"]) == "fleet"
    assert registry.first_word(["get", "accounts"]) == "get"
    assert registry.first_word(["--demo", "typo"]) == "typo"  # the whole parser says so
    # argparse takes a unique prefix of a long option: its value is no command's name
    assert registry.first_word(["--prof", "fleet", "get", "accounts"]) == "get"
    assert registry.first_word(["--scr", "rollout", "get"]) == "get"
    assert registry.first_word(["--prof=fleet", "get"]) == "get"
    assert registry.first_word(["--demo", "get"]) == "get"  # whole, though --demo-token too
    assert registry.first_word(["--dem", "get"]) == "get"  # ambiguous: the parser says so
    assert registry.first_word(["--read", "get"]) == "get"  # --read-only takes no value
    valued = {
        option
        for action in build_parser()._actions
        if action.option_strings and action.nargs != 0
        for option in action.option_strings
        if option.startswith("--") and option not in ("--help", "--version")
    }
    assert valued == registry.CONSOLE_VALUE_OPTIONS
    flags = {
        option
        for action in build_parser()._actions
        for option in action.option_strings
        if option.startswith("--") and option not in valued
    }
    assert flags == registry.CONSOLE_FLAGS


@pytest.mark.parametrize(
    "words",
    [
        ["--scr", "fleet", "get", "accounts", "--demo", "-o", "json"],
        ["--scre=fleet", "get", "accounts", "--demo", "-o", "json"],
        ["--scr", "rollout", "get", "accounts", "--demo", "-o", "json"],
    ],
)
def test_an_abbreviated_option_before_the_command_runs_the_command(
    words: list[str], monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The command argparse picks is the one built (not a parser that only names it)."""
    from vagent_tui.cli import main

    assert main(words) == contract.DONE
    assert json.loads(capsys.readouterr().out)["kind"] == "accounts"


def test_the_readme_documents_every_exit_code() -> None:
    from pathlib import Path

    readme = (Path(__file__).parents[3] / "README.md").read_text(encoding="utf-8")
    section = readme[readme.index("## Scripts and pipelines") :]
    for code in contract.EXIT_CODES:
        assert f"\n  | {code} | " in section, f"exit code {code} is not in README's table"


def test_a_fault_of_the_console_is_one_line_and_a_saved_report(
    cli: RunCli, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A bug (an exception no rule expects) ends the command with exit 1 and one line on
    stderr naming it and where its traceback was saved, never a raw traceback."""
    from vagent_tui.commands import get_reads

    async def broken(ctx: Any) -> int:
        raise OverflowError("planted \x1b[2J fault")

    monkeypatch.setattr(get_reads, "get_voices", broken)
    ran = cli("get", "voices", "--account", "1111")
    assert ran.code == contract.ERROR and ran.out == ""
    assert "OverflowError: planted ␛[2J fault" in ran.err and "traceback saved to" in ran.err
    assert "Traceback (most recent call last)" not in ran.err


def test_a_number_no_json_holds_is_written_as_null() -> None:
    """A lenient read may take ``NaN`` from a platform; ``jq`` refuses it in JSON."""
    stream = io.StringIO()
    with Output("kinds", ("kind",), "jsonl", stream) as out:
        out.write({"kind": "x", "n": float("nan"), "more": [float("inf"), 1.5]})
    assert json.loads(stream.getvalue())["item"] == {"kind": "x", "n": None, "more": [None, 1.5]}
    assert "NaN" not in stream.getvalue() and "Infinity" not in stream.getvalue()


@pytest.mark.parametrize(
    "argv",
    [
        ["get", "agents", "--token", "SECRET-abc-123"],
        ["get", "agents", "--token=SECRET-abc-123"],
        ["--token", "SECRET-abc-123", "fleet", "questions", "--bogus"],
        ["get", "agents", "--token=SECRET-abc-123", "--bogus"],
    ],
)
def test_a_token_on_the_command_line_is_refused_and_never_said_back(
    argv: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    from vagent_tui.cli import main

    try:
        code = main(argv)
    except SystemExit as exc:
        code = exc.code if isinstance(exc.code, int) else 1
    finally:
        registry.VagentParser.usage_exit = 2
    out, err = capsys.readouterr()
    assert code in (contract.ERROR, contract.REFUSED)
    assert "SECRET-abc-123" not in out + err
    if "--bogus" not in argv:
        assert code == contract.REFUSED and "--token would show the key" in err


def test_a_progress_line_is_cleared_before_the_data_on_one_terminal() -> None:
    """stderr and stdout on one terminal: the rows never start on the progress line."""
    import argparse

    from vagent_tui.commands.runner import Context
    from vagent_tui.services.session import Connection

    terminal = _Tty()
    messages = Messages(terminal)
    ctx = Context(argparse.Namespace(output="jsonl"), Connection(), messages, stdout=terminal)
    messages.progress(3, 7, "tasks", force=True)
    with ctx.output("kinds", ("kind",)) as out:
        out.write({"kind": "x"})
    assert terminal.getvalue().startswith("\r\x1b[K3 of 7 tasks\r\x1b[K{")


def test_a_table_on_a_terminal_never_wraps_a_row(monkeypatch: pytest.MonkeyPatch) -> None:
    """Columns shrink to the terminal; what still does not fit is cut at its edge (a row
    wrapped into the next line reads as two rows)."""
    from vagent_tui.commands import output

    monkeypatch.setattr(output, "_terminal_width", lambda stream: 80)
    stream = _Tty()
    columns = tuple(f"column{i}" for i in range(12))
    with Output("kinds", columns, "table", stream) as out:
        out.write({c: "a value of some length" for c in columns})
    lines = stream.getvalue().splitlines()
    assert len(lines) == 2 and all(len(line) <= 80 for line in lines)
    assert lines[1].endswith("…")
