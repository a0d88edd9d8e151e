"""The change value: checks against one account's voices and functions, the write it makes."""

from __future__ import annotations

from typing import Any

import pytest

from vagent_tui.api.agent_extras_models import ModelCatalog
from vagent_tui.api.models import FunctionDescriptor, Voice
from vagent_tui.services.changes import Change, FunctionSwitch, plan_change, voice_refusal
from vagent_tui.services.settings import check_value, parse_value


def voice(vid: str, **fields: Any) -> Voice:
    data = {"id": vid, "name": vid.title(), "languages": ["en-US"], "compatibleS2SEngines": [],
            "supportsStandardTts": True, "accountAvailability": {"available": True}}  # fmt: skip
    return Voice.model_validate({**data, **fields})


def function(name: str, **fields: Any) -> FunctionDescriptor:
    return FunctionDescriptor.model_validate({"name": name, "allowed": True, **fields})


BASE: dict[str, Any] = {
    "id": "cfg-1",
    "agentVoice": "rachel",
    "agentLang": "en-US",
    "agentS2SEngine": None,
    "speakingTimeout": 1200,
    "actions": [
        {"name": "transferCall", "instructions": "Transfer to sales", "placeholder": "When…",
         "allowed": True, "reason": None, "missingRequirement": None},
    ],
}  # fmt: skip


def test_voice_assigned_when_it_fits() -> None:
    plan = plan_change(Change(voice="ash"), BASE, voices=[voice("rachel"), voice("ash")])
    assert plan.body == {"agentVoice": "ash"}
    assert [(d.path, d.old, d.new) for d in plan.diffs] == [("agentVoice", "rachel", "ash")]


@pytest.mark.parametrize(
    ("fields", "config", "reason"),
    [
        ({"accountAvailability": {"available": False, "reason": "advanced_voice_required"}},
         {}, "not available for this account (advanced_voice_required)"),
        ({"languages": ["de-DE"]}, {}, "does not speak en-US (it speaks de-DE)"),
        ({"compatibleS2SEngines": ["gemini"]}, {"agentS2SEngine": "openai"},
         "does not work with the S2S engine openai (it works with: gemini)"),
        ({"supportsStandardTts": False}, {}, "has no standard TTS"),
        ({"languages": ["en-US"]}, {"agentLang": "multi"}, "does not speak multi"),
    ],
)  # fmt: skip
def test_voice_refused_with_the_specific_reason(
    fields: dict[str, Any], config: dict[str, Any], reason: str
) -> None:
    plan = plan_change(Change(voice="ash"), {**BASE, **config}, voices=[voice("ash", **fields)])
    assert plan.refused and not plan.body
    assert reason in plan.refusals[0].reason
    assert plan.refusals[0].what == "agentVoice"


def test_multilingual_voice_speaks_any_tag_and_unknown_voice_is_refused() -> None:
    assert voice_refusal("ash", voice("ash", languages=["multi"]), BASE) is None
    assert "not in this account's voices" in str(voice_refusal("zz", None, BASE))


def test_voice_checked_against_the_language_set_in_the_same_change() -> None:
    change = Change(voice="ash", settings=(("agentLang", "de-DE"),))
    plan = plan_change(change, BASE, voices=[voice("ash", languages=["de-DE"])])
    assert plan.body == {"agentLang": "de-DE", "agentVoice": "ash"}


def test_same_voice_is_already_so() -> None:
    plan = plan_change(Change(voice="rachel"), BASE, voices=[voice("rachel")])
    assert plan.already and not plan.diffs


def test_function_on_appends_and_keeps_existing_entries_whole() -> None:
    functions = [function("transferCall"), function("bookAppointment", placeholder="Book…")]
    plan = plan_change(Change(functions=(FunctionSwitch("bookAppointment", True),)), BASE,
                       functions=functions)  # fmt: skip
    assert plan.body == {"actions": [
        {"name": "transferCall", "instructions": "Transfer to sales", "placeholder": "When…"},
        {"name": "bookAppointment", "instructions": "", "placeholder": "Book…"},
    ]}  # fmt: skip
    assert [d.path for d in plan.diffs] == ["actions[bookAppointment]"]
    assert plan.diffs[0].kind == "added"


def test_function_refused_with_reason_and_missing_requirement() -> None:
    functions = [
        function("transferCall"),
        function("computerTask", allowed=False, reason="Needs a Computer Agent",
                 missingRequirement="computerDelegateAccountId"),
    ]  # fmt: skip
    plan = plan_change(Change(functions=(FunctionSwitch("computerTask", True),)), BASE,
                       functions=functions)  # fmt: skip
    assert plan.refused
    assert str(plan.refusals[0]) == (
        "actions[computerTask]: Needs a Computer Agent; needs: computerDelegateAccountId"
    )


def test_function_beyond_its_limit_is_refused() -> None:
    functions = [function("transferCall", limit=1)]
    switch = FunctionSwitch("transferCall", True, another=True)
    plan = plan_change(Change(functions=(switch,)), BASE, functions=functions)
    assert "at most 1 allowed and 1 configured" in plan.refusals[0].reason
    unlimited = plan_change(Change(functions=(switch,)), BASE,
                            functions=[function("transferCall", limit=None)])  # fmt: skip
    assert len(unlimited.body["actions"]) == 2


def test_function_off_removes_and_editing_instructions_keeps_the_entry() -> None:
    functions = [function("transferCall")]
    off = plan_change(Change(functions=(FunctionSwitch("transferCall", False),)), BASE,
                      functions=functions)  # fmt: skip
    assert off.body == {"actions": []}
    assert off.diffs[0].kind == "removed"
    edit = FunctionSwitch("transferCall", True, instructions="Transfer to support")
    edited = plan_change(Change(functions=(edit,)), BASE, functions=functions)
    assert edited.body["actions"] == [
        {"name": "transferCall", "instructions": "Transfer to support", "placeholder": "When…"}
    ]
    already = plan_change(Change(functions=(FunctionSwitch("transferCall", True),)), BASE,
                          functions=functions)  # fmt: skip
    assert already.already


def test_an_entry_no_longer_allowed_leaves_the_list_with_a_note() -> None:
    functions = [function("transferCall", allowed=False, reason="Paid plan required"),
                 function("bookAppointment")]  # fmt: skip
    plan = plan_change(Change(functions=(FunctionSwitch("bookAppointment", True),)), BASE,
                       functions=functions)  # fmt: skip
    assert not plan.refused
    assert [a["name"] for a in plan.body["actions"]] == ["bookAppointment"]
    assert "transferCall is no longer allowed (Paid plan required)" in plan.notes[0]
    assert {d.path: d.kind for d in plan.diffs} == {
        "actions[transferCall]": "removed", "actions[bookAppointment]": "added"
    }  # fmt: skip


def test_settings_only_changed_are_sent_and_bad_values_refused() -> None:
    plan = plan_change(Change.of_settings({"speakingTimeout": 900, "agentLang": "en-US"}), BASE)
    assert plan.body == {"speakingTimeout": 900}
    bad = plan_change(Change.of_settings({"speakingTimeout": "soon"}), BASE)
    assert bad.refusals[0].what == "speakingTimeout"


@pytest.mark.parametrize(
    ("name", "text", "value"),
    [("speakingTimeout", " 900 ", 900), ("waitToGreet", "TRUE", True),
     ("agentS2SEngine", "", None), ("agentLang", "multi", "multi"),
     ("timezone", "America/Chicago", "America/Chicago"),
     ("agentInstructions", "  keep\n spaces ", "  keep\n spaces ")],
)  # fmt: skip
def test_parse_value_accepts(name: str, text: str, value: Any) -> None:
    assert parse_value(name, text) == value


@pytest.mark.parametrize(
    ("name", "text", "message"),
    [("speakingTimeout", "12.5", "whole number"), ("waitToGreet", "yes", "true or false"),
     ("agentLang", "english", "language tag"), ("timezone", "Chicago time", "Region/City")],
)  # fmt: skip
def test_parse_value_refuses_with_a_message(name: str, text: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        parse_value(name, text)


def test_check_value_refuses_what_is_not_editable() -> None:
    assert check_value("nope", 1) == "nope is not an editable setting"
    assert check_value("speakingTimeout", True) == "a whole number is needed"


def test_a_new_language_or_engine_checks_the_current_voice() -> None:
    voices = [voice("rachel", languages=["en-US"], compatibleS2SEngines=["openai"])]
    gemini = plan_change(Change.of_settings({"agentS2SEngine": "gemini"}), BASE, voices=voices)
    assert gemini.refusals[0].what == "agentS2SEngine"
    assert "would not fit" in gemini.refusals[0].reason
    german = plan_change(Change.of_settings({"agentLang": "de-DE"}), BASE, voices=voices)
    assert "does not speak de-DE" in german.refusals[0].reason
    fine = plan_change(Change.of_settings({"agentS2SEngine": "openai"}), BASE, voices=voices)
    assert fine.body == {"agentS2SEngine": "openai"}


MODELS = ModelCatalog.of_reply(
    {"success": True, "gpt-4.1": {"provider": "openai", "canReason": False}}
)


@pytest.mark.parametrize(
    "reply",
    [
        {"success": True, "models": {"gpt-4.1": {"provider": "openai"}}},
        {"data": {"gpt-4.1": {"provider": "openai", "canReason": False}}},
        {"success": True, "data": [{"id": "gpt-4.1", "provider": "openai"}]},
        {"success": True, "gpt-4.1": {"provider": "openai"}},
    ],
)
def test_a_wrapped_models_reply_is_unwrapped(reply: dict[str, Any]) -> None:
    models = ModelCatalog.of_reply(reply)
    assert list(models.models) == ["gpt-4.1"] and models.read
    assert models.refusal("gpt-4.1") is None and models.describe("gpt-4.1").startswith("openai")


def test_an_empty_models_reply_is_not_read() -> None:
    assert not ModelCatalog.of_reply({"success": True, "models": {}}).read


@pytest.mark.parametrize(
    ("settings", "refused"),
    [
        ({"agentModel": "gpt-4.1"}, None),
        ({"agentModel": "gpt-9"}, "agentModel"),
        ({"agentThinkingModel": "o9"}, "agentThinkingModel"),
        ({"agentThinkingModel": ""}, None),  # empty: no model named, nothing to check
    ],
)
def test_model_refused_unless_the_platform_offers_it(
    settings: dict[str, Any], refused: str | None
) -> None:
    plan = plan_change(Change.of_settings(settings), BASE, models=MODELS)
    assert [r.what for r in plan.refusals] == ([refused] if refused else [])
    if refused:
        assert "not a model the platform offers" in plan.refusals[0].reason
    else:
        assert plan.body == settings
