"""Grader classes (issue 32): an avoid heading with "and why", a drug given before arrival, an action to
be discussed on a later condition, a ward admission that is no intensive-care discussion nor a graded review, a
same-day referral told as done, and a diagnosis named as the reason for a differential. Wording of its own, on other
topics than the tuning set's cases, with the plans that must keep their verdicts."""

from __future__ import annotations

from pathlib import Path

import pytest

from medbench_tui.core.scoring import cues, score
from medbench_tui.core.scoring.actions import same_team
from medbench_tui.core.scoring.assertion import _after_treatment, condition_of
from medbench_tui.core.scoring.document import Document
from medbench_tui.core.scoring.sections import heading_kind
from medbench_tui.core.transcript import FinalResponse, Transcript
from medbench_tui.core.vocabulary.reading import item_reading_of, read_action
from tests.support.case_yaml import case_with
from tests.test_scoring_regressions import rows

CAP = Path("cases/im-cap-001.yaml")
AF = Path("cases/im-af-001.yaml")


def _card(tmp_path: Path, source: Path, text: str, section: str | None = None, item: dict | None = None):
    case = case_with(tmp_path, source, section, item)
    return score(case, Transcript(case_id=case.id, final=FinalResponse(text=text)))


def _span(doc: Document, words: str) -> tuple[int, int]:
    w = words.lower().split()
    first = next(k for k in range(len(doc.lows)) if doc.lows[k : k + len(w)] == w)
    return first, first + len(w) - 1


# --- 1. an avoid heading with its reasons -----------------------------------------------------------------------------

@pytest.mark.parametrize(("label", "kind"), [
    ("Avoid and why", "avoid"),
    ("Drugs to avoid and why", "avoid"),
    ("Things to avoid and why", "avoid"),
    ("Advice and why", "advice"),
    ("Why", None),
])
def test_a_listed_heading_with_and_why_is_that_heading(label: str, kind: str | None):
    assert heading_kind(label, tail_words=5) == kind, label


@pytest.mark.parametrize(("heading", "given"), [
    ("**Avoid and why**", False),
    ("### Drugs to avoid and why", False),
    ("**Advice and why**", True),
])
def test_items_under_an_avoid_heading_with_reasons_are_declined(tmp_path: Path, heading: str, given: bool):
    text = ("## Plan\n- Bisoprolol 2.5 mg once daily\n- Apixaban 5 mg twice daily\n\n"
            f"{heading}\n- **Aspirin** - no stroke protection in AF and a bleeding risk\n"
            "- Digoxin monotherapy - does not control the rate on exertion\n")
    card = _card(tmp_path, AF, text)
    treatment = rows(card, "treatment")
    assert (treatment.get("Aspirin for stroke prevention") not in (None, "negated")) is given, treatment


# --- 2. a drug given before arrival is history ------------------------------------------------------------------------

@pytest.mark.parametrize(("line", "drug", "history"), [
    ("Salbutamol and ipratropium given at home.", "salbutamol", True),
    ("Salbutamol and ipratropium given at home.", "ipratropium", True),
    ("She had naproxen from the pharmacy two days ago.", "naproxen", True),
    ("Given IM adrenaline 0.5 mg by the ambulance crew.", "adrenaline", True),
    ("Aspirin 300 mg given by paramedics en route.", "aspirin", True),
    # a plan for home, or another drug's history in another clause
    ("Give salbutamol at home every four hours.", "salbutamol", False),
    ("Ibuprofen 400 mg tds at home for 3 days.", "ibuprofen", False),
    ("Start aspirin 300 mg; clopidogrel given by the crew.", "aspirin", False),
])
def test_a_drug_given_before_arrival_is_history(line: str, drug: str, history: bool):
    doc = Document(line)
    first, last = _span(doc, drug)
    assert cues.background(doc, first, last, "treatment") is history, line


# --- 3. an action to be discussed on a later condition ----------------------------------------------------------------

@pytest.mark.parametrize(("condition", "later"), [
    ("she remains hypoxic after high-flow oxygen", True),
    ("still wheezy after nebulisers and steroids", True),
    ("still hypotensive after fluids and vasopressors", True),
    ("still fitting after the phenytoin", True),
    ("she remains hypoxic", False),
    ("not improving after 24 hours", False),
    ("after discussion with the family", False),
])
def test_a_condition_after_a_treatment_of_the_plan_is_a_later_event(condition: str, later: bool):
    assert _after_treatment(condition) is later, condition


@pytest.mark.parametrize(("line", "drug", "conditional"), [
    ("NIV to be discussed with ICU and the respiratory team if she remains hypoxic after oxygen.", "niv", True),
    ("Amiodarone to be discussed with cardiology if still in fast AF after bisoprolol.", "amiodarone", True),
    ("Atropine now with isoprenaline on standby if the rate falls.", "atropine", False),
    ("Consider NIV.", "niv", False),
])
def test_an_action_to_be_discussed_on_a_condition_is_in_its_scope(line: str, drug: str, conditional: bool):
    doc = Document(line)
    first, last = _span(doc, drug)
    assert (condition_of(doc, first, last) is not None) is conditional, line


def test_an_action_discussed_on_a_later_condition_is_not_given(tmp_path: Path):
    niv = {"item": "Non-invasive ventilation", "class": "acceptable", "aliases": ["NIV", "BiPAP"]}
    text = ("## Plan\n- Amoxicillin 500 mg tds and clarithromycin\n"
            "- NIV to be discussed with ICU and the respiratory team if she remains hypoxic after high-flow oxygen.\n")
    assert rows(_card(tmp_path, CAP, text, "treatment", niv), "treatment").get(niv["item"]) in (None, "negated")
    given = "## Plan\n- Amoxicillin 500 mg tds and clarithromycin\n- Start NIV now\n"
    assert rows(_card(tmp_path, CAP, given, "treatment", niv), "treatment").get(niv["item"]) in (
        "matched", "acceptable")


# --- 4. a ward admission is neither an intensive-care discussion nor a graded review ----------------------------------

@pytest.mark.parametrize(("text", "teams"), [
    ("Referral to the paediatric burns service", {"burns service"}),
    ("Paediatric neurology opinion", {"neurology"}),
    ("Discuss with paediatric intensive care", {"paediatric intensive care"}),
    ("Admit to the paediatric ward", {"paediatrics"}),
    ("paediatric and surgical review", {"paediatrics", "general surgery"}),
])
def test_a_qualifying_team_word_names_the_team_after_it(text: str, teams: set[str]):
    assert {t.name for t in read_action(text).teams} == teams, text


@pytest.mark.parametrize(("answer", "item", "met"), [
    ("Admit to the paediatric ward", "Discuss with paediatric intensive care", False),
    ("Admit to the children's ward", "Paediatric intensive care referral", False),
    ("Call PICU now", "Discuss with paediatric intensive care", True),
    ("Admit to the paediatric ward", "Senior paediatric review", False),
    ("Admit to the medical ward", "Consultant physician review", False),
    ("Paediatric registrar to review today", "Senior paediatric review", True),
    ("Admit under the paediatric consultant", "Senior paediatric review", True),
    ("Admit under the surgeons", "General surgical referral", True),
])
def test_a_ward_admission_is_no_intensive_care_discussion_nor_a_graded_review(answer: str, item: str, met: bool):
    assert same_team(read_action(answer), item_reading_of(item)) is met, (answer, item)


ICU = {"item": "Discuss with intensive care", "class": "required", "aliases": ["ICU review", "critical care review"]}


@pytest.mark.parametrize(("plan", "met"), [
    ("- Admit to the respiratory ward; ICU if not improving", False),
    ("- Admit to the medical ward", False),
    ("- Discuss with ICU now", True),
])
def test_a_ward_admission_with_intensive_care_on_a_condition_does_not_discuss_it(tmp_path: Path, plan: str, met: bool):
    text = f"## Plan\n- Amoxicillin 500 mg tds\n{plan}\n"
    card = _card(tmp_path, CAP, text, "treatment", ICU)
    assert (rows(card, "treatment").get(ICU["item"]) == "matched") is met, rows(card, "treatment")


# --- 5. a same-day referral told as done ------------------------------------------------------------------------------

VASCULAR = {"item": "Same-day vascular surgery assessment", "class": "required", "within": "same day",
            "target": "vascular surgery"}


@pytest.mark.parametrize(("text", "met"), [
    ("## Plan\n**1. Referral - today.** Threatened limb: I have phoned the on-call vascular surgeon, who will see "
     "her in the vascular unit today. Not a routine or 2-week-wait referral.\n- Clopidogrel 75 mg od", True),
    ("## Plan\n- Spoke to the vascular surgeon: seeing her this afternoon\n- Clopidogrel 75 mg od", True),
    ("## Plan\n- Vascular surgeon to see her in clinic next week\n- Clopidogrel 75 mg od", False),
    ("## Plan\n- Routine letter to the vascular surgeon\n- Clopidogrel 75 mg od", False),
])
def test_a_same_day_referral_told_as_done(tmp_path: Path, text: str, met: bool):
    card = _card(tmp_path, CAP, text, "treatment", VASCULAR)
    assert (rows(card, "treatment").get(VASCULAR["item"]) == "matched") is met


# --- 6. a diagnosis named as the reason a differential is raised ------------------------------------------------------

@pytest.mark.parametrize(("line", "condition", "queried"), [
    ("A migraine is the main differential given his background of cluster headache.", "cluster headache", False),
    ("Sepsis is the other differential since she has known sickle cell disease.", "sickle cell disease", False),
    ("The main differential is migraine.", "migraine", True),
    ("Differential diagnosis includes cluster headache.", "cluster headache", True),
])
def test_a_diagnosis_given_as_the_reason_is_not_on_the_differential(line: str, condition: str, queried: bool):
    doc = Document(line)
    first, last = _span(doc, condition)
    assert (cues.differential_cue(doc, first, last) is not None) is queried, line
