"""Every client method against the simulator: success and each documented error."""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

import pytest

from vagent_tui.api import models as m
from vagent_tui.api.client import PlatformClient
from vagent_tui.api.errors import ApiError, PlatformError
from vagent_tui.api.scope import ScopeLevel, classify
from vagent_tui.api.targets import LevelTarget
from vagent_tui.services.connect import demo_client
from vagent_tui.sim import DEMO_TOKENS

PARTNER, RESELLER, ORG, AGENT, MEMBER, OTHER = 1000, 1100, 1110, 1111, 1119, 9000
AT_RESELLER = LevelTarget(ScopeLevel.RESELLER, RESELLER)
"""Reseller-level resources (templates, the ADR export) select it so: spec rule 9."""
COMPUTER = 1118


class Clock:
    def __init__(self) -> None:
        self.now = 1_763_600_000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
async def client(clock: Clock) -> AsyncIterator[PlatformClient]:
    c = demo_client("demo-partner", clock=clock, task_seconds=10)
    yield c
    await c.aclose()


def sim_of(client: PlatformClient) -> Any:
    return client.sim_app.state.sim  # type: ignore[attr-defined]


def other(client: PlatformClient, token: str) -> PlatformClient:
    return demo_client(token, sim_app=client.sim_app)  # type: ignore[attr-defined]


# ----------------------------------------------------------------------------- accounts


async def test_account_read_and_scope_of_every_demo_key(client: PlatformClient) -> None:
    expected = {
        "demo-partner": (ScopeLevel.PARTNER, False),
        "demo-reseller": (ScopeLevel.RESELLER, False),
        "demo-org": (ScopeLevel.ORGANIZATION, False),
        "demo-agent": (ScopeLevel.AGENT, False),
        "demo-member": (ScopeLevel.ORGANIZATION, True),
        "demo-other": (ScopeLevel.PARTNER, False),
        "demo-partner-user": (ScopeLevel.PARTNER, False),
        "demo-reseller-user": (ScopeLevel.RESELLER, False),
        "demo-org-user": (ScopeLevel.ORGANIZATION, False),
    }
    assert set(expected) == set(DEMO_TOKENS)
    for token, (level, restricted) in expected.items():
        scope = classify(await other(client, token).get_account())
        assert (scope.level, scope.restricted) == (level, restricted), token
    member = await other(client, "demo-member").get_account()
    assert len(member.scope_field("permittedAccountIds")) == 2


async def test_client_and_simulator_apply_the_same_rules(client: PlatformClient) -> None:
    """For every demo key: the same rule, the same scope account, the same restriction."""
    state = sim_of(client)
    for token, account_id in DEMO_TOKENS.items():
        scope = classify(await other(client, token).get_account())
        reach = state.reach(state.accounts[account_id])
        assert (scope.rule, scope.root_id) == (reach.rule, reach.root.id), token
        assert set(scope.permitted_account_ids) == set(reach.permitted or ()), token


async def test_targeted_read_describes_the_target(client: PlatformClient) -> None:
    target = await client.get_account(target=AGENT)
    assert target.id == AGENT and target.account_type == "account"
    owner = await client.get_account()
    assert owner.id == PARTNER  # the key owner is unchanged


async def test_target_outside_hierarchy_is_rejected(client: PlatformClient) -> None:
    with pytest.raises(ApiError) as info:
        await client.get_account(target=OTHER)
    assert info.value.status == 403 and info.value.message
    with pytest.raises(ApiError):
        await other(client, "demo-other").get_account(target=AGENT)


async def test_member_restricted_to_permitted_accounts(client: PlatformClient) -> None:
    member = other(client, "demo-member")
    permitted = (await member.get_account()).scope_field("permittedAccountIds")
    for account_id in permitted:
        assert (await member.get_account(target=account_id)).id == account_id
    forbidden = next(i for i in (1111, 1112, 1113) if i not in permitted)
    with pytest.raises(ApiError) as info:
        await member.get_account(target=forbidden)
    assert info.value.status == 403


async def test_unknown_token_is_unauthorized(client: PlatformClient) -> None:
    with pytest.raises(ApiError) as info:
        await other(client, "not-a-token").get_account()
    assert (info.value.status, info.value.message) == (401, "Unauthorized Request")


async def test_child_lists_and_search(client: PlatformClient) -> None:
    resellers = await client.list_resellers(PARTNER)
    assert resellers.total == len(resellers.items) >= 3
    orgs = await client.list_organizations(RESELLER, page=0, page_size=1)
    assert len(orgs.items) == 1 and orgs.total >= 2 and orgs.page_number == 0
    accounts = await client.list_accounts(ORG)
    assert AGENT in {a.id for a in accounts.items}
    found = await client.search_accounts("Acme", account_type="account")
    assert found.items and all("Acme" in (a.display_name or "") for a in found.items)
    with pytest.raises(ApiError):
        await client.list_resellers(OTHER)


# ----------------------------------------------------------------------------- agents


async def test_agent_reads(client: PlatformClient) -> None:
    live = await client.get_live(target=AGENT)
    assert live is not None and live.id and live.agent_voice and live.heartbeat_config
    assert live.effective_reporting_fields and live.effective_reporting_fields[0].source
    by_id = await client.get_agent(live.id, target=AGENT)
    assert by_id is not None and by_id.id == live.id
    staging = [await client.get_staging(target=a) for a in (1111, 1112, 1113, 1121, 1122)]
    assert any(s is None for s in staging) and any(s is not None for s in staging)
    with pytest.raises(ApiError) as info:
        await client.get_live()  # a partner is not an agent account
    assert info.value.status == 400


async def test_functions_and_voices(client: PlatformClient) -> None:
    functions = await client.list_functions(AGENT)
    assert len(functions) >= 20
    assert any(f.allowed is False and f.reason for f in functions)
    assert any(f.limit is not None for f in functions)
    voices = await client.list_voices(target=AGENT)
    assert len(voices) >= 30
    assert {v.available for v in await client.list_voices(target=1113)} == {
        True,
        False,
    }  # starter plan


async def test_versions_list_and_rename(client: PlatformClient) -> None:
    live = await client.get_live(target=AGENT)
    assert live is not None and live.id
    versions = await client.list_versions(live.id, target=AGENT)
    assert versions and all(v.version_id > 1_600_000_000_000 for v in versions)
    change = await client.rename_version(live.id, versions[0].version_id, "Renamed", target=AGENT)
    assert change.new_title == "Renamed" and change.version_id == versions[0].version_id
    again = await client.list_versions(live.id, target=AGENT)
    assert again[0].title == "Renamed"
    with pytest.raises(ApiError) as info:
        await client.rename_version(live.id, 123, "x", target=AGENT)
    assert info.value.status == 404
    with pytest.raises(ValueError):
        await client.rename_version(live.id, versions[0].version_id, "   ", target=AGENT)


# ----------------------------------------------------------------------------- tokens


async def test_tokens_create_authenticates_then_delete(client: PlatformClient) -> None:
    before = await client.list_tokens()
    record = await client.create_token("CI pipeline")
    assert record.token and record.type == "admin" and record.description == "CI pipeline"
    assert record.token not in repr(record)
    fresh = other(client, record.token)
    assert (await fresh.get_account()).id == PARTNER
    assert len(await client.list_tokens()) == len(before) + 1
    assert (await client.delete_token(record.token)).message == "Token deleted successfully"
    with pytest.raises(ApiError) as info:
        await fresh.get_account()
    assert info.value.status == 401


# ----------------------------------------------------------------------------- billing, sip, hooks


async def test_adr_export_config(client: PlatformClient) -> None:
    config = m.AdrExportConfig(
        delivery_protocol="SFTP",  # type: ignore[arg-type]  # the model lowers it
        host="files.example.com",
        port=2202,
        username="adr",
        password="s3cret",
        rotation_minutes="60",
    )
    reply = await client.set_adr_export(config, target=AT_RESELLER)
    assert reply.success and reply.message
    assert sim_of(client).adr[RESELLER]["deliveryProtocol"] == "sftp"
    with pytest.raises(ApiError) as info:
        await client.set_adr_export(config, target=AGENT)
    assert info.value.status == 403


async def test_sip_whitelist_add_list_delete(client: PlatformClient) -> None:
    assert (await client.add_sip_entry("203.0.113.77", "Office")).message == (
        "IP entry created successfully"
    )
    assert "203.0.113.77" in {e.ip for e in await client.list_sip_whitelist()}
    with pytest.raises(ApiError) as dup:
        await client.add_sip_entry("203.0.113.77", "Again")
    assert dup.value.status == 409
    assert (await client.delete_sip_entry("203.0.113.77")).message == (
        "IP entry deleted successfully"
    )
    assert "203.0.113.77" not in {e.ip for e in await client.list_sip_whitelist()}
    with pytest.raises(ApiError) as gone:
        await client.delete_sip_entry("203.0.113.77")
    assert gone.value.status == 404


async def test_members_invite_list_change_remove(client: PlatformClient) -> None:
    org = 1110
    before = [mem.id for mem in await client.list_members(target=org)]
    assert before == [1117, 1119]
    invite = m.MemberInvite(email="ops@acme.test", role="member", permitted_account_ids=[1112])
    assert (await client.invite_member(invite, target=org)).message == "Invitation sent"
    new = next(mem for mem in await client.list_members(target=org) if mem.email == "ops@acme.test")
    assert new.id is not None and new.restricted and new.status == "invited"
    update = m.MemberUpdate(target_member_id=new.id, email="ops@acme.test", role="admin")
    await client.update_member(update, target=org)
    again = await client.get_member(new.id, target=org)
    assert again.role == "admin" and not again.restricted  # [] lifted the restriction
    await client.delete_member(new.id, target=org)
    with pytest.raises(ApiError) as gone:
        await client.delete_member(new.id, target=org)
    assert gone.value.status == 404


async def test_webhooks_add_list_delete(client: PlatformClient) -> None:
    url = "https://hooks.example.com/vida"
    assert (await client.add_webhook(url, "conversation", "CRM")).message == (
        "Webhook created successfully"
    )
    hooks = await client.list_webhooks()
    assert any(h.url == url and h.type == "conversation" for h in hooks)
    assert (await client.delete_webhook(url)).message == "Webhook deleted successfully"
    with pytest.raises(ApiError) as gone:
        await client.delete_webhook(url)
    assert gone.value.status == 404


async def test_relay_delete_reaches_every_documented_outcome(client: PlatformClient) -> None:
    premium = PARTNER  # vidaPremium in the seed
    types = await client.list_relay_types()
    assert {"twilioSMS", "chargebee"} <= {t.name for t in types}
    assert any(c.type == "twilioSMS" for c in await client.list_relays(target=premium))
    assert (await client.get_relay("twilioSMS", target=premium)).url
    ok = await client.delete_relay("twilioSMS", target=premium)
    assert ok.message == "Webhook Relay type 'twilioSMS' removed successfully."
    outcomes: dict[int, str] = {}
    calls: tuple[Callable[[], Awaitable[object]], ...] = (
        lambda: client.delete_relay("twilioSMS", target=premium),
        lambda: client.delete_relay("legacyCrm", target=premium),
        lambda: client.delete_relay(" ", target=premium),
        lambda: client.delete_relay("chargebee", target=1200),  # not premium
        lambda: other(client, "nope").delete_relay("chargebee"),
    )
    for call in calls:
        with pytest.raises(ApiError) as info:
            await call()
        outcomes[info.value.status] = info.value.message
    assert outcomes == {
        404: "Webhook Relay type 'twilioSMS' was not configured.",
        500: "Internal error",
        400: "type path parameter is required and must be a string",
        403: "Webhook Relay is a premium feature. Please upgrade your account to use it.",
        401: "Unauthorized Request",
    }


# ----------------------------------------------------------------------------- computer agents


async def test_computer_agent_recording_and_upload(client: PlatformClient) -> None:
    accounts = await client.list_computer_accounts()
    assert COMPUTER in {a.id for a in accounts}
    session = await client.create_automation_session(COMPUTER, 300)
    assert session.slot is not None and session.cdp_url
    recording = await client.start_recording(COMPUTER, session.slot)
    assert recording.recording_id and recording.slot_id == session.slot
    assert recording.finalized is False
    with pytest.raises(ApiError) as busy:
        await client.start_recording(COMPUTER, session.slot)
    assert busy.value.status == 409
    status = await client.recording_status(COMPUTER)
    assert status is not None and status.recording_id == recording.recording_id
    stopped = await client.stop_recording(COMPUTER)
    assert stopped.recording_id == recording.recording_id
    log = sim_of(client).requests
    assert all("targetAccountId" not in r.query for r in log if "/computer/" in r.path)


async def test_workspace_upload_rules(client: PlatformClient) -> None:
    result = await client.upload_file(COMPUTER, "docs/faq.md", b"# FAQ\n", mode="0644")
    assert getattr(result, "success", None) is not False and result.path == "docs/faq.md"
    assert "docs/faq.md" in {f.path for f in await client.list_workspace_files(COMPUTER)}
    with pytest.raises(ApiError) as exists:
        await client.upload_file(COMPUTER, "docs/faq.md", b"again")
    assert exists.value.status == 409
    replaced = await client.upload_file(COMPUTER, "docs/faq.md", b"again", overwrite=True)
    assert replaced.overwritten is True
    for refused in ("public/index.html", "AGENTS.md", ".system/x"):
        with pytest.raises(ApiError) as info:
            await client.upload_file(COMPUTER, refused, b"x")
        assert info.value.status in (400, 403) and info.value.message
    with pytest.raises(ValueError):
        await client.upload_file(COMPUTER, "../escape.txt", b"x")
    with pytest.raises(ValueError):
        await client.upload_file(COMPUTER, "ok.txt", b"x", mode="999")


# ----------------------------------------------------------------------------- templates


async def test_templates_and_migration_lifecycle(client: PlatformClient, clock: Clock) -> None:
    with pytest.raises(ApiError) as info:
        await client.list_templates()  # a partner itself is not a reseller
    assert info.value.status == 403
    templates = await client.list_templates(target=AT_RESELLER)
    assert {"tpl-dental-reception", "tpl-realty-inbound"} <= {t.id for t in templates}
    nothing = await client.migrate("tpl-realty-inbound", target=AT_RESELLER)
    assert nothing.success and not nothing.is_task
    task = await client.migrate("tpl-dental-reception", target=AT_RESELLER)
    assert task.is_task and task.status == "queued" and task.status_endpoint
    request_log = sim_of(client).requests
    assert request_log[-1].body == {"dryRun": True, "forceMigrateOverriddenFields": False}
    clock.now += 5
    running = await client.migration_status(task.status_endpoint, target=AT_RESELLER)
    assert running.status == "running"
    clock.now += 10
    done = await client.migration_status(task.status_endpoint, target=AT_RESELLER)
    assert done.status == "completed" and done.counts and done.counts.processed == 2
    assert [h.status for h in done.history] == ["queued", "running", "completed"]
    with pytest.raises(ApiError) as bad:
        await client.migrate(
            "tpl-dental-reception",
            m.MigrationRequest(sections_to_migrate=["nope"]),
            target=AT_RESELLER,
        )
    assert bad.value.status == 400
    with pytest.raises(PlatformError):
        await client.migration_status("https://elsewhere.example/api/v2/x")


# ----------------------------------------------------------------------------- messaging


async def test_junk_inbox_paging(client: PlatformClient) -> None:
    first = await client.list_junk_rooms(page=0, page_size=20, target=AGENT)
    assert first.total_rooms == 240 and len(first.rooms) == 20 and first.page_number == 0
    last = await client.list_junk_rooms(page=11, page_size=20, target=AGENT)
    assert len(last.rooms) == 20
    past = await client.list_junk_rooms(page=12, page_size=20, target=AGENT)
    assert past.rooms == [] and past.total_rooms == 240
    unread = await client.list_junk_rooms(unread=True, target=AGENT)
    assert unread.total_rooms is not None and 0 < unread.total_rooms < 240
    with pytest.raises(ApiError) as info:
        await client.list_junk_rooms(page=-1, target=AGENT)
    assert info.value.status == 400


async def test_agent_change_cycle_write_publish_save_restore_revert(
    client: PlatformClient, clock: Clock
) -> None:
    live = await client.get_live(target=AGENT)
    assert live is not None and live.id is not None
    await client.revert_staging(target=AGENT)  # the seed has a draft here
    assert await client.get_staging(target=AGENT) is None

    written = await client.write_staging({"speakingTimeout": 900}, target=AGENT)
    assert written.campaign is not None and written.campaign.speaking_timeout == 900
    staging = await client.get_staging(target=AGENT)
    assert staging is not None and staging.agent_voice == live.agent_voice  # kept

    clock.now += 5
    published = await client.publish_staging(target=AGENT)
    assert published.version_id and published.campaign is not None
    after = await client.get_live(target=AGENT)
    assert after is not None and after.speaking_timeout == 900
    assert await client.get_staging(target=AGENT) is None

    clock.now += 5
    created = await client.save_version(live.id, "before the change", "default", target=AGENT)
    assert created.title == "before the change" and created.version_id
    versions = await client.list_versions(live.id, include_data=True, target=AGENT)
    older = next(v for v in versions if v.snapshot and v.snapshot["speakingTimeout"] != 900)

    await client.restore_version(live.id, older.version_id, "staging", target=AGENT)
    restored = await client.get_staging(target=AGENT)
    assert older.snapshot is not None
    assert restored is not None and restored.speaking_timeout == older.snapshot["speakingTimeout"]

    reverted = await client.revert_staging(target=AGENT)
    assert reverted.success is True
    assert await client.get_staging(target=AGENT) is None


async def test_agent_change_errors_carry_the_platform_message(client: PlatformClient) -> None:
    await client.revert_staging(target=AGENT)
    with pytest.raises(ApiError) as info:
        await client.publish_staging(target=AGENT)
    assert info.value.status == 400 and "Staging is empty" in info.value.message
    with pytest.raises(ApiError) as info:
        await client.write_staging({"agentVoice": "no-such-voice"}, target=AGENT)
    assert "Unknown voice" in info.value.message
    with pytest.raises(ValueError):
        await client.write_staging({}, target=AGENT)


async def test_provisioning_create_find_update_delete(client: PlatformClient) -> None:
    reseller = await client.create_reseller(PARTNER, m.NewReseller(reseller_name="Orbit"))
    assert reseller is not None and reseller.account_type == "reseller" and reseller.id
    org = await client.create_organization(
        reseller.id, m.NewOrganization(org_name="Orbit Clinic", external_account_id="crm-o")
    )
    assert org is not None and org.id and org.external_account_id == "crm-o"
    agent = await client.create_account(
        org.id, m.NewAgentAccount(account_name="Desk", external_account_id="crm-a")
    )
    assert agent is not None and agent.id
    assert (await client.list_accounts(org.id)).items == [agent]  # in the lists at once
    found = await client.account_by_external_id("crm-a")
    assert found.id == agent.id
    with pytest.raises(ApiError) as dup:
        twin = m.NewAgentAccount(account_name="B", external_account_id="crm-a")
        await client.create_account(org.id, twin)
    assert dup.value.status == 409
    change = await client.update_account(
        agent.id, m.AccountUpdate(account_name="Front desk", external_account_id="crm-o")
    )
    assert change.updated_settings == ["accountName"]
    assert change.failed_settings == ["externalAccountId"]
    assert change.reason("externalAccountId")
    change = await client.update_organization(org.id, m.OrganizationUpdate(active=False))
    assert change.updated_settings == ["active"] and not change.failed_settings
    await client.delete_organization(reseller.id, org.id)  # at once, its agent with it
    assert (await client.list_organizations(reseller.id)).items == []
    with pytest.raises(ApiError) as gone:
        await client.delete_account(org.id, agent.id)
    assert gone.value.status == 403  # the organization named is gone too (choice 7)
    with pytest.raises(ApiError) as lost:
        await client.account_by_external_id("crm-a")
    assert lost.value.status == 404


async def test_provisioning_refused_out_of_reach_and_to_a_member(client: PlatformClient) -> None:
    with pytest.raises(ApiError) as out:
        await other(client, "demo-other").create_account(ORG, m.NewAgentAccount(account_name="x"))
    assert out.value.status == 403
    with pytest.raises(ApiError) as member:
        await other(client, "demo-member").delete_account(ORG, 1112)
    assert member.value.status == 403
    with pytest.raises(ApiError) as org_key:
        await other(client, "demo-org").update_account(1112, m.AccountUpdate(active=False))
    assert org_key.value.status == 403


# ----------------------------------------------------------------------------- outbound tasks


async def test_outbound_call_task_lifecycle_and_call_log(
    client: PlatformClient, clock: Clock
) -> None:
    queued = await client.place_call(m.OutboundCallRequest(target="+15551230001"), target=AGENT)
    assert queued.inserted == 1 and len(queued.tasks) == 1
    task_id = queued.tasks[0].key
    assert (await client.get_task(task_id, target=AGENT)).state == "running"
    clock.now += 11
    done = await client.get_task(task_id, target=AGENT)
    assert done.state == "finished" and done.ended
    page = await client.list_tasks(m.TaskQuery(limit=5), target=AGENT)
    assert page.total == 1 and page.tasks[0].key == task_id
    stats = await client.get_task_stats(target=AGENT)
    assert stats.counts()["finished"] == 1
    logs = await client.list_logs(page_size=5, target=AGENT)
    assert logs.logs[0].id == done.log_id


async def test_tasks_create_delete_and_errors(client: PlatformClient, clock: Clock) -> None:
    made = await client.create_task(
        m.TaskRequest(target="+15551230002", scheduled_for=int(clock.now) + 600), target=AGENT
    )
    assert made.pending
    await client.delete_task(made.key, target=AGENT)
    with pytest.raises(ApiError) as gone:
        await client.get_task(made.key, target=AGENT)
    assert gone.value.status == 404 and gone.value.message == "Task not found"
    with pytest.raises(ApiError) as no_agent:
        await client.place_call(m.OutboundCallRequest(target="+15551230001"), target=ORG)
    assert no_agent.value.status == 400
    text = await client.send_text(
        m.OutboundSmsRequest(target="+15551230003", content="Hi"), target=AGENT
    )
    assert text.tasks[0].type == "text"


async def test_tasks_csv_dry_run_then_for_real(client: PlatformClient) -> None:
    rows = "target,type,message\n" + "".join(f"+1555123{n:04d},call,\n" for n in range(3))
    rows += "not-a-number!,call,\n+15551239999,text,\n"
    seeded = dict(sim_of(client).outbound)  # the demo's own tasks (`sim.seed.TASKS`)
    dry = await client.upload_tasks_csv(rows.encode(), dry_run=True, target=AGENT)
    assert (dry.valid, dry.refused, len(dry.queued_rows()), len(dry.refused_rows())) == (3, 2, 3, 2)
    assert sim_of(client).outbound == seeded
    real = await client.upload_tasks_csv(rows.encode(), dry_run=False, target=AGENT)
    assert real.inserted == 3 and len(real.tasks) == 3
    assert len(sim_of(client).outbound) == len(seeded) + 3


async def test_task_limits_written_read_back_and_a_super_admins_fields_refused(
    client: PlatformClient, clock: Clock
) -> None:
    update = m.TaskLimitsUpdate(cooldown_calls=300, cooldown_texts=30)
    reply = await client.update_task_limits(update, target=AGENT)
    assert reply.success is True
    limits = (await client.get_task_limits(target=AGENT)).body()["limits"]
    assert limits["cooldowns"] == {"calls": 300, "texts": 30}
    with pytest.raises(ApiError) as refused:
        await client.update_task_limits(m.TaskLimitsUpdate(concurrency_per_run=2), target=AGENT)
    assert refused.value.status == 403 and "super admin" in refused.value.message
    first = await client.place_call(m.OutboundCallRequest(target="+15551230007"), target=AGENT)
    again = await client.place_call(m.OutboundCallRequest(target="+15551230007"), target=AGENT)
    assert first.tasks[0].state == "running"
    assert again.tasks[0].pending and again.tasks[0].waits_for == "cooldown"
