"""Issue 41, scoring one transcript (third step): a procedure said done is looked for once per distinct word of
the answer, not once per token and noun; the hits are exactly those of asking every token."""

from __future__ import annotations

from medbench_tui.core.scoring.concepts import (
    PROCEDURE_DONE_AFTER,
    PROCEDURE_LABEL_RE,
    _form_of,
    procedure_nouns,
    procedures_reported,
)
from medbench_tui.core.scoring.document import Document, Hit


def _every_token(doc: Document, nouns: tuple[str, ...]) -> list[Hit]:
    """The procedures said done as they were read before: every token asked of every noun."""
    return sorted({Hit(k, k) for k, token in enumerate(doc.tokens)
                   if any(_form_of(token.norm, n) for n in nouns) and k + 1 < len(doc.tokens)
                   and PROCEDURE_DONE_AFTER.starting_at(doc.lows, k + 1) is not None})


def _label_starts(text: str) -> set[int]:
    return {m.start(1) for m in PROCEDURE_LABEL_RE.finditer(text)}


TEXTS = (
    "Lumbar puncture already done; lumbar puncture to be repeated if fever persists. Puncture performed today.",
    "Drainage already performed. Repeat paracentesis tomorrow if tense; paracentesis done at the bedside",
    "Thoracocentesis: not yet. Drained 1 L. Drainage already carried out this morning? drainage",
    "No aspiration. Aspirate (40 mL): straw-coloured. Aspirated already done, aspiration done today",
    "Cardioversion was not attempted; electrical cardioversion done this morning",
    "",
)
ITEMS = ("Diagnostic lumbar puncture", "Therapeutic paracentesis", "Pleural drainage", "Knee joint aspiration",
         "Synchronised DC cardioversion")


def test_procedures_said_done_are_those_every_token_gives() -> None:
    for text in TEXTS:
        doc = Document(text)
        for item in ITEMS:
            nouns = procedure_nouns(tuple(item.lower().split()))
            done = procedures_reported(doc, nouns)
            labelled = [h for h in done if doc.tokens[h.first].start in _label_starts(text)]
            assert sorted({*labelled, *_every_token(doc, nouns)}) == done, (text, item)
            assert procedures_reported(Document(text), nouns) == done  # the same on a new document


def test_a_procedure_said_done_is_found_at_each_place() -> None:
    """Each place a form of the noun is said done is a hit; one said otherwise ("to be repeated") is none."""
    doc = Document("Aspiration already done; repeat aspiration if it recurs. Aspirated at the bedside, aspiration "
                   "done today")
    hits = procedures_reported(doc, procedure_nouns(("knee", "joint", "aspiration")))
    assert [doc.quote(h) for h in hits] == ["Aspiration", "aspiration"]
    assert procedures_reported(Document("Drainage tomorrow if the effusion recurs."), ("drainage",)) == []
