"""Did a seed make a system's runs reproducible?

A configured ``seed`` promises the same reply to the same request; many servers do not
keep it (batching, a changed backend, or no seed support at all). The first doctor
message of a run is the reply to a request fixed by the configuration and the case
alone (system prompt, intro, parameters), so two runs of one case with the same
system configuration and case file must open alike. When they do not, the report says
so: comparisons between such runs measure the server's noise too.
"""

from __future__ import annotations

from typing import Any

from medbench_tui.core.runs.store import RunRecord, RunStore


def _opening(run: RunRecord) -> str | None:
    """The first doctor message of a run (None when it has none)."""
    for turn in (run.transcript or {}).get("turns", []):
        if turn.get("role") == "doctor":
            return turn.get("text")
    return None


def _fingerprints(run: RunRecord) -> set[str]:
    return {n["system_fingerprint"] for n in run.requests or () if n.get("role") == "doctor" and
            n.get("system_fingerprint")}


def seed_notes(store: RunStore, group_id: str, configs: dict[str, dict[str, Any]]) -> list[str]:
    """One note per seeded system of the group whose runs opened differently from an
    earlier run of the same case, system configuration and case file (in any group)."""
    seeded = {name for name, config in configs.items() if config.get("seed") is not None}
    if not seeded:
        return []
    earlier_by_case: dict[str, list[RunRecord]] = {}
    compared: dict[str, int] = {}
    differing: dict[str, list[str]] = {}
    changed_backend: set[str] = set()
    for run in store.runs(group_id, full=True):
        opening = _opening(run)
        if run.system not in seeded or opening is None:
            continue
        if run.case_id not in earlier_by_case:
            earlier_by_case[run.case_id] = store.case_runs(run.case_id, full=True)
        twins = [
            other for other in earlier_by_case[run.case_id]
            if other.group_id != group_id and other.system == run.system and other.case_sha256 == run.case_sha256
            and other.system_config == run.system_config and _opening(other) is not None
        ]
        if not twins:
            continue
        compared[run.system] = compared.get(run.system, 0) + 1
        if any(_opening(other) != opening for other in twins):
            differing.setdefault(run.system, []).append(run.case_id)
            if any(_fingerprints(other) != _fingerprints(run) for other in twins):
                changed_backend.add(run.system)
    notes = []
    for system, cases in differing.items():
        shown = ", ".join(cases[:5]) + (", ..." if len(cases) > 5 else "")
        backend = " (the server's system_fingerprint changed too)" if system in changed_backend else ""
        notes.append(
            f"Seed {configs[system]['seed']} did not make {system}'s runs reproducible: with the same "
            f"configuration and case, the first reply differed from an earlier run in {len(cases)} of "
            f"{compared[system]} cases ({shown}){backend}; the server does not keep the seed."
        )
    return notes
