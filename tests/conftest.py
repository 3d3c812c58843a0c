"""Shared fixtures. Area-specific fixtures live beside their tests."""

from __future__ import annotations

from pathlib import Path

import pytest

pytest_plugins = ["tests.support.fake_openai"]

REPO = Path(__file__).resolve().parent.parent


@pytest.fixture
def bundled_cases() -> Path:
    return REPO / "cases"


@pytest.fixture(autouse=True)
def _isolated_user_dirs(tmp_path_factory, monkeypatch):
    """No test reads or writes the developer's real settings or state."""
    home = tmp_path_factory.mktemp("home")
    monkeypatch.setenv("XDG_CONFIG_HOME", str(home / "config"))
    monkeypatch.setenv("XDG_STATE_HOME", str(home / "state"))
    monkeypatch.setenv("XDG_DATA_HOME", str(home / "data"))
    monkeypatch.setenv("XDG_CACHE_HOME", str(home / "cache"))
