"""The statistics of reports: a mean with its 95% interval (Wilson for a binary metric, a seeded
BCa bootstrap for the rest), paired differences (Newcombe's score interval for a binary
metric, a paired bootstrap for the rest), McNemar's exact test and the direction-of-change
table. An interval that cannot be estimated (too few cases, no spread) is reported as such,
never as a zero-width interval.

The methods are those of ``scipy.stats`` (``binomtest(...).proportion_ci(method="wilson")``,
``bootstrap(method="BCa")`` with its resampling, jackknife and quantiles, the exact binomial
test), written here with NumPy and the standard library because importing ``scipy.stats``
alone costs a second of CPU, more than a whole report of a thousand runs; the tests check
every figure against ``scipy.stats`` itself."""

from __future__ import annotations

import math
import zlib
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from statistics import NormalDist
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import numpy as np

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


_NORMAL = NormalDist()


def warm_up() -> None:
    """Load NumPy before the first report, while the app waits for its first key."""
    import numpy  # noqa: F401


def _ndtri(p: float) -> float:
    """The standard normal quantile (``scipy.special.ndtri``): infinite at 0 and 1, NaN outside."""
    if p <= 0.0 or p >= 1.0:
        return -math.inf if p == 0.0 else math.inf if p == 1.0 else math.nan
    return _NORMAL.inv_cdf(p)


def _ndtr(z: float) -> float:
    if math.isnan(z):
        return math.nan
    return _NORMAL.cdf(z)


def wilson_bounds(k: int, n: int, confidence: float = CONFIDENCE) -> tuple[float, float]:
    """Wilson's score interval for ``k`` of ``n`` (no continuity correction), as proportions."""
    p = k / n
    z = _ndtri(0.5 + 0.5 * confidence)
    denom = 2 * (n + z**2)
    center = (2 * n * p + z**2) / denom
    delta = z / denom * math.sqrt(4 * n * p * (1 - p) + z**2)
    low = 0.0 if k == 0 else center - delta
    high = 1.0 if k == n else center + delta
    return low, high


def wilson(values: list[float], name: str, confidence: float = CONFIDENCE) -> Estimate:
    """Mean (0-100) of a binary metric with the Wilson score interval."""
    n = len(values)
    if n == 0:
        return Estimate(name, None, None, None, 0, "wilson")
    k = sum(1 for v in values if v >= 50)
    lo, hi = wilson_bounds(k, n, confidence)
    low, high = bounds(interval(100 * lo, 100 * hi))
    return Estimate(name, 100 * k / n, low, high, n, "wilson" if low is not None else f"wilson: {NOT_ESTIMABLE}",
                    small(n))


def small(n: int) -> str | None:
    return SMALL_WARNING if 0 < n < SMALL_N else None


def seeded_rng(seed: int, *keys: str) -> np.random.Generator:
    """One generator per interval, so each is reproducible on its own."""
    import numpy as np

    return np.random.default_rng([seed, *(zlib.crc32(k.encode()) for k in keys)])


Statistic = Callable[..., Any]
"""A statistic of one or more samples along ``axis`` (vectorised, as ``scipy.stats.bootstrap`` wants)."""


def bootstrap_interval(samples: tuple[Any, ...], statistic: Statistic, *, paired: bool, rng: np.random.Generator,
                       confidence: float, resamples: int) -> tuple[float | None, float | None, str]:
    """A bootstrap interval of ``statistic``: BCa, else the percentile interval when BCa is not
    defined (a degenerate distribution), else none. Paired samples are resampled together."""
    import numpy as np

    data = [np.asarray(s, dtype=float) for s in samples]
    if paired or len(data) == 1:
        n = data[0].shape[-1]
        theta_b = np.concatenate([statistic(*[np.take(s, index, axis=-1) for s in data], axis=-1)
                                  for index in _resample_blocks(rng, n, resamples)])
        jackknife = _jackknife_paired(data, statistic, n)
    else:  # independent samples, each resampled on its own (as scipy does, one after the other)
        theta_b = statistic(*[s[..., rng.integers(0, s.shape[-1], (resamples, s.shape[-1]))] for s in data], axis=-1)
        jackknife = _jackknife_each(data, statistic)
    alpha = (1 - confidence) / 2
    theta_hat = float(statistic(*data, axis=-1))
    with np.errstate(all="ignore"):
        for method in ("BCa", "percentile"):
            if method == "BCa":
                low_q, high_q = _bca_levels(theta_b, theta_hat, jackknife, alpha)
            else:
                low_q, high_q = alpha, 1 - alpha
            if math.isnan(low_q) or math.isnan(high_q):
                continue
            low, high = np.quantile(theta_b, [low_q, high_q])
            found = interval(float(low), float(high))
            if found is not None:
                return found.low, found.high, method
    return None, None, f"bootstrap: {NOT_ESTIMABLE}"


BLOCK = 1 << 16
"""Resampled values drawn at a time: half a MB of indices and half a MB of values, which stay in
a core's cache (and below the allocator's trim threshold) between blocks; blocks four times as
large took twice the CPU time of a report's bootstraps (benchmarks/report_speed.py)."""


def _resample_blocks(rng: np.random.Generator, n: int, resamples: int) -> Iterator[Any]:
    """The (resamples, n) resampling indices a few rows at a time: the same numbers, in the same
    order, as one call draws (the generator's stream does not depend on the shape asked for), but
    memory stays small and fresh pages are not faulted in for every interval."""
    rows = max(1, BLOCK // n)
    for start in range(0, resamples, rows):
        yield rng.integers(0, n, (min(rows, resamples - start), n))


def _jackknife_paired(data: list[Any], statistic: Statistic, n: int) -> list[Any]:
    """The statistic leaving out each case in turn (the paired samples together)."""
    import numpy as np

    keep = ~np.eye(n, dtype=bool)
    rows = np.broadcast_to(np.arange(n), (n, n))[keep].reshape(n, n - 1)
    return [statistic(*[s[..., rows] for s in data], axis=-1)]


def _jackknife_each(data: list[Any], statistic: Statistic) -> list[Any]:
    import numpy as np

    found = []
    for j, sample in enumerate(data):
        n = sample.shape[-1]
        keep = ~np.eye(n, dtype=bool)
        rows = np.broadcast_to(np.arange(n), (n, n))[keep].reshape(n, n - 1)
        samples = [s[None, :] for s in data]
        samples[j] = sample[..., rows]
        found.append(statistic(*samples, axis=-1))
    return found


def _bca_levels(theta_b: Any, theta_hat: float, jackknife: list[Any], alpha: float) -> tuple[float, float]:
    """The quantile levels of the BCa interval (Efron and Tibshirani, 14.3 and 15.4)."""
    import numpy as np

    share = (np.count_nonzero(theta_b < theta_hat) + np.count_nonzero(theta_b <= theta_hat)) / (2 * theta_b.size)
    z0 = _ndtri(float(share))
    nums = dens = 0.0
    for theta_i in jackknife:
        size = float(theta_i.shape[-1])
        u = (size - 1) * (np.mean(theta_i) - theta_i)
        nums += float(np.sum(u**3)) / size**3
        dens += float(np.sum(u**2)) / size**2
    a_hat = nums / 6 / dens ** 1.5 if dens else math.nan
    z_alpha = _ndtri(alpha)
    levels = []
    for z in (z_alpha, -z_alpha):
        num = z0 + z
        levels.append(_ndtr(z0 + num / (1 - a_hat * num)) if math.isfinite(z0) else math.nan)
    return levels[0], levels[1]


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

    n = len(a)
    right = [(x >= 50, y >= 50) for x, y in zip(a, b, strict=True)]
    both = sum(1 for x, y in right if x and y)
    only_a = sum(1 for x, y in right if x and not y)
    only_b = sum(1 for x, y in right if y and not x)
    neither = n - both - only_a - only_b
    k_a, k_b = both + only_a, both + only_b
    p_a, p_b = k_a / n, k_b / n
    a_low, a_high = wilson_bounds(k_a, n, confidence)
    b_low, b_high = wilson_bounds(k_b, n, confidence)
    margins = (both + only_b) * (only_a + neither) * (both + only_a) * (only_b + neither)
    phi = (both * neither - only_a * only_b) / math.sqrt(margins) if margins else 0.0
    delta = p_b - p_a
    low = delta - math.sqrt(max(0.0, (p_b - b_low) ** 2 - 2 * phi * (p_b - b_low) * (a_high - p_a)
                                + (a_high - p_a) ** 2))
    high = delta + math.sqrt(max(0.0, (b_high - p_b) ** 2 - 2 * phi * (b_high - p_b) * (p_a - a_low)
                                 + (p_a - a_low) ** 2))
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
    """Two-sided exact McNemar p-value: a binomial test on the discordant pairs (p = 1/2, so the
    outcomes as unlikely as the one seen are the two tails)."""
    discordant = only_a + only_b
    if discordant == 0 or 2 * only_b == discordant:
        return 1.0
    tail = min(only_a, only_b)
    return min(1.0, 2 * sum(math.comb(discordant, i) for i in range(tail + 1)) / 2**discordant)


def direction_of_change(a: list[float], b: list[float]) -> dict[str, int]:
    right = [(x >= 50, y >= 50) for x, y in zip(a, b, strict=True)]
    return {
        "both_right": sum(1 for x, y in right if x and y),
        "only_a": sum(1 for x, y in right if x and not y),
        "only_b": sum(1 for x, y in right if y and not x),
        "both_wrong": sum(1 for x, y in right if not x and not y),
    }
