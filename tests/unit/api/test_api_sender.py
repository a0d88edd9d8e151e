"""The sender's choice of pool and proxy (`vagent_tui.api.sender`)."""

from __future__ import annotations

import pytest

from vagent_tui.api.sender import PROXY_VARIABLES, environment_proxy


@pytest.mark.parametrize(
    ("variables", "base", "proxy"),
    [
        ({}, "https://p.example", None),
        ({"HTTPS_PROXY": "http://proxy:3128"}, "https://p.example", "http://proxy:3128"),
        ({"HTTPS_PROXY": "http://proxy:3128"}, "http://p.example", None),
        ({"HTTP_PROXY": "proxy:8080"}, "http://p.example:81/gw", "http://proxy:8080"),
        ({"ALL_PROXY": "http://all:1"}, "https://p.example", "http://all:1"),
        ({"HTTPS_PROXY": "http://proxy:3128", "NO_PROXY": "p.example"}, "https://p.example", None),
        ({"HTTPS_PROXY": "http://proxy:3128", "NO_PROXY": "other"}, "https://p.example",
         "http://proxy:3128"),
    ],
)  # fmt: skip
def test_the_proxy_is_the_one_the_environment_names_for_the_platform(
    monkeypatch: pytest.MonkeyPatch, variables: dict[str, str], base: str, proxy: str | None
) -> None:
    for name in (*PROXY_VARIABLES, "NO_PROXY", "no_proxy"):
        monkeypatch.delenv(name, raising=False)
    for name, value in variables.items():
        monkeypatch.setenv(name, value)
    assert environment_proxy(base) == proxy
