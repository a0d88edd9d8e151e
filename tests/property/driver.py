"""One running console shared by all the examples of a hypothesis property.

Starting an app per example would take the whole minute; instead the app runs on an
event loop of its own and each example is run to completion on that loop.
"""

from __future__ import annotations

import asyncio
import contextvars
from collections.abc import Callable, Coroutine
from typing import Any, TypeVar

from tests.helpers import settle

T = TypeVar("T")


class Driver:
    def __init__(self, app: Any, size: tuple[int, int] = (120, 40)) -> None:
        self.app = app
        self.loop = asyncio.new_event_loop()
        self._context = app.run_test(size=size, notifications=True)

        # Textual keeps the running app in context variables: the app starts, runs every
        # step and stops in one and the same context.
        self.ctx = contextvars.copy_context()
        self.pilot = self.run(self._context.__aenter__())
        self.run(settle(self.pilot))

    @property
    def sim(self) -> Any:
        return self.app.connection.api.sim_app.state.sim

    def run(self, awaitable: Coroutine[Any, Any, T]) -> T:
        return self.loop.run_until_complete(self.loop.create_task(awaitable, context=self.ctx))

    def step(self, action: Callable[[], Any]) -> None:
        """Call ``action`` on the app's loop, then let its workers finish."""

        async def go() -> None:
            result = action()
            if asyncio.iscoroutine(result):
                await result
            await settle(self.pilot)

        self.run(go())

    def writes(self, path_end: str) -> list[Any]:
        return [r for r in self.sim.requests if r.method != "GET" and r.path.endswith(path_end)]

    def close(self) -> None:
        try:
            self.run(self._context.__aexit__(None, None, None))
        finally:
            self.loop.close()
