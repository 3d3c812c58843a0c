"""The patient's rewrites of a question's wording are vocabulary data (``patient_rewrites``): loaded in order,
matched as whole words, only before what ``followed_by`` names or after what ``after`` names, and a broken entry is
reported at its line."""

from __future__ import annotations

from pathlib import Path

import pytest

from medbench_tui.core.simulators.lexicon import rewrite_patterns, words
from medbench_tui.core.vocabulary import check_files, read_vocabulary


def _bank(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "vocabulary.yaml"
    path.write_text(text, encoding="utf-8")
    return path


def _rewritten(tmp_path: Path, entries: str, text: str) -> str:
    vocabulary = read_vocabulary(_bank(tmp_path, "patient_rewrites:\n" + entries))
    shipped = len(read_vocabulary().rewrites)
    for pattern, replacement in rewrite_patterns(vocabulary.rewrites[shipped:]):
        text = pattern.sub(replacement, text)
    return text


def test_the_shipped_rewrites_load_in_order_with_their_lines():
    rewrites = read_vocabulary().rewrites
    assert rewrites, "the shipped vocabulary has rewrites"
    assert all(r.source.file == "rewrites.yaml" for r in rewrites)
    lines = [r.source.line for r in rewrites]
    assert lines == sorted(lines), "kept in the file's order"


def test_the_shipped_rewrites_read_a_question():
    assert words("Any water pills or e-cigarettes?") == ("any", "diuretic", "pills", "or", "vape")
    assert words("the chest X-rays, 500 micrograms") == ("the", "chest", "xray", "500", "mcg")
    assert words("something to help him settle at night?")[:2] == ("something", "for")
    assert words("is there anything I can do to help you?")[-3:] == ("to", "help", "you"), "no word after: as said"
    assert "usual" in words("any regular inhalers?") and "usual" not in words("is the rhythm regular?")
    assert words("do you use any creams regularly")[-2:] == ("usual", "medicines")
    assert "regularly" in words("she exercises regularly"), "only after a verb of taking"


def test_rewrites_apply_in_the_lists_order(tmp_path):
    entries = ("  - {said: [glucose meter], read_as: glucometer}\n"
               "  - {said: [glucometer], read_as: blood sugar machine}\n")
    assert _rewritten(tmp_path, entries, "her glucose meter") == "her blood sugar machine"
    reversed_entries = "\n".join(reversed(entries.strip("\n").split("\n"))) + "\n"
    assert _rewritten(tmp_path, reversed_entries, "her glucose meter") == "her glucometer"


def test_rewrites_match_whole_words_only(tmp_path):
    entries = "  - {said: [sling], read_as: arm support}\n"
    assert _rewritten(tmp_path, entries, "a sling on") == "a arm support on"
    assert _rewritten(tmp_path, entries, "slings and slingshots") == "slings and slingshots"
    assert _rewritten(tmp_path, "  - {said: [ear drops], read_as: otic drops}\n", "fear drops? ear  drops") == \
        "fear drops? ear  drops", "a space matches one space, the phrase a whole word"


def test_followed_by_and_after_limit_where_a_rewrite_applies(tmp_path):
    entries = "  - {said: [spare], read_as: reserve, followed_by: patient_regular_medicines}\n"
    assert _rewritten(tmp_path, entries, "any spare inhalers") == "any reserve inhalers"
    assert _rewritten(tmp_path, entries, "any spare time") == "any spare time"
    entries = "  - {said: [to soothe], read_as: for, followed_by: a word}\n"
    assert _rewritten(tmp_path, entries, "a cream to soothe itching") == "a cream for itching"
    assert _rewritten(tmp_path, entries, "anything to soothe?") == "anything to soothe?"
    entries = "  - {said: [daily], read_as: usual medicines, after: [apply, applies]}\n"
    assert _rewritten(tmp_path, entries, "do you apply a cream daily") == "do you apply a cream usual medicines"
    assert _rewritten(tmp_path, entries, "do you walk daily") == "do you walk daily"
    assert _rewritten(tmp_path, entries, "apply it. daily walks") == "apply it. daily walks", "the same sentence only"


@pytest.mark.parametrize(("text", "line", "code"), [
    ("patient_rewrites:\n  - said: [water tablets]\n    read_as: diuretic tablets\n  - said: [e cig]\n", 4,
     "schema.missing"),
    ("patient_rewrites:\n  - said: []\n    read_as: xray\n", 2, "schema.empty"),
    ("patient_rewrites:\n  - {said: [x ray], read_as: xray}\n  - said: [regular]\n    read_as: usual\n"
     "    followed_by: patient_regular_medicine\n", 5, "vocabulary.unknown_list"),
    ("patient_rewrites:\n  - said: [x ray]\n    read_as: xray\n    before: [chest]\n", 4, "schema.unknown_key"),
])
def test_a_broken_rewrite_is_reported_at_its_line(tmp_path, text, line, code):
    path = _bank(tmp_path, text)
    problems = [(p.diagnostic.line, p.diagnostic.code) for p in check_files([path]) if p.file == path]
    assert (line, code) in problems, problems
