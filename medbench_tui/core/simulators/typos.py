"""Everyday typos in a doctor's message, put right before the question is read.

Clinicians type fast ("anythign", "headahce", "paracetemol"). A word of six letters or more
that is neither an English word (the dictionary of ``pyspellchecker``) nor a word of the
clinical vocabulary is read as the English word one edit away, the commonest if several are.
Shorter words are left alone: one letter from a short word is usually another word ("obs" is
no "jobs", "hCG" no "hug"). A word with no English word one edit away (a drug's name, a place)
stays as written; the matcher may still find it among the record's own words.

The same dictionary tells the matcher that a word is a real word ("injection"), which it must
not read as a record's word that looks like it ("infection").
"""

from __future__ import annotations

import re

from spellchecker import SpellChecker

from medbench_tui.core.batch_caches import batch_cache
from medbench_tui.core.simulators.lexicon import STOPWORDS, misspelt_concepts, units

MIN_LETTERS = 6
"""The shortest word that is put right."""
_WORD = re.compile(rf"(?<![\w'-])[A-Za-z]{{{MIN_LETTERS},}}(?![\w'-])")


@batch_cache(maxsize=1)
def _dictionary() -> SpellChecker:
    """The English dictionary, loaded on first use (a tenth of a second)."""
    return SpellChecker(distance=1)


@batch_cache(maxsize=16384)
def english_word(word: str) -> bool:
    """Is the word (any case) a word of the English dictionary?"""
    return bool(_dictionary().known([word.lower()]))


def _clinical(word: str) -> bool:
    """Is the word one the clinical vocabulary reads, as written or as a misspelling of its own?"""
    return any(t.startswith("@") for u in units(word) for t in u.terms) or bool(misspelt_concepts(word.lower()))


@batch_cache(maxsize=16384)
def respelt(word: str) -> str | None:
    """The English word a typo stands for, or None when the word is fine or nothing is one edit away."""
    lower = word.lower()
    if len(lower) < MIN_LETTERS or lower in STOPWORDS or english_word(lower) or _clinical(lower):
        return None
    right = _dictionary().correction(lower)
    if not right or right == lower:
        return None
    return right.capitalize() if word[0].isupper() else right


def without_typos(text: str) -> str:
    """The text with each typo put right (see the module docstring)."""
    return _WORD.sub(lambda m: respelt(m.group()) or m.group(), text)
