"""Intervals are made by one function that refuses zero width, and written so that an
interval that exists never looks zero-wide: in the report and in the agreement figures."""

from __future__ import annotations

import math
import re

import pytest

from medbench_tui.core.intervals import interval, with_interval
from medbench_tui.core.reports.statistics import bootstrap_mean, paired_difference, wilson
from medbench_tui.core.review.adjudication import Record
from medbench_tui.core.review.agreement import agreement_report, cohens_kappa, proportion, render

ITEM_LABELS = ("found", "not_found", "negated", "different")
WRITTEN = re.compile(r"\[([-+]?\d+(?:\.\d+)?), ([-+]?\d+(?:\.\d+)?)\]")


def _no_zero_width(text: str) -> None:
    for low, high in WRITTEN.findall(text):
        assert low.lstrip("+-") != high.lstrip("+-") or float(low) != float(high), f"[{low}, {high}] in:\n{text}"


@pytest.mark.parametrize("low, high", [
    (1.0, 1.0), (0.0, -0.0), (None, 3.0), (2.0, None), (math.nan, 1.0), (0.0, math.inf), (5.0, 4.0),
    (100.0, 100.0 + 1e-12),
])
def test_no_interval_from_bounds_that_meet_or_do_not_exist(low, high):
    assert interval(low, high) is None
    assert with_interval("1.000", low, high) == "1.000 (no interval)"


def test_an_interval_is_written_with_the_digits_that_keep_its_bounds_apart():
    assert interval(99.96, 100.0).write(1) == "[99.96, 100.00]"
    assert interval(0.0, 11.03).write(2) == "[0.00, 11.03]"
    assert interval(-0.0004, 0.0004).write(3, signed=True) == "[-0.0004, +0.0004]"
    assert interval(99.96, 100.0).rounded(1) == (99.96, 100.0)


def test_kappa_of_decisions_that_all_agree_or_all_differ_has_no_interval():
    agreed = cohens_kappa([("found", "found"), ("found", "found"), ("not_found", "not_found")], ITEM_LABELS)
    assert agreed.value == 1.0 and (agreed.low, agreed.high) == (None, None)
    apart = cohens_kappa([("found", "not_found")] * 3, ITEM_LABELS)
    assert apart.low is None and apart.high is None


def _record(i: int, evaluator: str, physician: str) -> Record:
    return Record(i, "im-cap-001", "workup", f"item {i}", evaluator, physician, "Dr A")


@pytest.mark.parametrize("pairs", [
    [("found", "found"), ("found", "found"), ("not_found", "not_found")],  # was "1.000 [1.000, 1.000]"
    [("found", "not_found"), ("found", "not_found"), ("found", "not_found")],  # was "0.000 [-0.000, 0.000]"
])
def test_the_agreement_command_never_prints_a_zero_width_interval(pairs):
    doc = agreement_report([_record(i, a, b) for i, (a, b) in enumerate(pairs)])
    for fmt in ("text", "md"):
        text = render(doc, fmt)
        _no_zero_width(text)
    assert doc["kappa_ci"] == [None, None]
    assert "no interval" in render(doc, "text")
    low, high = doc["agreement_ci"]
    assert low is not None and high is not None and low < high


def test_a_proportion_near_the_edge_keeps_its_interval_apart_in_json():
    share = proportion(9999, 10000)
    low, high = share.to_json()["ci"]
    assert low < high


def test_report_estimates_refuse_zero_width():
    assert bootstrap_mean([50.0] * 12, "workup_score", seed=1, key="s").low is None
    binary = wilson([100.0] * 3, "diagnosis_accuracy")
    assert binary.low is not None and binary.low < binary.high
    same = paired_difference([40.0] * 5, [40.0] * 5, "workup_score", seed=1, key="a|b")
    assert same.low is None and "not estimable" in same.method
