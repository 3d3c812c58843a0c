"""A run store that is locked or whose disk fills: one clear line that says what to do and
which group to resume, never an internal error."""

from __future__ import annotations

import contextlib
import shutil
import sqlite3
from pathlib import Path

import pytest

from medbench_tui.cli import main
from medbench_tui.core.runs import store as run_store

CASES = Path(__file__).resolve().parent.parent / "cases"


@pytest.fixture
def bank(tmp_path: Path) -> Path:
    bank = tmp_path / "bank"
    bank.mkdir()
    for case in ("im-cap-001", "em-pe-001", "em-stemi-001"):
        shutil.copy(CASES / f"{case}.yaml", bank)
    return bank


def test_run_on_a_store_locked_too_long_says_so(bank, monkeypatch, capsys):
    assert main(["run", "--bank", str(bank), "--system", "checklist"]) == 0
    monkeypatch.setattr(run_store, "BUSY_TIMEOUT_MS", 200)
    holder = sqlite3.connect(bank / ".medbench" / "runs.sqlite", isolation_level=None)
    holder.execute("BEGIN EXCLUSIVE")
    try:
        capsys.readouterr()
        assert main(["run", "--bank", str(bank), "--system", "checklist"]) == 1
    finally:
        holder.close()
    err = capsys.readouterr().err
    assert "internal error" not in err and "locked" in err and "try again" in err


@pytest.mark.parametrize("failing_write", [1, 3], ids=["creating the group", "recording a run"])
def test_a_disk_that_fills_during_a_run_names_the_group_to_resume(bank, monkeypatch, capsys, failing_write):
    writes = {"n": 0}
    original = run_store.RunStore.transaction

    @contextlib.contextmanager
    def filling(self):
        with original(self) as db:
            yield db
            writes["n"] += 1
            if writes["n"] >= failing_write:
                raise sqlite3.OperationalError("database or disk is full")

    monkeypatch.setattr(run_store.RunStore, "transaction", filling)
    assert main(["run", "--bank", str(bank), "--system", "checklist"]) == 1
    err = capsys.readouterr().err
    assert "internal error" not in err and "the disk is full" in err
    if failing_write > 1:
        assert "medbench run --resume " in err
