"""Title search: clinicians' phrasings find an acceptable WHO code in the first five hits.

The labelled sets are in tests/support/icd_sets.py (benchmarks/icd_search.py reads them too).
"""

from __future__ import annotations

import pytest

from medbench_tui.core.icd10 import search
from tests.support.icd_sets import QUERIES, acceptable, development_set, rank

TOP = 5
REQUIRED_HIT_RATE = 0.90
DEVELOPMENT_TOP_5, DEVELOPMENT_TOP_1 = 0.92, 0.82  # names written elsewhere (tests/data/icd/)


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


def test_names_written_elsewhere_find_their_code_first_or_in_the_top_five():
    rows = development_set()
    assert len(rows) >= 300 and len({name for _, name, _ in rows}) == len(rows)
    places = [rank([hit.code for hit in search(name, TOP)], accepted) for _, name, accepted in rows]
    assert sum(place is not None for place in places) / len(rows) >= DEVELOPMENT_TOP_5
    assert sum(place == 1 for place in places) / len(rows) >= DEVELOPMENT_TOP_1


@pytest.mark.parametrize(
    "query, first",
    [("Gaucher disease", "E75.2"), ("Plummer-Vinson syndrome", "D50.1"), ("Takotsubo syndrome", "I51.8"),
     ("silicosis", "J62.8"), ("symblepharon", "H11.2")],
)
def test_cm_entry_terms_find_the_who_code_and_show_its_who_title(query, first):
    hit = search(query)[0]
    assert hit.code == first
    assert hit.title == search(first)[0].title  # WHO's title, not the CM words that found it


def test_cm_terms_never_cross_a_change_of_meaning():
    assert "K55.3" not in [hit.code for hit in search("necrotizing enterocolitis", 10)]  # angiodysplasia in WHO
    assert search("multiple endocrine neoplasia type 1")[0].code == "D44.8"


def test_a_possessive_name_is_never_spelling_corrected():
    hits = [hit.code for hit in search("Bowen's disease", TOP)]
    assert hits[0].startswith("D04")
    assert not any(code.startswith(("K50", "K51", "K52", "K63")) for code in hits)  # "bowel"


def test_a_negating_prefix_is_not_a_typo():
    assert search("acalculous cholecystitis", TOP)[0].code.startswith("K81")
    assert not search("acalculous cholecystitis", 1)[0].code.startswith("K80")  # calculus


def test_eponyms_with_and_without_the_possessive_agree():
    for with_s, without in [("Bell's palsy", "Bell palsy"), ("Graves' disease", "Graves disease"),
                            ("Meniere's disease", "Ménière disease"), ("Addison's disease", "Addisons disease")]:
        assert search(with_s, 1)[0].code == search(without, 1)[0].code, (with_s, without)


def test_organ_words_and_their_adjectives_work_both_ways():
    for organ, adjective, code in [("heart injury", "cardiac injury", "S26"),
                                   ("liver abscess", "hepatic abscess", "K75.0"),
                                   ("kidney cyst", "renal cyst", "N28.1")]:
        for query in (organ, adjective):
            assert any(hit.code.startswith(code) for hit in search(query, TOP)), query


def test_a_qualifier_counts_only_beside_what_it_qualifies():
    hits = [hit.code for hit in search("multiple endocrine neoplasia type 1", TOP)]
    assert not any(code.startswith("E10") for code in hits)  # type 1 diabetes
    assert search("type I diabetes", 1)[0].code.startswith("E10")  # a Roman numeral is the number
    assert search("chronic kidney disease stage 3", 1)[0].code == "N18.3"


def test_valley_fever_is_not_rift_valley_fever():
    hits = [hit.code for hit in search("valley fever", TOP)]
    assert hits[0].startswith("B38") and hits.index("A92.4") > 0 if "A92.4" in hits else hits[0].startswith("B38")


def test_a_synonym_row_does_not_bury_who_s_own_title():
    assert search("breast milk jaundice", 1)[0].code == "P59.3"
    assert search("alcoholic hepatitis", 1)[0].code == "K70.1"  # its own title; the row lists K70.9 first
    assert search("leukaemia", 1)[0].code == "C95.9"  # "Other specified leukaemias" is not what was asked


def test_a_tumour_type_lists_its_sites_with_a_note_to_choose_by_site():
    (hit,) = search("medulloblastoma", 1)
    assert hit.code == "C71.6" and hit.note and "choose the code of the site" in hit.note and "9470/3" in hit.note
    assert hit.to_json()["note"] == hit.note
    sites = [hit.code for hit in search("osteosarcoma", TOP)]
    assert {"C40.2", "C41.9"} <= set(sites)
    assert search("pneumonia", 1)[0].note is None and "note" not in search("pneumonia", 1)[0].to_json()
