"""Confidence intervals, as every figure of medbench makes and shows them.

One function makes an interval from the bounds a method computed, and refuses one it
cannot stand behind: a bound that is missing or not finite, or bounds that meet. A
zero-width interval ("1.000 [1.000, 1.000]" from three decisions) claims a certainty no
sample gives; it is "no interval" instead, and the reader is told why. One function
writes an interval, with as many digits as it takes for its bounds to differ on screen,
so an interval that exists is never printed as zero width either.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

NO_INTERVAL = "no interval"
MAX_DIGITS = 6
"""Digits an interval is written with at most, to keep its bounds apart on screen."""
_TOUCHING = 1e-9
"""Bounds closer than this (relative to their size) meet: no spread to estimate."""


@dataclass(frozen=True)
class Interval:
    low: float
    high: float

    def places(self, digits: int) -> int:
        """Decimals, at least ``digits``, that keep the bounds apart once rounded."""
        for places in range(digits, MAX_DIGITS + 1):
            if round(self.low, places) != round(self.high, places):
                return places
        return MAX_DIGITS

    def rounded(self, digits: int) -> tuple[float, float]:
        """The bounds rounded for a record (JSON), never to the same number."""
        places = self.places(digits)
        return round(self.low, places), round(self.high, places)

    def write(self, digits: int = 2, *, signed: bool = False) -> str:
        """``[low, high]`` with at least ``digits`` decimals, more when the bounds would look equal."""
        form = f"{'+' if signed else ''}.{self.places(digits)}f"
        return f"[{format(self.low, form)}, {format(self.high, form)}]"


def interval(low: float | None, high: float | None) -> Interval | None:
    """The interval from ``low`` to ``high``, or None when it cannot be estimated: a bound is
    missing or not finite, they are the wrong way round, or they meet (no spread)."""
    if low is None or high is None:
        return None
    low, high = float(low), float(high)
    if not (math.isfinite(low) and math.isfinite(high)) or low > high:
        return None
    if high - low <= _TOUCHING * max(1.0, abs(low), abs(high)):
        return None
    return Interval(low, high)


def bounds(found: Interval | None, digits: int | None = None) -> tuple[float | None, float | None]:
    """(low, high) of an interval, (None, None) for none: how records keep them; ``digits``
    rounds them (for a record people read), never to the same number."""
    if found is None:
        return None, None
    return (found.low, found.high) if digits is None else found.rounded(digits)


def with_interval(value: str, low: float | None, high: float | None, digits: int = 2, *,
                  signed: bool = False) -> str:
    """``value [low, high]``, or ``value (no interval)`` when the bounds make none."""
    found = interval(low, high)
    return f"{value} ({NO_INTERVAL})" if found is None else f"{value} {found.write(digits, signed=signed)}"
