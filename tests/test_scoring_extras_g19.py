"""What the grader counts as an EXTRA treatment (product issue 32): an unlisted drug, procedure or
fluid the answer recommends, not the words that describe how a listed or named item is given, its target, a
state, or what is measured. Wordings of our own, on bundled cases of other topics."""

from __future__ import annotations

from tests.test_scoring_regressions import card, extras

CELLULITIS = "im-cellulitis-001"


def _extras(plan: str) -> list[str]:
    return extras(card(CELLULITIS, f"Diagnosis: cellulitis of the left leg.\nPlan:\n{plan}"), "treatment")


# --- class 1: how a dose is given, and the target of a measure, are no item of their own --------------------


def test_how_a_dose_is_given_is_no_extra_item():
    plan = (
        "1. IV flucloxacillin 2 g QDS, single dose now then six-hourly\n"
        "2. Hartmann's 500 mL over 30 minutes, then repeat boluses up to 1.5 L\n"
        "3. Vancomycin 20 mg/kg over 2 h, then 15 mg/kg over 90 min\n"
        "4. Clindamycin 600 mg IV, then 450 mg every 6 h\n"
    )
    assert not [e for e in _extras(plan) if any(w in e for w in ("over", "single", "boluses", "every"))]


def test_the_target_of_a_measure_is_no_extra_item():
    plan = "1. Capillary glucose checks, target 5-9 mmol/L\n2. Strict fluid balance, target urine output > 0.5 mL/kg/h"
    assert _extras(plan) == []


def test_an_unlisted_drug_with_its_dose_stays_extra():
    got = _extras("1. Ranitidine 150 mg BD\n2. Prednisolone 40 mg, double her usual dose\n")
    assert any(e.startswith("Ranitidine") for e in got)
    assert any(e.startswith("Prednisolone") for e in got)


# --- class 2: a word of a longer drug name is no drug by itself ---------------------------------------------


def test_generic_words_of_a_longer_drug_name_make_no_drug():
    plan = (
        "1. IV flucloxacillin 2 g QDS\n"
        "2. Risk of falls currently low\n"
        "3. Weigh her daily, daily weight chart\n"
        "4. Leg elevation and molecular testing not needed\n"
    )
    assert [e for e in _extras(plan) if "low" in e or "weight" in e.lower() or "Weigh" in e] == []


def test_the_whole_longer_drug_name_stays_a_drug():
    got = _extras("1. Low molecular weight heparin prophylaxis\n2. Oral rehydration solution sips\n")
    assert any("heparin" in e.lower() for e in got)


# --- class 3: a treatment item named again in its own list item is no extra ---------------------------------


def test_the_named_item_said_again_in_its_list_item_is_no_extra():
    plan = "1. Tamsulosin 400 micrograms daily, continuing the expulsive therapy for four weeks"
    text = f"Diagnosis: renal colic.\nPlan:\n{plan}\n"
    assert extras(card("em-renal-colic-001", text), "treatment") == []


def test_another_drug_in_the_list_item_of_a_named_item_stays_extra():
    got = _extras("1. Oral flucloxacillin 1 g QDS, and lansoprazole 30 mg OD as well\n")
    assert any("lansoprazole" in e.lower() for e in got)


# --- class 4: nothing by mouth is an instruction, not a fluid given --------------------------------------------


def test_nothing_by_mouth_is_no_extra_item():
    plan = "1. Oral flucloxacillin 1 g QDS\n2. Keep NBM until the surgeons have seen her\n3. Nil by mouth from midnight"
    assert _extras(plan) == []


# --- class 5: what is made ready is not given ------------------------------------------------------------------


def test_what_is_made_ready_is_no_extra_item():
    plan = "1. Oral flucloxacillin 1 g QDS\n2. Adrenaline 0.5 mg IM ready at the bedside\n3. 2 units crossmatched\n"
    assert _extras(plan) == []
