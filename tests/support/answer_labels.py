"""Whether an answer's hand labels still name the case as it reads now.

The labels name reference items by their ``item``/``name`` (tests/data/answers/LABELLING.md).
When a case is revised, a label of a renamed or removed item is silently ``not_found`` and a
new item or critical condition goes unmeasured; the agreement benchmark and a test read these
problems from here, so a stale label set is reported instead of measured.
"""

from __future__ import annotations

from collections.abc import Mapping

from medbench_tui.core.cases.model import Case

IMPLICIT = "cc-implicit-contraindicated"
VALUES = {
    "primary": {"final", "differential", "negated", "not_found"},
    "secondary": {"final", "not_found"},
    "differential": {"found", "final", "not_found"},
    "workup": {"found", "negated", "different", "not_found"},
    "treatment": {"found", "negated", "different", "not_found"},
    "conditions": {"OK", "NOT_APPLICABLE", "FAIL"},
}
LISTS = ("extra", "extra_workup")


def reference_names(case: Case) -> dict[str, set[str]]:
    """The names a label may use, per labelled section of the case."""
    return {
        "secondary": {d.name for d in case.diagnosis.secondary},
        "differential": {d.name for d in case.differential},
        "workup": {w.item for w in case.workup},
        "treatment": {t.item for t in case.treatment},
        "conditions": condition_ids(case),
    }


def condition_ids(case: Case) -> set[str]:
    """Every critical condition of the case, and the implicit one when a treatment is contraindicated."""
    ids = {c.id for c in case.critical_conditions}
    if any(t.klass == "contraindicated" for t in case.treatment):
        ids.add(IMPLICIT)
    return ids


def label_problems(case: Case, labels: Mapping[str, object]) -> list[str]:
    """Each stale key, unknown value or missing verdict of one answer's labels, as a sentence."""
    names = reference_names(case)
    problems = [f"unknown label section {key!r}" for key in labels if key not in VALUES and key not in LISTS]
    if labels.get("primary", "not_found") not in VALUES["primary"]:
        problems.append(f"primary: unknown value {labels.get('primary')!r}")
    for section, known in names.items():
        given = labels.get(section) or {}
        if not isinstance(given, Mapping):
            problems.append(f"{section}: not a mapping of reference names to labels")
            continue
        for key, value in given.items():
            if key not in known:
                problems.append(f"{section}: {key!r} is not a reference name of {case.id}")
            if value not in VALUES[section]:
                problems.append(f"{section}: {key!r} has unknown value {value!r}")
    verdicts = labels.get("conditions") or {}
    problems += [
        f"conditions: no verdict for {cid!r}" for cid in sorted(names["conditions"]) if cid not in verdicts
    ]
    return problems
