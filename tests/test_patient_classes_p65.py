"""The failure classes of held-out rounds 26 and 27 fixed, each held on wording of its own."""

from __future__ import annotations

from tests.test_patient_round8_classes import patient

# -- what a medicine is taken for: the fact that says why, never the list that only names it ------

TABLETS = {"id": "tablets", "topic": "regular tablets", "keywords": ["tablets", "prescription", "repeat prescription"],
           "answer": "Ramipril 5 mg in the morning. Tamsulosin 400 micrograms at night. Allopurinol 100 mg."}
HISTORY = {"id": "pmh", "topic": "past medical history", "keywords": ["medical history", "conditions", "gout"],
           "answer": "High blood pressure, an enlarged prostate, and gout in my big toe a few years back."}


def test_what_a_listed_medicine_is_for_is_the_history_not_the_list():
    sim = patient([TABLETS, HISTORY])
    reply = sim.answer("what's the tamsulosin for?")
    assert reply.facts == ["pmh"]
    assert "not sure" not in reply.text and "what you're asking" not in reply.text  # said plainly


def test_what_you_take_a_medicine_for_after_the_list_is_the_history():
    sim = patient([TABLETS, HISTORY])
    assert sim.answer("Do you take any prescription tablets?").facts == ["tablets"]
    assert sim.answer("and what do you take the allopurinol for?").facts == ["pmh"]


def test_a_fact_that_says_why_answers_before_the_history():
    why = {"id": "gout", "topic": "gout and its treatment", "keywords": ["gout", "big toe"],
           "answer": "I had gout twice, so the GP started me on allopurinol last year."}
    sim = patient([TABLETS, HISTORY, why])
    assert sim.answer("what is the allopurinol for?").facts == ["gout"]


def test_a_list_that_says_what_for_is_still_the_answer():
    said = dict(TABLETS, answer="Ramipril for my blood pressure and tamsulosin for my prostate, 400 micrograms.")
    sim = patient([said, HISTORY])
    assert sim.answer("what's the tamsulosin for?").facts == ["tablets"]


def test_with_no_fact_that_says_why_the_patient_is_not_sure():
    sim = patient([TABLETS])
    reply = sim.answer("what's the tamsulosin for?")
    assert "tablets" not in reply.facts


def test_a_medicine_asked_otherwise_is_still_the_list():
    sim = patient([TABLETS, HISTORY])
    assert sim.answer("how much tamsulosin do you take?").facts == ["tablets"]


# -- whom the home is shared with: people, never a thing done at home ------------------------------

PEAK_FLOW = {"id": "peak_flow", "topic": "home peak flow monitoring", "keywords": ["peak flow", "readings", "diary"],
             "answer": "He does his peak flow at home most mornings, it's usually about 400."}
USUAL = {"id": "usual", "topic": "how he is normally", "keywords": ["normally", "usual", "independent"],
         "answer": "Normally he's up and about. He moved in with me and my partner after his flat flooded."}


def test_living_with_asks_for_people_not_what_is_done_at_home():
    sim = patient([PEAK_FLOW, USUAL])
    assert "peak_flow" not in sim.answer("does he live with you?").facts
    assert "peak_flow" not in patient([PEAK_FLOW, USUAL]).answer("Do you live alone?").facts


def test_what_is_done_at_home_is_still_asked_of():
    sim = patient([PEAK_FLOW, USUAL])
    assert sim.answer("Does he check his peak flow at home?").facts == ["peak_flow"]


# -- a part of the body by its system: the bones ---------------------------------------------------

SHOULDER = {"id": "shoulder", "topic": "shoulder pain", "keywords": ["shoulder", "pain", "ache"],
            "answer": "My left shoulder has ached for three weeks, worst at night."}
RIBS = {"id": "ribs", "topic": "sore ribs", "keywords": ["ribs", "chest wall", "sore spot"],
        "answer": "My ribs on the right have been tender since I sneezed hard last week."}
SKIN_ITCH = {"id": "itch", "topic": "itchy skin", "keywords": ["itch", "itchy", "skin"],
             "answer": "My skin has been itchy all over for a month."}


def test_pain_elsewhere_in_the_bones_is_the_rib_pain():
    sim = patient([SHOULDER, RIBS, SKIN_ITCH])
    assert sim.answer("Any pain anywhere else in your bones?").facts == ["ribs"]


def test_bones_are_not_the_skin():
    sim = patient([SHOULDER, SKIN_ITCH])
    assert "itch" not in sim.answer("Any pain in your bones?").facts
