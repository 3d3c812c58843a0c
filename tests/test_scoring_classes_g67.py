"""Failure classes (issue 32): work-up reported as values. Wording of its own, on other topics than
the tuning set's cases (a febrile infant, a sepsis, a bronchiolitis), with negative tests: one value alone is no set
of observations, values asked for are not reported."""

from __future__ import annotations

from pathlib import Path

import pytest

from medbench_tui.core.scoring import score
from medbench_tui.core.transcript import FinalResponse, Transcript
from tests.support.case_yaml import case_with
from tests.test_scoring_regressions import rows


def _done(tmp_path: Path, item: dict, text: str) -> bool:
    built = case_with(tmp_path, Path("cases/im-falls-001.yaml"), "workup", item)
    card = score(built, Transcript(case_id=built.id, final=FinalResponse(text=text)))
    return item["item"] in rows(card, "workup")


# --- 1. an observation item is reported by values of most of the measures it lists --------------------------------

OBSERVATIONS = {"item": "Observations with temperature, heart rate and capillary refill", "class": "required",
                "aliases": ["set of observations"]}
VITALS = {"item": "Vital signs (heart rate, temperature, oxygen saturation)", "class": "required",
          "aliases": ["full vital signs"]}


@pytest.mark.parametrize(("item", "text", "done"), [
    (OBSERVATIONS, "8-month-old, irritable. Pulse 168, cap refill 3 s, temp 39.4.\n\nImp: ?UTI.", True),
    (OBSERVATIONS, "Infant with cough. HR 170, CRT 4s; wheeze.\n\nImp: bronchiolitis.", True),
    (VITALS, "On arrival: temp 38.9, HR 128, SpO2 91% on air.\nImp: pneumonia.", True),
    # one value alone is no set
    (OBSERVATIONS, "8-month-old, irritable. HR 168, looks unwell.\n\nImp: ?UTI.", False),
    (VITALS, "SpO2 91% on air. Imp: pneumonia.", False),
    # the measures named without values, or asked for, report nothing
    (OBSERVATIONS, "Irritable infant; heart rate and capillary refill to be checked.\nImp: ?UTI.", False),
    (OBSERVATIONS, "Irritable infant. What were the HR 168 and CRT 3s readings?", False),
])
def test_values_of_most_measures_report_the_observations(tmp_path: Path, item: dict, text: str, done: bool):
    """An observation item listing its measures ("with temperature, heart rate and capillary refill", or in a
    bracket) is done by one line giving values of most of them ("Pulse 168, cap refill 3 s"); one value alone is
    no set, and measures named without values report nothing."""
    assert _done(tmp_path, item, text) is done, text
