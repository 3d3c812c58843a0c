"""How good and how fast WHO ICD-10 title search is.

    python benchmarks/icd_search.py [--rounds N] [--misses] [--cli N] [--quick]

For each labelled set (tests/support/icd_sets.py: the clinicians' phrasings, and the
development set of names written elsewhere, tests/data/icd/names.yaml) prints the share
of names with an acceptable WHO code first (top-1) and in the first five hits (top-5),
per group of the development set too; then the time to load the WHO tables and the
search index (from the cache file in the user cache folder when it is current, else
built and stored), and the median and 95th percentile time of one search (first round:
nothing remembered; later rounds: the word memo warm). `--misses` lists the names whose
acceptable code is not first, with what came first. `--cli N` times N warm calls of
`medbench icd search "Gaucher disease"` end to end (wall clock and CPU).
Targets: development set top-5 >= 92% and top-1 >= 82%; phrasings top-5 >= 90%;
median <= 5 ms; warm command line <= 0.3 s. Runs without the test extras installed.
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
import time
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # for tests.support.icd_sets

from medbench_tui.core.icd10 import data, search  # noqa: E402
from medbench_tui.core.icd10.titles import index  # noqa: E402
from tests.support.icd_sets import QUERIES, development_set, rank  # noqa: E402

TOP = 5


def milliseconds(seconds: float) -> str:
    return f"{seconds * 1000:7.2f} ms"


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def quality(label: str, rows: list[tuple[str, str, list[str]]], show_misses: bool) -> None:
    """Top-1 and top-5 of one labelled set, overall and per group."""
    places: dict[str, list[int | None]] = defaultdict(list)
    misses = []
    for group, name, accepted in rows:
        found = [hit.code for hit in search(name, TOP)]
        place = rank(found, accepted)
        places[group].append(place)
        if place != 1:
            misses.append(f"  {'-' if place is None else place}  {name!r}: want {accepted}, got {found[:3]}")
    everything = [place for group_places in places.values() for place in group_places]
    print(f"{label}: {len(everything)} names; " + _shares(everything))
    if len(places) > 1:
        for group, group_places in places.items():
            print(f"  {group:10} {len(group_places):4} names; " + _shares(group_places))
    if show_misses:
        print("\n".join(misses))


def _shares(places: list[int | None]) -> str:
    top1 = sum(place == 1 for place in places) / len(places)
    top5 = sum(place is not None for place in places) / len(places)
    return f"top-1 {top1:6.1%}, top-{TOP} {top5:6.1%}"


def time_queries(names: list[str]) -> list[float]:
    times = []
    for name in names:
        start = time.perf_counter()
        search(name, TOP)
        times.append(time.perf_counter() - start)
    return times


def time_command_line(calls: int) -> None:
    """Median wall clock and CPU time of warm `medbench icd search` calls."""
    medbench = shutil.which("medbench") or ""
    command = [medbench, "icd", "search", "Gaucher disease"] if medbench else [
        sys.executable, "-m", "medbench_tui.cli", "icd", "search", "Gaucher disease"]
    subprocess.run(command, capture_output=True, check=True)  # builds and stores the index if need be
    walls, cpus = [], []
    for _ in range(calls):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        subprocess.run(command, capture_output=True, check=True)
        walls.append(time.perf_counter() - start)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpus.append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
    load = os.getloadavg()[0]
    print(f"command line, warm ({calls} calls, load average {load:.1f} on {os.cpu_count()} CPUs): "
          f"median {milliseconds(statistics.median(walls))} wall, {milliseconds(statistics.median(cpus))} CPU")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3, help="timing rounds over both sets (default: 3)")
    parser.add_argument("--misses", action="store_true", help="list the names whose acceptable code is not first")
    parser.add_argument("--cli", type=int, default=0, metavar="N", help="time N warm command-line searches")
    parser.add_argument("--names", type=Path, action="append", default=[], metavar="FILE",
                        help="another labelled set in the form of tests/data/icd/names.yaml (e.g. the held-out set)")
    parser.add_argument("--quick", action="store_true", help="one timing round (that nothing rotted)")
    options = parser.parse_args(argv)
    if options.quick:
        options.rounds = 1

    start = time.perf_counter()
    data.tables()
    loaded = time.perf_counter()
    index()
    built = time.perf_counter()

    names = [query for query, _ in QUERIES] + [name for _, name, _ in development_set()]
    first = time_queries(names)
    later: list[float] = []
    for _ in range(max(0, options.rounds - 1)):
        later += time_queries(names)

    quality("clinicians' phrasings", [("all", query, accepted) for query, accepted in QUERIES], options.misses)
    quality("development set", development_set(), options.misses)
    for extra in options.names:
        quality(str(extra), development_set(extra), options.misses)
    print(f"WHO tables (cache file, or verify + parse):    {milliseconds(loaded - start)}")
    print(f"search index (cache file, or build + store):  {milliseconds(built - loaded)}")
    print(f"first round:  median {milliseconds(statistics.median(first))}, p95 {milliseconds(percentile(first, 0.95))}")
    if later:
        median, p95 = statistics.median(later), percentile(later, 0.95)
        print(f"later rounds: median {milliseconds(median)}, p95 {milliseconds(p95)}")
    if options.cli:
        time_command_line(options.cli)


if __name__ == "__main__":
    main()
