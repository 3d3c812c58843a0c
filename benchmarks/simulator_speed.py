"""Reply time of the grounded patient over every bundled case and question set.

Each question of ``tests/data/questions/<case-id>.yaml`` (or, for a case without one,
every fact's topic) is put to a patient of its case; the figures are the median and
95th percentile of one reply, in milliseconds. Target: p95 <= 5 ms.

    python benchmarks/simulator_speed.py [--quick]
"""

from __future__ import annotations

import argparse
import statistics
import time
from pathlib import Path

from ruamel.yaml import YAML

from medbench_tui.core.cases.model import Case, patient_record
from medbench_tui.core.cases.yamlio import parse_case_text
from medbench_tui.core.paths import bundled_cases_dir
from medbench_tui.core.simulators import GroundedSimulator

REPO = Path(__file__).resolve().parent.parent
QUESTIONS = REPO / "tests" / "data" / "questions"


def questions_for(case: Case) -> list[str]:
    path = QUESTIONS / f"{case.id}.yaml"
    if not path.is_file():
        return [f"Can you tell me about the {a.topic}?" for a in case.additional_answers]
    data = YAML(typ="safe", pure=True).load(path.read_text(encoding="utf-8"))
    return [q for asked in (data.get("facts") or {}).values() for q in asked] + list(data.get("uncovered") or [])


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="the first 3 cases only (that nothing rotted)")
    args = parser.parse_args(argv)
    timings: list[float] = []
    cases = 0
    for path in sorted(bundled_cases_dir().glob("*.yaml")):
        if path.name == "medbench.yaml":
            continue
        if args.quick and cases == 3:
            break
        case = Case.model_validate(parse_case_text(path.read_text(encoding="utf-8")).data)
        cases += 1
        patient = GroundedSimulator(patient_record(case))  # one consultation per case: repeats included
        for question in questions_for(case):
            started = time.perf_counter()
            patient.answer(question)
            timings.append((time.perf_counter() - started) * 1000)
    timings.sort()
    p95 = timings[int(0.95 * (len(timings) - 1))]
    print(f"grounded patient: {len(timings)} replies over {cases} cases")
    print(
        f"  median {statistics.median(timings):.3f} ms   p95 {p95:.3f} ms   max {timings[-1]:.3f} ms"
        "   (target p95 <= 5 ms)"
    )


if __name__ == "__main__":
    main()
