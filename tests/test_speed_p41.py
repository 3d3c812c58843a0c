"""Issue 41, the harness's CPU per turn: what the patient and the scorer keep between questions and runs is keyed on
everything it depends on, and serves exactly what working it out again gives."""

from __future__ import annotations

from pathlib import Path

from medbench_tui.core.cases.model import patient_record
from medbench_tui.core.simulators.matcher import Matcher
from medbench_tui.core.validate import load_valid_case

CASES = Path(__file__).resolve().parent.parent / "cases"
QUESTIONS = [
    "When did this start?",
    "Have you had this before?",
    "Any chest pain or shortness of breath?",
    "Are you on any medications?",
    "any allergies?",
    "ever had a rash like this before?",
    "Does anything run in the family?",
]


def _ranking(matcher: Matcher, question: str, of_the_illness: bool) -> list[tuple[str | None, float, list[float]]]:
    return [(m.source.id, m.score, m.per_unit) for m in matcher.ranked(question, of_the_illness=of_the_illness)]


def test_the_matchers_kept_rankings_are_those_worked_out_anew() -> None:
    """``ranked`` and ``facts_for`` are kept per question and per reading of it (of the illness or not): a question
    asked again, either way, gets what a matcher that never saw it works out."""
    record = patient_record(load_valid_case(CASES / "em-anaphylaxis-001.yaml"))
    kept = Matcher(record)
    for _ in range(2):  # the second round is served from what the first kept
        for question in QUESTIONS:
            for of_the_illness in (False, True):
                fresh = Matcher(record)
                assert _ranking(kept, question, of_the_illness) == _ranking(fresh, question, of_the_illness)
                assert [s.id for s in kept.facts_for(question, of_the_illness=of_the_illness)] == [
                    s.id for s in fresh.facts_for(question, of_the_illness=of_the_illness)]


def test_a_kept_ranking_is_a_copy() -> None:
    """A caller that changes the list it was given does not change what the next caller gets."""
    matcher = Matcher(patient_record(load_valid_case(CASES / "em-anaphylaxis-001.yaml")))
    first = matcher.ranked("Any allergies?")
    assert first
    first.clear()
    assert matcher.ranked("Any allergies?")
    facts = matcher.facts_for("Any allergies?")
    before = list(facts)
    facts.clear()
    assert matcher.facts_for("Any allergies?") == before


def test_each_row_is_weighed_by_the_doubt_rules_that_can_apply_to_it(monkeypatch) -> None:
    """A row is asked only the rules of its kind (an item left out, or an answer's item): every rule left out for a
    row says no to it, on every row of the labelled answers, so the doubts are those every rule gives."""
    from ruamel.yaml import YAML

    from medbench_tui.core.scoring import certainty, scorecard
    from medbench_tui.core.scoring.scorecard import score
    from medbench_tui.core.transcript import FinalResponse, Transcript

    rows: list[certainty.ItemFacts] = []

    def recorded(facts: certainty.ItemFacts) -> list[str]:
        rows.append(facts)
        return certainty.item_doubts(facts)

    monkeypatch.setattr(scorecard, "item_doubts", recorded)
    answers = Path(__file__).resolve().parent / "data" / "answers"
    for path in sorted(answers.glob("*.yaml"))[:8]:
        data = YAML(typ="safe", pure=True).load(path.read_text(encoding="utf-8"))
        case = load_valid_case(CASES / f"{data['case']}.yaml")
        for answer in data["answers"]:
            final = FinalResponse(text=answer["text"])
            score(case, Transcript(case_id=case.id, final=final, status="complete"))
    assert len(rows) > 200 and any(certainty.item_doubts(f) for f in rows)
    for facts in rows:
        assert certainty.item_doubts(facts) == [rule.name for rule in certainty.DOUBTS if rule.applies(facts)]


def test_a_short_texts_kept_tokens_are_a_new_list_of_the_same_tokens() -> None:
    from medbench_tui.core.text import ANSWERS, tokenize

    text = "IV co-amoxiclav 1.2 g TDS and CXR"
    first = tokenize(text)
    assert first == ANSWERS.tokenize(text)
    first.clear()  # a caller's list is its own
    again = tokenize(text)
    assert again == ANSWERS.tokenize(text) and again is not first


def test_a_final_read_again_is_scored_as_the_first_time_and_a_changed_one_anew() -> None:
    """The text extractor's reading of a final is kept per case by every field of the final: the same final again
    gets the card it got the first time; one that differs in any field (here the advice alone) is read anew."""
    from medbench_tui.core.scoring.reference import build_table
    from medbench_tui.core.scoring.scorecard import _scorecard, score
    from medbench_tui.core.scoring.text_extractor import TextExtractor
    from medbench_tui.core.transcript import FinalResponse, Transcript

    case = load_valid_case(CASES / "em-anaphylaxis-001.yaml")
    text = "Diagnosis: anaphylaxis\nPlan: IM adrenaline 0.5 mg, high-flow oxygen, IV fluids, observe 6 hours"
    finals = [FinalResponse(text=text), FinalResponse(text=text, advice="Carry two auto-injectors."),
              FinalResponse(text=text)]
    for final in finals:
        transcript = Transcript(case_id=case.id, final=final, status="complete")
        fresh_table = build_table(case)
        fresh = _scorecard(case, fresh_table, transcript, TextExtractor().read(fresh_table, final), None)
        assert score(case, transcript).to_json() == fresh.to_json()
