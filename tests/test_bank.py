"""The bank index: case files of a folder, ids, parents and near-duplicate intros."""

from __future__ import annotations

from pathlib import Path

import pytest

from medbench_tui.core.cases.bank import NEAR_DUPLICATE_THRESHOLD, BankEntry, BankIndex, iter_case_files, scan_bank


def write(folder: Path, stem: str, text: str) -> Path:
    path = folder / f"{stem}.yaml"
    path.write_text(text, encoding="utf-8")
    return path


def test_iter_case_files(tmp_path):
    write(tmp_path, "b", "id: b\n")
    write(tmp_path, "a", "id: a\n")
    write(tmp_path, "medbench", "# bank config\n")
    write(tmp_path, ".a.yaml", "id: hidden\n")
    (tmp_path / "notes.txt").write_text("x")
    (tmp_path / "cases").mkdir()
    write(tmp_path / "cases", "c", "id: c\n")
    assert [p.name for p in iter_case_files(tmp_path)] == ["a.yaml", "b.yaml", "c.yaml"]
    assert iter_case_files(tmp_path / "b.yaml") == [tmp_path / "b.yaml"]


def test_scan_bank_reads_ids_parents_and_intros(tmp_path):
    write(tmp_path, "a", "id: a\nintro: Hello\n")
    write(tmp_path, "b", "id: b\nparent_id: a\n")
    write(tmp_path, "broken", "id: [\n")
    (tmp_path / "latin.yaml").write_bytes("id: caf\xe9\n".encode("latin-1"))
    bank = scan_bank(tmp_path)
    assert bank.root == tmp_path
    assert sorted(bank.ids) == ["a", "b", "broken", "latin"]  # unreadable files count by stem
    assert bank.parents["b"] == "a"
    assert bank.intros == {tmp_path / "a.yaml": "Hello"}
    assert bank.has_case("a") and not bank.has_case("c")
    assert bank.others_with_id("a", tmp_path / "a.yaml") == []


def test_scan_bank_of_a_missing_folder_is_empty(tmp_path):
    assert scan_bank(tmp_path / "nothing").entries == []


INTRO = "Doctor, I have had a burning feeling when I pass water for two days and I go every hour."


def entry(stem: str, intro: str, parent: str | None = None) -> BankEntry:
    return BankEntry(Path(f"/bank/{stem}.yaml"), stem, parent, intro)


def test_near_duplicates_above_the_threshold_unless_linked():
    bank = BankIndex(Path("/bank"), [
        entry("a", INTRO),
        entry("copy", INTRO.replace("two", "three")),
        entry("variant", INTRO, parent="a"),
        entry("sibling", INTRO, parent="a"),
        entry("other", "My little boy has had a barking cough since yesterday evening."),
    ])
    found = {e.case_id: score for e, score in bank.near_duplicates(bank.entries[0])}
    assert set(found) == {"copy"} and found["copy"] >= NEAR_DUPLICATE_THRESHOLD
    # variants of one parent are linked to each other too
    assert {e.case_id for e, _ in bank.near_duplicates(bank.entries[2])} == {"copy"}
    assert bank.near_duplicates(entry("new", "")) == []


def test_same_complaint_different_patient_is_not_a_near_duplicate():
    bank = BankIndex(Path("/bank"), [entry("a", INTRO)])
    other = entry("b", "Doctor, it stings when I pass urine and I've had a fever since Sunday night.")
    assert bank.near_duplicates(other) == []


def test_a_bank_names_its_places_and_reads_its_configuration_once(tmp_path):
    from medbench_tui.core.cases.bank import load_bank
    from medbench_tui.core.cases.bankconfig import BankConfigError

    root = tmp_path / "bank"
    (root / "cases").mkdir(parents=True)
    (root / "medbench.yaml").write_text("systems:\n  doc:\n    kind: checklist\n", encoding="utf-8")
    bank = load_bank(root)
    assert bank.root == root.resolve() and bank.cases_folder == root.resolve() / "cases"
    assert bank.run_store == root.resolve() / ".medbench" / "runs.sqlite"
    assert list(bank.config.systems) == ["doc"] and bank.config_problem is None
    assert load_bank(root, run_store=tmp_path / "elsewhere.sqlite").run_store == tmp_path / "elsewhere.sqlite"
    (root / "medbench.yaml").write_text("systems: [\n", encoding="utf-8")
    assert list(bank.config.systems) == ["doc"]  # read once per value
    again = bank.reloaded()
    assert again.config.systems == {} and "not valid YAML" in (again.config_problem or "")
    with pytest.raises(BankConfigError, match="not valid YAML"):
        load_bank(root)
    assert "not valid YAML" in (load_bank(root, strict=False).config_problem or "")


@pytest.mark.parametrize("text", [
    "id: a\nparent_id: b\nintro: I feel ill.\n",
    "id: a\nid: b\nintro: |\n  Two lines\n  of intro.\n",  # a key twice: the first value, as a full parse
    "intro: &x Same words.\nid: 123\nparent_id: *x\n",  # an alias: read fully
    "id: !!str a\nintro: x\n",  # a tag
    "<<: {id: merged}\nintro: x\n",  # a merge key
    "- id: a\n- intro: x\n",  # a list, not a case
    "id: [a, b]\nintro: {nested: {id: inner}}\nparent_id: 'quoted'\n",
    "just text\n",
    "id: a\nintro: [unclosed\n",  # a syntax error
    "? [complex, key]\n: value\nid: a\n",
    "'id': a\n\"intro\": null\nparent_id: ~\n",
])
def test_a_bank_entry_read_from_the_parser_events_is_the_full_parse_s(tmp_path, text):
    from medbench_tui.core.cases.yamlio import parse_case_text

    path = tmp_path / "case.yaml"
    path.write_text(text, encoding="utf-8")
    assert BankEntry.read(path) == BankEntry.from_data(path, parse_case_text(text).data)


def test_near_duplicates_indexed_for_the_whole_bank_are_those_found_case_by_case():
    """Scored once per pair, and only between intros of fitting lengths: the same hits, the
    same order, as scoring each case against every other (threshold edges included)."""
    import random

    from rapidfuzz import fuzz, process, utils

    rng = random.Random(4)
    words = "pain chest left arm short of breath since this morning sweating sick dizzy".split()
    base = [" ".join(rng.choices(words, k=rng.randint(4, 30))) for _ in range(30)]
    intros = base + [b[: rng.randint(len(b) * 8 // 10, len(b))] + rng.choice(["", " now", " x"]) for b in base]
    entries = [BankEntry(Path(f"c{i}.yaml"), f"c{i}", None, text) for i, text in enumerate(intros)]
    indexed, plain = BankIndex(Path("."), entries), BankIndex(Path("."), entries)
    indexed.index_near_duplicates()
    processed = [utils.default_process(text) for text in intros]
    found = 0
    for i, entry in enumerate(entries):
        every = process.extract(processed[i], processed, scorer=fuzz.ratio,
                                score_cutoff=NEAR_DUPLICATE_THRESHOLD, limit=None)
        expected = [(entries[j], score) for _, score, j in every if j != i]
        assert indexed.near_duplicates(entry) == expected == plain.near_duplicates(entry)
        found += len(expected)
    assert found >= 30
