"""Failure classes of sets O and P's terse answers (g33, issue 32): diagnoses written short. A drug in a diagnosis's
name written by its other names ("Li toxicity" of "Lithium toxicity"), status epilepticus as "SE" after a word of
its kind, a CKD stage joined to its letters ("CKD4"), "IGE" in capitals, "known asthmatic" for asthma, a lay name of
gastroenteritis ("tummy bug"). Each test is in wording of its own, on other topics than the sets' cases, with wrong
readings that must still fail."""

from __future__ import annotations

from pathlib import Path

import pytest
from ruamel.yaml import YAML

from medbench_tui.core.scoring import score
from medbench_tui.core.transcript import FinalResponse, Transcript
from medbench_tui.core.validate import load_valid_case
from tests.support.case_yaml import case_yaml, with_item
from tests.test_scoring_regressions import rows

COPD = Path("cases/im-copd-exacerbation-001.yaml")


def _case(tmp_path: Path, primary: dict, secondary: list[dict]) -> Path:
    data = case_yaml(COPD)
    data["diagnosis"]["primary"] = primary
    data["diagnosis"]["secondary"] = secondary
    data.pop("checks", None)
    out = tmp_path / COPD.name
    with out.open("w") as handle:
        YAML().dump(data, handle)
    return out


def _named(tmp_path: Path, primary: dict, secondary: list[dict], text: str) -> set[str]:
    case = load_valid_case(_case(tmp_path, primary, secondary))
    card = score(case, Transcript(case_id=case.id, final=FinalResponse(text=text)))
    return {e.reference for e in card.items.diagnoses if e.reference and e.status == "matched"}


LITHIUM = {"name": "Lithium toxicity (chronic)", "icd10": "T43.5", "aliases": ["lithium toxicity", "lithium poisoning"]}
CKD4 = {"name": "Chronic kidney disease, stage 4", "icd10": "N18.4", "aliases": ["CKD 4", "CKD stage 4"]}
ASTHMA = {"name": "Asthma", "icd10": "J45.9", "aliases": ["asthma"]}
GASTRO = {"name": "Viral gastroenteritis", "icd10": "A08.4", "aliases": ["gastroenteritis"]}
IGE = {"name": "Idiopathic generalised epilepsy", "icd10": "G40.3", "aliases": ["idiopathic generalised epilepsy"]}
NCSE = {"name": "Non-convulsive status epilepticus", "icd10": "G41.2",
        "aliases": ["nonconvulsive status epilepticus", "non-convulsive status epilepticus"]}


@pytest.mark.parametrize(("text", "named"), [
    ("Imp: Li toxicity - level 2.9, tremor, AKI.", True),
    ("Imp: Priadel toxicity with AKI.", True),
    ("Imp: AKI from D&V. Li level 0.8 - no toxicity.", False),
    ("Imp: AKI. Plan: hold Li, recheck level.", False),
])
def test_a_drug_in_a_diagnosis_by_its_other_names(tmp_path: Path, text: str, named: bool):
    """A diagnosis whose name holds a drug is named with the drug's other names in its place."""
    found = _named(tmp_path, LITHIUM, [CKD4], text)
    assert ("Lithium toxicity (chronic)" in found) is named, (text, found)


@pytest.mark.parametrize(("text", "named"), [
    ("Imp: Li toxicity. Bg: CKD4, T2DM.", True),
    ("Imp: Li toxicity. Bg: CKD G4.", True),
    ("Imp: Li toxicity. Bg: CKD3.", False),
    ("Imp: Li toxicity. Bg: CKD stage 3.", False),
    ("Imp: Li toxicity. Bg: CKD 5 on HD.", False),
])
def test_a_ckd_stage_joined_to_its_letters(tmp_path: Path, text: str, named: bool):
    found = _named(tmp_path, LITHIUM, [CKD4], text)
    assert ("Chronic kidney disease, stage 4" in found) is named, (text, found)


@pytest.mark.parametrize(("text", "named"), [
    ("Post-arrest, GCS 6, subtle twitching. Imp: nonconvulsive SE. EEG now.", True),
    ("Drowsy post-ictal. Imp: nonconvulsive status epilepticus. EEG now.", True),
    ("Drowsy. Imp: Li toxicity. Counselled re SE of lithium.", False),
])
def test_status_epilepticus_written_short_after_its_kind(tmp_path: Path, text: str, named: bool):
    """"SE" after a word of its kind is status epilepticus; "SE" alone may be side effects."""
    found = _named(tmp_path, NCSE, [], text)
    assert ("Non-convulsive status epilepticus" in found) is named, (text, found)


@pytest.mark.parametrize(("text", "named"), [
    ("Imp: Li toxicity. Known IGE on valproate.", True),
    ("Imp: Li toxicity. IgE-mediated peanut allergy.", False),
])
def test_ige_in_capitals_is_the_epilepsy(tmp_path: Path, text: str, named: bool):
    found = _named(tmp_path, LITHIUM, [IGE], text)
    assert ("Idiopathic generalised epilepsy" in found) is named, (text, found)


@pytest.mark.parametrize(("text", "named"), [
    ("Imp: Li toxicity after a tummy bug (3/7 diarrhoea). Known asthmatic.", True),
    ("Imp: Li toxicity. Asthmatic-sounding wheeze on exam only; no bug.", False),
])
def test_lay_and_person_names_of_a_condition(tmp_path: Path, text: str, named: bool):
    found = _named(tmp_path, LITHIUM, [ASTHMA, GASTRO], text)
    assert ("Asthma" in found) is named and ("Viral gastroenteritis" in found) is named, (text, found)


# --- terse plans: drug and class shorthand, a reaction written short, an eponymous test by its eponym ---------------

FIRST = "Emergency same-day hospital admission by ambulance"


def _rows(tmp_path: Path, treatment: str = "", workup: dict | None = None, text: str = "") -> dict[str, str]:
    source = COPD
    if treatment:
        source = with_item(tmp_path, COPD, FIRST, treatment)
    data = case_yaml(source)
    if workup:
        data["workup"].append(workup)
    data.pop("checks", None)
    (tmp_path / "read").mkdir()
    out = tmp_path / "read" / COPD.name
    with out.open("w") as handle:
        YAML().dump(data, handle)
    case = load_valid_case(out)
    card = score(case, Transcript(case_id=case.id, final=FinalResponse(text=text)))
    return {**rows(card, "workup"), **rows(card, "treatment")}


TRIMETHOPRIM = ("  - item: Trimethoprim for the urinary infection\n    class: acceptable\n"
                "    aliases: [trimethoprim, trimethoprim 200 mg twice daily]\n")


@pytest.mark.parametrize(("plan", "given"), [
    ("Plan:\n- TMP 200mg BD x7/7 for the UTI", True),
    ("Plan:\n- TMP-SMX 960 mg BD", False),
    ("Plan:\n- Nitrofurantoin 100 mg MR BD (TMP-resistant on MSU)", False),
])
def test_trimethoprim_written_short(tmp_path: Path, plan: str, given: bool):
    """"TMP" is trimethoprim; "TMP-SMX" is co-trimoxazole, another drug."""
    found = _rows(tmp_path, TRIMETHOPRIM, text=plan)
    assert ("Trimethoprim for the urinary infection" in found) is given, (plan, found)


QUINOLONE = ("  - item: Fluoroquinolone antibiotic\n    class: contraindicated\n    weight: 2\n"
             "    aliases: [fluoroquinolone, levofloxacin, moxifloxacin]\n")


@pytest.mark.parametrize(("plan", "given"), [
    ("Plan:\n- Doxycycline 200 mg stat then 100 mg od\n- Record FQ ADR (Achilles tendinopathy 2019)", False),
    ("Plan:\n- Doxycycline 200 mg stat\n- Levofloxacin ADR on chart; avoid FQs", False),
    ("Plan:\n- Moxifloxacin 400 mg od x5/7", True),
])
def test_a_drug_with_its_adverse_reaction_is_history(tmp_path: Path, plan: str, given: bool):
    """A drug or class named with its adverse reaction ("FQ ADR") is the patient's history, never given."""
    found = _rows(tmp_path, QUINOLONE, text=plan)
    assert ("Fluoroquinolone antibiotic" in found) is given, (plan, found)


CALF = {"item": "Thompson calf squeeze test", "class": "required", "weight": 1,
        "aliases": ["Thompson test", "calf squeeze test"]}


@pytest.mark.parametrize(("text", "done"), [
    ("O/E: gap above the heel, Thompson +ve, weak plantarflexion.", True),
    ("O/E: Simmonds negative, tendon intact.", True),
    ("O/E: calf tender, no gap. Plan: ice, analgesia.", False),
])
def test_an_eponymous_test_reported_by_its_eponym(tmp_path: Path, text: str, done: bool):
    """An eponymous bedside test written by its eponym with its result ("Thompson +ve") was done."""
    found = _rows(tmp_path, workup=CALF, text=text)
    assert ("Thompson calf squeeze test" in found) is done, (text, found)


# --- terse plans: magnesium where the words beside it settle it, albumin, continue, IVHC, "Neuro NAD" --------------

MAGNESIUM = ("  - item: IV magnesium sulfate\n    class: acceptable\n"
             "    aliases: [IV magnesium, magnesium sulfate 2 g IV]\n")
REPLACE = ("  - item: Potassium and magnesium replacement\n    class: acceptable\n"
           "    aliases: [replace potassium and magnesium, potassium replacement, magnesium replacement]\n")
HYDROCORTISONE = ("  - item: Continue IV hydrocortisone\n    class: acceptable\n"
                  "    aliases: [continue IV hydrocortisone, continue hydrocortisone]\n")


@pytest.mark.parametrize(("item", "name", "plan", "given"), [
    (MAGNESIUM, "IV magnesium sulfate", "Plan:\n- Nebs b2b, IV Mg 2 g over 20 min", True),
    (MAGNESIUM, "IV magnesium sulfate", "Bloods: K 3.4, Mg 0.71, CRP 12.\nPlan:\n- Nebs b2b", False),
    (REPLACE, "Potassium and magnesium replacement", "Plan:\n- Replace K+ and Mg (oral), recheck in am", True),
    (REPLACE, "Potassium and magnesium replacement", "K 3.3, Mg 0.68.\nPlan:\n- Recheck K/Mg in am", False),
    (HYDROCORTISONE, "Continue IV hydrocortisone", "Plan:\n- Cont IVHC 50 mg QDS until eating", True),
    (HYDROCORTISONE, "Continue IV hydrocortisone", "Plan:\n- Stop IVHC, switch to oral pred 30 mg", False),
])
def test_shorthand_of_a_terse_plan(tmp_path: Path, item: str, name: str, plan: str, given: bool):
    """"IV Mg", "replace K+ and Mg", "Cont IVHC" are those treatments; a Mg result or a recheck gives none, and a
    stop is no continuation."""
    found = _rows(tmp_path, item, text=plan)
    assert (name in found) is given, (plan, found)


ALBUMIN = {"item": "Serum albumin", "class": "acceptable", "aliases": ["albumin"]}
NEURO = {"item": "Neurological examination", "class": "acceptable", "aliases": ["neuro exam"]}
ELECTROLYTES = {"item": "Serum potassium", "class": "acceptable", "aliases": ["U&E", "potassium"]}


@pytest.mark.parametrize(("workup", "text", "done"), [
    (ALBUMIN, "Bloods: Hb 101, alb 24, CRP 140.", True),
    (ALBUMIN, "Bloods: Hb 101, CRP 140.", False),
    (NEURO, "O/E: chest clear, neuro NAD, calves SNT.", True),
    (NEURO, "Plan: neuro on-call aware; CT head today.", False),
    (ELECTROLYTES, "Bloods: Na 131, K 3.2, Mg 0.61, Cr 88.", True),
])
def test_results_and_findings_written_short(tmp_path: Path, workup: dict, text: str, done: bool):
    """"alb 24" reports the albumin, "neuro NAD" the examination, and "K 3.2, Mg 0.61" the potassium: a unit after a
    comma is the next result's label, not the value's unit."""
    found = _rows(tmp_path, workup=workup, text=text)
    assert (workup["item"] in found) is done, (text, found)


# --- a restart of the patient's own drug, by any of its names ------------------------------------------------------

RESTART_OWN = ("  - item: Restart regular sertraline\n    class: acceptable\n"
               "    aliases: [resume sertraline 50 mg]\n")
RESTART_TIMED = ("  - item: Long-term anticoagulation once the bleeding has stopped\n    class: acceptable\n"
                 "    aliases: [restart apixaban after the bleeding has stopped]\n")


@pytest.mark.parametrize(("item", "name", "plan", "given"), [
    (RESTART_OWN, "Restart regular sertraline", "Plan:\n- Once settled: restart Lustral 50 mg OD", True),
    (RESTART_OWN, "Restart regular sertraline", "Plan:\n- Resume sertraline at home dose", True),
    (RESTART_OWN, "Restart regular sertraline", "Plan:\n- Stop sertraline (serotonin toxicity)", False),
    (RESTART_OWN, "Restart regular sertraline", "Plan:\n- Restart mirtazapine 15 mg nocte", False),
    (RESTART_TIMED, "Long-term anticoagulation once the bleeding has stopped", "Plan:\n- Restart apixaban 5 mg BD",
     False),
])
def test_a_restart_of_the_patients_own_drug(tmp_path: Path, item: str, name: str, plan: str, given: bool):
    """An item that restarts one drug of the patient's ("Restart regular X") is met by a restarting word before any
    name of the drug ("restart Lustral"); an item that restarts it at a time of its own keeps that time."""
    found = _rows(tmp_path, item, text=plan)
    assert (name in found) is given, (plan, found)


# --- a treatment named as an outcome's likelihood ------------------------------------------------------------------

INTUBATION = ("  - item: Intubation and mechanical ventilation\n    class: acceptable\n"
              "    aliases: [intubation, intubate and ventilate]\n")


@pytest.mark.parametrize(("plan", "given"), [
    ("pH 7.21, pCO2 9.8 -> high risk of intubation.\nPlan:\n- NIV now, ABG in 1 h", False),
    ("pH 7.21 (~30% intubation risk).\nPlan:\n- NIV now, ABG in 1 h", False),
    ("Plan:\n- NIV failed: intubation now, ICU accepted", True),
])
def test_a_treatment_named_as_a_likelihood_is_no_plan(tmp_path: Path, plan: str, given: bool):
    """"Risk of X", "X risk" name an outcome's likelihood, not a plan to do X."""
    found = _rows(tmp_path, INTUBATION, text=plan)
    assert ("Intubation and mechanical ventilation" in found) is given, (plan, found)
