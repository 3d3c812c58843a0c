"""Title search: clinicians' phrasings find an acceptable WHO code in the first five hits.

The labelled sets are in tests/support/icd_sets.py (benchmarks/icd_search.py reads them too).
"""

from __future__ import annotations

import pytest

from medbench_tui.core.icd10 import search
from tests.support.icd_sets import QUERIES, acceptable

TOP = 5
REQUIRED_HIT_RATE = 0.90


def top_five_misses() -> list[tuple[str, list[str]]]:
    misses = []
    for query, accepted in QUERIES:
        found = [hit.code for hit in search(query, TOP)]
        if not any(acceptable(code, accepted) for code in found):
            misses.append((query, found))
    return misses


def test_query_set_is_large_and_unique():
    assert len(QUERIES) >= 60
    assert len({query for query, _ in QUERIES}) == len(QUERIES)


def test_clinician_phrasings_find_an_acceptable_code_in_the_top_five():
    misses = top_five_misses()
    assert 1 - len(misses) / len(QUERIES) >= REQUIRED_HIT_RATE, misses


@pytest.mark.parametrize(
    "query, first",
    [("heart attack", "I21.9"), ("MI", "I21.9"), ("CAP", "J18.9"), ("DKA", "E10.1"), ("UTI in pregnancy", "O23.4"),
     ("type 2 diabetes with kidney disease", "E11.2"), ("broken hip", "S72.0"), ("oesophagitis", "K20"),
     ("acute angle closure glaucoma", "H40.2"), ("right lower lobe pneumonia", "J18.1"), ("lung metastases", "C78.0")],
)
def test_best_hit(query, first):
    assert search(query)[0].code == first


def test_uk_and_us_spellings_find_the_same_codes():
    for uk, us in [("oesophagitis", "esophagitis"), ("haemorrhage", "hemorrhage"), ("anaemia", "anemia"),
                   ("oedema", "edema"), ("ischaemic stroke", "ischemic stroke"), ("diarrhoea", "diarrhea"),
                   ("leukaemia", "leukemia"), ("paediatric", "pediatric"), ("foetal distress", "fetal distress"),
                   ("haematuria", "hematuria"), ("oestrogen", "estrogen")]:
        assert [h.code for h in search(uk, 5)] == [h.code for h in search(us, 5)], (uk, us)


def test_typo_still_finds_the_code():
    assert search("pnuemonia", 5)[0].code.startswith("J18")


def test_code_shaped_queries_return_that_code_first():
    assert [h.code for h in search("J18", 3)] == ["J18", "J18.0", "J18.1"]
    assert search("j18.9")[0].code == "J18.9"
    assert search("j18.9")[0].score == 100
    assert search("E11.65")[0].code == "E11.6"  # an ICD-10-CM code: its WHO roll-up
    assert search("J09-J18")[0].code == "J09"
    assert search("b12 deficiency")[0].code.startswith("D51")


def test_scores_limits_and_empty_queries():
    hits = search("pneumonia", 7)
    assert len(hits) == 7
    assert all(0 <= h.score <= 100 for h in hits)
    assert [h.score for h in hits] == sorted((h.score for h in hits), reverse=True)
    assert search("", 5) == [] and search("   ") == [] and search("pneumonia", 0) == []
    assert search("zzzzqqqxxv") == []
    assert hits[0].to_json() == {"code": hits[0].code, "title": hits[0].title, "score": hits[0].score}
