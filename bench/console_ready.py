"""``vagent-tui`` for ``bench/startup.py``: quits right after the first frame with data.

The console itself has no benchmark hook. This launcher wraps the account tree from the
outside: once the tree's first level is filled, the app quits right after the next frame
that shows it has been written. ``call_after_refresh`` does not wait for that at
start-up (while Textual holds updates back, during its start-up batch and
``switch_mode``'s short delay, callbacks run at once and the frames rendered meanwhile
are not written), so the check reads Textual's private batch counter: acceptable in a
benchmark, which must fail loudly (``bench/startup.py`` checks the data was on screen)
rather than silently when Textual changes.

The launcher imports no more than the ``vagent-tui`` command does before it calls
``cli.main``: the tree is wrapped when the console itself imports it (an import hook),
so the console starts as it does for a user (its imports come after
``cli.run_console`` has paused the cycle collector, `vagent_tui.collector`).
"""

from __future__ import annotations

import importlib.abc
import importlib.util
import sys
from collections.abc import Sequence
from importlib.machinery import ModuleSpec
from types import ModuleType
from typing import Any

from vagent_tui import cli

TREE_MODULE = "vagent_tui.ui.widgets.account_tree"
_ready: set[int] = set()


def _wrap(tree_class: Any) -> None:
    populate = tree_class.populate
    render_lines = tree_class.render_lines

    def populate_then_quit(self: Any, node: Any, children: Any) -> None:
        populate(self, node, children)
        if node.is_root:
            _ready.add(id(self))
            self.refresh()

    def render_then_quit(self: Any, crop: Any) -> Any:
        lines = render_lines(self, crop)
        if id(self) in _ready and not self.app._batch_count:
            _ready.discard(id(self))
            self.app.call_later(self.app.exit)
        return lines

    tree_class.populate = populate_then_quit
    tree_class.render_lines = render_then_quit


class _WrapOnImport(importlib.abc.MetaPathFinder):
    """Finds the tree's module as usual, and wraps its class once the module has run."""

    def find_spec(
        self, name: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> ModuleSpec | None:
        if name != TREE_MODULE:
            return None
        sys.meta_path.remove(self)
        spec = importlib.util.find_spec(name)
        assert spec is not None and spec.loader is not None, name
        loader = spec.loader
        exec_module = loader.exec_module

        def exec_then_wrap(module: ModuleType) -> None:
            exec_module(module)
            _wrap(module.AccountTree)

        loader.exec_module = exec_then_wrap  # type: ignore[method-assign]
        return spec


assert TREE_MODULE not in sys.modules, "imported before the console started"
sys.meta_path.insert(0, _WrapOnImport())

if __name__ == "__main__":
    sys.exit(cli.main(sys.argv[1:]))
