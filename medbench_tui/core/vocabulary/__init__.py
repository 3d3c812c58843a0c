"""The clinical vocabulary as validated data: what words mean to the readers of answers and
questions (abbreviations, spelling, drugs and their classes, tests and their result labels,
teams, routes, timing, cue phrases).

The words live in YAML files (``medbench_tui/vocabulary/``, and a bank's own
``vocabulary.yaml``), each checked against a schema with every problem at its line; the
code reads them through :class:`Vocabulary` and never lists clinical words itself.
``docs/vocabulary.md`` says what each section holds and where a new wording belongs.
"""

from medbench_tui.core.vocabulary.load import (
    BANK_FILE,
    Problem,
    Vocabulary,
    VocabularyError,
    check_files,
    key,
    read_vocabulary,
)
from medbench_tui.core.vocabulary.model import PHRASE_LISTS, Term, TermKind, TimeUnit, Timing

__all__ = [
    "BANK_FILE", "PHRASE_LISTS", "Problem", "Term", "TermKind", "TimeUnit", "Timing", "Vocabulary",
    "VocabularyError", "check_files", "key", "read_vocabulary",
]
