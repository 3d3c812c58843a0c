"""Scoring of a consultation's final response against its case (``shared/spec/scoring.md``).

Where each rule lives:

* ``constants.py`` - every threshold, the rapidfuzz scorer, default penalties;
* ``core/text.py`` (the one text module) - case, punctuation, UK/US spelling, plurals, abbreviations, synonyms;
* ``cues.py`` - negation, hedge, differential and background cues, and their scope;
* ``concepts.py`` - safety-netting and timed follow-up reviews in the doctor's own words;
* ``sections.py`` - headings and list items of a free-text final;
* ``extract.py`` - the deterministic extractor (how a mention in prose gets its kind);
* ``llm_extract.py`` - the extractor backed by an OpenAI-compatible model;
* ``match.py`` - answer items against reference items (one greedy assignment);
* ``metrics.py``, ``conditions.py`` - every metric and the critical conditions;
* ``scorecard.py`` - the :class:`Scorecard`, its JSON, and :func:`score`;
* ``render.py`` - the plain-text card.
"""

from medbench_tui.core.scoring.extract import TextExtractor
from medbench_tui.core.scoring.extraction import NO_EVIDENCE, Entity, Extraction, Extractor, Span
from medbench_tui.core.scoring.llm_extract import LlmExtractor
from medbench_tui.core.scoring.render import render_scorecard_text
from medbench_tui.core.scoring.scorecard import Scorecard, build_scorecard, score, score_async

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
