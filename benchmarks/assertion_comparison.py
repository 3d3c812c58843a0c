"""The scorer's own assertion rules against medspacy's ConText and negspacy, on the labelled set.

    pip install medspacy negspacy      # not project dependencies
    python benchmarks/assertion_comparison.py [--quick]

Runs ``scoring_agreement`` three times over ``tests/data/answers`` with the same section
parser, matching and metrics, changing only how a workup or treatment mention gets its
status (``assertion.action``):

* ``rules``     - the scorer's own ConText-style triggers and scopes (``assertion.py``);
* ``medspacy``  - medspacy's ConText (default rules): negated, hypothetical (= conditional)
  and historical from ``ent._.is_negated``, ``is_hypothetical``, ``is_historical``;
* ``negspacy``  - negspacy's NegEx for negation, the scorer's rules for conditions and history.

Prints each variant's summary line; the last line is the scorer's own. A variant whose
library is not installed is left out and said so. ``--quick`` scores the first few answers
only (CI runs it, so the swapped step keeps the scorer's signature).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any, Protocol

sys.path.insert(0, str(Path(__file__).resolve().parent))

import scoring_agreement  # noqa: E402

from medbench_tui.core.scoring import assertion  # noqa: E402
from medbench_tui.core.scoring.assertion import Record  # noqa: E402
from medbench_tui.core.scoring.document import Document  # noqa: E402

OWN_ACTION = assertion.action
QUICK_ANSWERS = 12


class Action(Protocol):
    """``assertion.action``'s signature: a variant that drifts from it fails mypy."""

    def __call__(self, doc: Document, first: int, last: int, kind: str, record: Record, own_condition: bool,
                 item_name: str = "") -> assertion.Assertion: ...


def _span(doc: Document, first: int, last: int) -> tuple[int, int]:
    return doc.tokens[first].start, doc.tokens[last].end


def medspacy_action(nlp: Any) -> Action:
    context = nlp.get_pipe("medspacy_context")
    sentences = nlp.get_pipe("medspacy_pyrush")

    def action(doc: Document, first: int, last: int, kind: str, record: Record, own_condition: bool,
               item_name: str = "") -> assertion.Assertion:
        if assertion.asked(doc, first):
            return OWN_ACTION(doc, first, last, kind, record, own_condition, item_name)
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
        if ent._.is_hypothetical and not own_condition:
            return assertion.Assertion("conditional", "ConText", "conditional: ConText")
        if ent._.is_historical:
            return assertion.Assertion("historical", "ConText", "history: ConText")
        return assertion.AFFIRMED

    return action


def negspacy_action(nlp: Any) -> Action:
    def action(doc: Document, first: int, last: int, kind: str, record: Record, own_condition: bool,
               item_name: str = "") -> assertion.Assertion:
        mine = OWN_ACTION(doc, first, last, kind, record, own_condition, item_name)
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


def variants() -> list[tuple[str, Action | None]]:
    """Each variant and its action; None where its library is not installed."""
    out: list[tuple[str, Action | None]] = []
    try:
        import medspacy

        out.append(("medspacy", medspacy_action(medspacy.load())))
    except ImportError:
        out.append(("medspacy", None))
    try:
        import spacy
        from negspacy.negation import Negex  # noqa: F401  # registers the "negex" pipe

        neg = spacy.blank("en")
        neg.add_pipe("sentencizer")
        neg.add_pipe("negex", config={"ent_types": ["ITEM"]})
        out.append(("negspacy", negspacy_action(neg)))
    except ImportError:
        out.append(("negspacy", None))
    out.append(("rules", OWN_ACTION))
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--quick", action="store_true", help=f"the first {QUICK_ANSWERS} answers only")
    args = parser.parse_args(argv)
    answers = scoring_agreement.load_answers(scoring_agreement.ANSWERS)
    if args.quick:
        answers = answers[:QUICK_ANSWERS]
    extractor = scoring_agreement.extractors("text")[0][1]
    results = []
    for name, action in variants():
        if action is None:
            results.append(f"{name:<9} not installed: pip install medspacy negspacy")
            continue
        assertion.action = action
        try:
            report = scoring_agreement.Report()
            for case, answer in answers:
                scoring_agreement.compare(case, answer, extractor, report)
        finally:
            assertion.action = OWN_ACTION
        sections = ", ".join(f"{k} {v.text()}" for k, v in report.sections.items() if k in ("workup", "treatment"))
        results.append(f"{name:<9} items {report.items.text()}; {sections}; safety verdicts {report.verdicts.text()}")
    print(f"{len(answers)} labelled answers")
    print("\n".join(results))
    return 0


if __name__ == "__main__":
    sys.exit(main())
