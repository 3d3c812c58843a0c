"""Shared fixtures. Area-specific fixtures live beside their tests."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from hypothesis import settings

from tests.support.user_dirs import isolate_user_dirs

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


@pytest.hookimpl(tryfirst=True)
def pytest_xdist_auto_num_workers(config: pytest.Config) -> int | None:
    """`-n auto` starts one worker more than there are processors: about a quarter of the suite waits (Textual
    pauses, child processes, local servers), so on two cores three workers ran it in 4:02 where two took 5:12.
    A number set in PYTEST_XDIST_AUTO_NUM_WORKERS wins (None leaves it to xdist)."""
    if os.environ.get("PYTEST_XDIST_AUTO_NUM_WORKERS"):
        return None
    usable = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1
    return usable + 1


@pytest.hookimpl(trylast=True)
def pytest_configure(config):
    config.addinivalue_line(
        "markers", "cold_icd_cache: the test's cache folder starts empty (no stored ICD-10 tables and index)")


def _store_icd_index(cache: Path) -> Path | None:
    """Build the ICD-10 tables and index in ``cache`` by a command of its own (this process's
    tables are left as they are); the stored file, or None when none was stored."""
    import subprocess
    import sys

    script = ("from medbench_tui.core import paths\nfrom medbench_tui.core.icd10 import titles\n"
              "titles.warm_up()\nprint(paths.icd10_index_cache_file())\n")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, cwd=REPO,
                          env={**os.environ, "XDG_CACHE_HOME": str(cache)})
    stored = Path(done.stdout.strip()) if done.returncode == 0 else None
    return stored if stored is not None and stored.is_file() else None


@pytest.fixture(scope="session")
def _stored_icd_index(tmp_path_factory) -> Path | None:
    """The ICD-10 tables and search index as a command stores them in its cache folder, built
    once for the session: under xdist, by the first worker to ask, in the folder the workers'
    temporary folders share, while the others wait for it (a build costs some 2 s of CPU);
    None when none was stored."""
    import time

    if "PYTEST_XDIST_WORKER" not in os.environ:
        return _store_icd_index(tmp_path_factory.mktemp("icd-cache"))
    shared = tmp_path_factory.getbasetemp().parent / "icd-cache"
    answer = shared.with_name("icd-cache.built")  # the stored file's path, empty if none
    try:
        shared.mkdir()
    except FileExistsError:
        deadline = time.monotonic() + 300
        while not answer.exists():
            if time.monotonic() > deadline:  # the builder is stuck: build one of our own
                return _store_icd_index(tmp_path_factory.mktemp("icd-cache"))
            time.sleep(0.05)
        told = answer.read_text(encoding="utf-8")
        return Path(told) if told else None
    stored = None
    try:
        stored = _store_icd_index(shared)
    finally:
        writing = answer.with_name("icd-cache.writing")
        writing.write_text(str(stored or ""), encoding="utf-8")
        os.replace(writing, answer)
    return stored


@pytest.fixture(autouse=True)
def _isolated_user_dirs(request, tmp_path_factory, monkeypatch):
    """No test reads or writes the developer's real settings or state. The cache folder holds
    the stored ICD-10 index a command would have written on its first run (unless the test is
    marked ``cold_icd_cache``), so that each command a test starts loads it instead of building
    it again."""
    cold = request.node.get_closest_marker("cold_icd_cache") is not None
    isolate_user_dirs(monkeypatch, tmp_path_factory.mktemp("home"),
                      None if cold else request.getfixturevalue("_stored_icd_index"))
