"""Round 13 of the grader's doubt: which readings are doubted by the answer's length, contingencies and
harms said both ways (core/scoring/certainty.py, docs/grading.md "When the grader is unsure")."""

from __future__ import annotations

from pathlib import Path

from medbench_tui.core.scoring import score
from medbench_tui.core.scoring.assertion import Status
from medbench_tui.core.scoring.certainty import ItemFacts, condition_doubts, item_doubts
from medbench_tui.core.scoring.extraction_model import Entity, Span
from medbench_tui.core.scoring.match import Pairing
from medbench_tui.core.scoring.scorecard import Scorecard
from medbench_tui.core.transcript import FinalResponse, Transcript
from medbench_tui.core.validate import load_valid_case

CASES = Path(__file__).resolve().parent.parent / "cases"
FILLER = " Review the observations and the plan with the family." * 20
"""Words that make an answer long (130 words or more) without naming any item."""


def _card(case_id: str, text: str) -> Scorecard:
    case = load_valid_case(CASES / f"{case_id}.yaml")
    return score(case, Transcript(case_id=case.id, final=FinalResponse(text=text)))


def _doubts(card: Scorecard, section: str, reference: str) -> list[str] | None:
    """The doubts of a reference item's row or doubted absence (None: it has neither)."""
    entries = [*getattr(card.items, section), *(a for a in card.uncertain_absences if a.section == section)]
    return next((e.doubts for e in entries if e.reference == reference), None)


def test_an_item_said_only_under_a_contingency_of_the_plan_is_doubted() -> None:
    """'Admit if she vomits' is read as conditional, so the admission is left out; physicians often read such a
    contingency as the plan."""
    card = _card("im-cap-001", "Community-acquired pneumonia, CURB-65 0. Amoxicillin 500 mg three times a day "
                               "for 5 days. Chest X-ray if not improving.")
    assert _doubts(card, "workup", "Chest X-ray") == ["only as a condition"]


def test_a_restricted_action_is_not_doubted() -> None:
    """'Only if', 'reserved for': the answer restricts the action; physicians agree it is not given."""
    card = _card("im-cap-001", "Community-acquired pneumonia, CURB-65 0. Amoxicillin 500 mg three times a day "
                               "for 5 days. Chest X-ray only if not improving.")
    assert not _doubts(card, "workup", "Chest X-ray")


def test_a_required_action_said_only_under_a_contingency_does_not_turn_a_must_include_verdict() -> None:
    doubted = {"a": ["only as a condition"]}
    assert condition_doubts(["A"], doubted, False, required=True) == []
    assert condition_doubts(["A"], doubted, False) == ["rests on an uncertain item"]  # a must-not read from absences
    assert condition_doubts(["A"], {"a": ["only as a condition", "words present"]}, False, required=True) == [
        "rests on an uncertain item"]


def test_a_harmful_action_told_to_the_patient_still_fails_a_must_not_verdict() -> None:
    told = {"a": ["advice only"]}
    assert condition_doubts(["A"], told, False, given=True) == []
    assert condition_doubts(["A"], told, False, given=True, required=True) == ["rests on an uncertain item"]


def _facts(words: int, entity: Entity | None = None, via: str | None = None, unsaid: Entity | None = None,
           klass: str = "required") -> ItemFacts:
    from medbench_tui.core.scoring.certainty import AnswerWords
    from medbench_tui.core.scoring.reference import Ref

    ref = Ref(kind="treatment", index=0, name="Nitrofurantoin", klass=klass, phrases=[])
    return ItemFacts(Pairing(ref, entity, "matched" if entity else "missing", via), [], unsaid,
                     AnswerWords(frozenset(), frozenset(), words, 5))


def _entity(section: str | None = "treatment", status: Status = "affirmed") -> Entity:
    return Entity(kind="treatment", text="nitrofurantoin", evidence=Span(start=0, end=14, text="nitrofurantoin"),
                  source="text", section=section, status=status)


def test_readings_of_what_a_long_answer_gives_stand() -> None:
    """Inferred, advised, loosely worded readings are doubted in a short answer only: a long answer spells out
    what it means."""
    advised = _entity(section="advice")
    assert item_doubts(_facts(60, advised)) == ["advice only"]
    assert item_doubts(_facts(300, advised)) == []
    assert item_doubts(_facts(60, _entity(), via="a drug of its class")) == ["another form of the drug"]
    assert item_doubts(_facts(300, _entity(), via="a drug of its class")) == []


def test_a_harmful_item_given_and_also_said_not_to_be_given_is_doubted() -> None:
    negated = _entity(status="negated")
    assert item_doubts(_facts(300, _entity(), unsaid=negated, klass="contraindicated")) == ["said both ways"]
    assert item_doubts(_facts(300, _entity(), unsaid=negated, klass="required")) == []


def test_a_harm_left_out_of_a_long_answer_is_not_doubted_for_its_words() -> None:
    """A thorough answer names harms to rule them out: their words in it do not doubt their absence."""
    from medbench_tui.core.scoring.certainty import AnswerWords
    from medbench_tui.core.scoring.reference import reference_table

    table = reference_table(load_valid_case(CASES / "em-pe-001.yaml"))
    harm = next(r for r in table.treatment if r.klass == "contraindicated")
    required = next(r for r in table.treatment if r.klass == "required")
    for ref in (harm, required):
        held = frozenset(ref.word_sets[0])
        for count, doubted in ((60, True), (300, ref is required)):
            facts = ItemFacts(Pairing(ref, None, "missing"), [], None, AnswerWords(held, held, count, 5))
            assert ("words present" in item_doubts(facts)) is doubted, (ref.name, count)


def test_a_terse_plan_doubts_only_an_item_it_half_names() -> None:
    """An item none of whose words a terse plan holds was left out (a flawed plan's omission), not implied."""
    card = _card("ped-dka-001", "DKA. Bloods, VBG, ketones. Hourly neuro, cerebral oedema risk.")
    assert "terse plan" in (_doubts(card, "treatment", "Hourly neurological observations for cerebral oedema") or [])
    assert "terse plan" not in (_doubts(card, "treatment", "Potassium chloride 40 mmol/L in IV fluids") or [])


def _diagnosis(kind: str, name: str, answer: str, entity: Entity | None = None) -> list[str]:
    """The doubts of a diagnosis item named ``name`` against an answer of the words ``answer`` (60 words long)."""
    from medbench_tui.core.scoring.certainty import AnswerWords
    from medbench_tui.core.scoring.reference import Phrase, Ref

    ref = Ref(kind=kind, index=0, name=name, klass=kind,  # type: ignore[arg-type]
              phrases=[Phrase(name, tuple(name.lower().split()), caps_only=False)])
    words = frozenset(answer.lower().split())
    return item_doubts(ItemFacts(Pairing(ref, entity, "matched" if entity else "missing"), [], None,
                                 AnswerWords(words, frozenset(), 60, 5)))


def test_a_primary_diagnosis_left_out_though_half_named_is_doubted() -> None:
    assert _diagnosis("primary", "torsion left testis", "torsion of the left") == ["primary half named"]
    assert _diagnosis("primary", "torsion left testis", "torsion left testis") == ["words present"]
    assert _diagnosis("primary", "torsion left testis", "epididymitis") == []


def test_a_comorbidity_named_in_passing_in_a_short_answer_is_doubted() -> None:
    def said(text: str, section: str) -> Entity:
        return Entity(kind="diagnosis", text=text, evidence=Span(start=0, end=len(text), text=text), source="text",
                      section=section)

    name = "tobacco dependence syndrome"
    assert _diagnosis("secondary", name, "", said("smoker", "preamble")) == ["secondary in passing"]
    assert _diagnosis("secondary", name, "", said("smoker", "diagnosis")) == []
    assert _diagnosis("secondary", name, "", said("tobacco dependence", "preamble")) == []


def test_a_short_answer_dense_with_items_is_a_terse_plan() -> None:
    """Shorthand packs an item into every few words: an answer read at 0.15 mentions per word or more is a terse
    plan however long; one of 80 words or more read sparsely is not."""
    from medbench_tui.core.scoring.certainty import AnswerWords
    from medbench_tui.core.scoring.reference import Phrase, Ref

    name = "limit sodium correction first day"
    ref = Ref(kind="treatment", index=0, name=name, klass="required",
              phrases=[Phrase(name, tuple(name.split()), caps_only=False)])
    held = frozenset({"sodium", "correction", "first"})

    def doubts(count: int, read: int) -> list[str]:
        return item_doubts(ItemFacts(Pairing(ref, None, "missing"), [], None, AnswerWords(held, frozenset(), count,
                                                                                         read)))

    assert "terse plan" in doubts(110, 20)
    assert "terse plan" not in doubts(110, 10)
    assert "terse plan" in doubts(300, 60)
    assert "terse plan" not in doubts(300, 30)
