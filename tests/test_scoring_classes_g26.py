"""Failure classes of the diagnosis section of flawed answers (g26): the primary named as a rejected or hedged
alternative, a reason clause or a verb of the history read as a rejection, a qualifier that hid a secondary.
Each test is in wording of its own, on other topics than the sets'."""

from __future__ import annotations

import pytest

from tests.test_scoring_regressions import card, rows

DISSECTION = "em-aortic-dissection-001"
PRIMARY_DISSECTION = "Acute type A aortic dissection"
CHOLECYSTITIS = "sur-cholecystitis-001"
PRIMARY_CHOLECYSTITIS = "Acute calculous cholecystitis (gallstones with acute cholecystitis)"
CELLULITIS = "im-cellulitis-001"
TINEA = "Tinea pedis (interdigital)"
SBO = "sur-sbo-001"
HYPOKALAEMIA = "Hypokalaemia"
HYPERKALAEMIA = "im-hyperkalaemia-001"
AKI = "Acute kidney injury, stage 2, prerenal"


def _final(c) -> set[str]:
    return {e.reference for e in c.items.diagnoses if e.reference and e.status == "matched"}


def _considered(c) -> set[str]:
    return {e.reference for e in c.items.differential if e.reference and e.status != "missing"}


# --- 1. the primary by a short name, rejected or hedged: a differential, never the diagnosis ---------------


@pytest.mark.parametrize("text", [
    "Impression: musculoskeletal chest wall pain. Dissection is less likely as the radial pulses are equal.",
    "Impression: musculoskeletal chest wall pain; dissection unlikely - equal arm BPs.",
    "Working diagnosis: costochondritis.\nDifferential: dissection, pericarditis.",
    "Impression: pericarditis, less likely dissection given the normal mediastinum.",
    "Impression: pericarditis. The pain is unlikely to be a dissection.",
    "Impression: pericarditis; dissection seems unlikely with equal pulses.",
])
def test_the_primary_rejected_by_its_short_name_is_a_differential(text: str):
    """"Dissection is less likely ..." names the aortic dissection of the case by its head word: it was
    considered and put aside, a differential, and the answer's diagnosis stays the wrong one."""
    c = card(DISSECTION, text)
    assert PRIMARY_DISSECTION in _considered(c), text
    assert PRIMARY_DISSECTION not in _final(c), text
    assert c.metrics.diagnosis_accuracy == 0


@pytest.mark.parametrize("text", [
    "Diagnosis: dissection",  # a short name is never the answer's diagnosis
    "Impression: pericarditis. Dissection of a coronary artery is unlikely.",  # another dissection
    "Impression: pericarditis. Post-dissection syndrome is not likely.",  # one word with the one before
    "Impression: pericarditis. The dissection kit is not needed.",  # words run on: no noun phrase of its own
])
def test_a_short_name_not_said_alone_or_not_rejected_names_nothing(text: str):
    c = card(DISSECTION, text)
    assert PRIMARY_DISSECTION not in _considered(c) | _final(c), text


def test_a_generic_word_of_the_name_is_no_short_name():
    """"Infection" of "Acute cystitis (infection of bladder)" names no condition alone."""
    c = card("obg-uti-pregnancy-001", "Impression: vulvovaginal thrush. Infection is unlikely as the dip is clear.")
    assert "Acute cystitis (infection of bladder) in pregnancy, first trimester" not in _considered(c) | _final(c)


# --- 1b. a condition hedged after the diagnosis the section states is an alternative --------------------


@pytest.mark.parametrize("text", [
    "Impression: biliary colic. Acute cholecystitis is possible but Murphy's sign is negative.",
    "Assessment: biliary colic after a fatty meal. Cholecystitis is also possible.",
    "Impression: biliary colic; acute cholecystitis may be developing, recheck CRP.",
])
def test_the_primary_hedged_after_a_stated_diagnosis_is_a_differential(text: str):
    c = card(CHOLECYSTITIS, text)
    assert PRIMARY_CHOLECYSTITIS not in _final(c), text
    assert PRIMARY_CHOLECYSTITIS in _considered(c), text
    assert c.metrics.diagnosis_accuracy == 0


@pytest.mark.parametrize("text", [
    "Impression: acute cholecystitis is possible.",  # hedged, but the only diagnosis stated: the working one
    "Impression: acute cholecystitis, probably calculous. Biliary colic is less likely.",
    "Diagnosis: possible acute cholecystitis\nDifferential: biliary colic",
])
def test_the_primary_hedged_as_the_only_diagnosis_stays_final(text: str):
    assert PRIMARY_CHOLECYSTITIS in _final(card(CHOLECYSTITIS, text)), text


# --- 2. the reason clause of a rejection is not rejected; a comorbidity counts hedged -----------------------


@pytest.mark.parametrize("text", [
    "Impression: left leg cellulitis. A DVT is less likely as the athlete's foot between his toes is the way in.",
    "Impression: left leg cellulitis. DVT unlikely given the athlete's foot as the portal of entry.",
    "Impression: left leg cellulitis, probably from his athlete's foot.",
    "Impression: left leg cellulitis. The athlete's foot may be the way in.",
    "Impression: left leg cellulitis. His athlete's foot may be the way in.",
    "Left leg cellulitis, source ?athlete's foot. Flucloxacillin.",
])
def test_a_comorbidity_in_the_reason_of_a_rejection_is_named(text: str):
    c = card(CELLULITIS, text)
    assert TINEA in _final(c), text


@pytest.mark.parametrize("text", [
    "Impression: left leg cellulitis. Tinea is unlikely as the toe webs are clean.",
    "Impression: left leg cellulitis. No athlete's foot.",
])
def test_a_comorbidity_itself_rejected_is_not_named(text: str):
    assert TINEA not in _final(card(CELLULITIS, text)), text


def test_a_reason_word_ends_no_negation_of_a_treatment():
    """The reason rule is a condition's: "avoid NSAIDs such as ibuprofen" still withholds the ibuprofen."""
    c = card(CELLULITIS, "Impression: left leg cellulitis.\nPlan:\n- Flucloxacillin 500 mg QDS\n"
                         "- Avoid anti-inflammatories as ibuprofen can mask the spread")
    given = " ".join(rows(c, "treatment")).lower()
    assert "flucloxacillin" in given
    assert "ibuprofen" not in given and "anti-inflammator" not in given


# --- 3. a verb of the history is no rejection; a qualifier does not hide a secondary -----------------------


@pytest.mark.parametrize(("text", "named"), [
    ("Impression: adhesional SBO after two days of vomiting and then stopping, with hypokalaemia.", True),
    ("Impression: adhesional SBO vomiting since stopping her tablets, with low potassium.", True),
    ("Impression: adhesional SBO. No hypokalaemia.", False),
    ("Impression: adhesional SBO; hypokalaemia ruled out.", False),
])
def test_a_withholding_verb_of_the_history_rejects_no_condition(text: str, named: bool):
    assert (HYPOKALAEMIA in _final(card(SBO, text))) is named, text


@pytest.mark.parametrize(("text", "named"), [
    ("Assessment: post-renal AKI from retention, with hyperkalaemia.", True),
    ("Assessment: hyperkalaemia with post-renal AKI.", True),
    ("Assessment: spurious hyperkalaemia from a haemolysed sample.", False),
])
def test_a_qualifier_before_a_secondary_hides_it_not(text: str, named: bool):
    """"Post-renal AKI" is the obstructive differential's alias, and it names the AKI as well: a qualifier
    before a diagnosis's name does not hide it (a mimic's qualifier, "spurious", does: no AKI is said there)."""
    c = card(HYPERKALAEMIA, text)
    assert (AKI in _final(c)) is named, text


# --- 1c. a doubt said of the primary rejects it; a doubt that doubts nothing does not ---------------------


@pytest.mark.parametrize(("text", "final"), [
    ("Dx: biliary colic. Doubt cholecystitis - afebrile and Murphy's negative.", False),
    ("Impression: biliary colic; cholecystitis doubtful as she is afebrile.", False),
    ("Impression: no doubt this is acute cholecystitis.", True),
])
def test_a_doubt_said_of_the_primary_rejects_it(text: str, final: bool):
    assert (PRIMARY_CHOLECYSTITIS in _final(card(CHOLECYSTITIS, text))) is final, text


@pytest.mark.parametrize(("line", "given"), [
    ("- Abdominal ultrasound - little doubt it will show stones", True),
    ("- Abdominal ultrasound today: no doubt it is needed", True),
    ("- I doubt an abdominal ultrasound will add anything", False),
])
def test_a_doubt_that_doubts_nothing_declines_no_test(line: str, given: bool):
    c = card(CHOLECYSTITIS, f"Impression: acute cholecystitis.\nPlan:\n{line}")
    assert ("Abdominal ultrasound" in rows(c, "workup")) is given, line
