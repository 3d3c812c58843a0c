"""The case mix of a bank and its subgroups: the facts about a case a report groups by.

A run group records these facts for every case it played (so reports come from stored
runs, not from case files that may have changed since); older groups fall back to the
case file when it still validates.
"""

from __future__ import annotations

import statistics
from dataclasses import dataclass
from dataclasses import field as default
from typing import TYPE_CHECKING, get_args

from medbench_tui.core.jsondata import JSONObject

if TYPE_CHECKING:
    from medbench_tui.core.cases.model import Case

SUBGROUP_FIELDS: tuple[str, ...] = (
    "category", "age_group", "sex", "complexity", "urgency", "setting", "has_attachments",
)
"""The fields ``report --by`` accepts (the case's metadata, and whether it has attachments)."""
ERROR_TESTING = "error_testing"
THIN = 2
"""A value with fewer cases than this is thin: one case cannot tell a system's skill from the case's quirks."""


def case_facts(case: Case) -> JSONObject:
    """What a report needs to know about a case: its subgroup fields, ``num_steps``,
    and the attachments that are released only on request."""
    metadata = case.metadata
    facts: JSONObject = {name: getattr(metadata, name, None) for name in SUBGROUP_FIELDS[:-1]}
    facts["has_attachments"] = "yes" if case.attachments else "no"
    facts["specialties"] = list(getattr(metadata, "specialties", []))
    facts["num_steps"] = case.num_steps
    facts["on_request_attachments"] = [a.id for a in case.attachments if a.available == "on_request"]
    return facts


@dataclass
class FieldMix:
    """One field across the cases: count per value, and how many cases lack it.

    ``thin`` lists the values with fewer than :data:`THIN` cases, the case format's
    values with none included, so a report says where the bank cannot support a figure."""

    field: str
    counts: dict[str, int]
    missing: int
    total: int
    thin: list[str] = default(default_factory=list)


@dataclass
class CaseMix:
    cases: int
    fields: list[FieldMix]
    num_steps: dict[str, float | int | None]
    """mean, median, min, max over the cases that set ``num_steps``, and how many do not."""


def value_of(facts: JSONObject, name: str) -> str | None:
    value = facts.get(name)
    return None if value is None or value == "" else str(value)


def _possible_values() -> dict[str, tuple[str, ...]]:
    """The values the case format allows per field, so a value no case has is reported as thin."""
    from medbench_tui.core.cases import model

    def values(literal: object) -> tuple[str, ...]:
        return get_args(literal)

    return {
        "category": tuple(v for v in model.CATEGORIES if v != ERROR_TESTING),
        "age_group": values(model.AgeGroup), "sex": ("female", "male"), "complexity": values(model.Complexity),
        "urgency": values(model.Urgency), "setting": values(model.Setting),
    }


def case_mix(facts: dict[str, JSONObject]) -> CaseMix:
    """Counts per field and value (values in order of frequency), the thin values, and ``num_steps``.

    Specialty tags are many per case and free text: counted, never flagged thin."""
    possible = _possible_values()
    fields = []
    for name in SUBGROUP_FIELDS:
        values = [value_of(f, name) for f in facts.values()]
        counts: dict[str, int] = {}
        for value in values:
            if value is not None:
                counts[value] = counts.get(value, 0) + 1
        ordered = dict(sorted(counts.items(), key=lambda item: (-item[1], item[0])))
        allowed = possible.get(name, ())
        thin = [v for v in allowed if counts.get(v, 0) < THIN] + [v for v in ordered if v not in allowed and
                                                                    allowed and ordered[v] < THIN]
        fields.append(FieldMix(name, ordered, sum(1 for v in values if v is None), len(values), thin if facts else []))
    tags: dict[str, int] = {}
    untagged = 0
    for f in facts.values():
        case_tags = {str(tag).strip().lower() for tag in f.get("specialties") or [] if str(tag).strip()}
        untagged += not case_tags
        for tag in case_tags:
            tags[tag] = tags.get(tag, 0) + 1
    fields.append(FieldMix("specialty", dict(sorted(tags.items(), key=lambda item: (-item[1], item[0]))),
                           untagged, len(facts)))
    steps = [f["num_steps"] for f in facts.values() if isinstance(f.get("num_steps"), int)]
    summary: dict[str, float | int | None] = {
        "mean": statistics.fmean(steps) if steps else None,
        "median": statistics.median(steps) if steps else None,
        "min": min(steps) if steps else None,
        "max": max(steps) if steps else None,
        "missing": len(facts) - len(steps),
    }
    return CaseMix(len(facts), fields, summary)


def subgroups(facts: dict[str, JSONObject], name: str, case_ids: list[str]) -> tuple[dict[str, list[str]], int]:
    """The cases of each value of ``name`` (in order of size), and how many lack it."""
    groups: dict[str, list[str]] = {}
    missing = 0
    for case_id in case_ids:
        value = value_of(facts.get(case_id, {}), name)
        if value is None:
            missing += 1
        else:
            groups.setdefault(value, []).append(case_id)
    return dict(sorted(groups.items(), key=lambda item: (-len(item[1]), item[0]))), missing
