"""Treatment shorthand the grader read wrongly (product issue 32): a treatment item's name or alias
of several words that names a drug is met with the drug written by another of its names ("wean Zimovane" for
"wean zopiclone"). Wording of its own, on topics of its own."""

from __future__ import annotations

import pytest

from tests.test_scoring_regressions import card, rows

GIVEN = ("matched", "acceptable")
CASE_OXYGEN = "em-anaphylaxis-001"
OXYGEN = "High-flow oxygen"


@pytest.mark.parametrize(("case_id", "line", "item", "given"), [
    ("im-falls-001", "Plan:\n- Wean Zimovane over 4 weeks.\n", "Taper and stop zopiclone", True),
    ("im-hyperkalaemia-001", "Plan:\n- Calcium gluconate 10% 30 mL IV.\n- Hold Lasix while dry.\n",
     "Withhold furosemide while hypovolaemic", True),
    # negative: the drug by its other name with another action is no such item
    ("im-falls-001", "Plan:\n- Continue Zimovane 3.75 mg at night.\n", "Taper and stop zopiclone", False),
    ("im-hyperkalaemia-001", "Plan:\n- Calcium gluconate 10% 30 mL IV.\n- Continue Lasix 40 mg od.\n",
     "Withhold furosemide while hypovolaemic", False),
])
def test_an_action_on_a_drug_by_its_other_name(case_id: str, line: str, item: str, given: bool):
    """A treatment phrase of several words naming one drug is also written with the drug's other names
    (drugs.yaml `also`); the rest of the phrase still decides the item."""
    got = rows(card(case_id, line), "treatment")
    assert (got.get(item) in GIVEN) is given, (line, got)


@pytest.mark.parametrize(("line", "given"), [
    ("Plan:\n- O2 15L NRB, target sats 94-98%.\n- IM adrenaline 0.5 mg now.\n", True),
    ("Plan:\n- O2 via NRBM.\n- IM adrenaline 0.5 mg now.\n", True),
    # negative: oxygen declined is not given, whatever the mask
    ("Plan:\n- No O2 NRB needed (sats 99% on air).\n- IM adrenaline 0.5 mg now.\n", False),
])
def test_a_non_rebreather_written_short_is_that_mask(line: str, given: bool):
    """"NRB"/"NRBM" is a non-rebreather mask (abbreviations.yaml), so "O2 15L NRB" is oxygen via a
    non-rebreather, as an item of high-flow oxygen names it."""
    got = rows(card(CASE_OXYGEN, line), "treatment")
    assert (got.get(OXYGEN) in GIVEN) is given, (line, got)


@pytest.mark.parametrize(("line", "given"), [
    ("Plan:\n- YAG laser to the other eye.\n- Periph iridotomy both eyes once the pressure is down.\n", True),
    # negative: declined, the short form is still declined
    ("Plan:\n- No periph iridotomy (not indicated in an open angle).\n", False),
])
def test_periph_is_peripheral(line: str, given: bool):
    """"periph" is "peripheral" written short (abbreviations.yaml): "periph iridotomy" is a peripheral
    iridotomy, as "periph adrenaline" is peripheral adrenaline."""
    got = rows(card("oph-aacg-001", line), "treatment")
    assert (got.get("Bilateral laser peripheral iridotomy") in GIVEN) is given, (line, got)
