"""How fast and how good WHO ICD-10 title search is.

    python benchmarks/icd_search.py [--rounds N]

Prints the time to load the WHO table and build the search index, the median and 95th
percentile time of one search over the clinicians' query set of
tests/test_icd10_search.py (first round: nothing remembered; later rounds: the word
memo warm), and the share of queries with an acceptable code in the first five hits.
Targets: median <= 5 ms, top-5 hit rate >= 90%.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # for tests.test_icd10_search

from medbench_tui.core.icd10 import data, search  # noqa: E402
from medbench_tui.core.icd10.titles import index  # noqa: E402
from tests.test_icd10_search import QUERIES, TOP, acceptable  # noqa: E402


def milliseconds(seconds: float) -> str:
    return f"{seconds * 1000:7.2f} ms"


def time_queries() -> tuple[list[float], int]:
    times, hits = [], 0
    for query, accepted in QUERIES:
        start = time.perf_counter()
        found = search(query, TOP)
        times.append(time.perf_counter() - start)
        hits += any(acceptable(hit.code, accepted) for hit in found)
    return times, hits


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5, help="rounds over the query set (default: 5)")
    rounds = parser.parse_args().rounds

    start = time.perf_counter()
    data.tables()
    loaded = time.perf_counter()
    index()
    built = time.perf_counter()
    print(f"WHO table load (verify + parse + own tables): {milliseconds(loaded - start)}")
    print(f"search index build:                           {milliseconds(built - loaded)}")

    first, hits = time_queries()
    later: list[float] = []
    for _ in range(max(0, rounds - 1)):
        later += time_queries()[0]
    print(f"queries: {len(QUERIES)}; top-{TOP} hit rate: {hits / len(QUERIES):.1%}")
    print(f"first round:  median {milliseconds(statistics.median(first))}, p95 {milliseconds(percentile(first, 0.95))}")
    if later:
        print(f"later rounds: median {milliseconds(statistics.median(later))}, p95 {milliseconds(percentile(later, 0.95))}")


if __name__ == "__main__":
    main()
