"""vulture, blind to ``__all__``: a name listed there and used nowhere else is dead.

vulture counts every string in a module's ``__all__`` as a use, so a re-export list
alone keeps a dead name alive (issue 39: ``CallPager`` lived that way). This runs
vulture itself, with its settings from pyproject's [tool.vulture] and the allow-list
.ci/vulture_allow.py, after one change: an ``__all__`` assignment uses nothing.
`.ci/run` and README's checks run ``python .ci/vulture_run.py`` in place of ``vulture``.
"""

import ast

from vulture import core


class _BlindToAll(core.Vulture):
    def visit_Assign(self, node: ast.Assign) -> None:
        """Nothing: the base class counts ``__all__``'s strings as uses."""


if __name__ == "__main__":
    core.Vulture = _BlindToAll
    core.main()
