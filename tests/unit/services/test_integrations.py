"""An integration's data as edited: secrets stand as `UNCHANGED` and are put back, the
change said without a secret, the slugs used kept per host."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from vagent_tui.api.integration_models import MASK
from vagent_tui.services.integrations import (
    UNCHANGED,
    RecentIntegrations,
    changes,
    edit_again,
    editable,
    parse_edit,
    rows,
)

OLD = {"provider": "stripe", "secretKey": "sk_1", "webhook": {"url": "u", "signingSecret": "w"}}


def test_the_editor_never_holds_a_secret_and_unchanged_ones_are_put_back() -> None:
    text = editable(OLD)
    assert "sk_1" not in text and '"w"' not in text and text.count(UNCHANGED) == 2
    edited = json.loads(text)
    edited["webhook"]["url"] = "u2"
    edited["secretKey"] = "sk_2"
    new = parse_edit(json.dumps(edited), OLD)
    assert new == {"provider": "stripe", "secretKey": "sk_2",
                   "webhook": {"url": "u2", "signingSecret": "w"}}  # fmt: skip
    said = changes(OLD, new)
    assert said == [("secretKey", MASK, f"{MASK} (changed)"), ("webhook.url", "u", "u2")]
    assert "sk_2" not in repr(said)


def test_an_edit_is_made_again_on_the_data_read_just_before_the_put() -> None:
    edited = json.loads(editable(OLD))
    edited["provider"] = "stripe2"
    text = json.dumps(edited)
    same, moved = edit_again(text, OLD, dict(OLD))
    assert moved == [] and same["secretKey"] == "sk_1"
    rotated = {**OLD, "secretKey": "sk_ROTATED"}  # a key rotated meanwhile
    new, moved = edit_again(text, OLD, rotated)
    assert new["secretKey"] == "sk_ROTATED" and new["provider"] == "stripe2"  # not put back
    assert moved == [("secretKey", MASK, f"{MASK} (changed)")]
    assert "sk_" not in repr(moved)
    with pytest.raises(ValueError, match="stands for no secret"):
        edit_again(text, OLD, {"provider": "stripe"})  # the secret kept is gone meanwhile


@pytest.mark.parametrize(
    ("text", "problem"),
    [("[1]", "appData is a JSON object"), ("{", "not JSON"),
     (json.dumps({"renamedKey": UNCHANGED}), "stands for no secret")],
)  # fmt: skip
def test_an_edit_that_cannot_be_sent_says_why(text: str, problem: str) -> None:
    with pytest.raises(ValueError, match=problem):
        parse_edit(text, OLD)


def test_outside_text_round_trips_through_the_editor_as_printable_ascii() -> None:
    old = {"name": "bidi \u202eevil\u202c nul \u0000 \x1b[2J", "token": "t"}
    text = editable(old)
    assert text.isascii() and text.replace("\n", "").isprintable()
    assert parse_edit(text, old) == old


def test_rows_mask_secrets() -> None:
    assert ("webhook.signingSecret", MASK) in rows(OLD) and ("provider", "stripe") in rows(OLD)


def test_the_slugs_used_are_kept_newest_first_per_host(tmp_path: Path) -> None:
    recent = RecentIntegrations(tmp_path / "recent.json", keep=2)
    for slug in ("crm", "sms", "crm", "pay"):
        recent.remember("a.example", slug, "v1")
    recent.remember("b.example", "calendar", "v2")
    assert recent.load("a.example") == [("pay", "v1"), ("crm", "v1")]
    assert recent.load("b.example") == [("calendar", "v2")]
    assert (tmp_path / "recent.json").stat().st_mode & 0o777 == 0o600
    (tmp_path / "recent.json").write_text("not json")
    assert recent.load("a.example") == []
