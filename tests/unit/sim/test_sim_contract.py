"""CONTRACT.md: its relative links name files that exist, and it lists the choices."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

SIM = Path(__file__).resolve().parents[3] / "vagent_tui" / "sim"
REPO = SIM.parents[1]
CONTRACT = (SIM / "CONTRACT.md").read_text(encoding="utf-8")
LINKS = sorted(set(re.findall(r"\]\(([^)#\s]+)\)", CONTRACT)))


def test_the_contract_has_links() -> None:
    assert len(LINKS) >= 20


@pytest.mark.parametrize("link", LINKS)
def test_every_relative_link_works(link: str) -> None:
    assert not link.startswith(("http:", "https:", "/")), "links stay relative"
    target = (SIM / link).resolve()
    if not target.is_relative_to(REPO) and not target.parent.is_dir():
        pytest.skip(f"{link}: the shared spec is not checked out beside the repository")
    assert target.exists(), link


def test_every_simulator_module_with_rules_is_linked() -> None:
    """Every module that answers requests or holds the data is named by a link."""
    linked = {Path(link).name for link in LINKS}
    modules = {p.name for p in SIM.glob("*.py")} - {"__init__.py", "__main__.py", "serve.py",
                                                     "world.py"}  # fmt: skip
    assert modules <= linked, sorted(modules - linked)
