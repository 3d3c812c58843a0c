"""The last clinical words of the simulated patient's patterns (examination, dose, which medicine, family history,
side, what a test found, history headings, 'regular' medicines, 'between' episodes) are vocabulary lists
(questions.yaml), read into the patterns at import in the lists' order: a word added to a list changes what the
pattern matches, and a broken entry is reported at its line."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

import medbench_tui.core.vocabulary as vocabulary_package
from medbench_tui.core.simulators import intent, lexicon, planner, question
from medbench_tui.core.simulators.lexicon import words
from medbench_tui.core.vocabulary import read_vocabulary

NEW_LISTS = ("patient_examine_words", "patient_examine_felt_parts", "patient_examine_checked",
             "patient_examine_looked_parts", "patient_examine_measured", "patient_monitor_words", "patient_dose_units",
             "patient_which_medicine_nouns", "patient_family_history_words", "patient_paired_parts",
             "patient_finding_tellers", "patient_regular_medicines", "patient_episodes", "patient_dose_asked_words",
             "patient_dose_asked_units", "patient_history_headings")


def test_a_plural_comes_before_its_singular_as_the_optional_s_did():
    """'legs?' matched the plural first; the lists keep that order."""
    for name, plural, single in (("patient_examine_felt_parts", "legs", "leg"), ("patient_dose_units", "puffs", "puff"),
                                 ("patient_finding_tellers", "doctors", "doctor")):
        phrases = read_vocabulary().phrases(name)
        assert phrases.index(plural) < phrases.index(single)


@pytest.mark.parametrize(("pattern", "text", "found"), [
    (intent._EXAMINE, "could I feel his calves please", True),
    (intent._EXAMINE, "we'll pop her on the cardiac monitor", True),
    (intent._EXAMINE, "did anyone feel sorry for him", False),
    (intent._DOSE_SAID, "I have two puffs of it at night", True),
    (intent._DOSE_SAID, "I have had it for two years", False),
    (intent._DOSE_ASKED, "what strength is the patch?", True),
    (intent._WHICH_MEDICINE, "which tablets does he take for his gout?", True),
    (intent._FAMILY_HISTORY, "is eczema hereditary?", True),
    (intent._FAMILY_HISTORY, "is the rash itchy?", False),
    (planner._LATERAL, "both ears are blocked", True),
    (planner._LATERAL, "both of us went", False),
    (planner._FINDING_TOLD, "the consultant said it was a cyst", True),
    (question._HEADING, "PMH -", True),
    (question._HEADING, "SOB?", False),
])
def test_the_patterns_read_their_words_from_the_lists(pattern, text, found):
    assert bool(pattern.search(text)) is found


def test_the_joins_read_their_words_from_the_lists():
    assert words("any regular inhalers?") == ("any", "usual", "inhalers")
    assert words("how is she between the spells") == ("how", "is", "she", "in", "between")
    assert words("a regular heartbeat") == ("a", "regular", "heartbeat")


def _copy(module: ModuleType, monkeypatch: pytest.MonkeyPatch) -> ModuleType:
    """A fresh copy of ``module``, its patterns built at import from the vocabulary read now."""
    name = f"{module.__name__}_vdata2_copy"
    spec = importlib.util.spec_from_file_location(name, module.__file__)
    assert spec is not None and spec.loader is not None
    copy = importlib.util.module_from_spec(spec)
    monkeypatch.setitem(sys.modules, name, copy)
    spec.loader.exec_module(copy)
    return copy


@pytest.mark.parametrize(("module", "constant", "name", "added", "text"), [
    (intent, "_EXAMINE", "patient_examine_words", "auscultate", "may I auscultate now"),
    (intent, "_EXAMINE", "patient_examine_felt_parts", "wrist", "let me feel your wrist"),
    (intent, "_EXAMINE", "patient_examine_checked", "peak flow", "can I check your peak flow"),
    (intent, "_EXAMINE", "patient_examine_looked_parts", "nails", "let me look at your nails"),
    (intent, "_EXAMINE", "patient_examine_measured", "peak flow", "we will repeat a peak flow"),
    (intent, "_EXAMINE", "patient_monitor_words", "telemetry", "put him on the telemetry monitor"),
    (intent, "_DOSE_SAID", "patient_dose_units", "drops", "two drops in each eye"),
    (intent, "_DOSE_ASKED", "patient_dose_asked_words", "concentration", "what concentration is the cream?"),
    (intent, "_DOSE_ASKED", "patient_dose_asked_units", "ml", "how many ml do you give her"),
    (intent, "_WHICH_MEDICINE", "patient_which_medicine_nouns", "inhalers", "which inhalers does she use?"),
    (intent, "_FAMILY_HISTORY", "patient_family_history_words", "genetic", "is psoriasis genetic?"),
    (planner, "_LATERAL", "patient_paired_parts", "hands", "both hands are stiff"),
    (planner, "_FINDING_TOLD", "patient_finding_tellers", "endoscopy", "the endoscopy showed a polyp"),
    (question, "_HEADING", "patient_history_headings", "dhx", "DHx -"),
])
def test_a_word_added_to_a_list_is_matched_by_its_pattern(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, module,
                                                          constant, name, added, text):
    assert not getattr(module, constant).search(text)
    bank = tmp_path / "vocabulary.yaml"
    bank.write_text(f"phrases:\n  {name}: [{added!r}]\n", encoding="utf-8")
    extended = read_vocabulary(bank)
    assert added in extended.phrases(name)
    monkeypatch.setattr(lexicon, "read_vocabulary", lambda: extended)
    assert getattr(_copy(module, monkeypatch), constant).search(text)


@pytest.mark.parametrize(("name", "added", "text", "read"), [
    ("patient_regular_medicines", "patches", "any regular patches", ("any", "usual", "patches")),
    ("patient_episodes", "flares", "how is he between the flares", ("how", "is", "he", "in", "between")),
])
def test_a_word_added_to_a_list_changes_the_joins(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, name, added, text,
                                                  read):
    assert lexicon.words(text) != read
    bank = tmp_path / "vocabulary.yaml"
    bank.write_text(f"phrases:\n  {name}: [{added!r}]\n", encoding="utf-8")
    extended = read_vocabulary(bank)
    monkeypatch.setattr(vocabulary_package, "read_vocabulary", lambda: extended)
    assert _copy(lexicon, monkeypatch).words(text) == read
