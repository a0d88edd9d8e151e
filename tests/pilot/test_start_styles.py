"""The first screen is styled once at start-up (issue 40): its widgets get their styles
as they are mounted, and its first showing does not restyle them all again (Textual's
ScreenResume would, a tenth of the first screen's start-up)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import pytest
from textual.css.stylesheet import Stylesheet
from textual.dom import DOMNode

from tests.helpers import MakeApp, settle


async def test_the_first_screen_is_not_restyled_whole_when_first_shown(
    make_app: MakeApp, monkeypatch: pytest.MonkeyPatch
) -> None:
    restyled: list[int] = []  # nodes per restyle
    update_nodes = Stylesheet.update_nodes

    def counted(stylesheet: Stylesheet, nodes: Iterable[DOMNode], animate: bool = False) -> Any:
        nodes = list(nodes)
        restyled.append(len(nodes))
        return update_nodes(stylesheet, nodes, animate)

    monkeypatch.setattr(Stylesheet, "update_nodes", counted)
    app = make_app("scope")
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        screen_nodes = len(list(app.screen.walk_children(with_self=True)))
        # A focus change restyles its own node; nothing restyled the whole screen.
        assert restyled and max(restyled) < screen_nodes / 2, (restyled, screen_nodes)
        app.theme = "textual-light"  # a change of the app's styles still restyles it all
        await settle(pilot)
        assert max(restyled) >= screen_nodes
