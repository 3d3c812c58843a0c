"""A diagnosis name written with an organ's adjective fits a WHO title (or an ICD-10-CM entry term)
written with the organ's noun, word by word, so the validator does not ask "is this the right code?"
of a right one."""

from __future__ import annotations

import pytest

from medbench_tui.core.icd10.checks import TITLE_MATCH_THRESHOLD, name_similarity
from medbench_tui.core.icd10.titles import find


@pytest.mark.parametrize(("name", "code"), [
    ("Penile fracture", "S39.8"),        # the WHO index: fracture, corpus cavernosum penis
    ("Tibial shaft fracture", "S82.2"),  # 'Fracture of shaft of tibia'
    ("Humeral shaft fracture", "S42.3"),
])
def test_an_organ_adjective_fits_a_title_with_the_noun(name: str, code: str) -> None:
    assert name_similarity(name, code) >= TITLE_MATCH_THRESHOLD


def test_search_finds_the_code_from_the_adjective() -> None:
    assert find("penile fracture", 3)[0][0] == "S39.8"


def test_a_different_organ_still_does_not_fit() -> None:
    assert name_similarity("Penile fracture", "S82.2") < TITLE_MATCH_THRESHOLD
