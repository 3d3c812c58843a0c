"""Diagnosis lines the grader read wrongly (product issue 32): a query mark written before the
condition's qualifier ("?early X") queries the condition. Wording of its own, on a topic of its own."""

from __future__ import annotations

import pytest

from tests.test_scoring_regressions import card, rows

PRIMARY = "Acute calculous cholecystitis (gallstones with acute cholecystitis)"


@pytest.mark.parametrize(("line", "kind"), [
    ("Impression: biliary colic, ?early cholecystitis.", "differential"),
    ("Impression: biliary colic, ?mild cholecystitis.", "differential"),
    ("Impression: biliary colic, ?cholecystitis.", "differential"),
    # negative: unqueried, the second condition of the line is stated
    ("Impression: biliary colic, early cholecystitis.", "diagnoses"),
    # negative: queried alone (nothing else committed), the existing rule keeps it the working diagnosis
    ("Impression: ?early cholecystitis.", "diagnoses"),
    # negative: the query of the first condition is not the second's
    ("Impression: ?biliary colic, early cholecystitis.", "diagnoses"),
])
def test_a_query_mark_before_the_qualifier_queries_the_condition(line: str, kind: str):
    """"?early X" beside a committed diagnosis puts X on the differential as "?X" does; a query mark stands before
    the condition's qualifier words (``diagnosis_item_hedges``: "early", "mild", "acute") as well as its name."""
    c = card("sur-cholecystitis-001", f"{line}\n\nPlan: ultrasound of the abdomen.\n")
    assert PRIMARY in rows(c, kind), (line, rows(c, "diagnoses"), rows(c, "differential"))
    other = "differential" if kind == "diagnoses" else "diagnoses"
    assert PRIMARY not in rows(c, other), line
