"""The diagnosis given away in the patient's words: names, aliases and codes found in text."""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from medbench_tui.core.text import american_spelling

_WORD = re.compile(r"[^\W_]+")
LINE_BREAK = re.compile("\r\n|[\r\n\x85\u2028\u2029]")  # what YAML counts as a new line


@lru_cache(maxsize=8192)
def _spelling(word: str) -> str:
    """UK and US spellings read as one (anaemia/anemia, oedema/edema, tumour/tumor), by the
    project's one text module."""
    return american_spelling(word.casefold())


@dataclass(frozen=True)
class Term:
    """A diagnosis name or alias as a word sequence.

    Matched at word boundaries, case-insensitively and across UK/US spelling, with a
    plural allowed on the last word. An abbreviation (written in capitals, such as
    `CAP`) or an alias shorter than 3 characters matches only as the exact whole word,
    so `cap` or `pe` in ordinary speech is not taken for a diagnosis.
    """

    words: tuple[str, ...]
    exact: bool

    @classmethod
    def of(cls, text: str) -> Term | None:
        words = _WORD.findall(text)
        if not words:
            return None
        exact = len(text.strip()) < 3 or (text.upper() == text and any(c.isalpha() for c in text))
        return cls(tuple(words) if exact else tuple(_spelling(w) for w in words), exact)

    def match(self, words: list[str], normalised: list[str], vocabulary: set[str]) -> int | None:
        """Index of the first word where this term starts, or None.

        ``vocabulary`` holds ``words`` and ``normalised``: most texts do not contain the
        term's first word at all, and are passed over without a scan.
        """
        size = len(self.words)
        head, last = list(self.words[:-1]), self.words[-1]
        plural = () if self.exact else (last + "s", last + "es")
        if (head[0] if head else last) not in vocabulary and (head or not vocabulary.intersection(plural)):
            return None
        source = words if self.exact else normalised
        for start in range(len(source) - size + 1):
            if source[start: start + size - 1] == head and source[start + size - 1] in (last, *plural):
                return start
        return None


DENIAL_REACH = 5
"""Words before a name within which a negation makes it history the patient may tell."""


@lru_cache(maxsize=1)
def _negations() -> frozenset[str]:
    from medbench_tui.core.vocabulary import read_vocabulary

    return frozenset(p for p in read_vocabulary().phrases("negation_before") if " " not in p)


def _denied(text: str, found: list[re.Match[str]], start: int) -> bool:
    """The name is denied in its sentence ("never had a kidney infection", "no stroke"): a
    patient may say so without giving the diagnosis away."""
    for k in range(start - 1, max(-1, start - 1 - DENIAL_REACH), -1):
        if re.search(r"[.;!?\n]", text[found[k].end() : found[k + 1].start()]):
            return False
        if found[k].group().lower().replace("'", "") in _negations() or found[k].group().lower() == "t":
            return True  # "t" of "haven't", "didn't" split at the apostrophe
    return False


def first_leak(text: str, terms: list[Term], code_pattern) -> tuple[int, str] | None:
    """Offset and wording of the first diagnosis name, alias or code in ``text``."""
    found = list(_WORD.finditer(text))
    words = [m.group() for m in found]
    normalised = [_spelling(w) for w in words]
    vocabulary = {*words, *normalised}
    hits = []
    for term in terms:
        offset = 0
        while (start := term.match(words[offset:], normalised[offset:], vocabulary)) is not None:
            start += offset
            if not _denied(text, found, start):
                first, last = found[start], found[start + len(term.words) - 1]
                hits.append((first.start(), text[first.start(): last.end()]))
                break
            offset = start + 1
    if code_pattern is not None and (code := code_pattern.search(text)):
        hits.append((code.start(), code.group()))
    return min(hits) if hits else None
