"""Reports: statistics against hand-computed values, complete-case pairing, the layouts."""

from __future__ import annotations

import csv
import io
import json

import pytest

from medbench_tui.core.errors import UsageError
from medbench_tui.core.reports.render import render
from medbench_tui.core.reports.report import (
    bootstrap_mean,
    build_report,
    direction_of_change,
    mcnemar_exact,
    paired_difference,
    render_markdown,
    wilson,
)
from medbench_tui.core.runs.store import RunStore
from tests.test_runs_store import make_run


def test_wilson_interval_for_8_of_10():
    # p = 0.8, z = 1.95996: centre (p + z²/2n)/(1 + z²/n) = 0.71674,
    # half-width z·sqrt(p(1-p)/n + z²/4n²)/(1 + z²/n) = 0.22657.
    estimate = wilson([100] * 8 + [0] * 2, "diagnosis_accuracy")
    assert estimate.mean == 80
    assert estimate.low == pytest.approx(49.017, abs=1e-3)
    assert estimate.high == pytest.approx(94.332, abs=1e-3)
    assert estimate.method == "wilson"


def test_mcnemar_exact_for_1_against_6():
    # Under H0 the 7 discordant pairs split Binomial(7, 1/2): p = 2·(1 + 7)/2⁷ = 0.125.
    assert mcnemar_exact(1, 6) == pytest.approx(0.125)
    assert mcnemar_exact(6, 1) == pytest.approx(0.125)
    assert mcnemar_exact(0, 0) == 1.0


def test_direction_of_change():
    a = [100, 100, 0, 0, 100]
    b = [100, 0, 100, 0, 100]
    assert direction_of_change(a, b) == {"both_right": 2, "only_a": 1, "only_b": 1, "both_wrong": 1}


def test_paired_difference():
    a = [0.0, 50.0, 100.0, 50.0, 20.0, 60.0]
    b = [50.0, 50.0, 100.0, 100.0, 40.0, 60.0]  # differences 50, 0, 0, 50, 20, 0: mean 20
    d = paired_difference(a, b, "workup_score", seed=1, key="t")
    assert (d.mean_a, d.mean_b, d.difference) == pytest.approx((280 / 6, 400 / 6, 20.0))
    assert 0 <= d.low < 20 < d.high <= 50
    assert d.n == 6 and d.method.startswith("paired-bootstrap")
    same = paired_difference(a, [x + 10 for x in a], "workup_score", seed=1, key="t")
    # no spread: the interval cannot be estimated, and is never shown as zero width
    assert (same.difference, same.low, same.high) == (10.0, None, None)
    assert "not estimable" in same.method and same.warning
    again = paired_difference(a, b, "workup_score", seed=1, key="t")
    assert (again.low, again.high) == (d.low, d.high)  # seeded: reproducible


def test_bootstrap_mean_edges():
    assert bootstrap_mean([], "x", seed=0, key="k").mean is None
    one = bootstrap_mean([40.0], "x", seed=0, key="k")
    assert (one.mean, one.low, one.high) == (40.0, None, None)
    flat = bootstrap_mean([40.0, 40.0, 40.0], "x", seed=0, key="k")
    assert (flat.low, flat.high) == (None, None) and "not estimable" in flat.method
    spread = bootstrap_mean([0.0, 10.0, 20.0, 30.0, 90.0], "x", seed=0, key="k")
    assert spread.low < 30 < spread.high



def test_resampling_a_few_rows_at_a_time_gives_the_very_same_interval(monkeypatch):
    """Drawing the resamples in blocks keeps memory small; the numbers are those of one draw."""
    from medbench_tui.core.reports import statistics

    values = [float(v) for v in range(0, 100, 3)]
    whole = paired_difference(values, values[::-1], "workup_score", seed=3, key="k", resamples=999)
    single = bootstrap_mean(values, "workup_score", seed=3, key="k", resamples=999)
    monkeypatch.setattr(statistics, "BLOCK", 7 * len(values))  # 7 rows a block, the last one short
    assert paired_difference(values, values[::-1], "workup_score", seed=3, key="k", resamples=999) == whole
    assert bootstrap_mean(values, "workup_score", seed=3, key="k", resamples=999) == single


def test_row_means_are_numpys_to_the_last_bit():
    """Rows of one length are reduced together: each row's mean and SD are the very numbers NumPy
    gives for that row alone (reports must not move when computed faster)."""
    import numpy as np

    from medbench_tui.core.reports.report import row_means

    generator = np.random.default_rng(4)
    rows = [list(generator.random(size) * scale) for size in (2, 3, 3, 8, 9, 13, 130, 2, 3)
            for scale in (1.0, 100.0, 1e9)]
    assert row_means(rows) == [float(np.mean(row)) for row in rows]
    assert row_means(rows, sd=True) == [float(np.std(row, ddof=1)) for row in rows]

@pytest.fixture
def store(tmp_path):
    with RunStore(tmp_path / "runs.sqlite") as opened:
        yield opened


def _group(store, outcomes):
    """outcomes: {(case, system): (complete, diagnosis_accuracy, treatment_accuracy)}"""
    cases = sorted({c for c, _ in outcomes})
    config = {"systems": [{"name": "base", "config": {}}, {"name": "agent", "config": {}}],
              "cases": [{"id": c} for c in cases]}
    group = store.create_group(config, 11)
    for (case, system), (complete, dx, tx) in outcomes.items():
        run = make_run(group.id, case, system, complete=complete, diagnosis_accuracy=dx, treatment_accuracy=tx)
        run.steps = 2 if system == "base" else 10
        run.outside_soft_range = system == "base"
        store.record(run)
    return group


def test_report_pairs_complete_cases_only(store):
    outcomes = {}
    for i in range(8):
        outcomes[(f"c{i}", "base")] = (True, 100 if i < 5 else 0, 40.0 + i)
        outcomes[(f"c{i}", "agent")] = (True, 100 if i < 7 else 0, 50.0 + i)
    outcomes[("c8", "base")] = (True, 100, 10.0)
    outcomes[("c8", "agent")] = (False, 0, 0)
    group = _group(store, outcomes)
    report = build_report(store, resamples=999)
    assert report.group_id == group.id and report.seed == 11
    base, agent = report.summaries["base"], report.summaries["agent"]
    assert (base.cases, base.complete, base.incomplete, base.not_run) == (9, 9, 0, 0)
    assert (agent.complete, agent.incomplete) == (8, 1)
    assert agent.incomplete_runs == [{"case_id": "c8", "repeat": 1, "reason": "HTTP 500 (gave up after 6 attempts)"}]
    assert base.metrics["diagnosis_accuracy"].mean == pytest.approx(600 / 9)
    assert base.metrics["diagnosis_accuracy"].method == "wilson"
    assert base.metrics["treatment_accuracy"].method.startswith("bootstrap")
    assert (base.total_steps, base.average_steps.mean, base.outside_soft_range) == (18, 2.0, 9)
    assert report.paired_cases == [f"c{i}" for i in range(8)]
    assert report.excluded == [
        {"case_id": "c8", "reasons": ["agent: incomplete (HTTP 500 (gave up after 6 attempts))"]}
    ]
    (comparison,) = report.comparisons
    assert (comparison.system_a, comparison.system_b, comparison.cases) == ("base", "agent", 8)
    assert comparison.direction == {"both_right": 5, "only_a": 0, "only_b": 2, "both_wrong": 1}
    assert comparison.mcnemar_p == pytest.approx(0.5)
    assert comparison.differences["treatment_accuracy"].difference == pytest.approx(10.0)
    assert comparison.differences["diagnosis_accuracy"].difference == pytest.approx(25.0)
    assert comparison.per_case[5] == {
        "case_id": "c5", "diagnosis_accuracy": [0.0, 100.0, 100.0], "treatment_accuracy": [45.0, 55.0, 10.0],
    }


def test_markdown_keeps_the_published_layout(store):
    _group(store, {("c1", "base"): (True, 100, 50.0), ("c1", "agent"): (True, 0, 70.0),
                   ("c2", "base"): (True, 0, 20.0), ("c2", "agent"): (True, 100, 80.0)})
    text = render_markdown(build_report(store, resamples=999))
    rows = [line.split("|")[1].strip() for line in text.splitlines() if line.startswith("| ")]
    assert rows[:9] == [
        "metric", "Diagnosis Accuracy", "Differential Accuracy", "Treatment Accuracy", "Critical Conditions Passed",
        "Total steps (doctor/patient pairs)", "Average steps (doctor/patient pairs)",
        "Cases outside ±25% of steps soft limit (num_steps)", "Runs complete / incomplete / not run",
    ]
    assert "| Diagnosis Accuracy | 50.00 [9.45, 90.55] ⚠ | 50.00 [9.45, 90.55] ⚠ |" in text
    assert "| Total steps (doctor/patient pairs) | 4 | 20 |" in text
    assert "## Paired: agent − base" in text and "McNemar exact test" in text
    assert "## Per-case differences (agent − base)" in text


def test_every_format_renders(store):
    _group(store, {("c1", "base"): (True, 100, 50.0), ("c1", "agent"): (False, 0, 0),
                   ("c2", "base"): (True, 0, 20.0), ("c2", "agent"): (True, 100, 80.0)})
    report = build_report(store, resamples=999)
    document = json.loads(render(report, "json"))
    assert document["paired_cases"] == ["c2"] and document["comparisons"][0]["cases"] == 1
    rows = list(csv.DictReader(io.StringIO(render(report, "csv"))))
    assert {r["section"] for r in rows} >= {"aggregate", "count", "paired", "direction", "mcnemar", "per_case"}
    text = render(report, "text")
    assert "Diagnosis Accuracy" in text and "Incomplete runs" in text and "\x1b[" not in text



def test_the_run_summary_leaves_the_comparisons_out_and_shows_the_same(store):
    from medbench_tui.core.reports.report import render_text

    _group(store, {("c1", "base"): (True, 100, 50.0), ("c1", "agent"): (True, 0, 70.0),
                   ("c2", "base"): (True, 0, 20.0), ("c2", "agent"): (True, 100, 80.0)})
    summary = build_report(store, resamples=999, compare=False)
    assert summary.comparisons == []
    assert render_text(summary, paired=False) == render_text(build_report(store, resamples=999), paired=False)

def test_systems_filter_and_unknown_system(store):
    _group(store, {("c1", "base"): (True, 100, 50.0), ("c1", "agent"): (True, 0, 70.0)})
    report = build_report(store, systems=["agent"], resamples=999)
    assert report.systems == ["agent"] and report.comparisons == []
    with pytest.raises(UsageError, match="base, agent"):
        build_report(store, systems=["nobody"])


def test_empty_store_is_a_usage_error(store):
    with pytest.raises(UsageError, match="medbench run"):
        build_report(store)


def test_a_metric_a_case_leaves_undefined_is_paired_where_defined(store):
    group = store.create_group({"systems": [{"name": "base"}, {"name": "agent"}],
                                "cases": [{"id": "c1"}, {"id": "c2"}, {"id": "c3"}]}, 1)
    for case, (a, b) in {"c1": (10.0, 30.0), "c2": (None, None), "c3": (20.0, 60.0)}.items():
        for system, value in (("base", a), ("agent", b)):
            metrics = {"diagnosis_accuracy": 100, **({} if value is None else {"differential_accuracy": value})}
            store.record(make_run(group.id, case, system, **metrics))
    report = build_report(store, resamples=999)
    difference = report.comparisons[0].differences["differential_accuracy"]
    assert (difference.n, difference.difference) == (2, 30.0)
    assert report.summaries["base"].metrics["differential_accuracy"].n == 2
    assert "differential_accuracy" not in report.comparisons[0].per_case[1]
    assert "| c2 | +0.00 | – |" in render_markdown(report)


def _drawn_by_rich(table, right, width):
    from rich import box
    from rich.console import Console
    from rich.table import Table as RichTable

    buffer = io.StringIO()
    drawn = RichTable(box=box.SIMPLE_HEAD)
    for column, numeric in zip(table.columns, right, strict=True):
        drawn.add_column(column, justify="right" if numeric else "left", overflow="fold")
    for row in table.rows:
        drawn.add_row(*row)
    Console(file=buffer, width=width, color_system=None, force_terminal=False, highlight=False).print(drawn)
    return buffer.getvalue().splitlines()


@pytest.mark.parametrize(("columns", "rows", "right"), [
    (["metric", "a", "b"], [["Diagnosis", "64.17 [55.00, 73.33]", "100.00 (no interval) ⚠"], ["Steps", "3", "–"]],
     [False, True, True]),
    (["case", "Δ"], [["em-001", "−12.50"], ["a much longer case id", "+0.00"], ["short row"]], [False, True]),
    (["wide header over narrow cells", "n"], [], [False, True]),
    (["名前", "値"], [["肺炎", "1"], ["x", "22"]], [False, True]),
    (["field", "value"], [["x" * 108, "1"]], [False, True]),  # exactly the width
])
def test_plain_tables_are_drawn_as_rich_draws_them(columns, rows, right):
    from medbench_tui.core.reports.report import Table, plain_table

    table = Table("t", columns, rows)
    assert plain_table(table, right, 120) == _drawn_by_rich(table, right, 120)


@pytest.mark.parametrize("rows", [
    [["x" * 109, "1"]],  # a column wider by one: rich wraps it
    [["[bold]markup[/bold]", "1"]], [["a:smile:", "1"]], [["two\nlines", "1"]], [[" padded", "1"]],
    [["a", "1", "a cell with no column"]],
])
def test_tables_plain_drawing_cannot_match_are_left_to_rich(rows):
    from medbench_tui.core.reports.report import Table, plain_table

    assert plain_table(Table("t", ["field", "value"], rows), [False, True], 120) is None
