"""Simulated-patient failure classes of brief p73 (issue 33), held on wording and topics of their own (not the
rounds' cases): a request that the lab (or "they", "haematology", ...) do a test on a sample is a request for that
test, not a history question about the words it shares with a fact."""

from __future__ import annotations

from medbench_tui.core.simulators import intent
from tests.test_patient_round8_classes import patient

FACTS = [
    {"id": "urine_history", "topic": "urine symptoms", "keywords": ["urine", "wee", "burning", "cloudy"],
     "answer": "It burns when I wee and it's been cloudy for three days."},
    {"id": "family", "topic": "family history", "keywords": ["family", "liver", "kidney"],
     "answer": "My dad had kidney stones; nobody has liver trouble."},
    {"id": "work", "topic": "occupation", "keywords": ["work", "job"], "answer": "I work in a school kitchen."},
]
ATTACHMENTS = [
    {"id": "culture", "kind": "lab_report", "title": "Urine culture (midstream sample)", "available": "on_request",
     "content": "E. coli > 10^5/mL, sensitive to nitrofurantoin.", "request_keywords": ["urine culture", "MSU"]},
    {"id": "lfts", "kind": "lab_report", "title": "Liver function tests", "available": "on_request",
     "content": "ALT 340 U/L, bilirubin 41 umol/L.", "request_keywords": ["liver function", "LFTs", "liver tests"]},
]


def released(question: str) -> tuple[list[str], str]:
    reply = patient(FACTS, attachments=ATTACHMENTS).answer(question)
    return reply.facts, reply.text


def test_the_lab_doing_a_test_on_a_sample_is_a_request_for_it():
    for question in ("Can the lab do a urine culture on that sample?",
                     "Could the path lab run an MSU on the specimen?",
                     "Would microbiology send off a urine culture?"):
        assert intent.kind_of(question) == "request", question
        facts, text = released(question)
        assert "urine_history" not in facts and "Urine culture" in text, question


def test_who_does_it_may_be_a_department_or_they_with_the_sample():
    for question in ("Can biochemistry add on liver function tests?",
                     "could they run LFTs on the blood we took earlier?",
                     "Could you ask the lab to do liver tests on her sample?"):
        assert intent.kind_of(question) == "request", question
        facts, text = released(question)
        assert "family" not in facts and "Liver function tests" in text, question


def test_they_without_a_sample_or_a_test_verb_is_no_request():
    assert intent.kind_of("Can they take you home afterwards?") != "request"
    assert not intent.asks_service_for_test("can they do the school run for you?")
    assert intent.asks_service_for_test("can they do a culture on the urine sample?")


def test_the_lab_named_in_a_history_question_asks_no_test():
    assert intent.kind_of("Did the lab ring you?") == "yesno"
    assert intent.kind_of("Do you work in a lab?") == "yesno"
    facts, text = released("Do you work in a lab?")
    assert "Urine culture" not in text and "Liver function" not in text
    facts, _ = released("What work do you do?")
    assert facts == ["work"]


def test_whether_the_lab_sent_the_result_asks_for_the_result():
    assert intent.kind_of("has the lab sent the results?") == "request"
    facts, text = released("has the lab sent the urine culture result?")
    assert "Urine culture" in text and "Liver function" not in text
    assert intent.kind_of("has the lab phoned you?") == "yesno"  # who rang the patient: history, no result
