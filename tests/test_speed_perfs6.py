"""perfs6: work asked of the same reference item by every mention of every answer is done once per item's words.

``done_today`` reads an item's name (is it an action of today, no safety-netting?) for each safety-net mention and
each conditional safety net the matcher weighs: its words part is now kept per name. These tests check that the kept
answer is the answer computed afresh, for wordings of several topics, and that an item whose name or timing is edited
is read anew (the cache is keyed by the name; the timing is read from the item every time).
"""

from __future__ import annotations

import pytest

from medbench_tui.core.batch_caches import release
from medbench_tui.core.scoring import actions, reference
from medbench_tui.core.scoring.reference import Ref, done_today

NAMES = [
    "Call an ambulance now for transfer to the stroke unit",
    "Same-day admission to the paediatric ward",
    "Advise to attend the eye casualty today",
    "Call 999 if the rash spreads or she becomes drowsy",
    "Return to the emergency department if the bleeding restarts",
    "Urgent same-day ENT review",
    "Dial 999 immediately",
    "Outpatient dermatology review in six weeks",
    "Seek urgent help if the swelling reaches the lips",
    "Go to A&E now",
]


def ref(name: str) -> Ref:
    return Ref(kind="treatment", index=0, name=name, klass="required", phrases=[],
               reading=actions.item_reading_of(name))


def uncached(r: Ref) -> bool:
    """The rule as it was written before the names were kept: every reading afresh."""
    release()
    return done_today(r)


@pytest.mark.parametrize("name", NAMES)
def test_kept_answer_is_the_answer_read_afresh(name: str):
    fresh = uncached(ref(name))
    assert done_today(ref(name)) == fresh  # from what was kept
    assert done_today(ref(name)) == fresh


def test_a_same_day_action_and_a_conditional_call_differ():
    assert done_today(ref("Dial 999 immediately")) is True
    assert done_today(ref("Call 999 if the rash spreads or she becomes drowsy")) is False  # advice for later
    assert done_today(ref("Outpatient dermatology review in six weeks")) is False  # not today at all
    assert done_today(None) is False


def test_an_edited_item_is_read_anew():
    item = ref("Dial 999 immediately")
    assert done_today(item) is True
    item.name = "Dial 999 if the swelling reaches the lips"  # its name edited in place: another key
    item.reading = actions.item_reading_of(item.name)
    assert done_today(item) == uncached(ref(item.name))
    item.reading = actions.item_reading_of("Review in six weeks")  # its timing edited: read from the item
    assert done_today(item) is False


def test_the_kept_names_are_bounded_and_released():
    cached = reference._named_as_done_today
    assert cached.cache_info().maxsize is not None  # type: ignore[attr-defined]
    done_today(ref("Dial 999 immediately"))
    release()
    assert cached.cache_info().currsize == 0  # type: ignore[attr-defined]


PROCEDURE_WORDS = ["aspirated", "aspirate", "aspiration", "aspirin", "drained", "drainage", "drain", "biopsied",
                   "biopsy", "lavage", "lavaged", "punctured", "puncture", "tapped", "paracentesis", "the", "x"]


@pytest.mark.parametrize("nouns", [("aspiration",), ("drainage", "aspiration"), ("paracentesis",), ()])
def test_a_kept_procedure_form_is_the_form_read_afresh(nouns: tuple[str, ...]):
    from medbench_tui.core.scoring import concepts

    for word in PROCEDURE_WORDS:
        fresh = any(concepts._form_of(word, n) for n in nouns)
        assert concepts._form_of_any(word, nouns) is fresh
        assert concepts._form_of_any(word, nouns) is fresh  # from what was kept
    if "aspiration" in nouns:
        assert concepts._form_of_any("aspirated", nouns) and not concepts._form_of_any("aspirin", nouns)
