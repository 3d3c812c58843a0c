"""The clinical vocabulary as data: the shipped files read clean, a bank's file extends them,
and every mistake in a vocabulary file is reported at its line with what to change."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from medbench_tui.cli import main
from medbench_tui.core.vocabulary import VocabularyError, check_files, read_vocabulary
from medbench_tui.core.vocabulary.model import vocabulary_json_schema

REPO = Path(__file__).resolve().parents[1]


def _write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "vocabulary.yaml"
    path.write_text(text, encoding="utf-8")
    return path


def _problems(tmp_path: Path, text: str) -> list[tuple[int | None, str, str]]:
    path = _write(tmp_path, text)
    return [(p.diagnostic.line, p.diagnostic.code, p.diagnostic.message)
            for p in check_files([path]) if p.file == path]


def test_the_shipped_vocabulary_reads_without_problems():
    assert check_files([]) == []
    vocabulary = read_vocabulary()
    assert vocabulary.lookup("IM", "route")[0].name == "intramuscular"
    assert vocabulary.lookup("i.v.")[0].name == "intravenous"


def test_names_are_compared_without_case_hyphens_or_accents():
    vocabulary = read_vocabulary()
    assert vocabulary.lookup("Same-Day") == vocabulary.lookup("same day") == ()
    assert [t.name for t in vocabulary.lookup("BY MOUTH")] == ["oral"]


def test_a_bank_file_adds_terms_and_extends_shipped_ones(tmp_path):
    path = _write(tmp_path, """\
terms:
  - {name: anticoagulant, kind: drug_class, also: [blood thinner]}
  - {name: heparin, kind: drug_class, is: [anticoagulant]}
  - {name: low-molecular-weight heparin, kind: drug_class, also: [LMWH], is: [heparin]}
  - {name: enoxaparin, kind: drug, also: [Clexane], is: [LMWH]}
  - {name: intramuscular, kind: route, also: [into the deltoid]}
""")
    vocabulary = read_vocabulary(path)
    enoxaparin = vocabulary.lookup("clexane")[0]
    assert {t.name for t in vocabulary.broader(enoxaparin)} == {
        "low-molecular-weight heparin", "heparin", "anticoagulant"}
    anticoagulant = vocabulary.lookup("blood thinner")[0]
    narrower = {t.name for t in vocabulary.narrower(anticoagulant)}
    assert {"heparin", "low-molecular-weight heparin", "enoxaparin"} <= narrower
    assert "apixaban" in narrower, "the bank's class is the shipped one, with its drugs"
    im = vocabulary.lookup("into the deltoid")[0]
    assert im.name == "intramuscular" and "IM" in im.also, "a bank extends a shipped term, never replaces it"
    assert read_vocabulary().lookup("into the deltoid") == (), "the shipped vocabulary is untouched"


def test_phrase_lists_must_be_ones_a_reader_uses(tmp_path, monkeypatch):
    path = _write(tmp_path, "phrases:\n  negation_before: [no need for]\n  negaton_after: [not needed]\n")
    problems = [(p.diagnostic.line, p.diagnostic.code, p.diagnostic.message) for p in check_files([path])]
    assert problems == [(3, "vocabulary.unknown_list",
                         "No reader uses a phrase list `negaton_after`. Did you mean `negation_after`? "
                         "`medbench vocabulary lists` names the lists.")]


@pytest.mark.parametrize(("text", "line", "code", "words"), [
    ("terms:\n  - name: enoxaparin\n    kind: medicine\n", 3, "schema.enum", "'drug'"),
    ("terms:\n  - name: enoxaparin\n    kind: drug\n    brands: [Clexane]\n", 4, "schema.unknown_key", "also"),
    ("terms:\n  - kind: drug\n", 2, "schema.missing", "add `name: ...`"),
    ("terms:\n  - {name: enoxaparin, kind: drug, is: [LMWHs]}\n", 2, "vocabulary.unknown_term", "no term has"),
    ("terms:\n  - {name: x, kind: drug}\n  - {name: X, kind: drug}\n", 3, "vocabulary.duplicate_term", "yaml:2"),
    ("timing:\n  - say: [soon]\n    hours: [48, 24]\n", 3, "vocabulary.window", "starts after it ends"),
    ("units:\n  - say: [h]\n    hours: 0\n", 3, "schema.value", "greater than 0"),
    ("terms: [\n", 1, "yaml.syntax", "not closed"),
    ("- just a list\n", 1, "yaml.not_mapping", "vocabulary file must be a mapping"),
    ("spelling:\n  oesophag: esophag\nspelling:\n  haem: hem\n", 3, "yaml.duplicate_key", "appears twice"),
])
def test_each_mistake_is_reported_at_its_line(tmp_path, text, line, code, words):
    problems = _problems(tmp_path, text)
    assert [(p[0], p[1]) for p in problems][:1] == [(line, code)], problems
    assert words in problems[0][2] or words.replace("'", "") in problems[0][2]


def test_a_broken_bank_file_refuses_to_load_and_names_every_error(tmp_path):
    path = _write(tmp_path, "terms:\n  - {name: a, kind: drug, is: [b]}\n  - {name: c, kind: nope}\n")
    with pytest.raises(VocabularyError) as raised:
        read_vocabulary(path)
    message = str(raised.value)
    assert "2 errors in the vocabulary" in message
    assert f"{path}:2:" in message and f"{path}:3:" in message


def test_the_committed_schema_is_current():
    committed = json.loads((REPO / "medbench_tui" / "schema" / "vocabulary.schema.json").read_text())
    assert committed == vocabulary_json_schema(), (
        "the committed schema is stale: run `medbench vocabulary schema > medbench_tui/schema/vocabulary.schema.json`")


def test_the_command_checks_shows_and_lists(tmp_path, capsys):
    good = _write(tmp_path, "terms:\n  - {name: enoxaparin, kind: drug, also: [Clexane]}\n")
    assert main(["vocabulary", "check", str(good)]) == 0
    bad = tmp_path / "bad.yaml"
    bad.write_text("terms:\n  - {name: a, kind: nope}\n")
    assert main(["vocabulary", "check", str(bad)]) == 1
    assert f"{bad}:2:" in capsys.readouterr().out
    assert main(["vocabulary", "show", "IM", "--format", "json"]) == 0
    shown = json.loads(capsys.readouterr().out)
    assert shown["terms"][0]["name"] == "intramuscular"
    assert main(["vocabulary", "show", "next", "week"]) == 0
    assert "between 96 and 336 hours" in capsys.readouterr().out
    assert main(["vocabulary", "show", "no-such-word"]) == 1
    assert main(["vocabulary", "lists", "--format", "json"]) == 0


def test_a_bank_file_extends_a_treatment_group_and_a_group_is_defined_once(tmp_path):
    path = _write(tmp_path, "groups:\n  - {name: antibiotic, also: [abx therapy], members: [temocillin]}\n"
                            "  - {name: sedative, members: [zopiclone]}\n")
    groups = {g.name: g for g in read_vocabulary(path).groups}
    assert "abx therapy" in groups["antibiotic"].also and "antibiotics" in groups["antibiotic"].also
    assert groups["antibiotic"].members[-1] == "temocillin" and "amoxicillin" in groups["antibiotic"].members
    assert groups["sedative"].members == ("zopiclone",)
    twice = "groups:\n  - {name: sedative}\n  - {name: Sedative, also: [hypnotic]}\n"
    assert [(line, code) for line, code, _ in _problems(tmp_path, twice)] == [(3, "vocabulary.duplicate_group")]


def test_the_scorers_word_lists_are_read_from_the_vocabulary():
    from medbench_tui.core.scoring import concepts, groups, sections

    assert sections.HEADINGS["differential diagnosis"] == "differential"
    assert sections.HEADING_TAILS["plan"] == "treatment"
    assert concepts.PANELS[("liver", "function", "test")][0] == "alt"
    assert concepts.PANEL_ORGANS[("renal", "function")] == "kidney"
    assert "doxycycline" in groups.group_phrases("antibiotics")


def test_the_action_rules_are_listed_strongest_first(capsys):
    from medbench_tui.cli import main
    from medbench_tui.core.scoring.actions import ACTION_RULES
    from medbench_tui.core.scoring.certainty import CONDITION_DOUBTS, DOUBTS

    assert main(["vocabulary", "rules"]) == 0
    lines = capsys.readouterr().out.splitlines()
    rules = [line.strip().split(":")[0].removesuffix(" (credit only)").removesuffix(" (declined only)")
             for line in lines if line.startswith("  ")]
    assert rules == [r.name for r in ACTION_RULES] + [d.name for d in DOUBTS] + [n for n, _ in CONDITION_DOUBTS]
    assert "(credit only)" in lines[len(ACTION_RULES) - 1] and ":func:" not in "".join(lines)
    assert "(declined only)" in lines[len(ACTION_RULES)]
    assert lines[0].startswith("Action rules") and any(line.startswith("Doubt rules") for line in lines)
