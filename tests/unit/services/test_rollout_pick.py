"""Choosing a rollout: the form's fields parsed, and the accounts it goes to."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest

from vagent_tui.api.models import Account
from vagent_tui.api.scope import classify
from vagent_tui.services.accounts import AccountDirectory, NamedAccount
from vagent_tui.services.agent_listing import fleet_accounts
from vagent_tui.services.changes import FunctionSwitch
from vagent_tui.services.connect import demo_client
from vagent_tui.services.rollout_pick import (
    AccountFilter,
    parse_functions,
    parse_settings,
    pick_accounts,
)

# ------------------------------------------------------------------------ parse_functions


@pytest.mark.parametrize("text", ["a on, b off", "a on; b off", " a ON ;b Off, ", "a on,,b off"])
def test_functions_are_switches_whichever_separator(text: str) -> None:
    assert parse_functions(text) == (FunctionSwitch("a", True), FunctionSwitch("b", False))


def test_function_names_keep_their_case_and_may_hold_dots_and_dashes() -> None:
    assert parse_functions("bookAppointment on, crm.sync_v2-x off") == (
        FunctionSwitch("bookAppointment", True),
        FunctionSwitch("crm.sync_v2-x", False),
    )


@pytest.mark.parametrize("text", ["", "   ", ",", " ; , "])
def test_no_function_text_is_no_switch(text: str) -> None:
    assert parse_functions(text) == ()


@pytest.mark.parametrize(
    ("text", "part"),
    [
        ("a maybe", "a maybe"),
        ("a", "a"),
        ("a on extra", "a on extra"),
        ("ok on, book appointment on", "book appointment on"),
        ("book$it on", "book$it on"),
        ("9lives on", "9lives on"),
        ("on a", "on a"),
    ],
)
def test_a_part_that_is_not_a_switch_is_named(text: str, part: str) -> None:
    with pytest.raises(ValueError) as info:
        parse_functions(text)
    assert repr(part) in str(info.value)
    assert "<function> on" in str(info.value)


def test_the_same_function_twice_is_refused() -> None:
    with pytest.raises(ValueError, match="sendSms is switched twice"):
        parse_functions("sendSms on, endCall off; sendSms off")
    with pytest.raises(ValueError, match="twice"):
        parse_functions("a on, a on")


# ------------------------------------------------------------------------- parse_settings


def test_settings_are_typed_values_in_order() -> None:
    got = parse_settings("speakingTimeout=900; agentLang=en-US")
    assert got == (("speakingTimeout", 900), ("agentLang", "en-US"))
    assert type(got[0][1]) is int


def test_settings_of_each_kind() -> None:
    got = dict(parse_settings(" waitToGreet = TRUE ;agentS2SEngine=; timezone=UTC;"))
    assert got == {"waitToGreet": True, "agentS2SEngine": None, "timezone": "UTC"}


def test_a_setting_value_may_hold_commas() -> None:
    got = parse_settings("brandName=Acme, Inc.; welcomeMessage=Hello, how can I help?")
    assert got == (("brandName", "Acme, Inc."), ("welcomeMessage", "Hello, how can I help?"))


def test_a_setting_value_may_hold_an_equals_sign() -> None:
    got = parse_settings("cnamAutoRejectRegex=^(spam|a=b)$; welcomeMessage=1+1=2, yes")
    assert got == (("cnamAutoRejectRegex", "^(spam|a=b)$"), ("welcomeMessage", "1+1=2, yes"))


@pytest.mark.parametrize("name", ["welcomeMessage", "agentInstructions", "heartbeatInstructions"])
def test_spaces_around_the_separators_are_not_part_of_a_long_text(name: str) -> None:
    # The one-line field spaces its parts as the docstring does ("speakingTimeout=900;
    # agentLang=en-US"); ``speakingTimeout = 900`` is 900, so ``welcomeMessage = Hi ;``
    # is "Hi", not " Hi " (a stray space written to every account's staging).
    got = dict(parse_settings(f"speakingTimeout = 900 ; {name} = Hello, there ; agentLang = en-US"))
    assert got == {"speakingTimeout": 900, name: "Hello, there", "agentLang": "en-US"}


def test_no_setting_text_is_no_setting() -> None:
    assert parse_settings("") == ()
    assert parse_settings(" ;  ; ") == ()


@pytest.mark.parametrize(
    ("text", "named"),
    [
        ("colour=blue", "colour is not an editable setting"),
        ("speakingTimeout=900; colour=blue", "colour is not an editable setting"),
        ("speakingTimeout=abc", "speakingTimeout: a whole number is needed"),
        ("speakingTimeout=", "speakingTimeout: a whole number is needed"),
        ("agentLang=english", "agentLang: a language tag"),
        ("waitToGreet=yes", "waitToGreet: true or false is needed"),
        ("timezone=chicago", "timezone: a Region/City zone name"),
        ("speakingTimeout 900", "'speakingTimeout 900': write <setting>=<value>"),
        ("=900", "'=900': write <setting>=<value>"),
        ("speakingTimeout=900; speakingTimeout=901", "speakingTimeout is set twice"),
    ],
)
def test_a_wrong_setting_is_named(text: str, named: str) -> None:
    with pytest.raises(ValueError) as info:
        parse_settings(text)
    assert named in str(info.value)


def test_a_setting_twice_is_refused_even_when_the_second_value_is_bad() -> None:
    with pytest.raises(ValueError, match="agentLang is set twice"):
        parse_settings("agentLang=en-US; agentLang=xx")


# -------------------------------------------------------------------------- AccountFilter


def test_filter_words_are_lowercased_and_keys_read_case_insensitively() -> None:
    f = AccountFilter.parse("Acme  DENTAL Voice:OpenAI-Ash ENGINE:elevenlabs lang:en-US")
    assert f == AccountFilter(("acme", "dental"), "OpenAI-Ash", "elevenlabs", "en-US")
    assert f.reads_config


def test_filter_without_keys_does_not_read_the_configuration() -> None:
    assert AccountFilter.parse("acme front") == AccountFilter(("acme", "front"))
    assert not AccountFilter.parse("acme front").reads_config
    assert not AccountFilter().reads_config
    assert AccountFilter.parse("") == AccountFilter()
    for key in ("voice", "engine", "lang"):
        assert AccountFilter.parse(f"{key}:x").reads_config


def test_a_filter_value_may_hold_a_colon() -> None:
    assert AccountFilter.parse("voice:a:b").voice == "a:b"


@pytest.mark.parametrize(("text", "named"), [("colour:red", "colour:"), ("plan:pro", "plan:")])
def test_an_unknown_filter_key_is_refused(text: str, named: str) -> None:
    with pytest.raises(ValueError) as info:
        AccountFilter.parse(f"acme {text}")
    assert str(info.value).startswith(named) and "not a filter" in str(info.value)


@pytest.mark.parametrize("key", ["voice", "Engine", "lang"])
def test_a_filter_key_without_value_is_refused(key: str) -> None:
    with pytest.raises(ValueError, match=f"{key}: needs a value"):
        AccountFilter.parse(f"acme {key}:")


@pytest.mark.parametrize(
    "text",
    ["", "acme", "Acme Dental", "voice:OpenAI-Ash", "LANG:en-US acme engine:gemini",
     "x voice:a engine:b lang:c"],
)  # fmt: skip
def test_filter_text_round_trips(text: str) -> None:
    f = AccountFilter.parse(text)
    assert AccountFilter.parse(str(f)) == f


def test_filter_text_is_words_then_voice_engine_lang() -> None:
    f = AccountFilter.parse("lang:en-US Acme engine:gemini voice:x dental")
    assert str(f) == "acme dental voice:x engine:gemini lang:en-US"


def _account(aid: int | None, name: str | None, username: str | None = None) -> Account:
    return Account.model_validate(
        {"id": aid, "name": name, "username": username, "accountType": "account"}
    )


def test_filter_words_match_name_username_id_and_the_accounts_above() -> None:
    agent = _account(1111, "Acme Dental Front Desk", "acme.dental.front.desk")
    above = [_account(1000, "Northwind Voice Partners"), _account(1110, "Acme Dental Group")]
    assert AccountFilter.parse("FRONT desk").matches_account(agent)
    assert AccountFilter.parse("front.desk").matches_account(agent)  # the username
    assert AccountFilter.parse("1111").matches_account(agent)  # the id
    assert not AccountFilter.parse("group").matches_account(agent)
    assert AccountFilter.parse("group").matches_account(agent, above)  # its organization
    assert AccountFilter.parse("northwind front").matches_account(agent, above)
    assert not AccountFilter.parse("front lakeside").matches_account(agent, above)  # every word
    assert AccountFilter().matches_account(agent)
    assert AccountFilter.parse("voice:x").matches_account(agent)  # keys are for the config


CONFIG: dict[str, Any] = {
    "agentVoice": "OpenAI-Ash",
    "agentTtsEngine": "openai",
    "agentS2SEngine": None,
    "agentSttEngine": "deepgram",
    "agentLang": "en-US",
}


@pytest.mark.parametrize(
    ("text", "matches"),
    [
        ("", True),
        ("acme", True),  # words are not matched against the configuration
        ("voice:openai-ash", True),
        ("voice:OPENAI-ASH", True),
        ("voice:openai", False),  # equality, not a part of it
        ("voice:openai-ash-2", False),
        ("engine:openai", True),  # TTS engine
        ("engine:Deepgram", True),  # STT engine
        ("engine:gemini", False),
        ("lang:en-us", True),
        ("lang:en", False),
        ("lang:es-MX", False),
        ("voice:openai-ash engine:deepgram lang:en-US", True),
        ("voice:openai-ash lang:es-MX", False),  # every key
    ],
)
def test_filter_keys_match_the_configuration(text: str, matches: bool) -> None:
    assert AccountFilter.parse(text).matches_config(CONFIG) is matches


def test_filter_engine_matches_the_speech_to_speech_engine() -> None:
    f = AccountFilter.parse("engine:gemini")
    assert f.matches_config({**CONFIG, "agentS2SEngine": "gemini"})
    assert not f.matches_config({})  # nothing set: nothing matches
    assert not AccountFilter.parse("voice:x").matches_config({"agentVoice": None})


# --------------------------------------------------------------------------- pick_accounts


async def directory_and_agents() -> tuple[AccountDirectory, list[Account]]:
    client = demo_client("demo-partner")
    owner = await client.get_account()
    directory = AccountDirectory(client, classify(owner), owner)
    return directory, await fleet_accounts(directory)


def ids(accounts: Sequence[NamedAccount]) -> list[int | None]:
    return [a.id for a in accounts]


ALL_AGENTS = [1111, 1112, 1113, 1121, 1122, 1211, 1212, 1221, 1222, 1311, 1312, 1321, 1322]


async def test_pick_everything_by_default() -> None:
    directory, agents = await directory_and_agents()
    assert ids(agents) == ALL_AGENTS  # the seed (vagent_tui/sim/seed.py)
    assert ids(pick_accounts(agents, path_of=directory.path_of)) == ALL_AGENTS


@pytest.mark.parametrize(
    ("under", "expected"),
    [
        (1000, ALL_AGENTS),
        (1100, [1111, 1112, 1113, 1121, 1122]),  # a reseller
        (1110, [1111, 1112, 1113]),  # an organization
        (1220, [1221, 1222]),
        (1121, [1121]),  # an agent: itself
        (9000, []),  # another tree
    ],
)
async def test_pick_under_an_account(under: int, expected: list[int]) -> None:
    directory, agents = await directory_and_agents()
    assert ids(pick_accounts(agents, path_of=directory.path_of, under=under)) == expected


async def test_pick_under_the_account_itself_without_a_known_path() -> None:
    _, agents = await directory_and_agents()
    picked = pick_accounts(agents, path_of=lambda _id: [], under=1312)
    assert ids(picked) == [1312]


async def test_pick_marked_keeps_the_given_order() -> None:
    directory, agents = await directory_and_agents()
    picked = pick_accounts(agents, path_of=directory.path_of, marked={1321, 1111, 4242})
    assert ids(picked) == [1111, 1321]
    assert pick_accounts(agents, path_of=directory.path_of, marked=set()) == []
    under = pick_accounts(agents, path_of=directory.path_of, under=1300, marked=[1111, 1311])
    assert ids(under) == [1311]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("bluebird", [1111, 1112, 1113, 1121, 1122]),  # the reseller's name
        ("clinics", [1211, 1212]),  # the organization's name only ("Lakeside Clinics")
        ("harbor", [1121, 1122]),
        ("northwind", ALL_AGENTS),  # the partner's name (the root)
        ("cascade metro", [1221, 1222]),  # every word
        ("spanish", [1112, 1312]),  # not their siblings
        ("sunrise.concierge", [1321]),  # a username
        ("1212", [1212]),  # an id
        ("nowhere", []),
        ("voice:gemini-kore", ALL_AGENTS),  # the configuration is read while planning
    ],
)
async def test_pick_by_filter_words_over_the_path(text: str, expected: list[int]) -> None:
    directory, agents = await directory_and_agents()
    f = AccountFilter.parse(text)
    picked = pick_accounts(agents, path_of=directory.path_of, account_filter=f)
    assert ids(picked) == expected


async def test_pick_under_marked_and_filter_together() -> None:
    directory, agents = await directory_and_agents()
    f = AccountFilter.parse("acme")
    picked = pick_accounts(
        agents, path_of=directory.path_of, under=1100, marked={1112, 1113, 1121}, account_filter=f
    )
    assert ids(picked) == [1112, 1113]


async def test_pick_skips_accounts_without_an_id() -> None:
    directory, agents = await directory_and_agents()
    nameless = _account(None, "Acme Ghost")
    picked = pick_accounts([nameless, *agents[:2]], path_of=directory.path_of)
    assert ids(picked) == [1111, 1112]
    assert pick_accounts([nameless], path_of=lambda _id: [], account_filter=None) == []
