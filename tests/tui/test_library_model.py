"""What the library shows of a case, and its filter and sort (no app needed)."""

from __future__ import annotations

from pathlib import Path

from medbench_tui.core.authoring.library import CaseEntry, filter_entries, rank_entries, read_entry, sort_entries


def entry(
    case_id: str, title: str, category: str = "internal_medicine", status: str = "draft", errors: int = 0
) -> CaseEntry:
    return CaseEntry(Path(f"{case_id}.yaml"), case_id, title, category, "basic", "routine", status, None, errors, 0)


ENTRIES = [
    entry("im-cap-001", "Community-acquired pneumonia in a smoker", status="final"),
    entry("ped-bronch-002", "Bronchiolitis in an infant", "pediatrics", errors=2),
    entry("sur-app-003", "Acute appendicitis", "surgery", status="review", errors=1),
]


def ids(entries):
    return [e.id for e in entries]


def test_fuzzy_filter_matches_every_word_with_typos():
    assert ids(filter_entries(ENTRIES, "pnemonia")) == ["im-cap-001"]
    assert ids(filter_entries(ENTRIES, "smoker pneumonia")) == ["im-cap-001"]
    assert ids(filter_entries(ENTRIES, "pneumonia infant")) == []
    assert ids(filter_entries(ENTRIES, "PEDIATRICS")) == ["ped-bronch-002"]
    assert ids(filter_entries(ENTRIES, "")) == ids(ENTRIES)


def test_short_words_must_appear_as_typed():
    assert ids(filter_entries(ENTRIES, "ped")) == ["ped-bronch-002"]
    assert ids(filter_entries(ENTRIES, "new")) == []
    assert ids(filter_entries(ENTRIES, "cap")) == ["im-cap-001"]


def test_best_matches_come_first():
    entries = [entry("im-af-001", "Palpitations"), entry("im-cap-001", "Pneumonia"), entry("im-cap-002", "Pneumonia")]
    assert ids(rank_entries(filter_entries(entries, "im-cap-001"), "im-cap-001"))[0] == "im-cap-001"
    assert ids(rank_entries(entries, "")) == ids(entries)


def test_category_and_status_filters():
    assert ids(filter_entries(ENTRIES, category="surgery")) == ["sur-app-003"]
    assert ids(filter_entries(ENTRIES, status="final")) == ["im-cap-001"]
    assert ids(filter_entries(ENTRIES, category="surgery", status="final")) == []


def test_sorting_by_any_column():
    assert ids(sort_entries(ENTRIES, "title")) == ["sur-app-003", "ped-bronch-002", "im-cap-001"]
    assert ids(sort_entries(ENTRIES, "validity", reverse=True)) == ["ped-bronch-002", "sur-app-003", "im-cap-001"]
    assert ids(sort_entries(ENTRIES, "status")) == ["ped-bronch-002", "im-cap-001", "sur-app-003"]


def test_a_broken_case_still_has_a_row(tmp_path):
    path = tmp_path / "broken-001.yaml"
    path.write_text("id: broken-001\ntitle: Half written\nmetadata: {category: surgery}\nintro: [\n")
    row = read_entry(path)
    assert row.id == "broken-001" and row.errors >= 1


def test_a_case_with_schema_errors_shows_what_can_be_read(tmp_path):
    path = tmp_path / "half-001.yaml"
    path.write_text("id: half-001\ntitle: Half written\nstatus: review\nmetadata: {category: surgery}\n")
    row = read_entry(path)
    assert (row.id, row.title, row.category, row.status) == ("half-001", "Half written", "surgery", "review")
    assert row.errors >= 1


def test_an_unreadable_file_is_a_row_with_an_error(tmp_path):
    path = tmp_path / "bad-001.yaml"
    path.write_bytes(b"\xff\xfe\x00garbage")
    row = read_entry(path)
    assert row.id == "bad-001" and row.errors == 1
