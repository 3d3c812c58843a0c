"""The statistics of reports, from ``scipy.stats``: a mean with its 95% interval (Wilson for a
binary metric, a seeded BCa bootstrap for the rest), paired differences (Newcombe's score
interval for a binary metric, a paired bootstrap for the rest), McNemar's exact test and the
direction-of-change table. An interval that cannot be estimated (too few cases, no spread) is
reported as such, never as a zero-width interval."""

from __future__ import annotations

import math
import warnings
import zlib
from dataclasses import dataclass

from medbench_tui.core.intervals import bounds, interval

CONFIDENCE = 0.95
RESAMPLES = 9999
SMALL_N = 10
"""Below this many cases an interval is flagged as rough."""
SMALL_WARNING = f"fewer than {SMALL_N} cases: a rough interval"
NOT_ESTIMABLE = "not estimable"
BINARY_METRICS = frozenset({
    "diagnosis_accuracy", "critical_conditions_passed", "primary_icd10_exact", "primary_icd10_category",
    "differential_recall_at_3", "differential_recall_at_5",
})


@dataclass
class Estimate:
    """A mean with its interval; ``low``/``high`` are None when it cannot be estimated
    (too little data, or no spread: never a zero-width interval)."""

    metric: str
    mean: float | None
    low: float | None
    high: float | None
    n: int
    method: str
    warning: str | None = None


@dataclass
class Difference:
    metric: str
    mean_a: float
    mean_b: float
    difference: float
    low: float | None
    high: float | None
    n: int
    method: str
    warning: str | None = None


def warm_up() -> None:
    """Load ``scipy.stats`` before the first report: the import takes about a second, holding
    the interpreter all along, so a screen that draws beside it stalls."""
    import scipy.stats  # noqa: F401


def wilson(values: list[float], name: str, confidence: float = CONFIDENCE) -> Estimate:
    """Mean (0-100) of a binary metric with the Wilson score interval."""
    from scipy.stats import binomtest

    n = len(values)
    if n == 0:
        return Estimate(name, None, None, None, 0, "wilson")
    k = sum(1 for v in values if v >= 50)
    ci = binomtest(k, n).proportion_ci(confidence_level=confidence, method="wilson")
    low, high = bounds(interval(100 * ci.low, 100 * ci.high))
    return Estimate(name, 100 * k / n, low, high, n, "wilson" if low is not None else f"wilson: {NOT_ESTIMABLE}",
                    small(n))


def small(n: int) -> str | None:
    return SMALL_WARNING if 0 < n < SMALL_N else None


def seeded_rng(seed: int, *keys: str):
    """One generator per interval, so each is reproducible on its own."""
    import numpy as np

    return np.random.default_rng([seed, *(zlib.crc32(k.encode()) for k in keys)])


def bootstrap_interval(samples: tuple, statistic, *, paired: bool, rng, confidence: float, resamples: int):
    from scipy.stats import bootstrap

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # degenerate resamples: handled below
        for method in ("BCa", "percentile"):
            result = bootstrap(
                samples, statistic, paired=paired, vectorized=True, n_resamples=resamples,
                confidence_level=confidence, method=method, rng=rng,
            )
            found = interval(*result.confidence_interval)
            if found is not None:
                return found.low, found.high, method
    return None, None, f"bootstrap: {NOT_ESTIMABLE}"


def bootstrap_mean(values: list[float], name: str, *, seed: int, key: str, confidence: float = CONFIDENCE,
                   resamples: int = RESAMPLES) -> Estimate:
    """Mean with a seeded BCa bootstrap interval (percentile when BCa is undefined)."""
    import numpy as np

    n = len(values)
    if n == 0:
        return Estimate(name, None, None, None, 0, "bootstrap")
    mean = float(np.mean(values))
    if n < 2 or min(values) == max(values):  # a bootstrap of no spread is a zero-width lie
        return Estimate(name, mean, None, None, n, f"bootstrap: {NOT_ESTIMABLE} ({why_not(n)})", small(n))
    low, high, method = bootstrap_interval(
        (np.asarray(values, dtype=float),), lambda x, axis=-1: np.mean(x, axis=axis),
        paired=False, rng=seeded_rng(seed, key, name), confidence=confidence, resamples=resamples,
    )
    shown = f"bootstrap-{method.lower()}" if low is not None else method
    return Estimate(name, mean, low, high, n, shown, small(n))


def why_not(n: int) -> str:
    return "one case" if n < 2 else "every value is the same"


def newcombe_paired(a: list[float], b: list[float], confidence: float = CONFIDENCE) -> tuple[float, float]:
    """Newcombe's hybrid score interval (his method 10) for the difference of two paired
    proportions, B - A, in points (0-100). Built from the Wilson intervals of each
    margin, so it is never zero-width, even from two cases that all agree."""
    from scipy.stats import binomtest

    n = len(a)
    right = [(x >= 50, y >= 50) for x, y in zip(a, b, strict=True)]
    both = sum(1 for x, y in right if x and y)
    only_a = sum(1 for x, y in right if x and not y)
    only_b = sum(1 for x, y in right if y and not x)
    neither = n - both - only_a - only_b
    k_a, k_b = both + only_a, both + only_b
    p_a, p_b = k_a / n, k_b / n
    ci_a = binomtest(k_a, n).proportion_ci(confidence_level=confidence, method="wilson")
    ci_b = binomtest(k_b, n).proportion_ci(confidence_level=confidence, method="wilson")
    margins = (both + only_b) * (only_a + neither) * (both + only_a) * (only_b + neither)
    phi = (both * neither - only_a * only_b) / math.sqrt(margins) if margins else 0.0
    delta = p_b - p_a
    low = delta - math.sqrt(max(0.0, (p_b - ci_b.low) ** 2 - 2 * phi * (p_b - ci_b.low) * (ci_a.high - p_a)
                                + (ci_a.high - p_a) ** 2))
    high = delta + math.sqrt(max(0.0, (ci_b.high - p_b) ** 2 - 2 * phi * (ci_b.high - p_b) * (p_a - ci_a.low)
                                 + (p_a - ci_a.low) ** 2))
    return 100 * max(-1.0, low), 100 * min(1.0, high)


def paired_difference(a: list[float], b: list[float], name: str, *, seed: int, key: str,
                      confidence: float = CONFIDENCE, resamples: int = RESAMPLES) -> Difference:
    """Mean of B - A over paired cases, with a paired interval: Newcombe's for a binary
    metric (every value 0 or 100), else a paired bootstrap; when the differences have no
    spread the bootstrap interval is not estimable (reported so, not as zero width)."""
    import numpy as np

    xa, xb = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
    diffs = xb - xa
    n = len(diffs)
    mean = float(np.mean(diffs)) if n else math.nan
    low = high = None
    method = "paired-bootstrap"
    if n and name in BINARY_METRICS and all(v in (0.0, 100.0) for v in [*a, *b]):
        low, high = bounds(interval(*newcombe_paired(a, b, confidence)))
        method = "newcombe-paired-score" if low is not None else f"newcombe-paired-score: {NOT_ESTIMABLE}"
    elif n and diffs.min() == diffs.max():
        method = f"paired-bootstrap: {NOT_ESTIMABLE} ({why_not(n)})"
    elif n >= 2:
        low, high, used = bootstrap_interval(
            (xa, xb), lambda x, y, axis=-1: np.mean(y, axis=axis) - np.mean(x, axis=axis),
            paired=True, rng=seeded_rng(seed, key, name), confidence=confidence, resamples=resamples,
        )
        method = f"paired-bootstrap-{used.lower()}" if low is not None else f"paired-{used}"
    return Difference(
        name, float(np.mean(xa)) if n else math.nan, float(np.mean(xb)) if n else math.nan, mean, low, high, n, method,
        small(n),
    )


def mcnemar_exact(only_a: int, only_b: int) -> float:
    """Two-sided exact McNemar p-value: a binomial test on the discordant pairs."""
    from scipy.stats import binomtest

    discordant = only_a + only_b
    return 1.0 if discordant == 0 else float(binomtest(only_b, discordant, 0.5).pvalue)


def direction_of_change(a: list[float], b: list[float]) -> dict[str, int]:
    right = [(x >= 50, y >= 50) for x, y in zip(a, b, strict=True)]
    return {
        "both_right": sum(1 for x, y in right if x and y),
        "only_a": sum(1 for x, y in right if x and not y),
        "only_b": sum(1 for x, y in right if y and not x),
        "both_wrong": sum(1 for x, y in right if not x and not y),
    }
