"""The rest of the agent, through the client against the simulator: the models offered."""

from __future__ import annotations

import pytest

from vagent_tui.api.agent_extras_models import AgentLinkRequest, InboundMessage, OwnDetails
from vagent_tui.api.errors import ApiError
from vagent_tui.services.changes import Change
from vagent_tui.services.connect import demo_client
from vagent_tui.services.staging import context_for, plan_for

AGENT = 1111


async def test_models_offered_hold_what_the_seeded_agents_use() -> None:
    client = demo_client("demo-reseller")
    models = await client.list_models()
    assert models.models["gpt-4.1"].provider == "openai"
    assert models.models["gpt-4.1"].can_reason is False
    live = await client.get_live(target=AGENT)
    assert live is not None and models.refusal(str(live.wire()["agentModel"])) is None


async def test_a_staging_change_to_a_model_not_offered_is_refused() -> None:
    client = demo_client("demo-reseller")
    change = Change.of_settings({"agentModel": "gpt-9"})
    plan = plan_for(change, await context_for(client, AGENT, change))
    assert [r.what for r in plan.refusals] == ["agentModel"]
    fine = Change.of_settings({"agentModel": "gemini-2.5-pro"})
    assert not plan_for(fine, await context_for(client, AGENT, fine)).refused


FRONT, SPANISH = "acme.dental.front.desk", "acme.dental.spanish.line"


async def test_the_link_is_made_on_the_first_ask_and_kept() -> None:
    client = demo_client("demo-reseller")
    first = await client.get_agent_link(FRONT)
    assert first.slug == "acme-dental-front-desk"
    assert (await client.get_agent_link(FRONT)).slug == first.slug


async def test_a_new_link_replaces_the_old_which_is_free_again() -> None:
    client = demo_client("demo-reseller")
    old = (await client.get_agent_link(FRONT)).slug or ""
    check = await client.check_agent_link(SPANISH, "Acme-Dental-Front-Desk")
    assert (check.slug, check.available) == (old, False)  # lowercased; another agent's
    made = await client.set_agent_link(AgentLinkRequest(target_username=FRONT, slug="Acme"))
    assert made.slug == "acme"
    assert (await client.check_agent_link(SPANISH, old)).available is True
    assert (await client.check_agent_link(FRONT, "acme")).available is True  # its own


@pytest.mark.parametrize(
    ("token", "username", "slug", "status"),
    [
        ("demo-reseller", SPANISH, "acme-dental-front-desk", 409),  # another agent's
        ("demo-reseller", SPANISH, "a", 400),
        ("demo-reseller", "acme.dental.group", "acme-group", 400),  # not an agent
        ("demo-reseller", "nobody.here", "nobody", 404),
        ("demo-agent", SPANISH, "spanish-line", 403),  # out of the key's reach
    ],
)
async def test_a_link_is_refused(token: str, username: str, slug: str, status: int) -> None:
    client = demo_client(token)
    if status == 409:
        await client.get_agent_link(FRONT)
    with pytest.raises(ApiError) as raised:
        await client.set_agent_link(AgentLinkRequest(target_username=username, slug=slug))
    assert raised.value.status == status


async def test_a_saved_version_is_replaced_whole_and_keeps_its_title() -> None:
    client = demo_client("demo-reseller")
    live = await client.get_live(target=AGENT)
    assert live is not None and live.id
    first = (await client.list_versions(live.id, target=AGENT))[0]
    snapshot = {"id": live.id, "title": "Replaced"}
    done = await client.replace_version(live.id, first.version_id, snapshot, target=AGENT)
    assert done.version_id == first.version_id
    now = (await client.list_versions(live.id, include_data=True, target=AGENT))[0]
    assert (now.title, now.snapshot) == (first.title, snapshot)
    for version_id, body, status in [(1, snapshot, 404), (first.version_id, {}, 400)]:
        with pytest.raises(ApiError) as raised:
            await client.replace_version(live.id, version_id, body, target=AGENT)
        assert raised.value.status == status


async def test_the_key_owners_details_are_set_and_read_back() -> None:
    client = demo_client("demo-org")
    await client.update_own_details(OwnDetails(name="Acme Group", business_name="Acme LLC"))
    account = await client.get_account()
    assert account.details is not None
    assert (account.details["name"], account.details["businessName"]) == ("Acme Group", "Acme LLC")


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ({"shoeSize": "9"}, "shoeSize is not an account detail"),
        ({"resellerName": "R"}, "resellerName is for reseller accounts only"),
        ({"email": "nobody"}, "email is not an email address"),
        ({"name": " "}, "name must not be empty"),
    ],
)
async def test_own_details_are_refused_whole(body: dict[str, str], message: str) -> None:
    client = demo_client("demo-org")
    with pytest.raises(ApiError) as raised:
        await client.request("POST", "/account", json={"firstName": "Ada", **body})
    assert (raised.value.status, raised.value.message) == (400, message)
    assert "firstName" not in ((await client.get_account()).details or {})


def message_to(agent: str, **more: str) -> InboundMessage:
    return InboundMessage(target_agent=agent, source_address="+15551230001", message="Hi", **more)


async def test_a_message_in_and_its_answer_are_in_the_recent_messages() -> None:
    client = demo_client("demo-reseller")
    queued = await client.receive_message(message_to(FRONT))
    recent = await client.recent_messages(target=AGENT)
    mine = [m for m in recent if str(m.uuid).startswith(str(queued.message_uuid))]
    assert [(m.direction, m.message) for m in mine][1] == ("inbound", "Hi")
    assert "Thanks for your message" in str(mine[0].message)
    elsewhere = await client.recent_messages(target=1112)
    assert not any(str(m.uuid).startswith(str(queued.message_uuid)) for m in elsewhere)


@pytest.mark.parametrize(
    ("token", "agent", "status"),
    [("demo-org", "1111", 403), ("demo-agent", "1111", 403),  # not a reseller or partner
     ("demo-reseller", "+15550001111", 400), ("demo-reseller", "1110", 400),  # no agent
     ("demo-other", "1111", 403)],  # another tree
)  # fmt: skip
async def test_a_message_in_is_refused(token: str, agent: str, status: int) -> None:
    with pytest.raises(ApiError) as raised:
        await demo_client(token).receive_message(message_to(agent))
    assert raised.value.status == status
