"""How far a cue or a condition reaches, and conditions the record settles by number: the
classes of misreading new cases showed (a stop carried over a list of other actions, a
standby over the next clause, a threshold the record does not reach read as met)."""

from __future__ import annotations

import pytest

from medbench_tui.core.scoring import actions, assertion, cues
from medbench_tui.core.scoring.document import document


def _at(doc, word: str, nth: int = 0) -> int:
    return [i for i, w in enumerate(doc.lows) if w == word][nth]


@pytest.mark.parametrize(("text", "word", "negated"), [
    ("Plan: stop bisoprolol, discharge home with a Holter.", "discharge", False),
    ("Stop naproxen, admit under gastroenterology, OGD within 24 hours.", "admit", False),
    ("Stop bisoprolol and discharge home.", "discharge", False),
    ("Stop bisoprolol.", "bisoprolol", True),
    ("Stop aspirin, clopidogrel and heparin.", "clopidogrel", True),
    ("Do not discharge home.", "discharge", True),
    ("Ergometrine is out because of her blood pressure.", "ergometrine", True),
])
def test_a_stop_reaches_its_own_list_not_the_next_action(text, word, negated):
    doc = document(text)
    k = _at(doc, word)
    assert (cues.negation(doc, k, k) is not None) is negated


def _conditional(text: str, word: str) -> bool:
    doc = document(text)
    k = _at(doc, word)
    return assertion.condition_of(doc, k, k) is not None


def test_a_standby_is_the_standby_drugs_and_ends_at_the_comma():
    text = ("IV atropine 500 micrograms now with an isoprenaline infusion on standby, and I would discuss "
            "him now with the on-call cardiologist for a pacemaker.")
    assert not _conditional(text, "atropine")
    assert _conditional(text, "isoprenaline")
    assert not _conditional(text, "cardiologist")


def test_a_condition_in_the_clause_still_covers_its_action():
    assert _conditional("Give IV magnesium only if no response to nebulisers.", "magnesium")
    assert _conditional("Transfuse only if Hb below 70.", "transfuse")


RECORD = assertion.Record(
    ["neutropenic sepsis"], "Reason for review: laboratory phoned a critical potassium result at 10:15.\n"
    "Potassium 7.4 mmol/L, sodium 136 mmol/L, haemoglobin 78 g/L", [["potassium"], ["haemoglobin"]],
)


@pytest.mark.parametrize(("condition", "established"), [
    ("the potassium is above 6.5", True),
    ("the potassium is above 8.0", False),  # 7.4 in the record; the "10:15" after "result at" is no value
    ("potassium > 6", True),
    ("haemoglobin < 70", False),  # "transfuse if Hb < 70" with Hb 78 is no transfusion
    ("haemoglobin below 80", True),
    ("the repeat potassium is above 6.5", False),  # a later value: the record cannot say
    ("the potassium remains above 6.5 on repeat", True),  # "remains": the value is already there
    ("potassium still over 8 on repeat", False),
    ("the neutrophils are below 0.5", False),  # no value in the record: not established, though "neutro..."
])
def test_a_threshold_is_decided_by_the_records_value(condition, established):
    assert RECORD.establishes(condition) is established


def test_a_verdict_that_agrees_with_a_withholding_instruction_keeps_it():
    assert assertion.withholds("no NSAIDs")
    assert assertion.withholds("stop ibuprofen")
    assert not assertion.withholds("ibuprofen 400 mg")
    assert "stopped" in assertion.WITHHOLDING_VERDICTS


@pytest.mark.parametrize(("text", "net"), [
    ("If you notice him moving less at any time, ring maternity triage straight away.", True),
    ("If she gets worse, come back.", True),
    ("Ring maternity triage to book a scan.", False),
])
def test_a_call_on_a_condition_is_safety_netting(text, net):
    from medbench_tui.core.scoring import concepts

    assert bool(concepts.safety_nets(document(text))) is net


def test_a_link_before_an_action_verb_starts_a_new_piece_with_its_own_time():
    doc = document("Admit to CCU and refer to cardiothoracic surgery tomorrow morning.")
    assert [doc.quote(p) for p in doc.pieces()] == [
        "Admit to CCU and", "refer to cardiothoracic surgery tomorrow morning",
    ]


def test_waiting_for_a_result_is_a_time_and_not_now():
    from medbench_tui.core.vocabulary.reading import timing_of

    assert timing_of("hydrocortisone IV once the cortisol result is back") == ((2.0, 72.0),)


def test_a_query_mark_before_a_word_is_no_question():
    doc = document("Imp: UGIB ?PU 2' NSAID.")
    ugib = _at(doc, "ugib")
    assert not assertion.asked(doc, ugib)
    assert doc.clause[ugib] == doc.clause[_at(doc, "pu")]


@pytest.mark.parametrize(("words", "part"), [
    (("do", "not", "prescribe", "testosterone", "explain", "why"), ("testosterone",)),
    (("no", "more", "ibuprofen"), ("ibuprofen",)),
    (("stop", "regular", "ibuprofen"), ("ibuprofen",)),
    (("ibuprofen",), None),
])
def test_an_item_that_withholds_names_what_it_withholds(words, part):
    from medbench_tui.core.scoring import concepts

    assert concepts.withhold_parts(words) == part


def test_an_unordered_match_keeps_each_word_on_its_side_of_an_order_word():
    from medbench_tui.core.scoring.reference import _keeps_order, _phrases

    (phrase,) = _phrases("Discharge before psychosocial assessment")
    # the answer's order: psychosocial(0) assessment(1) before(2) discharge(3)
    words = {"psychosocial": 0, "assessment": 1, "before": 2, "discharge": 3}
    picked = [words[w] for w in phrase.words]
    assert not _keeps_order(phrase, picked)
    assert _keeps_order(phrase, sorted(picked))


def test_a_drug_with_its_dose_is_about_the_drug_and_a_harmful_dose_is_its_own():
    from medbench_tui.core.scoring.actions import dose_differs, item_reading_of, read_action

    assert item_reading_of("Prednisolone 30 mg once daily for 5 days").about_drug()
    assert not item_reading_of("Intravenous 10% glucose infusion at 50 mL/h for 5 hours after insulin").about_drug()
    harmful = item_reading_of("Prednisolone 15-20 mg daily")
    assert dose_differs(read_action("prednisolone 60 mg orally"), harmful)
    assert not dose_differs(read_action("prednisolone 20 mg"), harmful)


def test_a_drug_named_while_on_another_is_context():
    doc = document("Omeprazole 20 mg daily while on high-dose prednisolone.")
    k = _at(doc, "prednisolone")
    assert cues.background(doc, k, k, "treatment")


def test_an_ampoule_is_a_dose_not_a_result():
    from medbench_tui.core.scoring import concepts

    doc = document("Give Syntometrine 1 ampoule IM.")
    assert not concepts.a_result(doc, _at(doc, "syntometrine"))


@pytest.mark.parametrize(("answer", "item", "why"), [
    ("refer to the TIA clinic within 7 days", "Specialist assessment within 24 hours", actions.LATER),  # a deadline
    ("within 48 hours", "same day referral", actions.LATER),
    ("routine", "colonoscopy within 2 weeks", actions.LATER),  # touches the item's last moment only
    ("today", "IV antibiotics immediately", None),  # "emergency" meets "immediate"
    ("in 2 weeks", "colonoscopy within 2 weeks", None),
    ("start IV Tazocin within the hour, before the results are back", "IV antibiotics immediately", None),
    ("treat once the results are back", "IV antibiotics immediately", actions.LATER),
])
def test_an_answer_meets_an_items_time_only_inside_it(answer, item, why):
    assert actions.contradiction(actions.read_action(answer), actions.item_reading_of(item)) == why


def test_a_harmful_action_done_sooner_is_still_done():
    answer, item = actions.read_action("discharge today"), actions.item_reading_of("Discharge next week")
    assert actions.contradiction(answer, item) == actions.SOONER
    assert actions.rules_out(answer, item, gives_credit=False) is None
    assert actions.rules_out(answer, item, gives_credit=True) == actions.SOONER


def test_what_an_item_replaces_is_not_its_time():
    item = actions.item_reading_of("Monitoring or a routine referral instead of the suspected cancer pathway")
    assert item.windows == ((336.0, 8760.0),)  # a routine referral: two weeks or more
    for answer in ("routine dermatology referral", "review in 3 months"):
        assert actions.rules_out(actions.read_action(answer), item, gives_credit=False) is None, answer


def test_waiting_for_imaging_is_a_time_and_a_recurrence_is_no_record_fact():
    """"aspirin once the MRI has excluded a bleed" waits for a result (a time, as scoring.md reads "once
    ..."): no immediate aspirin; "an ECG only if she has another episode" asks for a later event."""
    answer = actions.read_action("aspirin only once the MRI has excluded a bleed")
    assert actions.contradiction(answer, actions.item_reading_of("Aspirin 300 mg orally now")) == actions.LATER
    record = assertion.Record(["vasovagal syncope", "fainting episode"], "A first faint at a concert.", [])
    assert not record.establishes("she has another episode")
    assert record.establishes("she has a fainting episode")
