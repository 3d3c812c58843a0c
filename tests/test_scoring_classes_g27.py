"""What a plan line really does (g27): conditions on results still to come, purposes, later trends, labels,
routes, switches, safety-netting under its heading and a test inside an exclusion. Each test is in wording of
its own, on other topics than the tuning set's, with wrong plans that must still fail."""

from __future__ import annotations

from pathlib import Path

import pytest

from medbench_tui.core.scoring import score
from medbench_tui.core.transcript import FinalResponse, Transcript
from medbench_tui.core.validate import load_valid_case
from tests.support.case_yaml import with_item
from tests.test_scoring_regressions import condition, rows

CASES = Path("cases")


def _card(case_file: Path, text: str):
    case = load_valid_case(case_file)
    return score(case, Transcript(case_id=case.id, final=FinalResponse(text=text)))


def _given(case_file: Path, text: str, kind: str = "treatment") -> dict[str, str]:
    return rows(_card(case_file, text), kind)


def _with(tmp_path: Path, source: str, before: str, item: str) -> Path:
    """A copy of a bundled case with one more item, its attachments beside it."""
    return with_item(tmp_path, CASES / source, before, item)


# --- 1. a treatment made conditional on a result still to come is its withholding until the result ------------

PARACETAMOL = CASES / "em-paracetamol-overdose-001.yaml"
NAC_WAIT = "Withholding acetylcysteine until a level is plotted on the treatment nomogram"
NAC_NOW = "Intravenous acetylcysteine started immediately without waiting for the paracetamol level"
PID = CASES / "obg-pid-001.yaml"
PID_WAIT = "Withholding antibiotics until swab results are available"
NEUTROPENIC = CASES / "onc-neutropenic-sepsis-001.yaml"
COUNT_WAIT = "Withhold antibiotics until the neutrophil count is known"


@pytest.mark.parametrize(("case_file", "text", "item", "withheld"), [
    (PARACETAMOL, "Staggered overdose. Send a paracetamol level; start acetylcysteine if the level comes back above "
                  "the treatment line.", NAC_WAIT, True),
    (PID, "PID. Swabs for chlamydia and gonorrhoea; start antibiotics if the swabs come back positive.", PID_WAIT,
     True),
    (NEUTROPENIC, "Come in now. FBC on arrival; Tazocin 4.5 g IV only if the neutrophils are below 0.5.", COUNT_WAIT,
     True),
    (NEUTROPENIC, "Come in now. FBC on arrival; pip-taz if the FBC confirms neutropenia.", COUNT_WAIT, True),
    # given now, the wait is for something else: no withholding
    (PARACETAMOL, "Staggered overdose. Start IV acetylcysteine now; send a paracetamol level and stop the infusion "
                  "if it comes back undetectable with a normal ALT.", NAC_WAIT, False),
    (NEUTROPENIC, "Come in now. IV pip-taz within the hour; add gentamicin if the cultures come back positive.",
     COUNT_WAIT, False),
])
def test_a_treatment_waiting_for_a_result_is_its_withholding(case_file, text, item, withheld):
    """"Start X if the level comes back raised" holds X back until the result: the harmful withholding item."""
    assert (item in _given(case_file, text)) is withheld, text


def test_the_drug_held_back_for_a_result_is_not_given(tmp_path: Path):
    card = _card(PARACETAMOL, "Send a paracetamol level; start acetylcysteine if the level comes back above the line.")
    assert NAC_NOW not in rows(card, "treatment")


def test_a_condition_the_record_settles_is_no_wait(tmp_path: Path):
    """K 7.4 in the record: "calcium gluconate if the potassium is above 6.5" gives it now; a repeat value still to
    come is a wait."""
    item = ("  - item: Withholding calcium gluconate until the potassium result is back\n"
            "    class: contraindicated\n")
    case = _with(tmp_path, "im-hyperkalaemia-001.yaml", "Stop ramipril and spironolactone", item)
    now = _given(case, "Hyperkalaemia. Calcium gluconate 10% 30 mL IV if the potassium is above 6.5.")
    assert "Withholding calcium gluconate until the potassium result is back" not in now
    assert "Intravenous calcium gluconate 10% 30 mL over 10 minutes" in now
    later = _given(case, "Hyperkalaemia. Calcium gluconate 10% 30 mL IV if the repeat potassium comes back above 6.5.")
    assert "Withholding calcium gluconate until the potassium result is back" in later


# --- 2. "in case of" after an action is its purpose, not a condition ----------------------------------------------

CELLULITIS = CASES / "im-cellulitis-001.yaml"


@pytest.mark.parametrize(("text", "given"), [
    ("Cellulitis. IV flucloxacillin 2 g in case of a deeper infection.", True),
    ("Cellulitis. IV flucloxacillin 2 g to cover a deeper infection.", True),
    ("Cellulitis. IV flucloxacillin 2 g as a precaution against a deeper infection.", True),
    ("Cellulitis. Oral flucloxacillin. In case of a deeper infection, IV flucloxacillin 2 g.", False),
    ("Cellulitis. Oral flucloxacillin; IV flucloxacillin only if it spreads.", False),
])
def test_in_case_of_after_an_action_gives_its_purpose(text, given):
    """"X in case of Y" does X now for Y; opening its clause, "in case of Y, X" is a contingency."""
    assert ("Intravenous antibiotics" in _given(CELLULITIS, text)) is given, text


# --- 3. a condition on a later trend, and a later time, is no action now -------------------------------------------

QUINSY = CASES / "em-quinsy-001.yaml"


@pytest.mark.parametrize(("text", "met"), [
    ("Quinsy. IV benzylpenicillin; ENT to review today.", True),
    ("Quinsy. IV benzylpenicillin; ENT to review today if the swelling is still increasing.", False),
    ("Quinsy. IV benzylpenicillin; ENT to see him if the trismus keeps worsening.", False),
    ("Quinsy. IV benzylpenicillin; ENT to review on tomorrow's ward round.", False),
    ("Quinsy. IV benzylpenicillin; ENT to review in the morning.", False),
    ("Quinsy. IV benzylpenicillin; ENT to see him first thing in the morning.", False),
])
def test_a_later_trend_or_time_is_no_same_day_referral(text, met):
    assert ("Same-day ENT referral" in _given(QUINSY, text)) is met, text


# --- 4. a bold label whose verdict is a condition gives nothing now ------------------------------------------------

@pytest.mark.parametrize(("text", "given"), [
    ("Quinsy. IV benzylpenicillin; same-day ENT.\n- **Steroids:** if the trismus is still worsening after "
     "drainage, dexamethasone 8 mg IV", False),
    ("Quinsy. IV benzylpenicillin; same-day ENT.\n- **Steroids:** if the swelling is persisting tomorrow, discuss "
     "dexamethasone with ENT", False),
    ("Quinsy. IV benzylpenicillin; same-day ENT.\n- **Steroids:** dexamethasone 8 mg IV now", True),
])
def test_a_label_whose_verdict_is_a_condition_gives_nothing(text, given):
    assert ("Single dose of intravenous dexamethasone" in _given(QUINSY, text)) is given, text


# --- 5. a harmful item of a route and a drug class ------------------------------------------------------------------

ORAL_FIRST = ("  - item: Oral antibiotics instead of IV as initial treatment\n"
              "    class: contraindicated\n    weight: 3\n    route: oral\n")


@pytest.mark.parametrize(("text", "oral_item", "iv_item"), [
    ("Severe CAP. Admit. Amoxicillin 1 g orally three times daily and clarithromycin.", True, None),
    ("Severe CAP. Admit. Co-amoxiclav 625 mg PO TDS for 7 days.", True, None),
    # a correct plan that steps down later is no oral-first plan
    ("Severe CAP. Admit. IV co-amoxiclav 1.2 g TDS and clarithromycin; switch to oral co-amoxiclav 625 mg TDS "
     "after 48 hours if afebrile.", False, "matched"),
    ("Severe CAP. Admit. Co-amoxiclav 1.2 g IV three times daily.", False, "matched"),
    # a drug named with no route says nothing of the route
    ("Severe CAP. Admit. Co-amoxiclav and clarithromycin.", False, "matched"),
])
def test_a_drug_of_the_class_by_the_route_meets_a_harmful_route_item(tmp_path: Path, text, oral_item, iv_item):
    case = _with(tmp_path, "im-cap-002.yaml", "Intravenous co-amoxiclav", ORAL_FIRST)
    found = _given(case, text)
    assert ("Oral antibiotics instead of IV as initial treatment" in found) is oral_item, text
    if oral_item:  # the oral drug is the harmful item, no "different" form of the IV one
        assert found.get("Intravenous co-amoxiclav") != "different", text
    else:
        assert found.get("Intravenous co-amoxiclav") == iv_item, text


@pytest.mark.parametrize(("text", "oral_only"), [
    ("Adrenal crisis. Hydrocortisone 20 mg orally now and double the dose.", True),
    ("Adrenal crisis. Hydrocortisone 100 mg IV stat, then 50 mg IV 6-hourly; once eating, hydrocortisone 20 mg "
     "orally.", False),
    ("Adrenal crisis. Hydrocortisone 100 mg IM now.", False),
])
def test_an_item_instead_of_another_route_is_about_its_own_part(text, oral_only):
    """"Oral hydrocortisone only (doubled tablets) instead of parenteral" is about oral hydrocortisone, and is not
    met by a step-down after the parenteral dose."""
    found = _given(CASES / "em-adrenal-crisis-001.yaml", text)
    assert ("Oral hydrocortisone only (doubled tablets) instead of parenteral" in found) is oral_only, text


# --- 6. a switch stops what it leaves ------------------------------------------------------------------------------

HYPONATRAEMIA = CASES / "im-hyponatraemia-001.yaml"
UGIB = CASES / "em-upper-gi-bleed-001.yaml"


@pytest.mark.parametrize(("case_file", "text", "item", "stopped"), [
    (HYPONATRAEMIA, "SIADH from the SSRI. Switch from sertraline to mirtazapine 15 mg at night.", "Stop sertraline",
     True),
    (UGIB, "Peptic ulcer bleed. Change from naproxen to paracetamol for his knee.", "Stop naproxen", True),
    # a swap within what the item stops is no stop
    (HYPONATRAEMIA, "SIADH from the SSRI. Switch sertraline to citalopram 10 mg.", "Stop sertraline", False),
    (UGIB, "Peptic ulcer bleed. Switch his naproxen to ibuprofen 400 mg TDS.", "Stop naproxen", False),
])
def test_a_switch_stops_what_it_leaves(case_file, text, item, stopped):
    assert (item in _given(case_file, text)) is stopped, text


# --- 7. safety-netting under its heading ----------------------------------------------------------------------------

SORE_THROAT = CASES / "im-sore-throat-001.yaml"
SORE_NET = "Safety-netting advice on red flags and when to call back"


@pytest.mark.parametrize(("text", "net"), [
    ("Viral sore throat. Paracetamol and fluids.\n\n## Red flags\nCome to the surgery the same day if swallowing "
     "gets worse or you start to drool.", True),
    ("Viral sore throat. Paracetamol and fluids.\n\n### When to seek help\nIf you cannot swallow your saliva, attend "
     "the out-of-hours GP.", True),
    ("Viral sore throat. Paracetamol and fluids. Go straight back to the out-of-hours GP service at the health "
     "centre if you cannot swallow.", True),
    ("Viral sore throat. Paracetamol and fluids.\n\n### Avoid\n- no antibiotics\n\n## Safety-netting\nGo back to "
     "the surgery (or the walk-in centre at weekends) if it is no better in a week.", True),
    # no condition: an appointment, not a safety net
    ("Viral sore throat. Paracetamol and fluids.\n\n## Red flags\nCome to the surgery next week for a review.", False),
])
def test_safety_netting_under_its_heading(text, net):
    assert (SORE_NET in _given(SORE_THROAT, text)) is net, text


def test_a_heading_s_own_words_are_not_the_list_before_it():
    """"## Safety-netting" after an Avoid list opens its own section: it is not advised against."""
    card = _card(SORE_THROAT, "Viral sore throat.\n\n### Avoid\n- no antibiotics\n\n## Safety-netting\nSee above.")
    assert SORE_NET in rows(card, "treatment")


# --- 8. a test reported inside an exclusion; a label's verdict --------------------------------------------------------

RENAL_US = ("  - item: Renal tract ultrasound\n    class: acceptable\n"
            "    aliases: [ultrasound for hydronephrosis]\n")


@pytest.mark.parametrize(("text", "done"), [
    ("Renal colic.\nDifferential: obstructed infected kidney - no hydronephrosis on ultrasound.", True),
    ("Renal colic. No hydronephrosis on ultrasound; NSAID analgesia.", True),
    ("Renal colic. No ultrasound for hydronephrosis needed; NSAID analgesia.", False),
])
def test_a_test_said_around_its_finding_is_done(tmp_path: Path, text, done):
    case = _with(tmp_path, "em-renal-colic-001.yaml", "Urinalysis", RENAL_US)
    assert ("Renal tract ultrasound" in _given(case, text, "workup")) is done, text


FEBRILE_INFANT = CASES / "ped-febrile-infant-001.yaml"


@pytest.mark.parametrize(("text", "met"), [
    ("Febrile infant: IV cefotaxime, admit.\n- **Breastfeeds:** can continue on demand", True),
    ("Febrile infant: IV cefotaxime, admit.\n- Breastfeeds: continue, with a feeding chart", True),
    ("Febrile infant: IV cefotaxime, admit.\n- **Breastfeeding:** cannot continue while so drowsy", False),
    ("Febrile infant: IV cefotaxime, admit.\n- **Breastfeeding:** stop for now", False),
])
def test_a_label_is_read_with_its_verdict(text, met):
    """"Breastfeeding: can continue" is "continue breastfeeding", unless the verdict negates it."""
    assert ("Continue breastfeeding with a feeding plan" in _given(FEBRILE_INFANT, text)) is met, text


def test_a_withholding_wait_fails_its_critical_condition():
    card = _card(NEUTROPENIC, "Come in now. FBC on arrival; start IV piperacillin-tazobactam only if the neutrophil "
                              "count is below 1.0.")
    assert condition(card, "cc-antibiotics-1h") == "FAIL"


def test_a_bulleted_bold_line_under_avoid_is_one_more_thing_to_avoid() -> None:
    """'- **Contrast CT.**' under '## Avoid' is avoided, not a sub-heading that ends the list."""
    from medbench_tui.core.scoring.sections import parse

    text = "## Avoid\n- **Plasma exchange** - not indicated.\n- **Contrast CT.**\n- **Biopsy now** (low platelets).\n"
    layout = parse(text)
    assert layout.section_at(text.index("Contrast")).kind == "avoid"
    assert layout.section_at(text.index("Biopsy")).kind == "avoid"
    own_line = "## Avoid\n- NSAIDs\n**After surgery**\n- Paracetamol regularly\n"
    assert parse(own_line).section_at(own_line.index("Paracetamol")).kind != "avoid"
