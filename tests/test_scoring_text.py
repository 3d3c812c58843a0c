"""Free-text finals: negation, spelling, abbreviations, aliases, sections, prose mentions,
ICD-10 codes in text, evidence spans."""

from __future__ import annotations

from pathlib import Path

import pytest

from medbench_tui.core.cases.model import Case
from medbench_tui.core.scoring import Span, score
from medbench_tui.core.text import normalise
from medbench_tui.core.transcript import FinalResponse, Transcript, Turn
from tests.support.case_yaml import case_yaml

GOLDEN = Path(__file__).parent / "data" / "scoring" / "golden-cap.yaml"


@pytest.fixture(scope="module")
def case() -> Case:
    return Case.model_validate(case_yaml(GOLDEN))


def card_for(case: Case, text: str, **final):
    return score(case, Transcript(case_id=case.id, final=FinalResponse(text=text, **final)))


def statuses(entries) -> dict[str, str]:
    return {e.reference or e.answer: e.status for e in entries}


def given(card, kind: str) -> set[str]:
    return {e.reference for e in getattr(card.items, kind) if e.reference and e.status not in ("missing",)}


def check_spans(card, text: str) -> None:
    for entity in card.extraction.entities:
        if isinstance(entity.evidence, Span) and entity.evidence.field == "text":
            assert text[entity.evidence.start : entity.evidence.end] == entity.evidence.text


# --- normalisation ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("british", "american"),
    [
        ("oesophagus", "esophagus"), ("haemorrhage", "hemorrhage"), ("anaemia", "anemia"),
        ("paediatric", "pediatric"), ("oedema", "edema"), ("ischaemia", "ischemia"),
        ("haematology", "hematology"), ("hypokalaemia", "hypokalemia"), ("oestrogen", "estrogen"),
        ("foetal", "fetal"), ("leukaemia", "leukemia"), ("diarrhoea", "diarrhea"),
        ("gastro-oesophageal reflux", "gastroesophageal reflux"), ("tumour", "tumor"),
        ("coeliac", "celiac"), ("caecum", "cecum"), ("dyspnoea", "dyspnea"), ("faecal", "fecal"),
        ("haemoglobin", "hemoglobin"), ("anaesthetist", "anesthetist"), ("hospitalise", "hospitalize"),
        ("catheterisation", "catheterization"), ("centre", "center"), ("sulphate", "sulfate"),
        ("counselling", "counseling"), ("paracetamol", "acetaminophen"), ("salbutamol", "albuterol"),
        ("adrenaline", "epinephrine"), ("GORD", "GERD"), ("orthopaedic", "orthopedic"),
    ],
)
def test_british_and_american_spelling_agree(british, american):
    assert normalise(british).replace(" ", "") == normalise(american).replace(" ", "")


@pytest.mark.parametrize(
    ("short", "long"),
    [
        ("CXR", "chest X-ray"), ("CXR", "chest radiograph"), ("FBC", "full blood count"),
        ("CBC", "complete blood count"), ("U&Es", "urea and electrolytes"), ("BMP", "U&E"),
        ("CRP", "C-reactive protein"), ("ECG", "EKG"), ("ECG", "electrocardiogram"),
        ("CT", "computed tomography"), ("MRI", "magnetic resonance imaging"), ("ABG", "arterial blood gas"),
        ("LFTs", "liver function tests"), ("IV", "intravenous"), ("PO", "by mouth"), ("OGD", "EGD"),
        ("A&E", "emergency department"), ("ED", "emergency room"), ("x-ray", "xray"),
        ("FBC", "blood count"), ("FBC", "full blood counts"), ("TFTs", "thyroid test"), ("WBC", "white blood count"),
        ("reduce alcohol", "cut down alcohol"), ("reduce alcohol", "cut back on alcohol"),
        ("reduce alcohol", "drink less alcohol"),
        ("reduce alcohol", "cutting down on alcohol"),
        ("temperature", "temp"),
        ("dipstick urine", "dipping urine"),
    ],
)
def test_abbreviations_agree(short, long):
    assert normalise(short).replace(" ", "") == normalise(long).replace(" ", "")


def test_everyday_words_are_not_abbreviations():
    assert normalise("call us") == "call us"
    assert normalise("I'm sure") == "im sure"
    assert normalise("US abdomen") == "ultrasound abdomen"


def test_case_punctuation_and_plurals():
    assert normalise("Blood Cultures!") == normalise("blood culture")
    assert normalise("CT of the abdomen") == normalise("ct abdomen")


# --- matching: spelling, abbreviations, aliases, typos -------------------------------


def test_matching_through_abbreviations_spelling_and_typos(case):
    text = "Plan: CBC, C reactive protein, chest radiography; start amoxicilin."
    card = card_for(case, text)
    assert statuses(card.items.workup) == {
        "Chest X-ray": "matched", "Full blood count": "matched", "C-reactive protein": "matched",
    }
    amoxicillin = next(e for e in card.items.treatment if e.reference == "Amoxicillin")
    assert amoxicillin.status == "matched" and amoxicillin.note == "matched by typo"
    check_spans(card, text)


def test_british_reference_matches_american_text(bundled_cases):
    colorectal = Case.model_validate(case_yaml(bundled_cases / "onc-colorectal-001.yaml"))
    reference_without_us = colorectal.model_copy(deep=True)
    reference_without_us.workup[1].aliases = ["OGD"]  # keep only the British name and its abbreviation
    card = score(reference_without_us, Transcript(case_id=colorectal.id, final=FinalResponse(
        workup=["Esophagogastroduodenoscopy", "complete blood count"], diagnoses=["cecal cancer"])))
    # acceptable in this primary-care case (the GP refers; the hospital scopes): still matched by name
    assert statuses(card.items.workup)["Oesophagogastroduodenoscopy"] in ("matched", "acceptable")
    assert statuses(card.items.workup)["Full blood count"] == "matched"
    assert card.metrics.diagnosis_accuracy == 100


def test_acronym_aliases_match_capitals_only(bundled_cases):
    colorectal = Case.model_validate(case_yaml(bundled_cases / "onc-colorectal-001.yaml"))
    fit = score(colorectal, Transcript(case_id=colorectal.id, final=FinalResponse(text="Plan: a FIT.")))
    fine = score(colorectal, Transcript(case_id=colorectal.id, final=FinalResponse(text="He is fit and well.")))
    assert "Faecal immunochemical test" in given(fit, "workup")
    assert "Faecal immunochemical test" not in given(fine, "workup")


def test_word_order_in_a_structured_item(case):
    card = score(case, Transcript(case_id=case.id, final=FinalResponse(workup=["X-ray, chest"])))
    assert statuses(card.items.workup)["Chest X-ray"] == "matched"


# --- negation -----------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "Plan: amoxicillin. No need for a CTPA.",
        "Plan: amoxicillin. I would not request a CTPA.",
        "Plan: amoxicillin. A CTPA is not needed.",
        "Plan: amoxicillin. CTPA not indicated.",
        "Plan: amoxicillin. Don't do a CTPA.",
        "Plan: amoxicillin. Do not order CTPA or bronchoscopy.",
        "Plan: amoxicillin. Avoid CTPA.",
        "Plan: amoxicillin, without a CTPA.",
        "Plan: amoxicillin. Never CTPA here.",
    ],
)
def test_negated_workup_is_not_given(case, text):
    card = card_for(case, text)
    assert "CT pulmonary angiography" not in given(card, "workup")
    assert "Amoxicillin" in given(card, "treatment")
    assert any(e.negated for e in card.extraction.entities)


@pytest.mark.parametrize(
    ("text", "is_given"),
    [
        ("I would not give levofloxacin.", False),
        ("Levofloxacin is contraindicated.", False),
        ("Stop the levofloxacin.", False),
        ("Avoid levofloxacin; give amoxicillin.", False),
        ("No CTPA, start levofloxacin.", True),  # an action verb after a comma ends the reach
        ("Avoid NSAIDs and give levofloxacin.", True),  # and after "and"
        # conditional on an event the record does not establish
        ("If no improvement in 48 hours, levofloxacin.", False),
        ("Levofloxacin, not amoxicillin.", True),  # a cue after a comma does not reach back
        ("I'd start levofloxacin.", True),
        ("No penicillin allergy: levofloxacin.", True),  # a colon ends the clause
    ],
)
def test_negation_scope(case, text, is_given):
    card = card_for(case, text)
    assert ("Levofloxacin" in given(card, "treatment")) is is_given
    implicit = next(c for c in card.critical_conditions if c.id == "cc-implicit-contraindicated")
    assert implicit.status == ("FAIL" if is_given else "OK")


def test_negation_reaches_across_a_list(case):
    card = card_for(case, "Avoid ibuprofen, levofloxacin and bronchoscopy.")
    assert "Levofloxacin" not in given(card, "treatment")
    assert "Bronchoscopy" not in given(card, "workup")
    assert next(c for c in card.critical_conditions if c.id == "cc-no-nsaids").status == "OK"


@pytest.mark.parametrize(
    ("text", "diagnosis", "differential"),
    [
        ("This is not pneumonia. It is acute bronchitis.", False, True),  # rejected alternatives are differential
        ("No evidence of pneumonia; acute bronchitis.", False, True),
        ("Pneumonia has been ruled out. Acute bronchitis.", False, True),
        ("Acute bronchitis. Rule out pneumonia.", False, True),
        ("Acute bronchitis. Pneumonia unlikely.", False, True),
        ("Acute bronchitis, cannot rule out pneumonia.", False, True),
        ("Acute bronchitis; ?pneumonia.", False, True),
        ("Acute bronchitis, possible pneumonia.", False, True),
        ("Consider pneumonia. Most likely acute bronchitis.", False, True),
        ("This is pneumonia.", True, False),
    ],
)
def test_diagnosis_mentions_in_prose(case, text, diagnosis, differential):
    card = card_for(case, text)
    assert (card.metrics.diagnosis_accuracy == 100) is diagnosis
    in_differential = any(e.reference == "Community-acquired pneumonia" for e in card.items.differential)
    assert in_differential is differential


def test_rule_out_is_a_differential_not_a_negation(case):
    card = card_for(
        case, "Diagnosis: community-acquired pneumonia.\nCTPA is not needed, but we should rule out PE clinically."
    )
    assert statuses(card.items.differential)["Pulmonary embolism"] == "matched"
    assert "CT pulmonary angiography" not in given(card, "workup")


# --- sections and prose mentions ------------------------------------------------------


def test_sections_of_a_markdown_final(case):
    text = """## Assessment
**Most likely diagnosis:** Community-acquired pneumonia (J18.9), right lower lobe
**Differential diagnoses:**
1. Acute bronchitis - less likely given the fever
2. Pulmonary embolism, lung cancer; asthma

### Investigations
- CXR, FBC and CRP
- Sputum culture

### Management
- Amoxicillin 500 mg TDS for 5 days
- Paracetamol PRN
- Smoking cessation advice
- CT head

**Safety-netting:** seek urgent care if breathless or confused.
"""
    card = card_for(case, text)
    m = card.metrics
    assert (m.diagnosis_accuracy, m.primary_icd10) == (100, "exact")
    # bronchitis, PE, lung cancer of 4; asthma extra: precision 3 / 4
    assert (m.differential_accuracy, m.differential_precision) == (75.0, 75.0)
    assert statuses(card.items.differential)["asthma"] == "extra"
    assert m.workup_score == 100.0 - 0.25 * 2 / 4 * 100  # sputum culture and CT head are unlisted
    assert statuses(card.items.workup) == {
        "Chest X-ray": "matched", "Full blood count": "matched", "C-reactive protein": "matched",
        "Sputum culture": "extra", "CT head": "extra",
    }
    assert statuses(card.items.treatment) == {
        "Amoxicillin": "matched", "Paracetamol": "acceptable", "Smoking cessation advice": "matched",
    }
    assert m.treatment_accuracy == 100.0
    assert m.critical_conditions_passed == 100
    check_spans(card, text)


def test_headings_known_by_their_last_words(case):
    text = (
        "Differential: acute bronchitis (must be excluded first), PE.\n"
        "Immediate plan:\n1. Amoxicillin 500 mg loading dose\n2. Avoid levofloxacin and opiates where possible\n"
        "- Smoking cessation advice\n- Urgent respiratory referral\n"
    )
    card = card_for(case, text)
    assert not [e for e in card.items.differential if e.status == "extra"]
    assert statuses(card.items.treatment) == {
        "Amoxicillin": "matched", "Smoking cessation advice": "matched",
    }  # an unlisted referral is a disposition: left out, not extra (scoring.md, "Answer items")


def test_a_bulleted_label_labels_its_line_only(case):
    text = "Plan:\n- Blood tests: FBC, CRP\n- Refer to respiratory clinic\n1. Differential: PE\n2. Amoxicillin\n"
    card = card_for(case, text)
    assert statuses(card.items.treatment) == {"Amoxicillin": "matched", "Smoking cessation advice": "missing"}
    assert statuses(card.items.differential)["Pulmonary embolism"] == "matched"
    assert given(card, "workup") == {"Full blood count", "C-reactive protein"}


def test_prose_treatment_mention_counts(case):
    card = card_for(case, "I think it's a chest infection; I'd start amoxicillin and get a chest X-ray.")
    assert "Amoxicillin" in given(card, "treatment")
    assert "Chest X-ray" in given(card, "workup")


def test_prose_diagnosis_ignored_when_there_is_a_diagnosis_section(case):
    card = card_for(case, "Diagnosis: acute bronchitis.\nPlan: reassure; pneumonia would need antibiotics.")
    assert card.metrics.diagnosis_accuracy == 0


def test_a_differential_section_is_never_the_diagnosis(case):
    card = card_for(case, "Differential:\n- Community-acquired pneumonia\n- Influenza")
    assert card.metrics.diagnosis_accuracy == 0
    assert statuses(card.items.differential)["Influenza"] == "matched"


def test_inline_headings(case):
    card = card_for(case, "Diagnosis: CAP. Plan: amoxicillin and CXR. Advice: return precautions.")
    assert card.metrics.diagnosis_accuracy == 100
    assert "Amoxicillin" in given(card, "treatment") and "Chest X-ray" in given(card, "workup")
    assert next(c for c in card.critical_conditions if c.id == "cc-return").status == "OK"


def test_avoid_heading_negates_its_items(case):
    card = card_for(case, "Diagnosis: CAP\nTreatment: amoxicillin\nAvoid:\n- levofloxacin\n- NSAIDs")
    assert "Levofloxacin" not in given(card, "treatment")
    assert card.metrics.critical_conditions_passed == 0  # return precautions missing...
    assert {c.id: c.status for c in card.critical_conditions}["cc-no-nsaids"] == "OK"


def test_history_is_not_a_recommendation_but_a_result_is_workup(case):
    history = card_for(case, "Diagnosis: CAP. A previous chest X-ray was normal. Plan: amoxicillin.")
    assert given(history, "workup") == set()
    result = card_for(case, "Diagnosis: CAP. The chest X-ray showed consolidation and CRP was 180.")
    assert given(result, "workup") == {"Chest X-ray", "C-reactive protein"}
    taking = card_for(case, "Diagnosis: CAP. She is currently on paracetamol. Start amoxicillin.")
    assert given(taking, "treatment") == {"Amoxicillin"}


@pytest.mark.parametrize(
    "text",
    [
        "Diagnosis: NSAID-induced gastritis. Plan: amoxicillin.",
        "Diagnosis: NSAID gastropathy. Plan: amoxicillin.",
        "Plan: amoxicillin; she is allergic to ibuprofen.",
        "Plan: amoxicillin. Ibuprofen allergy noted.",
    ],
)
def test_a_drug_named_as_part_of_a_condition_is_not_given(case, text):
    card = card_for(case, text)
    assert {c.id: c.status for c in card.critical_conditions}["cc-no-nsaids"] == "OK"
    assert "Amoxicillin" in given(card, "treatment")


def test_allergy_to_a_reference_drug_is_not_giving_it(case):
    card = card_for(case, "Penicillin allergy: he is allergic to amoxicillin, so clarithromycin.")
    assert given(card, "treatment") == {"Clarithromycin"}


def test_doses_and_routes_are_not_extra_treatments(case):
    card = card_for(
        case, "Treatment:\n- Amoxicillin 500 mg PO three times daily for 5 days\n- Start paracetamol 1 g QDS"
    )
    assert [e.status for e in card.items.treatment if e.status == "extra"] == []


def test_leftover_in_a_plan_reads_as_a_test_or_a_treatment(case):
    card = card_for(case, "Plan:\n- Blood cultures\n- Refer to respiratory clinic\n- Omeprazole 20 mg OD")
    assert statuses(card.items.workup).get("Blood cultures") == "extra"
    # an unlisted drug is extra; an unlisted referral is left out (scoring.md, "Answer items")
    assert statuses(card.items.treatment).get("Omeprazole 20 mg OD") == "extra"
    assert "Refer to respiratory clinic" not in statuses(card.items.treatment)


# --- ICD-10 codes in text ---------------------------------------------------------------


def test_code_on_its_own_line_belongs_to_the_diagnosis(case):
    card = card_for(case, "Diagnosis: community-acquired pneumonia\nICD-10: J18.9")
    assert card.metrics.primary_icd10 == "exact"
    assert card.items.diagnoses[0].icd10 == "J18.9"


def test_a_code_alone_is_a_diagnosis(case):
    card = card_for(case, "Diagnosis: J18.9")
    assert (card.metrics.diagnosis_accuracy, card.metrics.primary_icd10) == (100, "exact")


def test_codes_attach_to_the_nearest_diagnosis(case):
    card = card_for(case, "Diagnoses: acute bronchitis (J20.9); nicotine dependence (F17.2)")
    codes = {e.reference or e.answer: e.icd10 for e in card.items.diagnoses if e.answer}
    assert codes == {"Nicotine dependence": "F17.2", "acute bronchitis": "J20.9"}
    # J20.9 and J18.9 are both in chapter X (respiratory); F17.2 is in chapter V
    assert card.metrics.primary_icd10 == "chapter"


def test_vitamin_names_are_not_codes(case):
    card = card_for(case, "Diagnosis: pneumonia. Plan: amoxicillin; check vitamin B12 later.")
    assert all(e.icd10 is None for e in card.extraction.entities)


# --- what is scored: only the final -------------------------------------------------------


def test_a_hypothesis_dropped_before_the_final_does_not_count(case):
    transcript = Transcript(
        case_id=case.id,
        turns=[
            Turn(role="doctor", text="Could this be pneumonia? I'd give amoxicillin and get a CXR."),
            Turn(role="patient", text="I don't know, doctor."),
        ],
        final=FinalResponse(text="Diagnosis: acute bronchitis. Plan: rest and fluids."),
    )
    card = score(case, transcript)
    assert card.metrics.diagnosis_accuracy == 0
    assert given(card, "workup") == set() and "Amoxicillin" not in given(card, "treatment")


def test_structured_and_text_together_count_once(case):
    card = card_for(case, "Plan: CXR and amoxicillin.", workup=["Chest X-ray"], treatment=["Amoxicillin"])
    assert [e.status for e in card.items.workup if e.reference == "Chest X-ray"] == ["matched"]
    assert not [e for e in card.items.workup + card.items.treatment if e.status == "extra"]
    assert [e.evidence for e in card.items.workup if e.reference == "Chest X-ray"] == ["structured field workup[0]"]


def test_negated_structured_item(case):
    card = score(
        case, Transcript(case_id=case.id, final=FinalResponse(treatment=["Amoxicillin", "Avoid levofloxacin"]))
    )
    assert "Levofloxacin" not in given(card, "treatment")


def test_advice_field_is_read(case):
    card = card_for(case, "Diagnosis: CAP", advice="Return precautions given: seek urgent care if worse.")
    cond = next(c for c in card.critical_conditions if c.id == "cc-return")
    assert cond.status == "OK" and cond.span is not None and cond.span.field == "advice"
