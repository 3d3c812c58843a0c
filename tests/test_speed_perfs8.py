"""Issue 41 (scoring CPU): the shared, once-per-document readings give what each pass read alone gave.

No timed assertions: each test compares a memoised or batched reading with the per-pass reading it replaced,
on varied texts of several topics."""

from __future__ import annotations

import random

import pytest

from medbench_tui.core.scoring import concepts
from medbench_tui.core.scoring.document import Document
from medbench_tui.core.scoring.reference import _DECLINED_STEMS, DECLINED_ACTIONS, _held, _same_action

TEXTS = [
    "Aspirated 60 mL at bedside: turbid fluid, gram stain pending.",
    "Therapeutic aspiration already done; drainage of the collection tomorrow.",
    "Drained 200 mL (clear): cultures sent. Do not aspirate again in the surgery.",
    "Plan: lumbar puncture once the CT is back. Biopsy: if the node persists at 6 weeks.",
    "No procedure today; review in clinic next week.",
    "",
]
NOUNS = [("aspiration",), ("drainage", "aspiration"), ("biopsy",), ("puncture",)]


@pytest.mark.parametrize("text", TEXTS)
def test_procedures_reported_once_per_document_is_what_a_fresh_reading_gives(text: str) -> None:
    doc = Document(text)
    for nouns in NOUNS:
        first = concepts.procedures_reported(doc, nouns)
        assert concepts.procedures_reported(doc, nouns) == first  # the kept reading
        assert concepts.procedures_reported(Document(text), nouns) == first  # a fresh document reads the same


def test_procedures_reported_still_finds_a_procedure_done_by_its_result() -> None:
    assert concepts.procedures_reported(Document(TEXTS[0]), ("aspiration",))
    assert not concepts.procedures_reported(Document(TEXTS[4]), ("aspiration",))


def _held_per_word(index: dict[str, list[int]], where: dict[str, list[int]]) -> dict[int, int]:
    """The reading ``_held`` replaced: every word of the answer looked up in turn."""
    held: dict[int, int] = {}
    for word in where:
        for i in index.get(word, ()):
            held[i] = held.get(i, 0) + 1
    return held


def test_held_by_intersection_counts_as_the_word_by_word_reading() -> None:
    rnd = random.Random(8)
    vocabulary = [f"w{n}" for n in range(40)]
    for _ in range(200):
        index = {w: rnd.sample(range(30), k=rnd.randint(1, 4)) for w in rnd.sample(vocabulary, k=rnd.randint(0, 25))}
        where = {w: [0] for w in rnd.sample(vocabulary, k=rnd.randint(0, 25))}
        assert _held(index, where) == _held_per_word(index, where)


@pytest.mark.parametrize("word", ["aspirate", "aspirating", "aspiration", "drainage", "drain", "discharged",
                                  "withholding", "waiting", "admit", "asp", "", "paracetamol", "ventilate"])
def test_declined_stems_read_a_word_as_each_declined_action_did(word: str) -> None:
    assert word.startswith(_DECLINED_STEMS) == any(_same_action(verb, word) for verb in DECLINED_ACTIONS)


def test_declined_stems_read_every_declined_action_and_its_forms() -> None:
    for verb in DECLINED_ACTIONS:
        for word in (verb, f"{verb}d", f"{verb}ing", f"{verb}ion", verb[:3]):
            assert word.startswith(_DECLINED_STEMS) == any(_same_action(v, word) for v in DECLINED_ACTIONS)
