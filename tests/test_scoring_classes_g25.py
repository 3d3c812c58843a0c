"""Failure classes of results reported (g25, issue 32): a test is done when the answer reports its result, by an
analyte's label with a value or a finding word, in terse shorthand too; a label without a value, a target, a drug's
strength or a result under another test's label is not that test. Each test is in wording of its own, on other
topics than the sets' (a sore throat case with one more work-up item)."""

from __future__ import annotations

from pathlib import Path

import pytest

from medbench_tui.core.scoring import score
from medbench_tui.core.transcript import FinalResponse, Transcript
from medbench_tui.core.validate import load_valid_case
from tests.support.case_yaml import valid_case_with_item
from tests.test_scoring_regressions import rows

THROAT = Path("cases/im-sore-throat-001.yaml")
PLAN = "\n- Phenoxymethylpenicillin 500 mg QDS for 10 days\n- Safety-net: return if drooling or short of breath"


def _workup(tmp_path: Path, name: str, aliases: str, text: str) -> dict[str, str]:
    """The work-up rows of an answer to a copy of the sore throat case with one more acceptable work-up item
    ``name`` (``aliases`` a YAML flow list, or empty)."""
    item = f"  - item: {name}\n    class: acceptable\n" + (f"    aliases: {aliases}\n" if aliases else "")
    case = valid_case_with_item(tmp_path, THROAT, "Neck imaging", item)
    return rows(score(case, Transcript(case_id=case.id, final=FinalResponse(text=text))), "workup")


@pytest.mark.parametrize(("name", "aliases", "text", "done"), [
    # a panel's analytes with values, comma-separated on a result line
    ("Arterial blood gas", "", "Tonsillitis, FeverPAIN 4. On air: pH 7.31, pCO2 7.9, pO2 8.1, HCO3 29.", True),
    ("Blood gas", "[VBG]", "Exudative tonsillitis. pH 7.36, bicarbonate 22, BE -1.", True),
    ("Serum lactate", "", "Sepsis from tonsillitis: BP 96/60, lac 3.4, new confusion.", True),
    ("Serum lactate", "", "Septic from tonsillitis, lactate >4 on arrival.", True),
    ("Creatine kinase", "", "Tonsillitis after a long lie, CK 2100.", True),
    ("Serum osmolality", "", "Tonsillitis, not drinking, Na 126, osm 262.", True),
    ("Urea and electrolytes with anion gap", "[U&E, anion gap]", "Tonsillitis, AG 24, ketones 0.3.", True),
    # terse shorthand: a finding word right after the label
    ("G6PD level", "", "Tonsillitis. G6PD nl, so primaquine-safe if malaria later.", True),
    ("Serum hCG", "", "Tonsillitis, 24F, hCG neg.", True),
    ("Urine dipstick", "", "Tonsillitis. Dip bland, no UTI.", True),
    ("Urinalysis", "", "Tonsillitis; urine blood +++ with no red cells.", True),
    # a mark, a per cent, a rate or a fraction in the units of what is measured
    ("C-reactive protein level", "[CRP level]", "Tonsillitis improving, CRP <5 today.", True),
    ("Urine output monitoring", "", "Septic from tonsillitis, UO ~15 mL/h since admission.", True),
    ("Peak expiratory flow", "", "Tonsillitis, wheezy, PEFR 45% predicted.", True),
    ("Pulse oximetry", "", "Tonsillitis: SpO2 91% on air, RR 24.", True),
    ("Visual acuity", "[acuity check]", "Tonsillitis. Diabetic, VA R 6/9 L 6/12 at baseline.", True),
    # a label with no value or finding word reports nothing
    ("Arterial blood gas", "", "Tonsillitis, gas sent, pCO2 pending.", False),
])
def test_a_result_reported_is_the_test_done(tmp_path: Path, name: str, aliases: str, text: str, done: bool):
    found = _workup(tmp_path, name, aliases, text + PLAN)
    assert (name in found) is done, (text, found)


@pytest.mark.parametrize(("name", "aliases", "text"), [
    # a target set is no result ('keep', 'target', 'aim')
    ("Peak expiratory flow", "", "Tonsillitis, asthmatic: salbutamol, aim PEFR 80% of best."),
    # a threshold in a condition is no result
    ("Serum lactate", "", "Septic from tonsillitis. ICU if lactate > 4."),
    ("Coagulation screen", "", "Tonsillitis in AF on warfarin: target INR 2-3, dose unchanged."),
    # a drug's strength, dose or rate is no result: after anything but its own measure a per cent is a strength and a
    # rate a dose
    ("Urea and electrolytes", "", "Tonsillitis, hypokalaemic: potassium 10 mmol/h IV via a pump."),
    ("Blood glucose", "", "Tonsillitis, NBM: glucose 10% at 100 mL/h."),
    ("Blood glucose", "[glucose]", "Tonsillitis with hypos: 100 mL of 20% glucose IV stat."),
    ("Serum calcium", "[calcium]", "Tonsillitis. Calcium gluconate 10 mL IV to correct the low calcium."),
    # one result is no repeat of its test, and a glucose on a blood gas is no bedside glucose
    ("Repeat urea and electrolytes in 4 hours", "[repeat U&E, U&E]", "Tonsillitis with AKI: K 6.1, creatinine 140."),
    ("Capillary blood glucose", "", "Tonsillitis, diabetic: VBG pH 7.30, glucose 7.2."),
])
def test_what_is_no_result_reported(tmp_path: Path, name: str, aliases: str, text: str):
    found = _workup(tmp_path, name, aliases, text + PLAN)
    assert name not in found, (text, found)


def test_a_bedside_glucose_is_reported_by_its_own_labels(tmp_path: Path):
    """"BM 7.2" is a capillary glucose though a laboratory glucose beside a blood gas is not."""
    found = _workup(tmp_path, "Capillary blood glucose", "", "Tonsillitis, diabetic: BM 7.2." + PLAN)
    assert "Capillary blood glucose" in found


def test_correcting_an_analyte_as_needed_still_checks_it(tmp_path: Path):
    """"correct calcium as needed" checks the calcium first; "correct the low calcium" treats a known one."""
    text = "Tonsillitis. Correct calcium and magnesium as needed."
    found = _workup(tmp_path, "Serum calcium", "[calcium]", text + PLAN)
    assert "Serum calcium" in found


@pytest.mark.parametrize(("text", "done"), [
    ("Tonsillitis, no rigors, lactate only 2.1.", True),  # the negation is another finding's: the lactate is reported
    ("Tonsillitis. No need for a lactate.", False),
])
def test_a_negation_before_a_reported_result_is_another_findings(tmp_path: Path, text: str, done: bool):
    found = _workup(tmp_path, "Lactate", "[lactate]", text + PLAN)
    assert ("Lactate" in found) is done, (text, found)


@pytest.mark.parametrize(("text", "done"), [
    ("Tonsillitis, on lithium. K 6.6, no hyperK changes.", True),
    ("Tonsillitis, hypothermic: Osborn waves, HR 40.", True),
    ("Tonsillitis, chest pain on swallowing, no ST elevation.", True),  # the finding is denied, the ECG done
    ("Tonsillitis, K 6.6. CT head: no acute changes.", False),
])
def test_a_terse_ecg_finding_reports_the_ecg(tmp_path: Path, text: str, done: bool):
    """"no hyperK changes", "peaked Ts", "J waves" are findings only an ECG gives; "no acute changes" is any scan's."""
    found = _workup(tmp_path, "12-lead ECG", "", text + PLAN)
    assert ("12-lead ECG" in found) is done, (text, found)


@pytest.mark.parametrize("text", [
    "Tonsillitis. CT neck last year normal.",
    "Tonsillitis, recurrent: CT neck 2 years ago showed no collection.",
])
def test_a_test_done_at_a_past_time_is_history(tmp_path: Path, text: str):
    """A test followed by a past time ("last year", "2 years ago"; ``history_after_workup``) was done before this
    illness: an unexpected scan is not blamed, as a credited one is not given."""
    case = load_valid_case(THROAT)
    card = score(case, Transcript(case_id=case.id, final=FinalResponse(text=text + PLAN)))
    assert "Neck imaging" not in rows(card, "workup"), text
    assert "Neck imaging" in rows(score(case, Transcript(case_id=case.id, final=FinalResponse(
        text="Tonsillitis. CT neck today." + PLAN))), "workup")


@pytest.mark.parametrize(("text", "measured"), [
    ("uric acid 720", True),
    ("tranexamic acid 1000", False),  # "acid" is a word of "uric acid", not something measured on its own
    ("HCO3 7", True),
    ("iron sucrose 200", False),
])
def test_a_measured_thing_is_named_by_all_its_words(text: str, measured: bool):
    """A number after something a laboratory measures may be its result; the measured thing is named by all its
    words ("uric acid"), so a drug sharing one of them keeps its number as a dose."""
    from medbench_tui.core.scoring import concepts
    from medbench_tui.core.scoring.document import Document

    doc = Document(text)
    last = max(k for k in range(len(doc.tokens)) if not doc.lows[k].isdigit())
    assert concepts.names_analyte(doc, 0, last) is measured
