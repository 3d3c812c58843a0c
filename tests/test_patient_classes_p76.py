"""The confidently wrong classes of issue 33: a name whose first word names one kind of a symptom ("stiff neck")
is told with doubt by a fact that does not say that word; a lay compound of ache ("earache") is the pain of that
part. Held on topics of their own, with negative tests."""

from __future__ import annotations

import pytest

from medbench_tui.core.cases.model import patient_record
from medbench_tui.core.simulators import GroundedSimulator
from medbench_tui.core.simulators.base import SURE
from tests.test_consultation import CASE_DATA, fixture_case

NECK = {"id": "neck", "topic": "neck", "keywords": ["neck", "neck pain"],
        "answer": "My neck has been sore on the left since I slept funny on Monday."}
NOSE = {"id": "nose", "topic": "nose", "keywords": ["nose", "sniffles"],
        "answer": "My nose has been bleeding a little when I blow it."}
KEYWORDED = {"id": "keyworded", "topic": "neck", "keywords": ["neck", "stiff neck"],
             "answer": "No, my neck is fine."}
STIFF = {"id": "stiff", "topic": "neck", "keywords": ["neck"],
         "answer": "My neck is stiff; I can't bend it forward."}
EAR = {"id": "ear", "topic": "ear pain", "keywords": ["ear", "ear pain"],
       "answer": "My right ear has been aching since the weekend."}
TOOTH = {"id": "tooth", "topic": "dental pain", "keywords": ["tooth", "teeth"],
         "answer": "A tooth at the back on the left has ached for a week."}


def simulator(*facts: dict) -> GroundedSimulator:
    return GroundedSimulator(patient_record(fixture_case(additional_answers=[*CASE_DATA["additional_answers"],
                                                                                *facts])))


# -- 1: one kind of a symptom named, which the fact does not say --------------------------------------------------

@pytest.mark.parametrize(("fact", "question"), [(NECK, "Any stiff neck?"), (NOSE, "Any runny nose?"),
                                                (NOSE, "has he had a blocked nose?")])
def test_a_kind_the_fact_does_not_say_is_told_with_doubt(fact, question):
    reply = simulator(fact).answer(question)
    assert reply.facts != [fact["id"]] or reply.confidence < SURE


@pytest.mark.parametrize(("fact", "question"), [(STIFF, "Any stiff neck?"), (NECK, "Any neck pain?"),
                                                (KEYWORDED, "Any stiff neck?"),
                                                (NOSE, "any nosebleeds or bleeding from the nose?")])
def test_the_kind_said_or_the_symptom_asked_plainly_is_sure(fact, question):
    # negative: the fact says the kind (in its answer or its keywords), or the question names no kind
    reply = simulator(fact).answer(question)
    assert reply.facts == [fact["id"]] and reply.confidence >= SURE


# -- 3: a lay compound of ache is the pain of that part -----------------------------------------------------------

@pytest.mark.parametrize(("fact", "question"), [(EAR, "Any earache?"), (TOOTH, "Have you had toothache?"),
                                                (EAR, "earaches at all?")])
def test_a_compound_of_ache_is_the_pain_of_the_part(fact, question):
    assert simulator(fact).answer(question).facts == [fact["id"]]


def test_a_compound_of_ache_is_not_another_part():
    # negative: earache is no tooth pain, and the part alone still asks of the part
    assert "tooth" not in simulator(EAR, TOOTH).answer("Any earache?").facts
    assert "ear" not in simulator(EAR, TOOTH).answer("Any toothache?").facts
