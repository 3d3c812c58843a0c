"""Reports that say what they compare: repeats averaged within a case, run-to-run
variability, small numbers flagged (never a zero-width interval), the complete-case
headline, error-testing cases left out, subgroups with missing counts, the case mix, the
failure taxonomy, and the case-level matrix every figure can be recomputed from."""

from __future__ import annotations

import csv
import io
import json
import statistics

import pytest

from medbench_tui.core.reports.case_matrix import render_matrix
from medbench_tui.core.reports.report import build_report, render_markdown
from medbench_tui.core.reports.statistics import newcombe_paired, paired_difference
from medbench_tui.core.runs.store import RunStore
from tests.test_runs_store import make_run


def facts(category="internal_medicine", urgency="urgent", num_steps=4, on_request=()):
    return {"category": category, "age_group": "adult", "sex": "female", "complexity": "basic", "urgency": urgency,
            "setting": None, "has_attachments": "yes" if on_request else "no", "num_steps": num_steps,
            "on_request_attachments": list(on_request)}


@pytest.fixture
def store(tmp_path):
    with RunStore(tmp_path / "runs.sqlite") as opened:
        yield opened


def make_group(store, outcomes, *, repeats=1, case_facts=None, systems=("base", "agent")):
    """outcomes: {(case, system, repeat): diagnosis_accuracy or None (incomplete)}."""
    cases = list(dict.fromkeys(c for c, _, _ in outcomes))
    case_facts = case_facts or {}
    config = {"systems": [{"name": s, "config": {}} for s in systems], "repeats": repeats,
              "cases": [{"id": c, "path": f"cases/{c}.yaml", "metadata": case_facts.get(c, facts())} for c in cases]}
    group = store.create_group(config, 5)
    for (case, system, repeat), dx in outcomes.items():
        run = make_run(group.id, case, system, complete=dx is not None,
                       **({"diagnosis_accuracy": dx, "workup_score": 40.0 + repeat} if dx is not None else {}))
        run.repeat = repeat
        store.record(run)
    return group


def test_repeats_are_averaged_within_a_case_and_their_spread_reported(store):
    outcomes = {}
    for i in range(12):
        for k in range(3):
            outcomes[(f"c{i}", "base", k)] = 0
            outcomes[(f"c{i}", "agent", k)] = 100 if (i < 6 or k == 0) else 0  # cases 6-11 flip between repeats
    make_group(store, outcomes, repeats=3)
    report = build_report(store, resamples=999)
    agent = report.headline["agent"].metrics["diagnosis_accuracy"]
    # the case is the unit: 12 cases, not 36 runs; cases 6-11 count 1/3 each
    assert agent.n == 12 and agent.mean == pytest.approx((6 * 100 + 6 * 100 / 3) / 12)
    assert agent.method.startswith("bootstrap")  # per-case shares are not binary any more
    (variability,) = [v for v in report.variability["agent"] if v.metric == "diagnosis_accuracy"]
    assert (variability.cases, variability.changed) == (12, 6) and variability.changed_share == 50
    expected_sd = statistics.mean([0.0] * 6 + [statistics.stdev([100, 0, 0])] * 6)
    assert variability.mean_sd == pytest.approx(expected_sd)
    workup = next(v for v in report.variability["base"] if v.metric == "workup_score")
    assert workup.mean_sd == pytest.approx(1.0) and workup.changed is None
    text = render_markdown(report)
    assert "## Run-to-run variability (3 repeats)" in text and "changed in 6/12 (50%)" in text
    comparison = report.comparisons[0]
    assert comparison.cases == 12 and comparison.differences["diagnosis_accuracy"].n == 12


def test_a_case_counts_only_when_every_repeat_completed(store):
    outcomes = {("c1", "base", 0): 100, ("c1", "base", 1): 100, ("c1", "agent", 0): 100, ("c1", "agent", 1): None,
                ("c2", "base", 0): 0, ("c2", "base", 1): 0, ("c2", "agent", 0): 100, ("c2", "agent", 1): 100}
    make_group(store, outcomes, repeats=2)
    report = build_report(store, resamples=999)
    assert report.paired_cases == ["c2"]
    assert report.excluded[0]["case_id"] == "c1" and "1 of 2 repeats incomplete" in report.excluded[0]["reasons"][0]


def test_small_numbers_are_flagged_and_never_zero_width(store):
    make_group(store, {("c1", "base", 0): 0, ("c1", "agent", 0): 100, ("c2", "base", 0): 0, ("c2", "agent", 0): 100})
    report = build_report(store, resamples=999)
    difference = report.comparisons[0].differences["diagnosis_accuracy"]
    # the "+100.00 [+100.00, +100.00]" from 2 cases: now a wide interval with a warning
    assert difference.difference == 100 and difference.low < 100 and difference.high == 100
    assert difference.low < difference.high and difference.warning
    workup = report.comparisons[0].differences["workup_score"]  # every difference 0: not estimable
    assert (workup.low, workup.high) == (None, None) and "not estimable" in workup.method
    text = render_markdown(report)
    assert "[+100.00, +100.00]" not in text and "⚠ fewer than 10 cases" in text and "no interval" in text


def test_newcombe_interval_against_a_hand_computation():
    # 10 pairs: both right 5, only B 3, only A 1, neither 1 -> p_b = 0.8, p_a = 0.6.
    a = [100] * 5 + [0] * 3 + [100] + [0]
    b = [100] * 5 + [100] * 3 + [0] + [0]
    low, high = newcombe_paired(a, b)
    # Wilson(8/10) = [0.4902, 0.9433], Wilson(6/10) = [0.3127, 0.8318];
    # phi = (5*1 - 1*3) / sqrt(8*2*6*4) = 0.10206
    # L = 0.2 - sqrt(0.3098² - 2·phi·0.3098·0.2318 + 0.2318²) = 0.2 - sqrt(0.13505) = -0.1675
    # U = 0.2 + sqrt(0.1433² - 2·phi·0.1433·0.2873 + 0.2873²) = 0.2 + sqrt(0.09467) = 0.5077
    assert low == pytest.approx(-16.75, abs=0.05) and high == pytest.approx(50.77, abs=0.05)
    assert paired_difference(a, b, "diagnosis_accuracy", seed=1, key="k").method == "newcombe-paired-score"


def test_headline_compares_only_the_complete_case_set(store):
    outcomes = {}
    for i in range(12):
        outcomes[(f"c{i}", "base", 0)] = 100 if i % 2 else 0
    for i in range(3):
        outcomes[(f"c{i}", "agent", 0)] = 100
    make_group(store, outcomes)
    report = build_report(store, resamples=999)
    assert report.unequal_cases and report.paired_cases == ["c0", "c1", "c2"]
    assert report.headline["base"].metrics["diagnosis_accuracy"].n == 3
    assert report.summaries["base"].metrics["diagnosis_accuracy"].n == 12
    text = render_markdown(report)
    assert text.startswith("# Run group") and "the 3 cases every system completed" in text.splitlines()[0]
    assert "completed different numbers of cases (base 12, agent 3)" in text
    assert "## Each system over all of its complete cases" in text


def test_error_testing_cases_are_left_out_unless_asked_for(store):
    outcomes = {(c, s, 0): 100 for c in ("c1", "c2", "err-1") for s in ("base", "agent")}
    make_group(store, outcomes, case_facts={"err-1": facts(category="error_testing")})
    report = build_report(store, resamples=999)
    assert report.error_tests_left_out == ["err-1"] and report.paired_cases == ["c1", "c2"]
    assert report.case_mix.cases == 2
    assert "Error-testing cases left out of every figure: 1 (err-1)" in render_markdown(report)
    included = build_report(store, resamples=999, include_error_tests=True)
    assert included.error_tests_left_out == [] and included.paired_cases == ["c1", "c2", "err-1"]


def test_subgroups_give_n_and_missing_and_the_case_mix_counts_every_field(store):
    urgency = {"c1": "urgent", "c2": "urgent", "c3": "routine", "c4": None}
    outcomes = {(c, s, 0): 100 if c != "c3" else 0 for c in urgency for s in ("base", "agent")}
    make_group(store, outcomes, case_facts={c: facts(urgency=u, num_steps=n) for (c, u), n in
                                            zip(urgency.items(), (4, 6, 8, None), strict=True)})
    report = build_report(store, resamples=999, by="urgency")
    table = report.subgroups
    assert table.missing == 1 and [(g.value, g.cases) for g in table.groups] == [
        ("urgent", ["c1", "c2"]), ("routine", ["c3"])]
    assert table.groups[0].metrics["agent"]["diagnosis_accuracy"].mean == 100
    mix = {f.field: f for f in report.case_mix.fields}
    assert mix["urgency"].counts == {"urgent": 2, "routine": 1} and mix["urgency"].missing == 1
    assert mix["setting"].missing == 4
    assert report.case_mix.num_steps == {"mean": 6, "median": 6, "min": 4, "max": 8, "missing": 1}
    text = render_markdown(report)
    assert "## By urgency" in text and "1 of them do not set urgency" in text
    assert "| urgency | urgent | 2 | 50.0% |" in text and "| urgency | (not set) | 1 | 25.0% |" in text
    assert "num_steps: mean 6.0, median 6.0, range 4–8 (1 cases do not set it)" in text
    with pytest.raises(Exception, match="--by"):
        build_report(store, by="colour")


def test_failure_taxonomy_classifies_from_the_scorecard(store):
    group = store.create_group({"systems": [{"name": "agent"}], "cases": [
        {"id": "c1", "metadata": facts(num_steps=10, on_request=["cxr", "ecg"])},
        {"id": "c2", "metadata": facts()}]}, 1)
    run = make_run(group.id, "c1", "agent", diagnosis_accuracy=0, primary_icd10="category")
    run.steps, run.num_steps = 3, 10
    run.scorecard["critical_conditions"] = [
        {"id": "cc1", "status": "FAIL", "kind": "must_include", "description": "Give IM adrenaline"},
        {"id": "cc2", "status": "OK", "kind": "must_include", "description": "Call for help"}]
    run.scorecard["items"] = {
        "workup": [{"reference": "CT head", "answer": "CT head", "status": "unexpected"}],
        "treatment": [{"reference": "Amoxicillin", "answer": "amoxicillin", "status": "contraindicated"}]}
    run.transcript["events"] = [{"turn": 2, "kind": "attachment_released", "attachment": "cxr"}]
    store.record(run)
    store.record(make_run(group.id, "c2", "agent", complete=False))
    report = build_report(store, resamples=999)
    counts = {c.kind: (c.runs, c.case_ids) for c in report.taxonomy["agent"].counts}
    assert counts["missed_diagnosis"] == (1, ["c1"]) and counts["icd_specificity"] == (1, ["c1"])
    assert counts["omitted_urgent_action"] == (1, ["c1"]) and counts["contraindicated"] == (1, ["c1"])
    assert counts["unnecessary_investigation"] == (1, ["c1"])
    assert counts["attachment_not_obtained"] == (1, ["c1"])  # ecg was never asked for
    assert counts["dialogue_too_short"] == (1, ["c1"]) and counts["dialogue_too_long"] == (0, [])
    assert counts["incomplete"] == (1, ["c2"])
    failures = {f["kind"]: f["detail"] for f in report.taxonomy["agent"].per_run[0]["failures"]}
    assert failures["attachment_not_obtained"] == "ecg" and failures["omitted_urgent_action"] == "Give IM adrenaline"
    assert "| agent | Missed diagnosis | 1 of 2 | c1 |" in render_markdown(report)


def _recompute_headline(rows, system, metric):
    """The headline mean from the matrix alone: per case, the mean over repeats; then the mean over cases."""
    per_case = {}
    for row in rows:
        if row["system"] == system and row["metric"] == metric and row["paired"] in (True, "True"):
            per_case.setdefault(row["case_id"], []).append(float(row["value"]))
    return statistics.mean(statistics.mean(v) for v in per_case.values()), len(per_case)


@pytest.mark.parametrize("fmt", ["csv", "json"])
def test_every_headline_figure_can_be_recomputed_from_the_matrix(store, fmt):
    outcomes = {}
    for i in range(9):
        for k in range(2):
            outcomes[(f"c{i}", "base", k)] = 100 if i % 3 else 0
            outcomes[(f"c{i}", "agent", k)] = 100 if (i + k) % 2 else 0
    outcomes[("c9", "base", 0)] = outcomes[("c9", "base", 1)] = 100
    outcomes[("c9", "agent", 0)], outcomes[("c9", "agent", 1)] = 100, None  # not in the paired set
    make_group(store, outcomes, repeats=2, case_facts={"c8": facts(category="error_testing")})
    report = build_report(store, resamples=999)
    text = render_matrix(store, report, fmt)
    rows = json.loads(text)["rows"] if fmt == "json" else list(csv.DictReader(io.StringIO(text)))
    assert {"category", "urgency", "num_steps", "repeat", "paired", "left_out"} <= set(rows[0])
    for system in report.systems:
        for metric, estimate in report.headline[system].metrics.items():
            mean, n = _recompute_headline(rows, system, metric)
            assert (mean, n) == (pytest.approx(estimate.mean), estimate.n)
        steps, _ = _recompute_headline(rows, system, "steps")
        assert steps == pytest.approx(report.headline[system].average_steps.mean)
    for name, difference in report.comparisons[0].differences.items():
        agent, _ = _recompute_headline(rows, "agent", name)
        base, _ = _recompute_headline(rows, "base", name)
        assert agent - base == pytest.approx(difference.difference)
    assert any(r["left_out"] in (True, "True") for r in rows if r["case_id"] == "c8")
    assert [r for r in rows if r["case_id"] == "c9" and r["status"] == "incomplete"][0]["metric"] == ""


def test_the_case_mix_counts_specialty_tags_and_flags_thin_values(store):
    tagged = {"c1": ["Neurology", "emergency medicine"], "c2": ["neurology"], "c3": []}
    outcomes = {(c, s, 0): 100 for c in tagged for s in ("base", "agent")}
    make_group(store, outcomes, case_facts={
        c: facts(category="surgery" if c == "c3" else "internal_medicine") | {"specialties": t}
        for c, t in tagged.items()})
    report = build_report(store, resamples=999)
    mix = {f.field: f for f in report.case_mix.fields}
    assert mix["specialty"].counts == {"neurology": 2, "emergency medicine": 1} and mix["specialty"].missing == 1
    assert "surgery" in mix["category"].thin and "internal_medicine" not in mix["category"].thin
    assert "telehealth" in mix["setting"].thin and "emergency" in mix["urgency"].thin
    assert mix["specialty"].thin == []  # free tags are counted, never judged
    text = render_markdown(report)
    assert "| category | surgery | 1 | 33.3% | thin |" in text
    assert "| category | psychiatry | 0 | 0.0% | none |" in text
    assert "Thin (fewer than 2 cases" in text and "surgery (1)" in text
