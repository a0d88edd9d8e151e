"""Growing the demo partner's hierarchy to N agent accounts (``--accounts N``).

The seed's partner 1000 has 13 voice agent accounts. ``grow(state, n)`` adds
``n - 13`` more below it, after the seed is complete (so the seeded data is exactly
the same with or without growth), in a regular, deterministic shape:

* resellers ``100000 + r`` named ``Fleet Reseller NN``, each with up to 10 organizations;
* organizations ``200000 + o`` named ``Fleet Org NNNN``, each with up to 10 agents;
* agents ``1000000 + a`` named ``Fleet Agent NNNNN``; plan, premium flag and connected
  integrations cycle with ``a`` so that function availability varies.

Only the :class:`Account` objects are stored. An agent's live configuration is built
the first time something reads it (:class:`LazyConfigs`); its staging slot is empty,
it has no saved versions, tokens, SIP entries, webhooks or relays. The junk inbox is
computed per page anyway (see ``inbox.py``). 1,000 agents seed in a few milliseconds.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from vagent_tui.sim.account import Account
from vagent_tui.sim.common import iso
from vagent_tui.sim.configs import build_config
from vagent_tui.sim.seed import PROFILES, SEED_EPOCH

if TYPE_CHECKING:
    from vagent_tui.sim.state import SimState

PARTNER = 1000
SEEDED_AGENTS = 13
MAX_AGENTS = 100_000
PER_ORG = 10
ORGS_PER_RESELLER = 10
RESELLER_BASE, ORG_BASE, AGENT_BASE = 100_000, 200_000, 1_000_000

_PLANS = ("pro", "enterprise", "starter", "pro")
_INTEGRATIONS: tuple[tuple[str, ...], ...] = (
    ("calendar", "sms", "payments", "crm"),
    ("calendar",),
    ("sms", "crm"),
    (),
    ("calendar", "payments"),
)


class LazyConfigs(dict[int, Any]):
    """A dict whose missing keys among ``lazy_ids`` are built on first read by ``make``."""

    def __init__(self, data: dict[int, Any], make: Callable[[int], Any]) -> None:
        super().__init__(data)
        self.make = make
        self.lazy_ids: set[int] = set()

    def __missing__(self, key: int) -> Any:
        if key not in self.lazy_ids:
            raise KeyError(key)
        value = self[key] = self.make(key)
        return value

    def __contains__(self, key: object) -> bool:
        return dict.__contains__(self, key) or key in self.lazy_ids

    def get(self, key: int, default: Any = None) -> Any:
        return self[key] if key in self else default  # noqa: SIM401 (builds lazily)


def grow(state: SimState, total: int) -> None:
    """Add agent accounts below partner 1000 until it has ``total`` voice agents."""
    if not 0 <= total <= MAX_AGENTS:
        raise ValueError(f"accounts must be between 0 and {MAX_AGENTS:,}")
    extra = max(0, total - SEEDED_AGENTS)
    if not extra:
        return
    partner = state.accounts[PARTNER]
    when = iso(SEED_EPOCH - 86400 * 200)
    live = LazyConfigs(state.live, lambda aid: _config(state, aid))
    versions = LazyConfigs(state.versions, lambda aid: [])
    reseller = org = None
    for a in range(extra):
        o, r = a // PER_ORG, a // (PER_ORG * ORGS_PER_RESELLER)
        if a % (PER_ORG * ORGS_PER_RESELLER) == 0:
            rid = RESELLER_BASE + r
            reseller = Account(id=rid, username=f"fleet.reseller.{r + 1:02d}",
                               name=f"Fleet Reseller {r + 1:02d}", account_type="reseller",
                               parent_id=PARTNER, partner_id=partner.id, reseller_id=rid,
                               plan="enterprise", vida_premium=True, created_at=when)  # fmt: skip
            state.accounts[rid] = reseller
        if a % PER_ORG == 0:
            assert reseller is not None
            oid = ORG_BASE + o
            org = Account(id=oid, username=f"fleet.org.{o + 1:04d}", name=f"Fleet Org {o + 1:04d}",
                          account_type="organization", parent_id=reseller.id,
                          partner_id=partner.id, reseller_id=reseller.id, organization_id=oid,
                          plan="pro", created_at=when)  # fmt: skip
            state.accounts[oid] = org
        assert org is not None and reseller is not None
        aid = AGENT_BASE + a
        state.accounts[aid] = Account(
            id=aid, username=f"fleet.agent.{a + 1:05d}", name=f"Fleet Agent {a + 1:05d}",
            account_type="account", parent_id=org.id, partner_id=partner.id,
            reseller_id=reseller.id, organization_id=org.id, plan=_PLANS[a % len(_PLANS)],
            vida_premium=a % 3 == 0, integrations=_INTEGRATIONS[a % len(_INTEGRATIONS)],
            created_at=when,
        )  # fmt: skip
        live.lazy_ids.add(aid)
        versions.lazy_ids.add(aid)
    state.live = live
    state.versions = versions


def _config(state: SimState, aid: int) -> dict[str, Any]:
    """The live configuration of generated agent ``aid``, derived from a seeded profile."""
    acc = state.accounts[aid]
    profiles = list(PROFILES.values())
    base = profiles[(aid - AGENT_BASE) % len(profiles)]
    org = state.accounts.get(acc.organization_id or 0)
    profile = base.branded(org.name) if org else base
    return build_config(acc, profile, random.Random(aid))
