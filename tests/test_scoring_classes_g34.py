"""Failure classes (issue 32): a restart or continuation of the patient's own drug is no dose given now
("restart levetiracetam 500 mg BD" is no "Second-line IV antiseizure drug now (levetiracetam 60 mg/kg ...)"). Each
test is in wording of its own, on other topics than the sets' cases, with plans that must still pass and wrong plans
that must still fail."""

from __future__ import annotations

from pathlib import Path

import pytest

from medbench_tui.core.scoring import score
from medbench_tui.core.transcript import FinalResponse, Transcript
from tests.support.case_yaml import valid_case_with_item
from tests.test_scoring_regressions import rows

COPD = Path("cases/im-copd-exacerbation-001.yaml")
FIRST = "Emergency same-day hospital admission by ambulance"


def _rows(tmp_path: Path, item: str, text: str, kind: str = "treatment") -> dict[str, str]:
    case = valid_case_with_item(tmp_path, COPD, FIRST, item)
    return rows(score(case, Transcript(case_id=case.id, final=FinalResponse(text=text))), kind)


# --- 1. a restart or continuation of the patient's own drug is no dose now ----------------------------------------

STRESS = "Stress-dose IV steroid now (hydrocortisone 100 mg)"
STRESS_ITEM = (f"  - item: {STRESS}\n    class: required\n    weight: 2\n    within: immediately\n"
               "    route: intravenous\n    aliases: [IV hydrocortisone, hydrocortisone 100 mg IV]\n")


@pytest.mark.parametrize(("plan", "given"), [
    ("Plan:\n- Hydrocortisone 100 mg IV stat", True),
    ("Plan:\n- hydrocortisone 100mg IV now", True),
    ("Plan:\n- Restart her usual hydrocortisone 10 mg / 5 mg", False),
    ("Plan:\n- continue hydrocortisone 20 mg daily", False),
    ("Plan:\n- resume hydrocortisone tablets", False),
    ("Plan:\n- Hydrocortisone 100 mg IM tomorrow", False),
    ("Plan:\n- Do not give hydrocortisone", False),
])
def test_a_restart_of_the_own_drug_is_no_dose_now(tmp_path: Path, plan: str, given: bool):
    """Going back to the patient's own regimen ("restart", "continue") never meets an item that gives the drug now;
    the drug by the item's route and time still does, another route or time or a negation does not."""
    found = _rows(tmp_path, STRESS_ITEM, plan)
    assert (STRESS in found) is given, (plan, found)


RESTART = "Restart regular levothyroxine"
RESTART_ITEM = f"  - item: {RESTART}\n    class: required\n    weight: 1\n    aliases: [restart levothyroxine]\n"


@pytest.mark.parametrize(("plan", "given"), [
    ("Plan:\n- Restart levothyroxine 100 micrograms once daily", True),
    ("Plan:\n- Stop levothyroxine", False),
])
def test_an_item_that_restarts_is_still_met_by_a_restart(tmp_path: Path, plan: str, given: bool):
    """An item that is itself a restart is met by a restart of its drug."""
    found = _rows(tmp_path, RESTART_ITEM, plan)
    assert (RESTART in found) is given, (plan, found)


# --- 2. a check timed days on is one check then, not a measure repeated from now -----------------------------------

LATER_CHECK = "Potassium check 7-10 days after starting spironolactone"
LATER_ITEM = (f"  - item: {LATER_CHECK}\n    class: acceptable\n"
              "    aliases: [potassium at one week, repeat potassium in a week]\n")
SERIAL_K = "Serial serum sodium"
SERIAL_ITEM = f"  - item: {SERIAL_K}\n    class: required\n    weight: 1\n    aliases: [repeat sodium]\n"


@pytest.mark.parametrize(("item", "name", "plan", "given"), [
    (LATER_ITEM, LATER_CHECK, "Plan:\n- K+ 4-hrly", False),
    (LATER_ITEM, LATER_CHECK, "Plan:\n- potassium every 6 hours", False),
    (LATER_ITEM, LATER_CHECK, "Plan:\n- Potassium at one week", True),
    (SERIAL_ITEM, SERIAL_K, "Plan:\n- Na 2-hrly while on hypertonic saline", True),
])
def test_a_check_days_on_is_no_frequency(tmp_path: Path, item: str, name: str, plan: str, given: bool):
    """An item that checks a measure days or weeks on ("7-10 days after starting") is one check then: a
    measure repeated every few hours from now is not it; an item of repeated measurement still is."""
    found = _rows(tmp_path, item, plan, "workup") | _rows(tmp_path, item, plan)
    assert (name in found) is given, (plan, found)


# --- 3. "have no place" declines, as "has no place" does -----------------------------------------------------------

LOOP = "Loop diuretic"
LOOP_ITEM = f"  - item: {LOOP}\n    class: contraindicated\n    weight: 2\n    aliases: [furosemide, loop diuretics]\n"


@pytest.mark.parametrize(("plan", "given"), [
    ("Plan:\n- Loop diuretics have no place here (she is dry).", False),
    ("Plan:\n- Furosemide has no place here.", False),
    ("Plan:\n- Start furosemide 40 mg IV", True),
])
def test_have_no_place_declines(tmp_path: Path, plan: str, given: bool):
    found = _rows(tmp_path, LOOP_ITEM, plan)
    assert (found.get(LOOP) in ("contraindicated", "harmful", "matched", "not_indicated")) is given, (plan, found)


# --- 4. a day named by its weekday is a later day ------------------------------------------------------------------

SAME_DAY = "Discuss with the cardiology team the same day"
SAME_DAY_ITEM = (f"  - item: {SAME_DAY}\n    class: required\n    weight: 1\n    within: same day\n"
                 "    aliases: [discuss with cardiology today]\n")


@pytest.mark.parametrize(("plan", "given"), [
    ("Plan:\n- Cardiology to review on Thursday's ward round", False),
    ("Plan:\n- Discuss with cardiology on Friday", False),
    ("Plan:\n- Cardiology to review today", True),
])
def test_a_weekday_is_a_later_day(tmp_path: Path, plan: str, given: bool):
    found = _rows(tmp_path, SAME_DAY_ITEM, plan)
    assert (SAME_DAY in found) is given, (plan, found)


# --- 5. a team's registrar or its letters written short --------------------------------------------------------------

ENDO = "Discuss with the endocrinology team today"
ENDO_ITEM = f"  - item: {ENDO}\n    class: required\n    weight: 1\n    within: same day\n"
NSX = "Inform the neurosurgical team"
NSX_ITEM = f"  - item: {NSX}\n    class: required\n    weight: 1\n"


@pytest.mark.parametrize(("item", "name", "plan", "given"), [
    (ENDO_ITEM, ENDO, "Plan:\n- D/w endo reg today re Ca 3.4", True),
    (ENDO_ITEM, ENDO, "Plan:\n- D/w endo reg next week", False),
    (NSX_ITEM, NSX, "Plan:\n- CT head done, inform NSx", True),
])
def test_a_team_written_short(tmp_path: Path, item: str, name: str, plan: str, given: bool):
    found = _rows(tmp_path, item, plan)
    assert (name in found) is given, (plan, found)


# --- 6. a negation that is the condition itself negates nothing after it ---------------------------------------------

FLUIDS = "Intravenous 0.9% sodium chloride if unable to drink"
FLUIDS_ITEM = f"  - item: {FLUIDS}\n    class: required\n    weight: 1\n    aliases: [IV 0.9% saline, IV saline]\n"


@pytest.mark.parametrize(("plan", "given"), [
    ("Plan:\n- If he can't drink -> IV 0.9% saline", True),
    ("Plan:\n- If she cannot manage orally, IV saline", True),
    ("Plan:\n- Can't have IV saline (fluid overloaded)", False),
])
def test_a_negation_that_is_the_condition(tmp_path: Path, plan: str, given: bool):
    found = _rows(tmp_path, FLUIDS_ITEM, plan)
    assert (FLUIDS in found) is given, (plan, found)


# --- 7. a urine specific gravity written short reports the urinalysis ------------------------------------------------

URINE = "Urinalysis"
URINE_ITEM = f"  - item: {URINE}\n    class: required\n    weight: 1\n    aliases: [urine dipstick]\n"


@pytest.mark.parametrize(("plan", "given"), [
    ("Obs stable. Urine SG 1.032, ketones nil.\nPlan:\n- oral fluids", True),
    ("Bloods: SG 1.010\nPlan:\n- oral fluids", True),
    ("Plan:\n- oral fluids; no urine sent", False),
])
def test_specific_gravity_short_reports_the_urinalysis(tmp_path: Path, plan: str, given: bool):
    case = valid_case_with_item(tmp_path, COPD, "Pulse oximetry", URINE_ITEM)
    found = rows(score(case, Transcript(case_id=case.id, final=FinalResponse(text=plan))), "workup")
    assert (URINE in found) is given, (plan, found)


# --- 8. urine sediment and virology shorthand --------------------------------------------------------------------

CASTS = "Urine microscopy for red cell casts"
CASTS_ITEM = f"  - item: {CASTS}\n    class: required\n    weight: 1\n    aliases: [urine microscopy, red cell casts]\n"
BBV = "Hepatitis B, hepatitis C and HIV serology before chemotherapy"
BBV_ITEM = f"  - item: {BBV}\n    class: required\n    weight: 1\n    aliases: [hepatitis B serology, BBV screen]\n"


@pytest.mark.parametrize(("item", "name", "plan", "given"), [
    (CASTS_ITEM, CASTS, "Urine: blood 2+, RBC casts seen.\nPlan:\n- nephrology today", True),
    (CASTS_ITEM, CASTS, "Urine: blood 2+.\nPlan:\n- nephrology today", False),
    (BBV_ITEM, BBV, "Plan:\n- R-CHOP once HBV/HCV/HIV serology back", True),
    (BBV_ITEM, BBV, "Plan:\n- HBV serology before R-CHOP", True),
    (BBV_ITEM, BBV, "Background: chronic HBV on tenofovir.\nPlan:\n- R-CHOP", False),
])
def test_sediment_and_virology_shorthand(tmp_path: Path, item: str, name: str, plan: str, given: bool):
    case = valid_case_with_item(tmp_path, COPD, "Pulse oximetry", item)
    found = rows(score(case, Transcript(case_id=case.id, final=FinalResponse(text=plan))), "workup")
    assert (name in found) is given, (plan, found)
