"""How fast deterministic scoring is, against its budget.

    python benchmarks/scoring_speed.py [--count 1000] [--seed 1] [--quick]

Scores COUNT generated transcripts of the bundled cases (budget: 1,000 in 2 s) with the
text extractor: a fifth each of structured model answers, free-text model answers,
free-text answers in a system's style (Markdown, prose, hedges, negations, aliases,
abbreviations, unlisted items), partial structured answers with noise, and empty
finals. Every free text is distinct, across both passes too (a model answer's text is
marked with its pass), so no text-level cache helps; a structured entry
that comes back (a model answer's) is read once per case, as in a batch run. Prints the
time of a first pass (reference tables built, ICD-10 data loaded) and of a second pass over
new transcripts (tables cached per case), and the second pass by kind of answer, so the
free texts' cost is not hidden in the mean. Each figure is CPU time (the machine may be
shared: wall time is printed beside it, with the load average).
"""

from __future__ import annotations

import argparse
import os
import random
import time
from pathlib import Path

from ruamel.yaml import YAML

from medbench_tui.core.cases.model import Case
from medbench_tui.core.scoring import score
from medbench_tui.core.scoring.model_answer import model_answer
from medbench_tui.core.transcript import FinalDiagnosis, FinalResponse, Transcript, Turn

CASES_DIR = Path(__file__).resolve().parent.parent / "cases"
KINDS = ("structured", "free text", "free text, a system's style", "partial structured", "empty")
"""The kinds of answer, in the order their transcripts take turns (``serial % 5``)."""
NOISE = ["CT head", "Sputum culture", "Vitamin D level", "Referral to physiotherapy", "Oral fluids", "Rest"]


def bundled_cases(limit: int | None = None) -> list[Case]:
    """The bundled cases in file order, the first ``limit`` only if given (a quick run uses no
    more cases than transcripts, and reading one takes some 60 ms)."""
    out: list[Case] = []
    for path in sorted(CASES_DIR.glob("*.yaml")):
        if path.name == "medbench.yaml":
            continue
        if limit is not None and len(out) == limit:
            break
        try:
            out.append(Case.model_validate(YAML(typ="safe", pure=True).load(path.read_text(encoding="utf-8"))))
        except ValueError:
            continue
    return out


def name(item, rnd: random.Random) -> str:
    return rnd.choice([getattr(item, "item", None) or item.name, *item.aliases])


def styled_text(case: Case, rnd: random.Random, serial: int) -> str:
    """A free-text final as an automated system writes it: some of the reference,
    some noise, a hedge, a negation, a code."""
    primary = case.diagnosis.primary
    lines = [f"## Assessment ({serial})", f"This presentation is most consistent with {name(primary, rnd)}."]
    lines.append(f"**Most likely diagnosis:** {primary.name} ({primary.icd10})")
    if case.differential:
        picked = rnd.sample(case.differential, k=max(1, len(case.differential) // 2))
        lines += ["**Differential diagnosis:**"] + [
            f"{i}. {name(d, rnd)} - less likely" for i, d in enumerate(picked, 1)
        ]
    workup = [w for w in case.workup if w.klass != "unexpected" or rnd.random() < 0.2]
    lines += ["### Investigations"] + [f"- {name(w, rnd)}" for w in rnd.sample(workup, k=len(workup) * 2 // 3)]
    lines.append(f"- {rnd.choice(NOISE)}")
    treatment = [t for t in case.treatment if t.klass != "contraindicated"]
    lines += ["### Management"] + [f"- {name(t, rnd)}" for t in rnd.sample(treatment, k=len(treatment) * 2 // 3)]
    banned = [t for t in case.treatment if t.klass == "contraindicated"]
    if banned:
        lines.append(f"I would not give {name(rnd.choice(banned), rnd)}; avoid it.")
    lines.append("Safety-netting: return precautions given; seek urgent care if worse.")
    return "\n".join(lines) + "\n"


def partial_structured(case: Case, rnd: random.Random, serial: int) -> FinalResponse:
    full = model_answer(case, "structured")
    return FinalResponse(
        diagnoses=full.diagnoses[:1]
        if rnd.random() < 0.7
        else [FinalDiagnosis(name=name(rnd.choice(case.differential or [case.diagnosis.primary]), rnd))],
        differential=rnd.sample(full.differential, k=len(full.differential) // 2),
        workup=rnd.sample(full.workup, k=len(full.workup) // 2) + [f"{rnd.choice(NOISE)} {serial}"],
        treatment=rnd.sample(full.treatment, k=len(full.treatment) // 2) + rnd.sample(NOISE, k=1),
    )


def transcripts(cases: list[Case], count: int, seed: int) -> list[tuple[Case, Transcript]]:
    rnd = random.Random(seed)
    out = []
    for serial in range(count):
        case = cases[serial % len(cases)]
        kind = serial % 5
        if kind == 0:
            final = model_answer(case, "structured")
        elif kind == 1:
            final = model_answer(case, "text")
            final.text = f"{final.text}\nReviewed ({seed}-{serial}).\n"  # not the text of another pass
        elif kind == 2:
            final = FinalResponse(text=styled_text(case, rnd, serial))
        elif kind == 3:
            final = partial_structured(case, rnd, serial)
        else:
            final = FinalResponse()
        facts = rnd.sample([a.id for a in case.additional_answers], k=min(4, len(case.additional_answers)))
        turns = [t for f in facts for t in (Turn(role="doctor", text="?"), Turn(role="patient", text=".", facts=[f]))]
        out.append((case, Transcript(case_id=case.id, turns=turns, final=final)))
    return out


def timed(batch: list[tuple[Case, Transcript]]) -> tuple[float, float, list[float]]:
    """The batch's CPU and wall time, and the CPU time of each kind of answer in it."""
    by_kind = [0.0] * len(KINDS)
    start, wall = time.process_time(), time.perf_counter()
    for serial, (case, transcript) in enumerate(batch):
        began = time.process_time()
        score(case, transcript)
        by_kind[serial % len(KINDS)] += time.process_time() - began
    return time.process_time() - start, time.perf_counter() - wall, by_kind


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--quick", action="store_true",
                        help="10 transcripts, two of each kind of answer (that nothing rotted)")
    args = parser.parse_args(argv)
    if args.quick:
        args.count = 10
    cases = bundled_cases(args.count if args.quick else None)  # transcript n plays case n % len(cases)
    first, first_wall, _ = timed(transcripts(cases, args.count, args.seed))
    second, second_wall, by_kind = timed(transcripts(cases, args.count, args.seed + 1))
    load = ", ".join(f"{n:.2f}" for n in os.getloadavg())
    print(f"{args.count} transcripts of {len(cases)} bundled cases, deterministic text extractor (CPU time; "
          f"load average {load}):")
    print(f"  first pass (tables built, ICD-10 data loaded)  {first:6.2f} s  ({first / args.count * 1000:.2f} ms each; "
          f"wall {first_wall:.2f} s)")
    print(f"  second pass (tables cached per case)           {second:6.2f} s  "
          f"({second / args.count * 1000:.2f} ms each; wall {second_wall:.2f} s)")
    print(f"  set-up per case (first pass less second, over {len(cases)} cases: reference table, once per case "
          f"and process; ICD-10 data, once per process) {max(first - second, 0) / len(cases) * 1000:.1f} ms, once")
    counts = [len(range(k, args.count, len(KINDS))) for k in range(len(KINDS))]
    print("  second pass by kind (CPU ms each): " + ", ".join(
        f"{kind} {t / n * 1000:.2f}" for kind, t, n in zip(KINDS, by_kind, counts, strict=True) if n))
    print(f"  budget: 2 s per 1,000 -> {'within' if max(first, second) * 1000 / args.count <= 2 else 'OVER'} budget")


if __name__ == "__main__":
    main()
