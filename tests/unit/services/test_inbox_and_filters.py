"""Fuzzy account filter, voice filter, function cross-check."""

from __future__ import annotations

from vagent_tui.api.models import Account, FunctionDescriptor, FunctionEntry, Voice
from vagent_tui.services.account_text import filter_accounts, fuzzy_score
from vagent_tui.services.agents import VoiceFilter, cross_check, filter_voices


def test_fuzzy_score_orders_word_starts_and_runs_first() -> None:
    assert fuzzy_score("xyz", "Acme Dental") is None
    assert fuzzy_score("", "anything") == 0
    close = fuzzy_score("acme", "Acme Dental")
    far = fuzzy_score("acme", "A Custom Media Edge")
    assert close is not None and far is not None and close > far


def test_filter_accounts_matches_name_id_and_type() -> None:
    accounts = [
        Account(id=101, name="Acme Dental", account_type="account"),
        Account(id=102, name="Blue Plumbing", account_type="account"),
        Account(id=7, name="Northwind Resellers", account_type="reseller"),
    ]
    assert [a.id for a in filter_accounts(accounts, "acme")] == [101]
    assert [a.id for a in filter_accounts(accounts, "102")] == [102]
    assert [a.id for a in filter_accounts(accounts, "reseller")] == [7]
    assert len(filter_accounts(accounts, "")) == 3


def _voice(**kw: object) -> Voice:
    return Voice.model_validate(kw)


def test_voice_filter_each_criterion() -> None:
    voices = [
        _voice(
            id="a",
            name="Ava",
            languages=["en-US"],
            compatibleS2SEngines=["openai"],
            supportsStandardTts=True,
            accountAvailability={"available": True},
        ),
        _voice(
            id="b",
            name="Beto",
            languages=["es-MX"],
            compatibleS2SEngines=["gemini"],
            supportsStandardTts=False,
            accountAvailability={"available": False, "reason": "advanced_voice_required"},
        ),
        _voice(id="c", name="Cleo", languages=["en-US", "fr-FR"], compatibleS2SEngines=[]),
    ]

    def ids(**kw: object) -> list[str]:
        return [v.id for v in filter_voices(voices, VoiceFilter(**kw))]  # type: ignore[arg-type]

    assert ids() == ["a", "b", "c"]
    assert ids(language="en-US") == ["a", "c"]
    assert ids(engine="gemini") == ["b"]
    assert ids(standard_tts=False) == ["b", "c"]
    assert ids(available=False) == ["b"]
    assert ids(available=True) == ["a", "c"]  # no verdict counts as available
    assert ids(text="cle") == ["c"]


def test_cross_check_reports_not_allowed_over_limit_and_unknown() -> None:
    functions = [
        FunctionDescriptor(name="transfer", allowed=True, limit=1),
        FunctionDescriptor(name="sms", allowed=False, reason="requires a paid plan"),
        FunctionDescriptor(name="lookup", allowed=True, limit=None),
    ]
    actions = [
        FunctionEntry(name="transfer"),
        FunctionEntry(name="transfer"),
        FunctionEntry(name="sms"),
        FunctionEntry(name="lookup"),
        FunctionEntry(name="gone"),
    ]
    findings = {(f.name, f.kind) for f in cross_check(functions, actions)}
    assert findings == {("transfer", "over-limit"), ("sms", "not-allowed"), ("gone", "unknown")}
    assert cross_check(functions, [FunctionEntry(name="lookup")]) == []
