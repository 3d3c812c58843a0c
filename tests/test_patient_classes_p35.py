"""Round 22's patient classes fixed for brief p35 (issue 33), each held on wording of its own on other topics."""

from __future__ import annotations

from medbench_tui.core.simulators.lexicon import sentences
from medbench_tui.core.simulators.voice import is_default_for
from tests.test_patient_round8_classes import patient

# -- a compound question with a covered and an uncovered part: the fact, and the default for the rest ----------

KNEE = {"id": "knee", "topic": "knee pain", "keywords": ["knee", "knees", "leg", "calf", "shin"],
        "answer": "My right knee has ached for six weeks, worse going down stairs."}
FAMILY = {"id": "family", "topic": "family history", "keywords": ["family", "mum", "dad", "gran", "relatives"],
          "answer": "Mum has type 2 diabetes. My gran had an underactive thyroid."}
HOME = {"id": "home", "topic": "home and surroundings", "keywords": ["home", "house", "pets", "smokers", "wood burner"],
        "answer": "It's a terraced house. We've got a cat, and nobody smokes."}


def _defaults(text: str) -> list[str]:
    return [s for s in sentences(text) if is_default_for(s)]


def test_a_part_of_the_body_said_only_by_a_keyword_gets_its_default_beside_the_fact():
    reply = patient([KNEE]).answer("Any knee pain or pain in your calf?")
    assert reply.facts == ["knee"]
    assert any("calf" in s for s in _defaults(reply.text))
    assert "your calf" not in reply.text  # the patient's own words: "my calf"


def test_a_part_the_answer_says_gets_no_default():
    reply = patient([KNEE]).answer("Any knee pain or aching in your knee?")
    assert reply.facts == ["knee"] and not _defaults(reply.text)


def test_a_family_history_list_carries_its_lead_and_the_unsaid_illness_gets_its_default():
    reply = patient([FAMILY]).answer("Any FHx of diabetes, thyroid trouble or heart disease?")
    assert reply.facts == ["family"]
    assert any("heart disease in the family" in s for s in _defaults(reply.text))


def test_a_family_history_list_the_fact_says_whole_gets_no_default():
    reply = patient([FAMILY]).answer("Any family history of diabetes or thyroid problems?")
    assert reply.facts == ["family"] and not _defaults(reply.text)


def test_a_fragment_after_the_list_said_only_by_a_keyword_gets_its_default():
    reply = patient([HOME]).answer("Any pets or smokers at home? wood burner?")
    assert reply.facts == ["home"]
    assert any("wood burner" in s for s in _defaults(reply.text))


def test_a_fragment_the_answer_says_adds_nothing():
    reply = patient([HOME]).answer("Any pets at home? a cat?")
    assert reply.facts == ["home"] and not _defaults(reply.text)
