"""The run store: schema and migrations, one-transaction writes, the reader API, exports."""

from __future__ import annotations

import csv
import dataclasses
import io
import json
import sqlite3
from datetime import UTC

import pytest

from medbench_tui.core import paths
from medbench_tui.core.errors import MedbenchError
from medbench_tui.core.runs.store import (
    MIGRATIONS,
    SCHEMA_VERSION,
    RunRecord,
    RunStore,
    flatten_metrics,
)

SECRET = "sk-test-SECRET-1234567890"


def make_run(group_id: str, case_id: str, system: str, *, complete: bool = True, **metrics) -> RunRecord:
    metrics = metrics or {"diagnosis_accuracy": 100, "treatment_accuracy": 50.0, "primary_icd10": "category"}
    scorecard = {"case_id": case_id, "complete": complete, "steps": 3, "metrics": metrics}
    values, labels = flatten_metrics(metrics)
    return RunRecord(
        group_id=group_id, case_id=case_id, case_path=f"cases/{case_id}.yaml", case_sha256="ab" * 32,
        system=system, status="complete" if complete else "incomplete",
        reason=None if complete else "HTTP 500 (gave up after 6 attempts)",
        system_config={"model": "fake-model", "api_key_env": "OPENAI_API_KEY"},
        simulator_config={"name": "grounded"}, evaluator_config={"extractor": "rules"},
        transcript={"case_id": case_id, "system": system, "turns": [], "events": []},
        scorecard=scorecard, extraction={"diagnoses": [{"name": "x", "evidence": "x"}]},
        metrics=values, labels=labels, steps=3, num_steps=4, outside_soft_range=False,
        started_at="2025-01-01T00:00:00Z", finished_at="2025-01-01T00:00:01Z", seconds=1.0,
        prompt_tokens=10, completion_tokens=5,
    )


@pytest.fixture
def store(tmp_path):
    with RunStore(tmp_path / "runs.sqlite") as opened:
        yield opened


def test_new_store_is_current_wal_with_foreign_keys(store):
    assert store.schema_version == SCHEMA_VERSION
    assert store._query("PRAGMA journal_mode")[0][0] == "wal"
    assert store._query("PRAGMA foreign_keys")[0][0] == 1
    assert store._query("PRAGMA busy_timeout")[0][0] >= 1000


def test_record_and_read_back(store):
    group = store.create_group({"systems": [{"name": "a"}, {"name": "b"}], "cases": [{"id": "c1"}, {"id": "c2"}]}, 7)
    store.record(make_run(group.id, "c1", "a"))
    store.record(make_run(group.id, "c1", "b", complete=False))
    listed = store.groups()
    assert [g.id for g in listed] == [group.id]
    assert (listed[0].complete, listed[0].incomplete, listed[0].planned, listed[0].not_run) == (1, 1, 4, 2)
    runs = store.runs(group.id)
    assert [(r.case_id, r.system, r.status) for r in runs] == [("c1", "a", "complete"), ("c1", "b", "incomplete")]
    assert runs[0].transcript is None  # light listing
    assert runs[0].metrics == {
        "diagnosis_accuracy": 100.0, "treatment_accuracy": 50.0,
        "primary_icd10_exact": 0.0, "primary_icd10_category": 100.0,
    }
    assert runs[0].labels == {"primary_icd10": "category"}
    assert runs[1].metrics == {} and runs[1].labels == {}
    full = store.run(runs[1].id)
    assert full.scorecard is None and full.extraction is None  # an incomplete run is never scored
    assert full.reason.startswith("HTTP 500")
    assert full.transcript_model().case_id == "c1"
    assert store.run(runs[0].id).extraction == {"diagnoses": [{"name": "x", "evidence": "x"}]}
    assert [r.system for r in store.case_runs("c1")] == ["a", "b"]
    assert store.latest_group().id == group.id
    assert store.integrity_problems() == []



def test_runs_read_for_a_report_leave_the_configurations_out(store):
    group = store.create_group({"systems": []}, 1)
    run = make_run(group.id, "c1", "base")
    run.seeds = {"run": 7}
    store.record(run)
    (whole,) = store.runs(group.id)
    (light,) = store.runs(group.id, configs=False)
    assert (light.system_config, light.simulator_config, light.evaluator_config, light.seeds) == ({}, {}, {}, {})
    assert (whole.simulator_config, whole.seeds) == ({"name": "grounded"}, {"run": 7})
    setup = ("system_config", "simulator_config", "evaluator_config", "seeds")
    assert dataclasses.replace(light, **{key: getattr(whole, key) for key in setup}) == whole

def test_the_run_index_names_each_case_and_system_once_as_the_runs_are_ordered(store):
    group = store.create_group({"systems": []}, 1)
    for case_id, system, repeat in (("c2", "b", 0), ("c1", "b", 0), ("c1", "a", 1), ("c1", "a", 0)):
        run = make_run(group.id, case_id, system)
        run.repeat = repeat
        store.record(run)
    other = store.create_group({"systems": []}, 2)
    store.record(make_run(other.id, "c3", "a"))
    assert store.run_index(group.id) == [("c1", "a", "cases/c1.yaml"), ("c1", "b", "cases/c1.yaml"),
                                         ("c2", "b", "cases/c2.yaml")]
    assert [r.system for r in store.case_runs("c1", system="b")] == ["b"]
    assert len(store.case_runs("c1")) == 3


def test_rerun_replaces_the_row(store):
    group = store.create_group({}, 1)
    store.record(make_run(group.id, "c1", "a", complete=False))
    store.record(make_run(group.id, "c1", "a"))
    assert [r.status for r in store.runs(group.id)] == ["complete"]
    assert store._query("SELECT COUNT(*) FROM metrics")[0][0] == 5


def test_a_failed_write_leaves_nothing(store, monkeypatch):
    group = store.create_group({}, 1)
    run = make_run(group.id, "c1", "a")
    run.metrics["bad"] = object()  # sqlite cannot bind it: the insert of metrics fails
    with pytest.raises(sqlite3.Error):
        store.record(run)
    assert store.runs(group.id) == []
    assert store._query("SELECT COUNT(*) FROM metrics")[0][0] == 0


def test_unknown_group_names_the_latest(store):
    group = store.create_group({}, 1)
    with pytest.raises(MedbenchError, match=group.id):
        store.group("nope")


def test_group_ids_sort_by_time(store):
    from datetime import datetime

    from medbench_tui.core.runs.store import new_group_id

    early = new_group_id(datetime(2024, 12, 31, 23, 59, 59, tzinfo=UTC))
    late = new_group_id(datetime(2025, 1, 1, 0, 0, 0, tzinfo=UTC))
    assert early < late and len(late) == len("20250101-000000-abcd")


def test_missing_store_is_not_created_for_reading(tmp_path):
    with pytest.raises(MedbenchError, match="medbench run"):
        RunStore(tmp_path / "none.sqlite", create=False)
    assert not (tmp_path / "none.sqlite").exists()


def test_migrates_from_version_1(tmp_path):
    path = tmp_path / "old.sqlite"
    db = sqlite3.connect(path, isolation_level=None)
    MIGRATIONS[0](db)
    db.execute("PRAGMA user_version = 1")
    db.execute("INSERT INTO run_groups VALUES ('20240101-000000-aaaa', '2024-01-01T00:00:00Z', 3, '{}')")
    card = {"metrics": {"diagnosis_accuracy": 0, "workup_score": 40.0, "primary_icd10": "exact"}}
    db.execute(
        "INSERT INTO runs (group_id, case_id, case_path, case_sha256, system, system_config, simulator_config,"
        " evaluator_config, status, scorecard, started_at, finished_at, seconds)"
        " VALUES ('20240101-000000-aaaa', 'c1', 'c1.yaml', 'x', 'a', '{}', '{}', '{}', 'complete', ?, '', '', 1)",
        (json.dumps(card),),
    )
    db.close()
    with RunStore(path) as store:
        assert store.schema_version == SCHEMA_VERSION
        (run,) = store.runs("20240101-000000-aaaa")
        assert run.metrics == {
            "diagnosis_accuracy": 0.0,
            "workup_score": 40.0,
            "primary_icd10_exact": 100.0,
            "primary_icd10_category": 100.0,
        }
        assert run.labels == {"primary_icd10": "exact"}
        assert store.cached_response("k") is None
        assert store.integrity_problems() == []


def test_refuses_a_newer_schema(tmp_path):
    path = tmp_path / "new.sqlite"
    db = sqlite3.connect(path)
    db.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    db.close()
    with pytest.raises(MedbenchError, match="newer"):
        RunStore(path)


def test_no_secret_in_database_or_exports(tmp_path, monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", SECRET)
    path = tmp_path / "runs.sqlite"
    with RunStore(path) as store:
        group = store.create_group({"systems": [{"name": "a", "config": {"note": f"key={SECRET}"}}]}, 1)
        run = make_run(group.id, "c1", "a", complete=False)
        run.reason = f"401 refused the key {SECRET}"
        run.transcript["events"] = [{"turn": 1, "kind": "error", "reason": f"Bearer {SECRET}"}]
        store.record(run)
        store.cache_response("k", {"text": SECRET})
        exports = store.export_text(group.id, "jsonl") + store.export_text(group.id, "csv")
        assert "[redacted]" in store.run(run.id).reason
    data = b"".join(p.read_bytes() for p in tmp_path.iterdir())
    assert SECRET.encode() not in data
    assert SECRET not in exports


def test_exports(store):
    group = store.create_group({}, 1)
    store.record(make_run(group.id, "c1", "a"))
    store.record(make_run(group.id, "c2", "a", complete=False))
    lines = store.export_text(group.id, "jsonl").splitlines()
    assert [json.loads(line)["case_id"] for line in lines] == ["c1", "c2"]
    assert json.loads(lines[0])["scorecard"]["metrics"]["diagnosis_accuracy"] == 100
    rows = list(csv.DictReader(io.StringIO(store.export_text(group.id, "csv"))))
    assert rows[0]["diagnosis_accuracy"] == "100.0" and rows[0]["primary_icd10"] == "category"
    assert rows[1]["status"] == "incomplete" and rows[1]["diagnosis_accuracy"] == ""


def test_store_location(tmp_path, monkeypatch):
    bank = tmp_path / "bank"
    bank.mkdir()
    assert paths.run_store_for(bank) == bank / ".medbench" / "runs.sqlite"
    assert paths.run_store_for(bank, tmp_path / "x.sqlite") == tmp_path / "x.sqlite"
    monkeypatch.setattr("os.access", lambda *a, **k: False)  # a bank inside site-packages
    fallback = paths.run_store_for(bank)
    assert fallback.is_relative_to(paths.user_state_dir())
    assert fallback == paths.user_run_store(bank)


def test_migration_to_repeats_keeps_every_run_and_its_metrics(tmp_path):
    """A version-3 store (before repeats): rows, metrics and the cascade survive the rebuild."""
    db = sqlite3.connect(tmp_path / "old.sqlite", isolation_level=None)
    db.execute("PRAGMA foreign_keys = ON")
    for number, step in enumerate(MIGRATIONS[:3], 1):
        step(db)
        db.execute(f"PRAGMA user_version = {number}")
    db.execute("INSERT INTO run_groups VALUES ('g1', '2024-01-01T00:00:00Z', 3, '{}')")
    for case in ("c1", "c2"):
        run_id = db.execute(
            "INSERT INTO runs (group_id, case_id, case_path, case_sha256, system, system_config, simulator_config,"
            " evaluator_config, status, started_at, finished_at, seconds)"
            " VALUES ('g1', ?, 'x.yaml', 'x', 'a', '{}', '{}', '{}', 'complete', '', '', 1)",
            (case,),
        ).lastrowid
        db.execute("INSERT INTO metrics VALUES (?, 'diagnosis_accuracy', 100, NULL)", (run_id,))
    db.close()
    with RunStore(tmp_path / "old.sqlite") as store:
        assert store.schema_version == SCHEMA_VERSION
        runs = store.runs("g1")
        assert [(r.case_id, r.repeat, r.seeds, r.metrics) for r in runs] == [
            ("c1", 0, {}, {"diagnosis_accuracy": 100.0}),
            ("c2", 0, {}, {"diagnosis_accuracy": 100.0}),
        ]
        assert store.integrity_problems() == []
        again = make_run("g1", "c1", "a")
        again.repeat = 1
        store.record(again)  # a second repeat of the same case and system is a new row
        assert [(r.case_id, r.repeat) for r in store.runs("g1")] == [("c1", 0), ("c1", 1), ("c2", 0)]
        indexes = [row[0] for row in store._query("SELECT name FROM sqlite_master WHERE type = 'index'")]
        assert "runs_by_case" in indexes
    with RunStore(tmp_path / "old.sqlite") as store:  # deleting a group still cascades to its metrics
        with store.transaction() as db:
            db.execute("DELETE FROM run_groups WHERE id = 'g1'")
        assert store._query("SELECT COUNT(*) FROM metrics")[0][0] == 0


def test_an_existing_store_is_opened_and_a_missing_one_is_never_created(tmp_path):
    from medbench_tui.core.runs.store import existing_store

    missing = tmp_path / "runs.sqlite"
    assert existing_store(missing) is None and not missing.exists()
    RunStore(missing).close()
    opened = existing_store(missing)
    assert opened is not None
    opened.close()
