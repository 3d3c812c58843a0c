"""The failure classes of round 25 fixed (issue 33), each held on wording and topics of its own (not
the round's cases), with negative tests: a result asked for in other words ("any news on the swab?", "micro") is
handed over; a request that points back to the question of the message before ("can I see the results from that?")
asks for the attachment that question said."""

from __future__ import annotations

from medbench_tui.core.cases.model import Attachment
from medbench_tui.core.simulators import intent
from tests.test_patient_round8_classes import patient

SWAB = Attachment(id="swab", kind="lab_report", title="Wound swab (microbiology)", available="on_request",
                  content="Staphylococcus aureus, flucloxacillin sensitive.",
                  request_keywords=["wound swab", "swab", "microbiology"])
STOOL = Attachment(id="stool", kind="lab_report", title="Stool test results", available="on_request",
                   content="Faecal calprotectin 420 ug/g.", request_keywords=["calprotectin", "FIT"])
LIVER = Attachment(id="liver", kind="lab_report", title="Liver blood tests", available="on_request",
                   content="ALT 210 U/L; bilirubin 40 umol/L.", request_keywords=["LFTs", "liver tests"])
GP_LETTER = Attachment(id="gp", kind="document", title="Referral letter from the GP", available="on_request",
                       content="Please see this man with a painful swollen leg.", request_keywords=["GP letter"])


def shown(message: str, *attachments: Attachment) -> list[str]:
    return [a.id for a in intent.attachments_asked(list(attachments), message)]


# -- class 1: a result asked for in other words --------------------------------------------------------------------

def test_news_of_a_result_asks_for_it():
    assert shown("any news on the wound swab?", SWAB, LIVER) == ["swab"]
    assert shown("Any word from the lab about the liver tests?", SWAB, LIVER) == ["liver"]
    assert shown("any news from micro?", SWAB, LIVER) == []  # where news came from names no thing of it
    assert shown("any updates from micro on the swab?", SWAB, LIVER) == ["swab"]


def test_news_from_someone_asks_for_nothing():
    assert shown("any news from the GP?", SWAB, LIVER, GP_LETTER) == []
    assert shown("any news from your daughter?", SWAB, LIVER) == []
    assert shown("any swab taken?", SWAB, LIVER) == []  # a yes/no question of the history, not of its result


def test_micro_is_microbiology():
    sim = patient([], attachments=[SWAB.model_dump(), LIVER.model_dump()])
    reply = sim.answer("Any news on the micro results?")
    assert "Wound swab" in reply.text and "Liver blood tests" not in reply.text


def test_a_request_pointing_back_asks_for_what_the_question_before_said():
    sim = patient([{"id": "stool_sample", "topic": "the stool sample", "keywords": ["stool sample", "pot"],
                    "answer": "I dropped the stool sample pot at the surgery on Monday."}],
                  attachments=[STOOL.model_dump(), LIVER.model_dump()])
    sim.answer("Did you get the stool sample in?")
    reply = sim.answer("Brilliant, can I see the results from that?")
    assert "Stool test results" in reply.text and "Liver blood tests" not in reply.text


def test_a_request_pointing_back_at_something_no_attachment_is_hands_nothing_over():
    sim = patient([], attachments=[STOOL.model_dump(), LIVER.model_dump()])
    sim.answer("How's your sleep?")
    reply = sim.answer("Great, can I see the results from that?")
    assert "Stool test results" not in reply.text and "Liver blood tests" not in reply.text
    # within one message the question before still decides
    assert shown("they did liver tests, didn't they? can I see them", STOOL, LIVER) == ["liver"]


def test_the_consultation_releases_what_the_message_before_pointed_at():
    before = "Did you get the stool sample in?"
    assert [a.id for a in intent.attachments_asked([STOOL, LIVER], "Brilliant, can I see the results from that?",
                                                   before=before)] == ["stool"]
    assert [a.id for a in intent.attachments_asked([STOOL, LIVER], "how long has that been going on?",
                                                   before=before)] == []  # no request
    assert [a.id for a in intent.attachments_asked([STOOL, LIVER], "can I see the results from that?",
                                                   before="How's your sleep?")] == []
