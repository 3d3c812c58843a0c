"""Round 16 speed work: the vocabulary's names found in one pass over a text's words (each word tries only
the lengths of the names that begin with it) are the names the old search found trying every length at
every word; the ASCII key is the key of the character-by-character path."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from medbench_tui.core.vocabulary import read_vocabulary
from medbench_tui.core.vocabulary.load import key, unicode_key
from medbench_tui.core.vocabulary.reading import MAX_WORDS, _Index, _index
from tests.support.case_yaml import case_yaml

CASES = Path(__file__).resolve().parent.parent / "cases"
FIXED = [
    "Refer to ED today", "discharge home with safety-netting", "atorva 80 mg", "amox 500 mg TDS for 5 days",
    "IV ceftriaxone 2 g stat, then review in 2/52", "in IM im In", "X-ray chest: no consolidation",
    "Admit under the medical team within 4 hours", "oral fluids; rest; return if worse", "", "   ", "--",
    "1:1000 adrenaline 0.5 mg IM into the anterolateral thigh", "A&E", "start the next 48 h",
]


def _texts() -> list[str]:
    """Names, aliases and history of the bundled cases, and random mixtures of their words."""
    texts = list(FIXED)
    for path in sorted(CASES.glob("*.yaml"))[:12]:
        data = case_yaml(path)  # the same reader, each file parsed once a process (other modules read them)
        if not isinstance(data, dict) or "workup" not in data:
            continue
        for entry in [*data.get("workup", []), *data.get("treatment", []), *data.get("differential", [])]:
            texts += [str(entry.get("item") or entry.get("name") or ""), *map(str, entry.get("aliases", []))]
        texts += str(data.get("intro", "")).split(". ")
    rnd = random.Random(16)
    words = " ".join(texts).split()
    texts += [" ".join(rnd.sample(words, k=rnd.randint(1, 14))) for _ in range(1500)]
    return texts


TEXTS = _texts()


@pytest.fixture(scope="module")
def index() -> _Index:
    return _index(read_vocabulary())


def test_the_lengths_tried_are_those_of_every_name_there(index: _Index) -> None:
    for text in TEXTS:
        words = key(text).split()
        for i in range(len(words)):
            every = [n for n in range(min(MAX_WORDS, len(words) - i), 0, -1)
                     if " ".join(words[i:i + n]) in index.terms or " ".join(words[i:i + n]) in index.timing]
            tried = [n for n in index.named_lengths.get(words[i], ()) if i + n <= len(words)]
            assert [n for n in tried if " ".join(words[i:i + n]) in index.terms
                    or " ".join(words[i:i + n]) in index.timing] == every, text
            timing = [n for n in range(min(MAX_WORDS, len(words) - i), 0, -1)
                      if " ".join(words[i:i + n]) in index.timing]
            timed = [n for n in index.timing_lengths.get(words[i], ()) if i + n <= len(words)
                     and " ".join(words[i:i + n]) in index.timing]
            assert timed == timing, text


def test_action_and_home_words_read_as_by_every_length(index: _Index) -> None:
    for text in TEXTS:
        words = key(text).split()
        acts = any(w in index.acts for w in words) or any(
            " ".join(words[i:i + n]) in index.acts for n in (2, 3) for i in range(len(words)))
        home = any(" ".join(words[i:i + n]) in index.home for n in (1, 2) for i in range(len(words)))
        reading = index.read(text)
        assert reading.acts == acts, text
        assert reading.sends_home == home, text


def test_a_clipped_drug_name_is_the_one_generic_it_begins(index: _Index) -> None:
    for word in {w for name in index.generics for w in (name[:4], name[:5], name[:6])}:
        fits = {term for name, term in index.generics.items() if name.startswith(word) and len(name) >= len(word) + 2}
        found = index._clipped([word, "80"], 0)
        assert found == (next(iter(fits)) if len(fits) == 1 else None), word


@pytest.mark.parametrize("text", ["X-ray", "x ray", "Co-amoxiclav 625mg", "SpO2 < 94%", "A&E", "1:1000", "",
                                  " a  b ", "e.g. cefuroxime", "Na+ 128", "24/7", "left_side", "Tab.", "O'Brien"])
def test_the_ascii_key_is_the_character_key(text: str) -> None:
    assert key(text) == unicode_key(text)


def test_every_text_keys_alike_both_ways() -> None:
    for text in TEXTS:
        assert key(text) == unicode_key(text), text
    assert key("Naïve crème") == "naive creme"  # not ASCII: accents taken off
