"""``vagent-tui`` for ``bench/startup.py``: quits right after the first frame with data.

The console itself has no benchmark hook. This launcher wraps the account tree from the
outside: once the tree's first level is filled, the app quits right after the next frame
that shows it has been written. ``call_after_refresh`` does not wait for that at
start-up (while Textual holds updates back, during its start-up batch and
``switch_mode``'s short delay, callbacks run at once and the frames rendered meanwhile
are not written), so the check reads Textual's private batch counter: acceptable in a
benchmark, which must fail loudly (``bench/startup.py`` checks the data was on screen)
rather than silently when Textual changes.
"""

from __future__ import annotations

import sys
from typing import Any

from vagent_tui import cli
from vagent_tui.ui.widgets.account_tree import AccountTree

_populate = AccountTree.populate
_render_lines = AccountTree.render_lines
_ready: set[int] = set()


def _populate_then_quit(self: AccountTree, node: Any, children: Any) -> None:
    _populate(self, node, children)
    if node.is_root:
        _ready.add(id(self))
        self.refresh()


def _render_then_quit(self: AccountTree, crop: Any) -> Any:
    lines = _render_lines(self, crop)
    if id(self) in _ready and not self.app._batch_count:
        _ready.discard(id(self))
        self.app.call_later(self.app.exit)
    return lines


AccountTree.populate = _populate_then_quit  # type: ignore[method-assign]
AccountTree.render_lines = _render_then_quit  # type: ignore[method-assign]

if __name__ == "__main__":
    sys.exit(cli.main(sys.argv[1:]))
