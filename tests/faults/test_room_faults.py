"""A room's messages under every fault kind of the simulator, as the fault matrix does
for the registered screens: the failure shown on the room with the server's message or a
plain description and ``r`` to retry, odd but usable replies shown without an error, and
the room as it was once the fault is lifted."""

from __future__ import annotations

from tests.faults.helpers import faulty_app
from tests.faults.test_fault_matrix import idle, one_fault, status_of
from vagent_tui.sim.faults import ALL_KINDS


async def test_a_room_under_every_fault() -> None:
    app = faulty_app("inbox", account=1111, rooms=30)
    async with app.run_test(size=(120, 40), notifications=True) as pilot:
        await idle(pilot)
        await pilot.press("enter")
        await idle(pilot)
        room = app.screen
        assert type(room).__name__ == "RoomScreen" and room.thread is not None
        before, failed = status_of(app)
        assert not failed, before
        problems: list[str] = []
        for kind in ALL_KINDS:
            problems += await one_fault(pilot, kind, before)
        assert app.is_running and app.screen is room
        assert room.thread is not None and room.thread.total > 0
    assert not problems, "\n".join(problems)
