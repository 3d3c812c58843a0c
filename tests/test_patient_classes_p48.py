"""The failure classes of held-out round 23 fixed (issue 33), each held on wording and topics of its
own (not the round's cases), with negative tests: a held-back medicine is asked the first time by a question of the
whole medicine list; a hedge never comes with a denial; a long-term infection is part of the medical history."""

from __future__ import annotations

from tests.test_patient_round8_classes import patient

HIDDEN_MEDS = {"id": "methadone", "topic": "medicines from the drug service (withheld at first)",
               "keywords": ["other medicines", "drug service", "methadone", "script"],
               "answer": "I'm on methadone from the drug service too, 60 mils a day. "
                         "They started me on it two years ago.",
               "delayed": True}
KNEE = {"id": "knee", "topic": "the knee pain", "keywords": ["knee", "pain", "swelling"],
        "answer": "My left knee has ached for a month, worse on stairs."}


def test_the_whole_medicine_list_asks_a_held_back_medicine_the_first_time():
    sim = patient([HIDDEN_MEDS, KNEE], behavior=["delayed_disclosure"])
    first = sim.answer("What medicines are you on?")
    assert first.facts == ["medications"]  # the fixture's regular medicines; the held-back one is deflected, not told
    assert "methadone" not in first.text
    assert sim.answer("Any other medicines - anything from another service?").facts == ["methadone"]


def test_a_question_of_one_medicine_does_not_ask_the_held_back_ones():
    sim = patient([HIDDEN_MEDS, KNEE], behavior=["delayed_disclosure"])
    sim.answer("how's the knee?")
    sim.answer("what dose of the ramipril?")  # of the statin, not the whole list
    second = sim.answer("Any other medicines - anything from another service?")
    assert second.facts == []  # only now asked the first time: deflected
    assert not second.text.lower().startswith("no")


def test_a_switch_of_medicines_is_the_medicines_fact():
    sim = patient([HIDDEN_MEDS, KNEE])
    assert sim.answer("when did they put you on that?").facts[:1] == ["methadone"]


def test_a_hedge_never_comes_with_a_denial():
    hidden = {"id": "gambling", "topic": "money worries and gambling (withheld at first)",
              "keywords": ["money", "debts", "gambling", "betting"],
              "answer": "I owe about eight thousand on the betting apps.", "delayed": True}
    sim = patient([hidden, KNEE], behavior=["delayed_disclosure"])
    reply = sim.answer("Any money worries, or any problems with your eyesight?")
    assert reply.facts == []
    assert "no," not in reply.text.lower() and not reply.text.lower().startswith("no")
    # without a hedge the uncovered part is still denied
    assert patient([KNEE]).answer("any problems with your eyesight?").text.lower().startswith("no")


def test_a_long_term_infection_is_part_of_the_medical_history():
    hep = {"id": "hep_c", "topic": "hepatitis C", "keywords": ["hepatitis", "liver", "hep C"],
           "answer": "I had hepatitis C, treated and cleared five years ago."}
    sim = patient([hep, KNEE])
    assert "hep_c" in sim.answer("Do you have any medical problems?").facts
    assert "hep_c" not in patient([hep, KNEE]).answer("how's the knee?").facts
