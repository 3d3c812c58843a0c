"""Words of WHO titles, diagnosis names and search queries, folded so that case,
accents, UK/US spelling and plurals do not decide whether two words are the same (the
folding and plurals are the project's one text module's; WHO titles add a spelling table
of word parts from ``synonyms.yaml``)."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable

from rapidfuzz import fuzz

from medbench_tui.core.text import fold, singular

# Words that join a title together but say nothing about the condition; WHO codes no
# laterality, so "right" and "left" say nothing to it either.
STOPWORDS = frozenset(
    "a an the of and or in on at to by for as from due with nos is its into right left".split()
)
# Words that say how specific a title is, not what it is about: "Pneumonia, unspecified"
# is what a doctor means by "pneumonia".
FILLER = frozenset("unspecified other specified elsewhere classified not nec mention".split())

# Words that grade or type what comes before them ("type 1", "grade III", "stage 2"):
# they say which kind, not what the condition is.
QUALIFIERS = frozenset({"type", "grade", "stage", "class", "degree", "phase"})
ROMAN = {"i": "1", "ii": "2", "iii": "3", "iv": "4", "v": "5", "vi": "6", "vii": "7", "viii": "8", "ix": "9"}

_TOKEN = re.compile(r"[a-z]+|[0-9]+")
_COMPOUND = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)+")


class Folder:
    """Turns text into comparable words, using the spelling table of synonyms.yaml."""

    def __init__(self, spelling: dict[str, str]):
        self._spelling = spelling
        stems = sorted(spelling, key=len, reverse=True)
        self._pattern = re.compile("|".join(map(re.escape, stems))) if stems else None
        self._memo: dict[str, str] = {}

    def word(self, token: str) -> str:
        folded = self._memo.get(token)
        if folded is None:
            folded = token
            if token.isalpha():
                if self._pattern is not None:
                    folded = self._pattern.sub(lambda m: self._spelling[m.group()], folded)
                folded = singular(folded)
            self._memo[token] = folded
        return folded

    def words(self, text: str) -> list[str]:
        """The content words of `text`, in order (stopwords dropped; a Roman numeral after
        a qualifier is a number: "type I" = "type 1")."""
        words: list[str] = []
        for token in _TOKEN.findall(fold(text)):
            if token in ROMAN and words and words[-1] in QUALIFIERS:
                words.append(ROMAN[token])
            elif token not in STOPWORDS:
                words.append(self.word(token))
        return words

    def compounds(self, text: str) -> list[str]:
        """Hyphenated words written as one ("pre-eclampsia" -> "preeclampsia"), so a
        query that writes them together still finds the title."""
        if "-" not in text:
            return []
        return [self.word(m.replace("-", "")) for m in _COMPOUND.findall(fold(text))]


def content(words: list[str] | tuple[str, ...]) -> tuple[str, ...]:
    """Words without the specificity fillers ("unspecified", "other", ...)."""
    return tuple(w for w in words if w not in FILLER)


def overlap(a: Iterable[str], b: Iterable[str], weight: Callable[[str], float]) -> float:
    """0-100: the share of the lighter of two word lists that the other one holds, each
    word weighted by `weight` (its rarity), words compared with `similar_words`."""
    a, b = set(a), set(b)
    if not a or not b:
        return 0.0

    def covered(side: set[str], other: set[str]) -> tuple[float, float]:
        total = sum(weight(w) for w in side)
        held = sum(weight(w) for w in side if any(similar_words(w, o) for o in other))
        return held, total

    held_a, total_a = covered(a, b)
    held_b, total_b = covered(b, a)
    return 100 * (held_a / total_a if total_a <= total_b else held_b / total_b)


def similar_words(a: str, b: str) -> bool:
    """Same word up to an ending or a typo: depressive/depression, pneumonia/pneumonitis,
    diabetic/diabetes, pnuemonia/pneumonia."""
    if a == b:
        return True
    if a.isdigit() or b.isdigit():
        return False
    shorter = min(len(a), len(b))
    common = 0
    while common < shorter and a[common] == b[common]:
        common += 1
    if common >= 5 and common >= 0.75 * shorter:
        return True
    return shorter >= 5 and fuzz.ratio(a, b) >= 88
