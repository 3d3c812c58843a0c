"""The failure classes of held-out round 15 fixed, each held on wording of its own."""

from __future__ import annotations

from medbench_tui.core.cases.model import Attachment
from medbench_tui.core.simulators import intent
from tests.test_patient_round8_classes import patient


def shown(message: str, *attachments: Attachment) -> list[str]:
    return [a.id for a in intent.attachments_asked(list(attachments), message)]


# -- a title that lists body parts before what it is ------------------------------------------

SKIN = Attachment(id="skin", kind="document", title="Scalp, nail and skin examination", available="on_request",
                  description="Silvery plaques on both elbows; pitting of the nails.",
                  request_keywords=["examine", "look at your skin", "nails"])
JOINTS = Attachment(id="joints", kind="document", title="Joint and spine examination", available="on_request",
                    description="Swollen left knee; reduced lumbar flexion.", request_keywords=["joints", "spine"])
FILM = Attachment(id="film", kind="image", title="Hand radiograph, both hands (PA and oblique)", available="on_request",
                  description="Erosions at the DIP joints.", request_keywords=["x-ray", "film"])


def test_a_title_listing_parts_before_examination_holds_findings():
    assert intent.holds_findings(SKIN)
    assert not intent.holds_findings(FILM)  # what it is comes first: a radiograph, whatever follows
    assert not intent.holds_findings(Attachment(id="k", kind="image", title="Knee radiograph, AP and lateral, report",
                                                available="on_request", description="Normal."))


def test_looking_at_a_part_gets_the_examination_that_lists_it():
    assert shown("could I have a look at your skin?", SKIN, JOINTS) == ["skin"]


# -- whose paper it is: a possessive, and a record named only by "notes" -------------------------

DISCHARGE = Attachment(id="discharge", kind="document", title="Hospital discharge summary", available="on_request",
                       description="Admitted with pneumonia in March.", request_keywords=["discharge summary", "notes"])
GP = Attachment(id="gp", kind="document", title="Referral letter from the family doctor", available="on_request",
                description="Please see this man with a lump.", request_keywords=["GP", "referral"])


def test_a_possessive_names_the_attachment_of_its_owner():
    assert shown("and the GP's letter from May please", GP) == ["gp"]


def test_a_record_named_only_by_a_document_word_yields_to_the_one_named_by_its_own_word():
    assert shown("can I see the GP's notes please", DISCHARGE, GP) == ["gp"]
    assert shown("can I see your notes please", DISCHARGE, GP) == ["discharge"]  # nothing else named


# -- "did the <test> come back?" asks for the result --------------------------------------------

SWAB = Attachment(id="swab", kind="lab_report", title="Throat swab culture", content="Group A streptococcus grown.",
                  available="on_request", request_keywords=["swab", "culture"])
RASH = Attachment(id="rash", kind="image", title="Photograph of the rash", description="Target lesions on the palms.",
                  available="on_request", request_keywords=["rash", "photo"])


def test_asking_whether_a_named_result_came_back_hands_it_over():
    assert shown("did the swab come back?", SWAB) == ["swab"]
    assert shown("so has the culture come back yet?", SWAB) == ["swab"]
    swab = {"id": "swab", "kind": "lab_report", "title": "Throat swab culture", "content": "Group A strep grown.",
            "available": "on_request", "request_keywords": ["swab"]}
    sore = {"id": "sore", "topic": "sore throat", "keywords": ["throat", "swab"],
            "answer": "The nurse took a swab of my throat on Monday."}
    reply = patient([sore], attachments=[swab]).answer("did the swab come back?")
    assert reply.facts == [] and "Throat swab culture" in reply.text


def test_a_symptom_that_came_back_is_a_history_question():
    assert shown("did the rash come back?", RASH) == []
    assert shown("did the sore throat come back after the swab?", SWAB) == []


# -- "anyone ..." without a question mark is still a question -------------------------------------

BLOODS = Attachment(id="bloods", kind="lab_report", title="Blood tests", content="Hb 131, platelets 250.",
                    available="on_request", request_keywords=["bloods", "blood tests", "FBC"])


def test_a_question_opening_with_anyone_asks_nothing_to_be_handed_over():
    assert intent.kind_of("anybody at home with a cough") == "yesno"
    assert shown("anyone in the family with blood clots", BLOODS) == []
    assert shown("any family history of heart disease? anybody with a blood condition", BLOODS) == []
    assert shown("and the bloods please", BLOODS) == ["bloods"]  # a request still asks


def test_anyone_after_a_family_history_question_hands_nothing_over():
    bloods = {"id": "bloods", "kind": "lab_report", "title": "Blood tests", "content": "Hb 131.",
              "available": "on_request", "request_keywords": ["bloods", "blood tests"]}
    reply = patient([], attachments=[bloods]).answer("FHx of heart problems? anybody in the family with blood clots")
    assert "Blood tests" not in reply.text


# -- a side written as one capital letter ----------------------------------------------------------

def test_a_side_written_as_its_capital_letter_is_that_side():
    assert intent.understood("any pain in the L knee?") == "any pain in the left knee?"
    assert intent.understood("is it R or L sided?") == "is it right or left sided?"


def test_an_initial_or_a_unit_is_no_side():
    assert intent.understood("hello, I'm Dr L from the practice") == "hello, I'm Dr L from the practice"
    assert intent.understood("do you drink 2 L a day?") == "do you drink 2 L a day?"
    assert intent.understood("is the l knee ok?") == "is the l knee ok?"  # a lone small letter is no shorthand


def test_a_question_of_the_side_in_shorthand_is_answered_not_denied():
    eye = {"id": "eye", "topic": "how blurred the vision is",
           "keywords": ["vision", "blurred", "left eye", "right eye"],
           "answer": "The left eye is misty all the time. The right eye is fine."}
    assert patient([eye]).answer("is the R eye ok?").facts == ["eye"]


# -- the doctor saying how results are asks for nothing -------------------------------------------

def test_saying_how_results_are_hands_nothing_over():
    assert shown("right, your blood tests came back normal.", BLOODS) == []
    assert shown("the bloods look fine. we'll see you in a fortnight.", BLOODS) == []
    assert intent.judges_results("the ECG was all normal")


def test_a_request_beside_a_judgement_still_asks():
    assert shown("the bloods came back normal, can I see them please", BLOODS) == ["bloods"]
    assert shown("the bloods please", BLOODS) == ["bloods"]
    assert not intent.judges_results("what were the bloods like?")


# -- where a result came from is no second request -------------------------------------------------

CLINIC = Attachment(id="clinic", kind="document", title="Antenatal clinic record", available="on_request",
                    description="Booked at 10 weeks.", request_keywords=["antenatal clinic", "booking visit"])


def test_where_a_named_result_came_from_is_not_asked_for_too():
    assert shown("let me see your blood tests from the antenatal clinic please", BLOODS, CLINIC) == ["bloods"]
    both = shown("could I see the record from the antenatal clinic and the bloods", BLOODS, CLINIC)
    assert sorted(both) == ["bloods", "clinic"]  # "the record" names the clinic's own paper: both asked


def test_a_paper_named_only_by_where_it_came_from_is_still_asked_for():
    assert shown("can I see what you have from the antenatal clinic?", BLOODS, CLINIC) == ["clinic"]
