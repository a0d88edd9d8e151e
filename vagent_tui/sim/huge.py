"""Huge mode: the replies whose shape the vendor does not publish come as large as the
console accepts.

`vagent-tui sim --huge` (``state.huge``) serves, within the console's 16 MiB reply limit:

* ``GET /stats/usage``: `KEYS` more usage keys (``extra.metric000001``...) beside the
  usual ones, and a `TEXT_BYTES` note (``label``);
* ``GET /product/currentPlan``, ``/product/productPlan/{id}``, ``/product/offeredPlan``:
  a plan whose ``name`` is `TEXT_BYTES` long and whose ``includes`` holds `KEYS` keys
  (its ``id`` stays the account's, so the catalog's record is still found);
* ``GET /product/allAvailablePlans``, ``/product/productCatalog``, ``/addon/available``:
  `KEYS` records;
* ``GET /tasks/dailyCounts``: `KEYS` more counts.

Replies the console models field by field are left as they are: those are bounded by
their models. The rules of the simulator do not change, only what these replies hold.
"""

from __future__ import annotations

from typing import Any

KEYS = 100_000
"""Keys (or records) added to each open-ended reply."""
TEXT_BYTES = 8 * 1024 * 1024
"""The length of the one long text of a reply: 8 MiB of ASCII."""


def text() -> str:
    """The long text: readable at its start, then `TEXT_BYTES` in all."""
    head = "Huge plan name "
    return head + "N" * (TEXT_BYTES - len(head))


def keys(prefix: str) -> dict[str, int]:
    """`KEYS` numeric keys, ``prefix`` then a zero-padded number."""
    return {f"{prefix}{i:06d}": i % 1000 for i in range(1, KEYS + 1)}


def usage(reply: dict[str, Any]) -> dict[str, Any]:
    """A usage reply with `KEYS` more keys and a long note."""
    return {**reply, "usage": {**reply.get("usage", {}), **keys("extra.metric")},
            "label": text()}  # fmt: skip


def plan(record: dict[str, Any] | None) -> dict[str, Any]:
    """A plan record with a long name and `KEYS` keys in ``includes``."""
    base = record or {"id": "huge"}
    return {**base, "name": text(), "includes": {**base.get("includes", {}), **keys("item")}}


def records(kind: str) -> list[dict[str, Any]]:
    """`KEYS` small records of a list (plans, add-ons)."""
    return [{"id": f"{kind}-{i:06d}", "name": f"{kind} {i}", "price": i % 100}
            for i in range(1, KEYS + 1)]  # fmt: skip


def counts(sent: dict[str, Any]) -> dict[str, Any]:
    """Today's counts with `KEYS` more."""
    return {**sent, **keys("count")}
