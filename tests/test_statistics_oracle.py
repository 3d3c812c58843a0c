"""The report's statistics give what ``scipy.stats`` gives: they are written with NumPy (the
import of ``scipy.stats`` costs more than a report) and checked here against the library."""

from __future__ import annotations

import math

import numpy as np
import pytest

from medbench_tui.core.reports.statistics import bootstrap_interval, mcnemar_exact, seeded_rng, wilson_bounds


@pytest.fixture(scope="module")
def stats():
    """``scipy.stats``, imported when a test of this module runs (at import, every worker paid for it)."""
    from scipy import stats

    return stats


@pytest.mark.parametrize(("k", "n"), [(0, 1), (1, 1), (0, 7), (3, 7), (7, 7), (12, 31), (250, 465)])
@pytest.mark.parametrize("confidence", [0.9, 0.95, 0.99])
def test_wilson_matches_binomtest(stats, k, n, confidence):
    ci = stats.binomtest(k, n).proportion_ci(confidence_level=confidence, method="wilson")
    assert wilson_bounds(k, n, confidence) == pytest.approx((ci.low, ci.high), abs=1e-12)


@pytest.mark.parametrize(("only_a", "only_b"), [(0, 0), (1, 0), (0, 5), (3, 3), (4, 9), (20, 7), (60, 41)])
def test_mcnemar_matches_the_exact_binomial_test(stats, only_a, only_b):
    expected = 1.0 if only_a + only_b == 0 else stats.binomtest(only_b, only_a + only_b, 0.5).pvalue
    assert mcnemar_exact(only_a, only_b) == pytest.approx(expected, rel=1e-9)


def _mean(x, axis=-1):
    return np.mean(x, axis=axis)


def _difference(x, y, axis=-1):
    return np.mean(y, axis=axis) - np.mean(x, axis=axis)


def _ratio(c, r, axis=-1):
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.sum(c, axis=axis) / np.sum(r, axis=axis)


@pytest.mark.parametrize("seed", [1, 7, 2024])
@pytest.mark.parametrize("n", [5, 31, 120])
def test_bootstrap_intervals_match_scipy(stats, seed, n):
    data = np.random.default_rng(seed).normal(60, 20, (3, n)).clip(0, 100)
    right = (data[2] > 55).astype(float)
    cases = [
        ((data[0],), _mean, False),
        ((data[0], data[1]), _difference, True),
        ((data[1], right), _ratio, True),
    ]
    for samples, statistic, paired in cases:
        ours = bootstrap_interval(samples, statistic, paired=paired, rng=seeded_rng(seed, "k"), confidence=0.95,
                                  resamples=2999)
        theirs = stats.bootstrap(samples, statistic, paired=paired, vectorized=True, n_resamples=2999,
                                 confidence_level=0.95, method="BCa", rng=seeded_rng(seed, "k"))
        low, high = theirs.confidence_interval
        if math.isfinite(low) and math.isfinite(high):
            assert ours[2] == "BCa"
            assert ours[:2] == pytest.approx((low, high), rel=1e-9, abs=1e-9)
