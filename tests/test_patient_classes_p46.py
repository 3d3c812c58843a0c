"""The failure classes of round 24 fixed (an examination or a request answered once, with only what it
asks; a compound question's parts of the patient's own history; the informant asked of their own history), each
held on wording of its own on other clinical topics."""

from __future__ import annotations

from medbench_tui.core.cases.model import Attachment
from medbench_tui.core.simulators import intent
from tests.test_patient_round8_classes import patient

OBS = Attachment(id="obs", kind="document", title="Ward observations",
                 content="HR 92, BP 131/80, RR 18, SpO2 97% on air, temp 37.9 C.", available="at_start",
                 request_keywords=["observations", "obs", "vital signs", "pulse", "blood pressure", "temperature"])
EXAM = Attachment(id="exam", kind="document", title="Examination findings (knee and hip)",
                  content="Right knee: warm effusion, painful restricted flexion. Hip normal.", available="on_request",
                  request_keywords=["examine", "examination", "knee", "hip", "look at the knee", "feel the knee"])
ECG_NOW = Attachment(id="ecg_now", kind="lab_report", title="ECG from this morning",
                     content="Sinus rhythm 88/min, QTc 432 ms.", available="at_start",
                     request_keywords=["ECG", "this morning"])
ECG_OLD = Attachment(id="ecg_old", kind="lab_report", title="ECG from last March",
                     content="Sinus rhythm 70/min, QTc 410 ms.", available="on_request",
                     request_keywords=["previous ECG", "old ECG", "last March", "earlier tracing"])
RENAL = Attachment(id="renal", kind="lab_report", title="Blood tests (kidney function and urate)",
                   content="Creatinine 98 umol/L; urate 0.52 mmol/L; CRP 64 mg/L.", available="on_request",
                   request_keywords=["bloods", "blood tests", "kidney function", "urate", "CRP"])


def shown(message: str, *attachments: Attachment) -> list[str]:
    return [a.id for a in intent.attachments_asked(list(attachments), message)]


# -- an examination or a request answered once, with only what it asks ----------------------------

def test_an_examination_ruled_out_after_the_one_asked_hands_nothing_over():
    message = "I'd like to examine his knee and hip now - no rectal exam though."
    assert shown(message, OBS, EXAM) == ["exam"]
    reply = patient([], attachments=[OBS.model_dump(), EXAM.model_dump()]).answer(message)
    assert reply.text.count("go ahead") + reply.text.count("Of course") <= 1
    assert "Ward observations" not in reply.text
    assert intent.rules_out_examination("I won't do an internal examination.")
    assert intent.rules_out_examination("no speculum today.")


def test_an_examination_asked_for_is_still_agreed_to_and_handed_over():
    assert not intent.rules_out_examination("no pain when I press here?")
    assert not intent.rules_out_examination("I'd like to examine your knee.")
    assert shown("Can I examine your knee?", OBS, EXAM) == ["exam"]
    assert shown("Could I examine your knee? And your obs?", OBS, EXAM) == ["exam", "obs"]


def test_the_one_of_two_papers_of_a_kind_the_request_says_which_of():
    assert shown("Could I see the ECG from last March as well?", ECG_NOW, ECG_OLD) == ["ecg_old"]
    assert shown("Can I see the ECG from this morning?", ECG_NOW, ECG_OLD) == ["ecg_now"]


def test_both_papers_when_the_request_asks_for_both():
    assert set(shown("Can I see the ECG and the one from last March?", ECG_NOW, ECG_OLD)) == {"ecg_now", "ecg_old"}


def test_a_bare_name_of_a_test_asks_for_its_results():
    assert shown("bloods incl urate?", RENAL) == ["renal"]
    assert shown("kidney function?", RENAL) == ["renal"]
    assert shown("ok, CRP?", RENAL) == ["renal"]
    reply = patient([], attachments=[RENAL.model_dump()]).answer("bloods incl urate?")
    assert "Blood tests (kidney function and urate)" in reply.text


def test_a_bare_symptom_word_asks_for_no_results():
    assert shown("blood?", RENAL) == []
    assert shown("any blood in the urine?", RENAL) == []
    assert shown("swelling?", RENAL) == []


# -- a compound question's parts each of the patient's own history --------------------------------

ATOPY = {"id": "atopy", "topic": "previous allergies and atopy",
         "keywords": ["asthma", "eczema", "hay fever", "allergies", "wheeze", "inhaler"],
         "answer": "I had eczema as a child but never asthma or hay fever. No inhalers."}
FAMILY = {"id": "fhx", "topic": "family history", "keywords": ["family", "father", "mother", "brother", "sister"],
          "answer": "My sister has bad asthma and my dad had a heart attack at sixty."}
WATERWORKS = {"id": "waterworks", "topic": "passing urine", "keywords": ["wee", "urine", "burning", "stinging"],
              "answer": "It burns a bit when I wee but there's no blood in it."}
BACK_PASSAGE = {"id": "back_passage", "topic": "bleeding from the back passage",
                "keywords": ["bleeding", "blood", "back passage", "rectal bleeding"],
                "answer": "I've seen bright red blood on the paper twice this week."}


def test_a_question_of_the_patients_own_history_draws_no_family_fact_that_shares_a_word():
    for question in ("Any hx of asthma, eczema or hay fever? Any wheeze - at night, with exercise?",
                     "Any history of asthma, eczema or hay fever?"):
        assert patient([ATOPY, FAMILY]).answer(question).facts == ["atopy"], question


def test_the_family_is_still_told_when_asked_of():
    assert patient([ATOPY, FAMILY]).answer("any asthma in the family?").facts == ["fhx"]
    assert "fhx" in patient([ATOPY, FAMILY]).answer("Does your sister have asthma?").facts


def test_a_question_pointing_back_is_answered_by_the_fact_that_says_it():
    reply = patient([WATERWORKS, BACK_PASSAGE]).answer("Does it sting when you pass urine? any blood in it?")
    assert reply.facts == ["waterworks"]


def test_a_question_of_its_own_still_gets_its_own_fact():
    reply = patient([WATERWORKS, BACK_PASSAGE]).answer("Does it sting when you pass urine? any bleeding from the back "
                                                     "passage?")
    assert set(reply.facts) == {"waterworks", "back_passage"}
    assert patient([WATERWORKS, BACK_PASSAGE]).answer("Any blood from your back passage?").facts == ["back_passage"]


# -- the night asked of a fact of sleep ------------------------------------------------------------

SLEEP = {"id": "sleep", "topic": "sleep and night-time symptoms", "keywords": ["sleep", "snore", "snoring", "apnoea"],
         "answer": "My husband says I snore loudly and sometimes I gasp and wake myself up."}


def test_the_night_asked_of_a_fact_of_sleep_heard_is_that_fact():
    sim = patient([SLEEP])
    assert sim.answer("Do you snore?").facts == ["sleep"]
    assert sim.answer("Has he noticed you gasp at night?").facts == ["sleep"]


def test_a_time_of_day_the_fact_does_not_say_is_still_not_known():
    sim = patient([SLEEP])
    sim.answer("Do you snore?")
    assert sim.answer("Do you gasp in the afternoon?").facts == []
