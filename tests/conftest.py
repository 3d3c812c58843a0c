"""Shared fixtures. Area-specific fixtures live beside their tests."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import settings

pytest_plugins = ["tests.support.fake_openai"]

# The property tests draw the same examples on every run, so a red run is always reproducible
# and a green one stays green; `pytest --hypothesis-profile=explore` draws new ones.
settings.register_profile("repeatable", derandomize=True)
settings.register_profile("explore", derandomize=False)
settings.load_profile("repeatable")

REPO = Path(__file__).resolve().parent.parent


@pytest.fixture
def bundled_cases() -> Path:
    return REPO / "cases"


@pytest.fixture(autouse=True)
def _forget_secrets():
    """The credentials one test configured are not secrets of the next (they are remembered
    for the life of a process, as in one command)."""
    from medbench_tui.core import redact

    yield
    for known in (redact._variables, redact._values, redact._header_names):
        known.clear()


@pytest.fixture(autouse=True)
def _isolated_user_dirs(tmp_path_factory, monkeypatch):
    """No test reads or writes the developer's real settings or state."""
    home = tmp_path_factory.mktemp("home")
    monkeypatch.setenv("XDG_CONFIG_HOME", str(home / "config"))
    monkeypatch.setenv("XDG_STATE_HOME", str(home / "state"))
    monkeypatch.setenv("XDG_DATA_HOME", str(home / "data"))
    monkeypatch.setenv("XDG_CACHE_HOME", str(home / "cache"))
