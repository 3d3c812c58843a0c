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
