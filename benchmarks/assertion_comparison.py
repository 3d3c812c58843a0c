"""The scorer's own assertion rules against medspacy's ConText and negspacy, on the labelled set.

    pip install medspacy negspacy      # not project dependencies
    python benchmarks/assertion_comparison.py

Runs ``scoring_agreement`` three times over ``tests/data/answers`` with the same section
parser, matching and metrics, changing only how a workup or treatment mention gets its
status (``assertion.action``):

* ``rules``     - the scorer's own ConText-style triggers and scopes (``assertion.py``);
* ``medspacy``  - medspacy's ConText (default rules): negated, hypothetical (= conditional)
  and historical from ``ent._.is_negated``, ``is_hypothetical``, ``is_historical``;
* ``negspacy``  - negspacy's NegEx for negation, the scorer's rules for conditions and history.

Prints each variant's summary line; the last line is the scorer's own.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import scoring_agreement  # noqa: E402

from medbench_tui.core.scoring import assertion  # noqa: E402
from medbench_tui.core.scoring.document import Document  # noqa: E402

OWN_ACTION = assertion.action


def _span(doc: Document, first: int, last: int) -> tuple[int, int]:
    return doc.tokens[first].start, doc.tokens[last].end


def medspacy_action(nlp):
    context = nlp.get_pipe("medspacy_context")
    sentences = nlp.get_pipe("medspacy_pyrush")

    def action(doc: Document, first: int, last: int, kind: str, record, own: bool) -> assertion.Assertion:
        if assertion.asked(doc, first):
            return OWN_ACTION(doc, first, last, kind, record, own)
        sdoc = sentences(nlp.make_doc(doc.text))
        start, end = _span(doc, first, last)
        span = sdoc.char_span(start, end, label="ITEM", alignment_mode="expand")
        if span is None:
            return assertion.AFFIRMED
        sdoc.ents = [span]
        sdoc = context(sdoc)
        ent = sdoc.ents[0]
        if ent._.is_negated:
            return assertion.Assertion("negated", "ConText", "negated: ConText")
        if ent._.is_hypothetical and not own:
            return assertion.Assertion("conditional", "ConText", "conditional: ConText")
        if ent._.is_historical:
            return assertion.Assertion("historical", "ConText", "history: ConText")
        return assertion.AFFIRMED

    return action


def negspacy_action(nlp):
    def action(doc: Document, first: int, last: int, kind: str, record, own: bool) -> assertion.Assertion:
        mine = OWN_ACTION(doc, first, last, kind, record, own)
        if mine.status in ("question", "conditional", "historical"):
            return mine
        sdoc = nlp.make_doc(doc.text)
        start, end = _span(doc, first, last)
        span = sdoc.char_span(start, end, label="ITEM", alignment_mode="expand")
        if span is None:
            return assertion.AFFIRMED
        sdoc.ents = [span]
        for _, pipe in nlp.pipeline:
            sdoc = pipe(sdoc)
        if sdoc.ents and sdoc.ents[0]._.negex:
            return assertion.Assertion("negated", "NegEx", "negated: NegEx")
        return assertion.AFFIRMED

    return action


def main() -> int:
    try:
        import medspacy
        import spacy
        from negspacy.negation import Negex  # noqa: F401
    except ImportError:
        print("medspacy and negspacy are not installed: pip install medspacy negspacy")
        return 1
    answers = scoring_agreement.load_answers(scoring_agreement.ANSWERS)
    extractor = scoring_agreement.extractors("text")[0][1]
    ms = medspacy.load()
    neg = spacy.blank("en")
    neg.add_pipe("sentencizer")
    neg.add_pipe("negex", config={"ent_types": ["ITEM"]})
    results = []
    for name, action in (("medspacy", medspacy_action(ms)), ("negspacy", negspacy_action(neg)), ("rules", OWN_ACTION)):
        assertion.action = action
        try:
            report = scoring_agreement.Report()
            for case, answer in answers:
                scoring_agreement.compare(case, answer, extractor, report)
        finally:
            assertion.action = OWN_ACTION
        sections = ", ".join(f"{k} {v.text()}" for k, v in report.sections.items() if k in ("workup", "treatment"))
        results.append(f"{name:<9} items {report.items.text()}; {sections}; safety verdicts {report.verdicts.text()}")
    print("\n".join(results))
    return 0


if __name__ == "__main__":
    sys.exit(main())
