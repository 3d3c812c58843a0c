"""Small jobs for the batch process tests: module-level, so that they cross into the child."""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from dataclasses import dataclass

from medbench_tui.core.errors import MedbenchError
from medbench_tui.core.runs.background import BackgroundRun


@dataclass(frozen=True)
class Counts:
    """Tells 1..upto, printing on the way (which must not reach the caller), and says done."""

    upto: int

    def __call__(self, batch: BackgroundRun, tell: Callable[[int], None]) -> str:
        for number in range(1, self.upto + 1):
            print("noise on stdout")
            print("noise on stderr", file=sys.stderr)
            tell(number)
        return "done"


@dataclass(frozen=True)
class Refuses:
    def __call__(self, batch: BackgroundRun, tell: Callable[[int], None]) -> str:
        raise MedbenchError("no case chosen: tick one")


@dataclass(frozen=True)
class Crashes:
    def __call__(self, batch: BackgroundRun, tell: Callable[[int], None]) -> str:
        return str(1 // 0)


@dataclass(frozen=True)
class WaitsForCancel:
    """Tells that it waits, then waits (at most ten seconds) until it is cancelled."""

    def __call__(self, batch: BackgroundRun, tell: Callable[[str], None]) -> str:
        tell("waiting")
        ends = time.monotonic() + 10
        while not batch.cancelled and time.monotonic() < ends:
            time.sleep(0.01)
        return "cancelled" if batch.cancelled else "never cancelled"
