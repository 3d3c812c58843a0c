"""Scoring of a consultation's final response against its case (``shared/spec/scoring.md``).

Where each rule lives:

* ``constants.py`` - every threshold, the rapidfuzz scorer, default penalties;
* ``core/text.py`` (the one text module) - case, punctuation, UK/US spelling, plurals, abbreviations, synonyms;
* ``cues.py`` - negation, hedge, differential and background cues, and their scope;
* ``assertion.py`` - one status per mention: affirmed, negated, conditional (the record decides), historical, asked;
* ``concepts.py`` - safety-netting and timed follow-up reviews in the doctor's own words;
* ``sections.py`` - headings and list items of a free-text final;
* ``extraction_model.py`` - the extraction model: entities, evidence spans, the :class:`Extractor` protocol;
* ``text_extractor.py`` - the text reader, the deterministic extractor (how a mention in prose gets its kind);
* ``llm_extractor.py`` - the LLM extractor, backed by an OpenAI-compatible model;
* ``extractor_choice.py`` - the extractor choice: ``text`` or ``llm`` by name or by the bank's evaluator;
* ``match.py`` - answer items against reference items (one greedy assignment);
* ``metrics.py``, ``conditions.py`` - every metric and the critical conditions;
* ``reasons.py`` - why each item was decided, and what the consultation did that the final left out;
* ``scorecard.py`` - the :class:`Scorecard`, its JSON, and :func:`score`;
* ``render.py`` - the plain-text card.
"""

from medbench_tui.core.scoring.extraction_model import (
    NO_EVIDENCE,
    Entity,
    Extraction,
    Extractor,
    Span,
)
from medbench_tui.core.scoring.llm_extractor import LlmExtractor
from medbench_tui.core.scoring.render import render_scorecard_text
from medbench_tui.core.scoring.scorecard import (
    Scorecard,
    build_scorecard,
    score,
    score_async,
)
from medbench_tui.core.scoring.text_extractor import TextExtractor

__all__ = [
    "NO_EVIDENCE",
    "Entity",
    "Extraction",
    "Extractor",
    "LlmExtractor",
    "Scorecard",
    "Span",
    "TextExtractor",
    "build_scorecard",
    "render_scorecard_text",
    "score",
    "score_async",
]
