"""Where a theme chosen in the app is remembered (`vagent_tui.config.Config.remember_theme`)."""

from __future__ import annotations

from pathlib import Path

from vagent_tui.config import Config, Profile


def _config(tmp_path: Path) -> Config:
    work = Profile(name="work", base_url="https://api.example.test", token_env="T")
    return Config(profiles={"work": work}, theme="vagent-dark", path=tmp_path / "c.toml")


def test_a_profile_in_the_file_keeps_the_theme(tmp_path: Path) -> None:
    config = _config(tmp_path)
    assert config.remember_theme("vagent-light", "work") == "profile work"
    assert config.profiles["work"].theme == "vagent-light" and config.theme == "vagent-dark"


def test_no_profile_or_one_the_file_lacks_keeps_it_in_the_file(tmp_path: Path) -> None:
    for profile in (None, "gone"):
        config = _config(tmp_path)
        assert config.remember_theme("vagent-light", profile) == "the config file"
        assert config.theme == "vagent-light" and config.profiles["work"].theme is None
