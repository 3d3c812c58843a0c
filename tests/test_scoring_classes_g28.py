"""Failure classes of history and negation scope (g28, issue 32): a treatment named as the patient's history is not
given; "stop", "withdraw" or "wean" a drug does not give it; a bare negation ends at the comma where a new action
follows; a test put off or listed to avoid is not done, nor is a test word inside a mechanism's name; a need a test
prepares for ("in case ...") is not a plan. Each test is in wording of its own, on other topics than the sets' cases
(cellulitis, intussusception, iron-deficiency anaemia, tiredness, anaphylaxis), with wrong plans that must still
fail."""

from __future__ import annotations

from pathlib import Path

import pytest

from medbench_tui.core.scoring import score
from medbench_tui.core.transcript import FinalResponse, Transcript
from tests.support.case_yaml import valid_case_with_item
from tests.test_scoring_regressions import card, condition, rows

CELLULITIS_PLAN = (
    "\nPlan:\n- Oral flucloxacillin 1 g QDS for 7 days\n- Elevate the leg\n- Terbinafine cream to the toe webs"
    "\n- Mark the edge of the erythema\n- Come back the same day if the redness spreads past the line or she gets a"
    " fever\n- Review in 48 hours if not improving"
)


# --- 1. a treatment named as the patient's history is not given -------------------------------------------------


@pytest.mark.parametrize("history", [
    # a change of the illness after the treatment
    "Cellulitis of the left shin, worse after ciprofloxacin from the walk-in centre.",
    "Left shin cellulitis; the redness spread on ciprofloxacin over the weekend.",
    # a response that did not come, a failure, a course in spite of which it spread, a drug tried
    "Left shin cellulitis, no response to ciprofloxacin 500 mg BD for 3 days.",
    "Cellulitis of the left shin that has failed ciprofloxacin and doxycycline.",
    "Spreading erythema of the left shin despite ciprofloxacin since Friday.",
    "Left shin cellulitis. She has been taking ciprofloxacin left over from a UTI.",
])
def test_a_treatment_named_as_history_is_not_given(history: str):
    c = card("im-cellulitis-001", history + CELLULITIS_PLAN)
    assert "Ciprofloxacin" not in rows(c, "treatment"), history
    assert condition(c, "cc-no-fluoroquinolone") == "OK"
    assert condition(c, "cc-implicit-contraindicated") == "OK"


def test_a_second_drug_after_a_failure_is_history_too():
    """"failed ciprofloxacin and doxycycline": doxycycline is no oral antibiotic of the plan."""
    c = card("im-cellulitis-001", "Left shin cellulitis that has failed ciprofloxacin and doxycycline.\nPlan:\n"
                                  "- Elevate the leg")
    assert condition(c, "cc-oral-antibiotic") == "FAIL"


@pytest.mark.parametrize("text", [
    # under a heading that describes the patient, in an answer with a plan section
    "## Clinical summary\n68-year-old woman, left shin cellulitis, has used ciprofloxacin for 2 days.\n\n## Plan"
    + CELLULITIS_PLAN.replace("\nPlan:", ""),
    "## Diagnosis\nCellulitis of the left shin\n**Supporting features:** warm, tender, spreading; taking "
    "ciprofloxacin from the out-of-hours GP; tinea between the toes.\n\n## Management" + CELLULITIS_PLAN.replace(
        "\nPlan:", ""),
    # the case for or against a differential, after its table cell or dash
    "## Diagnosis\nCellulitis of the left shin\n\n## Differential diagnosis\n| Condition | For / against |\n"
    "|---|---|\n| Abscess | Ciprofloxacin partly treated it; no fluctuance |\n\n## Plan" + CELLULITIS_PLAN.replace(
        "\nPlan:", ""),
    "## Diagnosis\nCellulitis of the left shin\n\n## Differential diagnosis\n- Drug rash - ciprofloxacin since "
    "Tuesday could explain some of it\n\n## Plan" + CELLULITIS_PLAN.replace("\nPlan:", ""),
])
def test_a_treatment_where_the_answer_describes_the_patient_is_history(text: str):
    c = card("im-cellulitis-001", text)
    assert "Ciprofloxacin" not in rows(c, "treatment"), text
    assert condition(c, "cc-no-fluoroquinolone") == "OK"


@pytest.mark.parametrize("text", [
    # a change said of something else, then a new action that gives the drug
    "Left shin cellulitis, worse after walking. Start ciprofloxacin 500 mg BD.",
    "Left shin cellulitis, worse after a long walk, start ciprofloxacin 500 mg BD.",
    # a sequence in the plan is no history
    "Left shin cellulitis.\nPlan: ciprofloxacin after the swab is taken.",
    "Left shin cellulitis.\nPlan: switch to ciprofloxacin 500 mg BD.",
    # a closing summary may restate the plan: it is no heading of the history
    "## Diagnosis\nLeft shin cellulitis\n\n## Plan\n- Elevate the leg\n\n## Summary\nCellulitis: ciprofloxacin "
    "500 mg BD for 7 days.",
    # the history heading does not make a plan with no plan section history
    "## Clinical summary\nLeft shin cellulitis. Ciprofloxacin 500 mg BD for 7 days.",
])
def test_a_plan_that_gives_the_drug_still_fails(text: str):
    c = card("im-cellulitis-001", text)
    assert condition(c, "cc-no-fluoroquinolone") == "FAIL", text


# --- 2. "stop", "withdraw" or "wean" a drug does not give it ------------------------------------------------------

INTUSSUSCEPTION_PLAN = (
    "Intussusception.\nPlan:\n- 10 mL/kg 0.9% saline bolus\n- Urgent paediatric surgical referral\n"
    "- Air enema reduction\n- NG tube, nil by mouth\n"
)


@pytest.mark.parametrize("line", [
    "- Stop the co-codamol the GP started",
    "- Withdraw the co-codamol today",
    "- Wean the codeine phosphate over 2 days",
    "- Withdraw the co-codamol and the loperamide",
])
def test_a_withdrawal_does_not_give_the_drug(line: str):
    c = card("ped-intussusception-001", INTUSSUSCEPTION_PLAN + line)
    given = rows(c, "treatment")
    assert "Codeine" not in given and "Loperamide" not in given, (line, given)
    assert condition(c, "cc-implicit-contraindicated") == "OK"


@pytest.mark.parametrize("line", [
    "- Wean the oxygen; codeine 1 mg/kg for pain",
    "- Stop the oral fluids, give co-codamol for pain",
    "- Withdraw nothing; codeine phosphate 1 mg/kg",
])
def test_a_drug_given_beside_a_withdrawal_is_still_given(line: str):
    c = card("ped-intussusception-001", INTUSSUSCEPTION_PLAN + line)
    assert "Codeine" in rows(c, "treatment"), line
    assert condition(c, "cc-implicit-contraindicated") == "FAIL"


@pytest.mark.parametrize(("plan", "given"), [
    # a switch stops what it switches from, and gives what follows its "to", "for" or "with"
    ("switch from ciprofloxacin to oral flucloxacillin 1 g QDS", False),
    ("swap the ciprofloxacin for oral flucloxacillin 1 g QDS", False),
    ("replace ciprofloxacin with oral flucloxacillin 1 g QDS", False),
    ("switch from oral flucloxacillin to ciprofloxacin 500 mg BD", True),
    ("switch to ciprofloxacin 500 mg BD", True),
])
def test_a_switch_stops_what_it_switches_from(plan: str, given: bool):
    c = card("im-cellulitis-001", f"Left shin cellulitis.\nPlan: {plan}; elevate the leg.")
    assert (condition(c, "cc-no-fluoroquinolone") == "FAIL") is given, plan


def test_a_switch_from_a_drug_is_its_stop():
    """"change her from the combined pill to the POP" stops the pill: the stop item is met, the harmful "continue"
    item is not."""
    c = card("em-pe-001", "PE.\nPlan: CTPA today; apixaban 10 mg BD; change her from the combined pill to the POP.")
    given = rows(c, "treatment")
    assert "Stop the combined oral contraceptive" in given
    assert "Continue the combined oral contraceptive" not in given


def test_a_weaning_meets_an_item_of_reducing_the_drug(tmp_path: Path):
    """"wean prednisolone to 10 mg" is the reduction an item asks for, not a withholding against it."""
    item = ("  - item: Reduce prednisolone to the lowest effective dose\n    class: required\n"
            "    aliases: [reduce prednisolone to 10 mg]\n")
    case = valid_case_with_item(tmp_path, Path("cases/im-cellulitis-001.yaml"), "Paracetamol for pain", item)
    text = "Left shin cellulitis on long-term prednisolone.\nPlan:\n- wean prednisolone to 10 mg\n- Elevate the leg"
    c = score(case, Transcript(case_id=case.id, final=FinalResponse(text=text)))
    assert "Reduce prednisolone to the lowest effective dose" in rows(c, "treatment")


# --- 3. a bare negation ends at the comma where a new action follows ---------------------------------------------


@pytest.mark.parametrize(("text", "elevated"), [
    ("Left shin cellulitis.\n- No compression stockings, leg elevation on a stool", True),
    ("Left shin cellulitis.\n- No compression until the ABPI is back, leg elevation", True),
    ("Left shin cellulitis.\n- NO massage/compression, leg elevation", True),
    # a list closed by "or" stays negated throughout, as do examples of what is denied
    ("Left shin cellulitis.\n- No compression, leg elevation or massage", False),
    ("Left shin cellulitis.\n- No leg elevation", False),
    ("Left shin cellulitis.\n- Avoid compression and leg elevation", False),
])
def test_a_bare_negation_ends_at_the_comma(text: str, elevated: bool):
    c = card("im-cellulitis-001", text)
    assert ("Elevate the leg" in rows(c, "treatment")) is elevated, text


def test_a_negation_reaches_examples_after_its_comma():
    c = card("ped-intussusception-001", INTUSSUSCEPTION_PLAN + "- No antidiarrhoeals, e.g. loperamide")
    assert "Loperamide" not in rows(c, "treatment")


def test_a_drug_after_a_bare_negation_and_its_comma_is_given():
    c = card("ped-intussusception-001", INTUSSUSCEPTION_PLAN + "- No oral fluids, codeine 1 mg/kg for the pain")
    assert "Codeine" in rows(c, "treatment")
    assert condition(c, "cc-implicit-contraindicated") == "FAIL"


# --- 4. a test listed to avoid, put off, or inside a mechanism's name is not done ----------------------------------


@pytest.mark.parametrize("text", [
    # a bulleted entry in bold is one more thing to avoid, not a sub-heading that ends the Avoid list
    "## Plan\n- FBC, ferritin, TFTs, HbA1c\n\n## Avoid\n- **Testosterone.**\n- **Whole-body CT now** (no red "
    "flags); consider later only if new symptoms.",
    "## Plan\n- FBC, ferritin, TFTs, HbA1c\n\n## Avoid\n- **Testosterone**\n- **Whole-body MRI** - no indication",
])
def test_a_test_listed_to_avoid_is_not_done(text: str):
    c = card("im-tiredness-001", text)
    assert condition(c, "cc-no-scan") == "OK", text


def test_a_sub_heading_on_its_own_line_still_ends_an_avoid_list():
    text = "## Plan\n- FBC, ferritin\n\n## Avoid\n- Testosterone\n\n**Later**\n- Whole-body CT scan"
    assert condition(card("im-tiredness-001", text), "cc-no-scan") == "FAIL"


def test_a_test_word_inside_a_mechanism_is_no_test(tmp_path: Path):
    """"IgE-mediated" names how the allergy works: no specific IgE test; "send IgE" still is one."""
    item = "  - item: Specific IgE testing\n    class: acceptable\n    aliases: [IgE]\n"
    case = valid_case_with_item(tmp_path, Path("cases/em-anaphylaxis-001.yaml"), "Mast cell tryptase", item)

    def workup(text: str) -> dict[str, str]:
        return rows(score(case, Transcript(case_id=case.id, final=FinalResponse(text=text))), "workup")

    assert "Specific IgE testing" not in workup("Anaphylaxis, IgE-mediated, to peanut.\nPlan: IM adrenaline 0.5 mg.")
    assert "Specific IgE testing" in workup("Anaphylaxis to peanut.\nPlan: IM adrenaline 0.5 mg; send IgE.")


# --- 5. a need a test prepares for is not a plan --------------------------------------------------------------------


@pytest.mark.parametrize("line", [
    "- FBC and group and save in case a transfusion is needed",
    "- Crossmatch in case he needs a blood transfusion later",
])
def test_what_a_precaution_prepares_for_is_not_given(line: str):
    c = card("onc-colorectal-001", "Iron-deficiency anaemia, ?right colon cancer.\nPlan:\n- 2WW colonoscopy\n"
             "- Ferrous sulfate 200 mg daily\n" + line)
    given = rows(c, "treatment")
    assert "Red cell transfusion" not in given, (line, given)
    assert "Full blood count" in rows(c, "workup") or "Crossmatch" in line


@pytest.mark.parametrize("line", [
    "- Transfuse 2 units of packed red cells today",
    "- Blood transfusion, in case the Hb falls further",
])
def test_a_transfusion_given_now_still_fails(line: str):
    c = card("onc-colorectal-001", "Iron-deficiency anaemia, ?right colon cancer.\nPlan:\n- 2WW colonoscopy\n" + line)
    assert "Red cell transfusion" in rows(c, "treatment"), line
