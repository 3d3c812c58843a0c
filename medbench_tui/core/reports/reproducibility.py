"""Did a seed make a system's runs reproducible?

A configured ``seed`` promises the same reply to the same request; many servers do not
keep it (batching, a changed backend, or no seed support at all). The first doctor
message of a run is the reply to a request fixed by the configuration and the case
alone (system prompt, intro, parameters), so two runs of one case with the same
system configuration and case file must open alike. When they do not, the report says
so: comparisons between such runs measure the server's noise too.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from medbench_tui.core.jsondata import JSONObject, JSONValue
from medbench_tui.core.runs.store import RunStore


def _opening(transcript: Mapping[str, JSONValue] | None) -> str | None:
    """The first doctor message of a run's transcript (None when it has none)."""
    for turn in (transcript or {}).get("turns", []):
        if turn.get("role") == "doctor":
            return turn.get("text")
    return None


def _fingerprints(requests: list[JSONObject] | None) -> set[str]:
    return {n["system_fingerprint"] for n in requests or () if n.get("role") == "doctor" and
            n.get("system_fingerprint")}


@dataclass(frozen=True)
class _Earlier:
    """What the check keeps of a run of a seeded system's case, in any group: not its documents."""

    group_id: str
    case_sha256: str
    system_config: JSONObject
    opening: str | None
    fingerprints: set[str]


def seed_notes(store: RunStore, group_id: str, configs: dict[str, JSONObject]) -> list[str]:
    """One note per seeded system of the group whose runs opened differently from an
    earlier run of the same case, system configuration and case file (in any group). The runs
    are read a seeded system at a time, their transcripts a few at a time."""
    seeded = {name for name, config in configs.items() if config.get("seed") is not None}
    if not seeded:
        return []
    compared: dict[str, int] = {}
    differing: dict[str, list[tuple[str, int]]] = {}
    changed_backend: set[str] = set()
    for system in seeded:
        runs = {run.id: run for run in store.runs(group_id, system=system) if run.id is not None}
        earlier_by_case: dict[str, list[_Earlier]] = {}
        for run_id, documents in store.documents(list(runs), ("transcript", "requests")):
            run, opening = runs[run_id], _opening(documents["transcript"])
            if opening is None:
                continue
            if run.case_id not in earlier_by_case:
                earlier_by_case[run.case_id] = [
                    _Earlier(other.group_id, other.case_sha256, other.system_config, _opening(other.transcript),
                             _fingerprints(other.requests))
                    for other in store.case_runs(run.case_id, full=True, system=system)
                ]
            twins = [
                other for other in earlier_by_case[run.case_id]
                if other.group_id != group_id and other.case_sha256 == run.case_sha256
                and other.system_config == run.system_config and other.opening is not None
            ]
            if not twins:
                continue
            compared[system] = compared.get(system, 0) + 1
            if any(other.opening != opening for other in twins):
                differing.setdefault(system, []).append((run.case_id, run.repeat))
                if any(other.fingerprints != _fingerprints(documents["requests"]) for other in twins):
                    changed_backend.add(system)
    notes = []
    for system in sorted(differing, key=lambda s: (min(differing[s])[0], s)):  # as the group's runs are ordered
        cases = [case_id for case_id, _ in sorted(differing[system])]
        shown = ", ".join(cases[:5]) + (", ..." if len(cases) > 5 else "")
        backend = " (the server's system_fingerprint changed too)" if system in changed_backend else ""
        notes.append(
            f"Seed {configs[system]['seed']} did not make {system}'s runs reproducible: with the same "
            f"configuration and case, the first reply differed from an earlier run in {len(cases)} of "
            f"{compared[system]} cases ({shown}){backend}; the server does not keep the seed."
        )
    return notes
