"""The one text module: the scorer, the patient and the leak check agree on what a word is."""

from __future__ import annotations

import pytest

from medbench_tui.core import text
from medbench_tui.core.icd10.text import Folder
from medbench_tui.core.simulators import lexicon


@pytest.mark.parametrize(
    ("british", "american"),
    [("anaemia", "anemia"), ("oedema", "edema"), ("tumour", "tumor"), ("counselling", "counseling"),
     ("diarrhoea", "diarrhea"), ("paediatric", "pediatric"), ("haemoptysis", "hemoptysis")],
)
def test_uk_and_us_spellings_are_one_word_everywhere(british: str, american: str) -> None:
    assert text.normalise(british) == text.normalise(american)
    assert text.stem(british) == text.stem(american)
    assert lexicon.stem(british) == lexicon.stem(american)


@pytest.mark.parametrize("word", ["aerobic", "anaerobic", "hour", "four"])
def test_words_that_only_look_british_are_left_alone(word: str) -> None:
    assert text.american_spelling(word) == word


def test_counselling_is_not_cut_to_counsell() -> None:
    assert text.stem("counselling") == "counsel"
    assert text.normalise("counselling") == "counseling"


def test_fold_drops_case_accents_and_possessive() -> None:
    assert text.fold("Ménière's disease") == "meniere disease"


def test_icd_folding_uses_the_same_plurals() -> None:
    folder = Folder({})
    assert folder.words("Kidney stones") == ["kidney", text.singular("stones")]


def test_possessives_are_the_names_written_with_an_apostrophe() -> None:
    from medbench_tui.core.text import possessives

    assert possessives("Bowen's disease") == {"bowen"}
    assert possessives("Graves’ disease and Ménière's") == {"graves", "meniere"}
    assert possessives("Bowen disease") == set() and possessives("don't") == set()


@pytest.mark.parametrize(
    ("said", "written"),
    [
        ("nothing to eat or drink", "nil by mouth"),  # a lay phrase reads as the term, normalised the same way
        ("nothing by mouth", "NPO"),
        ("she was admitted under the surgeons", "admission under the surgeon"),
        ("admitting him to the ward", "admit to the ward"),
    ],
)
def test_a_phrase_and_its_canonical_form_give_the_same_words(said: str, written: str) -> None:
    def keys(said_or_written: str) -> list[str]:
        words = text.key_tokens(text.tokenize(said_or_written))
        return [t.norm for t in words if t.norm not in {"she", "wa", "was", "him"}]

    assert keys(said)[-len(keys(written)):] == keys(written)


def test_the_word_rules_are_the_vocabulary(tmp_path) -> None:
    """Abbreviations, spelling and forms come from the vocabulary files: a bank's own
    vocabulary reaches the rules its readers use, and the shipped rules stay as they were."""
    from medbench_tui.core.vocabulary import read_vocabulary

    bank = tmp_path / "vocabulary.yaml"
    bank.write_text("abbreviations:\n  - {short: [TDS], means: three times daily, in: [answers]}\n"
                    "spelling:\n  ^anaesthetist$: anesthesiologist\n", encoding="utf-8")
    rules = text.rules_for(read_vocabulary(bank))
    assert [t.norm for t in rules.tokenize("tds")] == ["three", "time", "daily"]
    assert rules.american_spelling("anaesthetist") == "anesthesiologist"
    assert [t.norm for t in text.tokenize("tds")] == ["tds"]
    assert text.american_spelling("anaesthetist") == "anesthetist"


def test_a_short_form_reads_as_its_words_spelled_as_written_words_are() -> None:
    """"Hb" and "haemoglobin" are one word (an abbreviation's meaning is spelled as the text is)."""
    assert text.normalise("Hb") == text.normalise("haemoglobin")
    assert text.normalise("raised") == text.normalise("high")


def test_question_shorthand_is_written_out_and_kept_beside_when_longer_than_three_letters() -> None:
    assert text.expand_shorthand("any N/V?") == "any nausea or vomiting?"
    assert text.expand_shorthand("any palps?") == "any palpitations palps?"
    assert text.expand_shorthand("whats he like inbetween?") == "what's he like in between?"
    assert text.lemma("flew") == "fly" and text.lemma("ate") == "ate"
