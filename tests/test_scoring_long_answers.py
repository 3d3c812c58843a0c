"""A long answer is read in time linear in its length, and what is scored is capped, with a note.

Step counts, not clocks: the readers walk a mention's clause, so an answer with no
punctuation made every mention walk the whole answer (22 KB took 9 s, 2.2 MB never ended).
"""

from __future__ import annotations

import random
from pathlib import Path

from medbench_tui.core.scoring import score
from medbench_tui.core.scoring.document import Document
from medbench_tui.core.scoring.render import render_scorecard_text
from medbench_tui.core.transcript import FinalResponse, Transcript
from medbench_tui.core.validate import load_valid_case

CASE = load_valid_case(Path(__file__).resolve().parent.parent / "cases" / "im-cap-001.yaml")
WORDS = "the patient has pneumonia cough fever chest x-ray amoxicillin CRP oxygen saturation sepsis review".split()


def _run_on(n_words: int) -> str:
    """A model's run-on output: clinical words with no punctuation at all."""
    rnd = random.Random(n_words)
    return " ".join(rnd.choice(WORDS) for _ in range(n_words))


def test_no_clause_is_longer_than_the_bound():
    from medbench_tui.core.scoring.document import MAX_CLAUSE_TOKENS

    doc = Document(_run_on(5_000))
    sizes: dict[int, int] = {}
    for clause in doc.clause:
        sizes[clause] = sizes.get(clause, 0) + 1
    assert max(sizes.values()) <= MAX_CLAUSE_TOKENS
    assert doc.clause_of(2_500).last - doc.clause_of(2_500).first < MAX_CLAUSE_TOKENS


def test_reading_is_linear_in_the_answers_length(monkeypatch):
    """The steps of scoring (clause walks, cue lookups) grow with the length, not its square."""
    from medbench_tui.core.scoring import cues

    calls = {"n": 0}
    original = cues.Cues.starting_at

    def counted(self, low, k):
        calls["n"] += 1
        return original(self, low, k)

    monkeypatch.setattr(cues.Cues, "starting_at", counted)
    steps = []
    for n_words in (1_500, 6_000):
        calls["n"] = 0
        score(CASE, Transcript(case_id=CASE.id, system="x", status="complete", turns=[],
                               final=FinalResponse(text=_run_on(n_words))))
        steps.append(calls["n"])
    assert steps[1] < 6 * steps[0], steps  # four times the text: about four times the steps (was ~16)


def test_what_is_scored_is_capped_and_the_card_says_so():
    from medbench_tui.core.scoring.scorecard import MAX_SCORED_CHARS

    text = "Diagnosis: community-acquired pneumonia (J18.9)\n" + _run_on(MAX_SCORED_CHARS // 3)
    card = score(CASE, Transcript(case_id=CASE.id, system="x", status="complete", turns=[],
                                  final=FinalResponse(text=text, workup=["Chest X-ray"] * 1_000)))
    assert len(text) > MAX_SCORED_CHARS
    assert card.metrics.diagnosis_accuracy == 100
    assert len(card.notes) == 2 and "only its first" in card.notes[0] and "were scored" in card.notes[1]
    assert f"{len(text):,} characters" in card.notes[0]
    assert "Note: The final response's text is" in render_scorecard_text(card)
    assert card.to_json()["notes"] == card.notes


def test_a_short_answer_has_no_note():
    card = score(CASE, Transcript(case_id=CASE.id, system="x", status="complete", turns=[],
                                  final=FinalResponse(text="Diagnosis: pneumonia")))
    assert card.notes == []
