"""An integration's data in the simulator (CONTRACT choices 135, 136)."""

from __future__ import annotations

from .helpers import Sim, envelope

AGENT = 1111
PATH = "/integration/payments/v1"


async def test_data_of_a_connected_integration_read_and_replaced_whole(sim: Sim) -> None:
    read = (await sim.get(PATH, targetAccountId=AGENT)).json()
    assert read["appId"] == "payments" and read["appVersion"] == "v1"
    assert read["appData"]["secretKey"] == "sk_test_1111"
    new = {"provider": "stripe", "currency": "EUR"}
    r = await sim.call("PUT", PATH, params={"targetAccountId": AGENT}, json={"appData": new})
    assert r.status_code == 200 and r.json()["appData"] == new
    assert (await sim.get(PATH, targetAccountId=AGENT)).json()["appData"] == new


async def test_unknown_data_and_a_body_without_appdata_are_refused(sim: Sim) -> None:
    envelope(await sim.get("/integration/payments/v2", targetAccountId=AGENT), 404,
             "Integration data not found")  # fmt: skip
    put = await sim.call("PUT", "/integration/nope/v1", params={"targetAccountId": AGENT},
                         json={"appData": {}})  # fmt: skip
    envelope(put, 404)
    bad = await sim.call("PUT", PATH, params={"targetAccountId": AGENT}, json={"appData": [1]})
    envelope(bad, 400, "appData is required")
