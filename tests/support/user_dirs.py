"""The user's folders (settings, state, data, cache) of a test, away from the developer's own:
set for each test by ``conftest.py``, and by a module's fixture that runs a command before any
test of the module has its own."""

from __future__ import annotations

import os
from pathlib import Path

import pytest


def isolate_user_dirs(monkeypatch: pytest.MonkeyPatch, home: Path, stored_icd_index: Path | None) -> None:
    """Point settings, state, data and cache at folders under ``home``; the cache holds
    ``stored_icd_index`` (a link to one file, which the program only ever replaces, never
    writes into) when one is given."""
    monkeypatch.setenv("XDG_CONFIG_HOME", str(home / "config"))
    monkeypatch.setenv("XDG_STATE_HOME", str(home / "state"))
    monkeypatch.setenv("XDG_DATA_HOME", str(home / "data"))
    monkeypatch.setenv("XDG_CACHE_HOME", str(home / "cache"))
    if stored_icd_index is not None:
        from medbench_tui.core import paths

        here = paths.icd10_index_cache_file()
        here.parent.mkdir(parents=True, exist_ok=True)
        os.link(stored_icd_index, here)
