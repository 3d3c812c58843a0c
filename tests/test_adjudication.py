"""Adjudication records, blinded samples, agreement statistics and their commands."""

from __future__ import annotations

import contextlib
import io
import json
import re
import shutil
import sqlite3
from collections.abc import Iterator
from pathlib import Path

import pytest

from medbench_tui.cli import main
from medbench_tui.core.review.adjudication import (
    AdjudicationBook,
    AdjudicationError,
    Record,
    decisions_of,
    read_jsonl,
    stratified_sample,
)
from medbench_tui.core.review.agreement import agreement_report, cohens_kappa, proportion, recompute
from medbench_tui.core.runs.store import RunStore
from medbench_tui.core.transcript import FinalResponse, Transcript, dump_transcript
from medbench_tui.core.validate import load_valid_case
from tests.support.user_dirs import isolate_user_dirs

REPO = Path(__file__).resolve().parent.parent
CASES = ("im-cap-001", "em-pe-001", "sur-appendicitis-001", "ped-dka-001", "psy-mdd-001")


def _reference_answers(folder: Path) -> Path:
    """Replay transcripts whose final response is the case's own reference plan."""
    folder.mkdir()
    for case_id in CASES:
        case = load_valid_case(REPO / "cases" / f"{case_id}.yaml")
        final = FinalResponse(
            diagnoses=[{"name": case.diagnosis.primary.name, "icd10": case.diagnosis.primary.icd10}],
            differential=[d.name for d in case.differential],
            workup=[w.item for w in case.workup if w.klass == "required"],
            treatment=[t.item for t in case.treatment if t.klass == "required"],
        )
        dump_transcript(Transcript(case_id=case_id, system="replay", final=final), folder / f"{case_id}.json")
    return folder


@pytest.fixture(scope="module")
def _scored_store(tmp_path_factory, _stored_icd_index) -> Iterator[tuple[Path, str]]:
    """The group scored once for the module (a run of 5 cases by two systems): each test gets a
    copy of its store (:func:`scored_group`), so what one test records no other sees."""
    root = tmp_path_factory.mktemp("scored")
    with pytest.MonkeyPatch.context() as monkeypatch:
        isolate_user_dirs(monkeypatch, root / "home", _stored_icd_index)
        yield _score(root)


def _score(root: Path) -> tuple[Path, str]:
    bank = root / "bank"
    bank.mkdir()
    for case_id in CASES:
        (bank / f"{case_id}.yaml").write_text((REPO / "cases" / f"{case_id}.yaml").read_text())
    if (REPO / "cases" / "attachments").is_dir():
        shutil.copytree(REPO / "cases" / "attachments", bank / "attachments")
    replays = _reference_answers(root / "replays")
    store = root / "runs.sqlite"
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        assert main(["run", "--cases", str(bank), "--system", "checklist", "--system", f"replay:{replays}",
                     "--store", str(store), "--format", "json"]) == 0
    return store, json.loads(printed.getvalue())["group_id"]


@pytest.fixture
def scored_group(_scored_store, tmp_path) -> tuple[Path, str]:
    """A store of this test's own holding the scored group."""
    scored, group = _scored_store
    store = tmp_path / "runs.sqlite"
    with contextlib.closing(sqlite3.connect(scored)) as source, contextlib.closing(sqlite3.connect(store)) as copy:
        source.backup(copy)
    return store, group


def _adjudicate(store_path: Path, group: str, rater: str, *, flip_every: int = 0) -> list[Record]:
    """Confirm every decision of every run, flipping every n-th one."""
    records = []
    with RunStore(store_path) as store:
        count = 0
        for run in store.runs(group, full=True):
            for d in decisions_of(run.scorecard or {}):
                count += 1
                verdict = d.evaluator
                if flip_every and count % flip_every == 0:
                    verdict = {"found": "not_found", "not_found": "found", "negated": "found",
                               "different": "found", "OK": "FAIL", "FAIL": "OK"}[verdict]
                records.append(Record(run.id, run.case_id, d.section, d.reference, d.evaluator, verdict, rater))
        AdjudicationBook(store).save(records)
    return records


def test_decisions_cover_every_reference_item_and_condition(scored_group):
    store_path, group = scored_group
    with RunStore(store_path) as store:
        runs = store.runs(group, full=True)
        run = next(r for r in runs if r.system.startswith("replay") and r.case_id == "em-pe-001")
    decisions = decisions_of(run.scorecard)
    sections = {d.section for d in decisions}
    assert sections == {"diagnoses", "differential", "workup", "treatment", "critical"}
    primary = next(d for d in decisions if d.section == "diagnoses")
    assert primary.evaluator == "found"
    assert all(d.evaluator in ("OK", "FAIL") for d in decisions if d.section == "critical")
    assert len({(d.section, d.reference) for d in decisions}) == len(decisions)


def test_sample_is_stratified_blinded_and_seeded(scored_group):
    store_path, group = scored_group
    with RunStore(store_path) as store:
        runs = store.runs(group)
    by_id = {r.id: r.system for r in runs}
    sample = stratified_sample(runs, 4, seed=7)
    assert len(sample) == 4 and len(set(sample)) == 4
    assert sorted(by_id[i] for i in sample).count("checklist") == 2
    assert sample == stratified_sample(runs, 4, seed=7)
    assert stratified_sample(runs, None, seed=1) != sorted(r.id for r in runs)  # a random order, not the store's
    assert sorted(stratified_sample(runs, None, seed=1)) == sorted(r.id for r in runs)


def test_perfect_agreement_and_its_figures(scored_group):
    store_path, group = scored_group
    records = _adjudicate(store_path, group, "Dr A")
    doc = agreement_report(records)
    assert doc["decisions"] == len(records)
    assert doc["agreement"] == 100.0
    assert doc["agreement_ci"][1] == 100.0 and doc["agreement_ci"][0] < 100.0
    assert doc["kappa"] == 1.0
    assert set(doc["by_section"]) == {"diagnoses", "differential", "workup", "treatment", "critical"}
    assert doc["critical"]["specificity"] == 100.0


def test_disagreement_lowers_agreement_and_shows_in_metrics(scored_group, capsys):
    store_path, group = scored_group
    records = _adjudicate(store_path, group, "Dr A", flip_every=3)
    flipped = sum(r.evaluator != r.physician for r in records)
    assert main(["agreement", group, "--store", str(store_path), "--format", "json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    for key in ("decisions", "agreement", "kappa", "by_section", "critical"):
        assert key in doc
    assert doc["decisions"] == len(records)
    assert doc["agreement"] == round(100 * (len(records) - flipped) / len(records), 1)
    assert doc["kappa"] < 1.0
    assert "sensitivity" in doc["critical"] and "specificity" in doc["critical"]
    assert any(v["runs_changed"] for v in doc["metrics"].values())


def test_critical_sensitivity_counts_missed_fails():
    rows = [Record(1, "c", "critical", f"cc-{i}", "OK", "FAIL", "Dr A") for i in range(2)]
    rows += [Record(2, "c", "critical", "cc-x", "FAIL", "FAIL", "Dr A")]
    rows += [Record(3, "c", "critical", f"cc-{i}", "OK", "OK", "Dr A") for i in range(5)]
    doc = agreement_report(rows)
    assert doc["critical"]["fail_by_physician"] == 3
    assert doc["critical"]["sensitivity"] == pytest.approx(33.3, abs=0.1)
    assert doc["critical"]["specificity"] == 100.0
    assert len(doc["critical"]["missed_fail"]) == 2


def test_kappa_and_interval_come_from_the_library():
    pairs = [("found", "found")] * 8 + [("found", "not_found")] * 2 + [("not_found", "not_found")] * 10
    kappa = cohens_kappa(pairs, ("found", "not_found", "negated", "different"))
    # po = 0.9, pe = (10*8 + 10*12)/400 = 0.5 -> kappa 0.8
    assert kappa.value == pytest.approx(0.8)
    assert kappa.low is not None and kappa.low < 0.8 < kappa.high
    assert cohens_kappa([("found", "found")] * 5, ("found", "not_found")).value is None
    share = proportion(9, 10)
    assert share.value == 90.0 and 55 < share.low < 60 and 98 < share.high < 99.5


def test_two_raters_get_inter_rater_figures(scored_group):
    store_path, group = scored_group
    a = _adjudicate(store_path, group, "Dr A")
    b = _adjudicate(store_path, group, "Dr B", flip_every=4)
    with RunStore(store_path) as store:
        records = AdjudicationBook(store).records(group_id=group)
    assert len(records) == len(a) + len(b)
    doc = agreement_report(records)
    assert doc["raters"] == ["Dr A", "Dr B"]
    assert doc["inter_rater"]["decisions"] == len(a)
    assert doc["by_rater"]["Dr A"]["agreement"] == 100.0
    assert doc["by_rater"]["Dr B"]["agreement"] < 100.0


def test_export_then_import_gives_the_same_figures(scored_group, tmp_path, capsys):
    store_path, group = scored_group
    _adjudicate(store_path, group, "Dr A", flip_every=5)
    assert main(["agreement", group, "--store", str(store_path), "--format", "json"]) == 0
    before = json.loads(capsys.readouterr().out)
    jsonl = tmp_path / "adj.jsonl"
    assert main(["adjudication", "--store", str(store_path), "export", str(jsonl)]) == 0
    lines = jsonl.read_text().splitlines()
    assert len(lines) == before["decisions"]
    assert set(json.loads(lines[0])) == {"run_id", "case_id", "section", "reference", "evaluator", "physician",
                                         "rater", "note", "at"}
    with RunStore(store_path) as store, store.transaction() as db:
        db.execute("DELETE FROM adjudications")
    capsys.readouterr()
    assert main(["adjudication", "--store", str(store_path), "import", str(jsonl)]) == 0
    assert main(["agreement", group, "--store", str(store_path), "--format", "json"]) == 0
    assert json.loads(capsys.readouterr().out) == before


def test_a_bad_line_names_its_number_and_imports_nothing(scored_group, tmp_path, capsys):
    store_path, _ = scored_group
    good = {"run_id": 1, "case_id": "c", "section": "workup", "reference": "ECG", "evaluator": "found",
            "physician": "not_found", "rater": "Dr A", "note": "", "at": "2026-12-01T00:00:00Z"}
    bad = dict(good, physician="OK")
    path = tmp_path / "in.jsonl"
    path.write_text(json.dumps(good) + "\n" + json.dumps(bad) + "\n")
    assert main(["adjudication", "--store", str(store_path), "import", str(path)]) != 0
    err = capsys.readouterr().err
    assert ":2:" in err and "physician 'OK'" in err and "found, not_found, negated, different" in err
    with RunStore(store_path) as store:
        assert AdjudicationBook(store).records() == []


@pytest.mark.parametrize(
    ("line", "message"),
    [("{", "not JSON"), ("[]", "expected a JSON object"), ('{"run_id": 1}', "missing key"),
     ('{"run_id": "x", "case_id": "c", "section": "workup", "reference": "r", "evaluator": "found",'
      ' "physician": "found", "rater": "A"}', "run_id must be a whole number"),
     ('{"run_id": 1, "case_id": "c", "section": "exam", "reference": "r", "evaluator": "found",'
      ' "physician": "found", "rater": "A"}', "section 'exam'")],
)
def test_record_errors_say_what_to_change(line, message):
    with pytest.raises(AdjudicationError, match=message):
        list(read_jsonl([line]))


def test_agreement_without_records_is_a_clear_error(scored_group, capsys):
    store_path, _ = scored_group
    assert main(["agreement", "--store", str(store_path)]) == 1
    assert "Review mode" in capsys.readouterr().err


def test_recompute_from_decisions_matches_the_scorer_on_confirmed_runs(scored_group):
    store_path, group = scored_group
    with RunStore(store_path) as store:
        for run in store.runs(group, full=True):
            if not run.system.startswith("replay"):
                continue
            case = load_valid_case(REPO / "cases" / f"{run.case_id}.yaml")
            labels = {(d.section, d.reference): d.evaluator for d in decisions_of(run.scorecard)}
            mine = recompute(case, run.scorecard, labels)
            metrics = run.scorecard["metrics"]
            assert mine["diagnosis_accuracy"] == metrics["diagnosis_accuracy"]
            assert mine["critical_conditions_passed"] == metrics["critical_conditions_passed"]


@pytest.mark.parametrize("fmt", ["md", "text", "json"])
def test_the_report_carries_the_agreement(scored_group, capsys, fmt):
    store_path, group = scored_group
    assert main(["report", group, "--store", str(store_path), "--format", fmt]) == 0
    assert "agreement with physicians" not in capsys.readouterr().out
    _adjudicate(store_path, group, "Dr A", flip_every=6)
    assert main(["report", group, "--store", str(store_path), "--format", fmt]) == 0
    out = capsys.readouterr().out
    if fmt == "json":
        doc = json.loads(out)
        assert doc["adjudication"]["decisions"] > 0 and "comparisons" in doc
    else:
        assert "Evaluator agreement with physicians (Dr A;" in out
        assert "metrics from the evaluator's decisions and from the physicians'" in out


def _one_good_record(store_path: Path, group: str) -> dict:
    with RunStore(store_path) as store:
        run = next(r for r in store.runs(group, full=True) if r.scorecard)
    decision = decisions_of(run.scorecard)[0]
    return {"run_id": run.id, "case_id": run.case_id, "section": decision.section, "reference": decision.reference,
            "evaluator": decision.evaluator, "physician": decision.evaluator, "rater": "Dr A"}


@pytest.mark.parametrize(("change", "message"), [
    ({"run_id": 99_999}, "run 99999 is not in the run store"),
    ({"case_id": "ob-pph-001"}, "not 'ob-pph-001'"),
    ({"reference": "Bone marrow biopsy"}, "made no .* decision on 'Bone marrow biopsy'"),
    ({"evaluator": "negated"}, "not 'negated'"),
], ids=["unknown run", "another case", "unknown reference", "a label the scorer never gave"])
def test_a_record_that_matches_nothing_in_the_store_is_refused_with_its_line(scored_group, tmp_path, capsys,
                                                                              change, message):
    store_path, group = scored_group
    good = _one_good_record(store_path, group)
    if "evaluator" in change and good["section"] == "critical":
        change = {"evaluator": "FAIL" if good["evaluator"] == "OK" else "OK"}
        message = f"not '{change['evaluator']}'"
    path = tmp_path / "in.jsonl"
    path.write_text(json.dumps(good) + "\n" + json.dumps(dict(good, physician=good["evaluator"], **change)) + "\n")
    capsys.readouterr()
    assert main(["adjudication", "--store", str(store_path), "import", str(path)]) == 1
    err = capsys.readouterr().err
    assert f"{path}:2:" in err and re.search(message, err), err
    assert "internal error" not in err
    with RunStore(store_path) as store:
        assert AdjudicationBook(store).records() == [], "all or nothing"
    path.write_text(json.dumps(good) + "\n")
    assert main(["adjudication", "--store", str(store_path), "import", str(path)]) == 0


@pytest.mark.parametrize(("line", "message"), [
    ('{"run_id": 1180591620717411303424, "case_id": "c", "section": "workup", "reference": "r",'
     ' "evaluator": "found", "physician": "found", "rater": "A"}', "is no run's id"),
    ('{"run_id": 1, "case_id": "c", "section": "workup", "reference": "r\\ud800", "evaluator": "found",'
     ' "physician": "found", "rater": "A"}', "not valid Unicode"),
    ("[" * 100_000 + "]" * 100_000, "nested too deeply"),
    ('{"run_id": ' + "9" * 5000 + ', "case_id": "c"}', "number too long"),
], ids=["run id 2**70", "lone surrogate", "100k-deep array", "5000-digit number"])
def test_hostile_records_get_one_clear_line(scored_group, tmp_path, capsys, line, message):
    store_path, _ = scored_group
    path = tmp_path / "in.jsonl"
    path.write_text(line + "\n")
    capsys.readouterr()
    assert main(["adjudication", "--store", str(store_path), "import", str(path)]) == 1
    err = capsys.readouterr().err
    assert message in err and "internal error" not in err, err


def test_uncertain_decisions_are_read_from_the_scorecard_and_come_first():
    from medbench_tui.core.review.adjudication import decisions_of, uncertain_first

    card = {"items": {"workup": [{"reference": "Throat swab", "status": "missing", "doubts": ["words present"]},
                                 {"reference": "CRP", "status": "matched"}]},
            "uncertain_absences": [{"reference": "Antibiotic", "section": "treatment", "doubts": ["near words"]}],
            "critical_conditions": [{"id": "cc-1", "status": "OK", "doubts": ["rests on an uncertain item"]}]}
    decisions = decisions_of(card)
    assert [(d.reference, d.uncertain) for d in decisions] == [
        ("Throat swab", True), ("CRP", False), ("Antibiotic", True), ("cc-1", True)]
    assert decisions[2].evaluator == "not_found"
    order, ordered = uncertain_first({1: decisions[1:2], 2: decisions})
    assert order == [2, 1] and [d.uncertain for d in ordered[2]] == [True, True, True, False]
    # a run whose one doubted verdict could move its critical-conditions metric 0 -> 100 comes before a run
    # with more doubts that could move its metrics less
    order, _ = uncertain_first({1: decisions[3:4], 2: decisions}, {1: 100.0, 2: 25.0})
    assert order == [1, 2]


def test_agreement_is_reported_for_certain_and_uncertain_decisions_apart():
    from medbench_tui.core.review.adjudication import Record
    from medbench_tui.core.review.agreement import AdjudicatedRun, by_certainty

    card = {"items": {"workup": [{"reference": "Throat swab", "status": "missing", "doubts": ["words present"]},
                                 {"reference": "CRP", "status": "matched"}]}}
    records = [Record(1, "c", "workup", "Throat swab", "not_found", "found", "dr"),
               Record(1, "c", "workup", "CRP", "found", "found", "dr")]
    run = AdjudicatedRun(1, None, card)  # type: ignore[arg-type]  # the case is not read here
    figures = by_certainty(records, [run])
    assert figures["certain"]["agreement"] == 100.0 and figures["uncertain"]["agreement"] == 0.0
