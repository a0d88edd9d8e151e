"""Hypothesis strategies of valid and invalid request field values (shared by the tests)."""

from __future__ import annotations

import ipaddress

from hypothesis import strategies as st

from vagent_tui.api.requests import WEBHOOK_TYPES

_LABEL = st.from_regex(r"\A[a-z0-9]([a-z0-9-]{0,10}[a-z0-9])?\Z")
hostnames = st.builds(
    lambda labels, tld: ".".join([*labels, tld]),
    st.lists(_LABEL, min_size=1, max_size=3),
    st.from_regex(r"\A[a-z]{2,6}\Z"),
)
ips = st.ip_addresses().map(str)
hosts = hostnames | ips
spaces = st.sampled_from(["", " ", "  ", "\t"])
# Printable text without surrounding space: what a person types in a field.
words = st.text(
    st.characters(codec="utf-8", exclude_categories=("Cc", "Cs", "Zl", "Zp")),
    min_size=1,
    max_size=40,
).filter(lambda s: s.strip() == s and s != "")
markup = st.sampled_from(["[bold]", "[/]", "[link=x]y[/link]", "[red]x", "\\[", "$var"])
labels = st.one_of(st.just(""), words, markup)


def not_an_ip(text: str) -> bool:
    try:
        ipaddress.ip_address(text.strip())
    except ValueError:
        return True
    return False


bad_ips = st.one_of(
    st.text(max_size=30).filter(not_an_ip),
    st.sampled_from(["10.0.0.300", "1.2.3", "::g", "[::1]", "1.2.3.4/24", "localhost", ""]),
)
webhook_types = st.sampled_from(WEBHOOK_TYPES)
bad_webhook_types = st.text(max_size=15).filter(lambda t: t.strip() not in WEBHOOK_TYPES)
paths = st.from_regex(r"\A/?[a-z0-9/_.-]{0,20}\Z").filter(lambda p: " " not in p)
urls = st.builds(
    lambda scheme, host, port, path: f"{scheme}://{host}{port}{path}",
    st.sampled_from(["http", "https"]),
    hostnames,
    st.sampled_from(["", ":8080", ":443"]),
    st.sampled_from(["", "/", "/hooks/vida", "/x?y=1"]),
)
bad_urls = st.one_of(
    st.sampled_from(
        [
            "ftp://example.com/x",
            "example.com",
            "https://",
            "http:///x",
            "https://exa mple.com",
            "https://example.com:99999",
            "https://-bad-.com",
            "javascript:alert(1)",
            "",
        ]
    ),
    st.text(max_size=30).filter(lambda u: not u.strip().startswith(("http://", "https://"))),
)
typed = st.characters(codec="utf-8", exclude_categories=("Cc", "Cs"))
"""What a person can type in a field: no control characters."""
descriptions = st.text(typed, max_size=260)
"""A token description: any text, empty included (no limit stated: CONTRACT.md)."""
bad_descriptions = st.one_of(st.none(), st.integers(), st.booleans())
titles = st.text(typed, min_size=1, max_size=300).filter(lambda s: bool(s.strip()))
"""A version title: not empty, no length limit stated."""
bad_titles = spaces
upload_paths = st.lists(
    st.from_regex(r"\A[A-Za-z0-9_][A-Za-z0-9_.-]{0,10}\Z").filter(lambda s: s != ".."),
    min_size=1,
    max_size=3,
).map("/".join)
bad_upload_paths = st.one_of(
    st.sampled_from(
        ["", "/etc/passwd", "../x", "a/../../b", "a\\b", "~/x", "C:x", "dir/", ".", "a\x01b"]
    ),
    upload_paths.map(lambda p: "/" + p),
    upload_paths.map(lambda p: p + "/"),
)
modes = st.from_regex(r"\A[0-7]{3,4}\Z")
bad_modes = st.one_of(
    st.sampled_from(["8", "999", "0o644", "rw-r--r--", "12", "07777", "-644"]),
    st.text(min_size=1, max_size=6).filter(
        lambda m: (
            m.strip()
            and not (
                m.strip().isdigit()
                and set(m.strip()) <= set("01234567")
                and 3 <= len(m.strip()) <= 4
            )
        )
    ),
)


# ---------------------------------------------------------------- tests/property/test_forms_more.py


def padded(values: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
    """``values`` with spaces or a tab around them (what a paste brings)."""
    return st.builds(lambda before, value, after: before + value + after, spaces, values, spaces)


protected_upload_paths = st.sampled_from(
    [".system/x.txt", "public/index.html", "AGENTS.md", "settings.json", "Heartbeat.MD"]
)
"""Paths the request model takes but the platform refuses (403): still one request."""
optional_modes = st.one_of(st.just(""), spaces, modes, padded(modes))
"""A mode field as typed: empty (the server's default) or octal text, maybe padded."""


def confirm_texts(expected: str) -> st.SearchStrategy[str]:
    """What is typed in a type-to-confirm field: ``expected`` (maybe padded) or not."""
    wrong = st.one_of(
        st.sampled_from(["", " ", expected[:-1], expected.upper(), expected + "x", "yes"]),
        words,
    ).filter(lambda text: text.strip() != expected)
    return st.one_of(st.just(expected), padded(st.just(expected)), wrong)
