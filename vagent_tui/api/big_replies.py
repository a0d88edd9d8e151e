"""How many big replies a client reads at once.

A reply may be up to the transport's size limit (16 MiB). One at a time that is cheap,
but a fan-out (Fleet, the Usage screen at a level) has up to 200 requests in flight: if
each reply were 10 MB, reading them all at once would hold gigabytes. A reply longer
than `BIG` bytes (as its ``Content-Length`` says, or once that much of it came) waits
for one of `AT_ONCE` places before more of it is read, and keeps it until its body is
read whole (the transport decodes a reply as soon as it is read). Meanwhile the
connection's flow control leaves the rest of a waiting reply with the sender. Small
replies never wait.
"""

from __future__ import annotations

import asyncio

BIG = 1024 * 1024
"""A reply longer than this is a big one."""
AT_ONCE = 2
"""Big replies read at once by one client."""


class BigReplies:
    """The places of one client's big replies (`Reading` takes one)."""

    def __init__(self, at_once: int = AT_ONCE, big: int = BIG) -> None:
        self.at_once = at_once
        self.big = big
        self._places: asyncio.Semaphore | None = None

    def places(self) -> asyncio.Semaphore:
        # made on first use, inside the event loop that reads the replies
        if self._places is None:
            self._places = asyncio.Semaphore(self.at_once)
        return self._places

    def reading(self) -> Reading:
        """The read of one reply (``async with``): `Reading.grew` as its body comes."""
        return Reading(self)


class Reading:
    """One reply's read: takes a place once the reply is big, gives it back at the end."""

    def __init__(self, owner: BigReplies) -> None:
        self.owner = owner
        self.held = False

    async def grew(self, size: int) -> None:
        """The reply is (or will be) ``size`` bytes: past `BIG`, wait for a place."""
        if not self.held and size > self.owner.big:
            await self.owner.places().acquire()
            self.held = True

    async def __aenter__(self) -> Reading:
        return self

    async def __aexit__(self, *exc: object) -> None:
        if self.held:
            self.held = False
            self.owner.places().release()
