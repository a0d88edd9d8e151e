"""`as_sent` gives what the model gives back (``model.wire()`` of the record read), and
skips building the model only where that is the record itself."""

from __future__ import annotations

import copy
from collections.abc import Iterator
from typing import Any

import pytest

from vagent_tui.api.agent_config import AgentConfig, HeartbeatConfig
from vagent_tui.api.as_sent import as_sent
from vagent_tui.api.base import Resource
from vagent_tui.api.errors import MalformedResponse
from vagent_tui.sim.world import demo_state


def configs() -> list[dict[str, Any]]:
    state = demo_state()
    found = [*state.live.values(), *(s for s in state.staging.values() if s is not None)]
    assert len(found) > 10
    return found


def model_wire(model: type[Resource], value: Any) -> Any:
    return model.model_validate(value).wire()


def test_the_demo_configurations_are_taken_as_sent() -> None:
    for config in configs():
        assert as_sent(AgentConfig, config) is config
        assert model_wire(AgentConfig, config) == config


def variants(config: dict[str, Any]) -> Iterator[tuple[str, dict[str, Any]]]:
    """A configuration changed in one place each, the ways the model would change it."""

    def changed(how: str, key: str, value: Any) -> tuple[str, dict[str, Any]]:
        out = copy.deepcopy(config)
        out[key] = value
        return how, out

    yield changed("a number sent as text", "speakingTimeout", "900")
    yield changed("a bool for a number", "speakingTimeout", True)
    yield changed("an int for a bool", "waitToGreet", 1)
    yield changed("a null list", "keywords", None)
    yield changed("a null item", "keywords", ["a", None, "b"])
    yield changed("a null item of records", "actions", [None, {"name": "x"}])
    yield changed("a null name in a record", "actions", [{"name": None}])
    yield changed("snake case", "speaking_timeout", 5)
    yield changed("the other spelling", "agent_s2s_engine", "e")
    yield changed("a nested record's number as text", "heartbeatConfig", {"ackMaxChars": "5"})
    yield changed("a text both ways", "autoRecordingNotification", "true")
    yield changed("a bool both ways", "autoRecordingNotification", False)
    yield changed("an unknown field of any kind", "somethingNew", [None, {"a": 1}])
    yield changed("null for a plain optional", "agentVoice", None)
    yield changed("a float for an int", "speakingTimeout", 900.0)


@pytest.mark.parametrize("how", [how for how, _ in variants({})])
def test_every_variant_gives_what_the_model_gives(how: str) -> None:
    for config in configs()[:5]:
        value = dict(variants(config))[how]
        before = copy.deepcopy(value)
        assert as_sent(AgentConfig, value) == model_wire(AgentConfig, value)
        assert value == before  # the record read is not changed


def test_what_the_model_would_change_is_not_taken_as_sent() -> None:
    config = configs()[0]
    kept = {"an unknown field of any kind", "null for a plain optional", "a text both ways",
            "a bool both ways"}  # fmt: skip
    for how, value in variants(config):
        assert (as_sent(AgentConfig, value) is value) == (how in kept), how


def test_a_record_the_model_refuses_is_refused() -> None:
    config = dict(configs()[0], speakingTimeout="soon")
    with pytest.raises(MalformedResponse) as caught:
        as_sent(AgentConfig, config, url="/agentEventRules/default")
    assert "speakingTimeout" in str(caught.value)
    with pytest.raises(MalformedResponse):
        as_sent(AgentConfig, "not a record")


def test_a_nested_record_is_checked_by_its_own_fields() -> None:
    assert as_sent(HeartbeatConfig, {"ackMaxChars": 5, "model": "m"}) == {
        "ackMaxChars": 5,
        "model": "m",
    }
    with pytest.raises(MalformedResponse):
        as_sent(HeartbeatConfig, {"activeHours": {"start": 9}, "ackMaxChars": []})


def test_a_model_that_changes_what_it_gives_back_always_goes_through_it() -> None:
    """Serializers, computed or excluded fields, another name on the way out, a string
    setting or a `wire` of its own: the record is not taken as sent."""
    from pydantic import AliasPath, ConfigDict, Field, computed_field, field_serializer

    class Renamed(Resource):
        x: str | None = Field(default=None, serialization_alias="X")

    class Excluded(Resource):
        x: str | None = Field(default=None, exclude=True)

    class Computed(Resource):
        x: str | None = None

        @computed_field  # type: ignore[prop-decorator]
        @property
        def y(self) -> int:
            return 1

    class Serialized(Resource):
        x: str | None = None

        @field_serializer("x")
        def _x(self, value: str | None) -> str:
            return f"<{value}>"

    class Stripped(Resource):
        model_config = ConfigDict(str_strip_whitespace=True)
        x: str | None = None

    class Pathed(Resource):
        x: str | None = Field(default=None, validation_alias=AliasPath("a", "b"))

    class OwnWire(Resource):
        x: str | None = None

        def wire(self) -> dict[str, Any]:
            return {"own": True}

    value = {"x": " a ", "a": {"b": "c"}}
    for model in (Renamed, Excluded, Computed, Serialized, Stripped, Pathed, OwnWire):
        sent = dict(value)
        got = as_sent(model, sent)
        assert got is not sent, model.__name__
        assert got == model.model_validate(dict(value)).wire(), model.__name__
