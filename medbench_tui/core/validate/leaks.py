"""The diagnosis given away in the patient's words: names, aliases and codes found in text."""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from functools import lru_cache

from medbench_tui.core.text import american_spelling

_WORD = re.compile(r"[^\W_]+")
LINE_BREAK = re.compile("\r\n|[\r\n\x85\u2028\u2029]")  # what YAML counts as a new line


@lru_cache(maxsize=8192)
def spelling(word: str) -> str:
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
        return cls(tuple(words) if exact else tuple(spelling(w) for w in words), exact)

    def match(self, words: list[str], normalised: list[str], vocabulary: set[str]) -> int | None:
        """Index of the first word where this term starts, or None.

        ``vocabulary`` holds ``words`` and ``normalised``: most texts do not contain the
        term's first word at all, and are passed over without a scan.
        """
        return next(self.matches(words, normalised, vocabulary), None)

    def matches(self, words: list[str], normalised: list[str], vocabulary: set[str]) -> Iterator[int]:
        """Index of every word where this term starts."""
        size = len(self.words)
        head, last = list(self.words[:-1]), self.words[-1]
        plural = () if self.exact else (last + "s", last + "es")
        if (head[0] if head else last) not in vocabulary and (head or not vocabulary.intersection(plural)):
            return
        source = words if self.exact else normalised
        for start in range(len(source) - size + 1):
            if source[start: start + size - 1] == head and source[start + size - 1] in (last, *plural):
                yield start


def first_leak(text: str, terms: list[Term], code_pattern: re.Pattern[str] | None) -> tuple[int, str] | None:
    """Offset and wording of the first diagnosis name, alias or code in ``text`` that is not
    history the patient may tell (:func:`told_history`)."""
    found = list(_WORD.finditer(text))
    words = [m.group() for m in found]
    normalised = [spelling(w) for w in words]
    vocabulary = {*words, *normalised}
    hits = []
    for term in terms:
        for start in term.matches(words, normalised, vocabulary):
            first, last = found[start], found[start + len(term.words) - 1]
            if told_history(text[: first.start()], text[last.end():]) is None:
                hits.append((first.start(), text[first.start(): last.end()]))
                break
    if code_pattern is not None and (code := code_pattern.search(text)):
        hits.append((code.start(), code.group()))
    return min(hits) if hits else None


# How far back from a name a denial or a relative is looked for, within its clause.
HISTORY_REACH = 7
_CLAUSE_END = re.compile(r"[.;:!?,()\u2014]|\s[-\u2013]\s")
_APOSTROPHES = str.maketrans("", "", "'\u2019")


@dataclass(frozen=True)
class HistoryCues:
    denials: tuple[tuple[str, ...], ...]
    relatives: frozenset[str]
    having: tuple[tuple[str, ...], ...]
    not_denials: tuple[tuple[str, ...], ...]
    clause_words: frozenset[str]
    past: tuple[tuple[str, ...], ...]
    prevention: tuple[tuple[str, ...], ...]


@lru_cache(maxsize=1)
def history_cues() -> HistoryCues:
    from medbench_tui.core.vocabulary import read_vocabulary

    vocabulary = read_vocabulary()

    def phrases(name: str) -> tuple[tuple[str, ...], ...]:
        return tuple(tuple(p.split()) for p in vocabulary.phrases(name))

    return HistoryCues(phrases("patient_denials"), frozenset(vocabulary.phrases("patient_relatives")),
                        phrases("patient_having"), phrases("pseudo_negation"),
                        frozenset(vocabulary.phrases("clause_words")), phrases("patient_past_episode"),
                        phrases("patient_prevention"))


def _find(words: list[str], phrases: tuple[tuple[str, ...], ...]) -> int | None:
    """Where the last of ``phrases`` found in ``words`` starts, or None."""
    found = [k for k in range(len(words)) for p in phrases if tuple(words[k: k + len(p)]) == p]
    return max(found) if found else None


def told_history(before: str, after: str = "") -> str | None:
    """Why a name the patient says between ``before`` and ``after`` is history the patient may tell
    rather than the diagnosis given away, or None: denied in its clause ("I've never had a kidney
    infection"), another person's ("my mother had a stroke"; not "my friend thinks it's a stroke"),
    a past episode ("a urine infection about a year ago") or what a vaccine prevents ("the jab
    against chest infections"). The words are the vocabulary's (``patient_denials``,
    ``patient_relatives``, ``patient_having``, ``patient_past_episode``, ``patient_prevention``)."""
    cues = history_cues()
    clause = _CLAUSE_END.split(before)[-1]
    words = _WORD.findall(clause.casefold().translate(_APOSTROPHES))
    for k in range(len(words) - 1, -1, -1):
        if words[k] in cues.clause_words:
            words = words[k + 1:]
            break
    rest = _WORD.findall(_CLAUSE_END.split(after)[0].casefold().translate(_APOSTROPHES))
    if _find(words + rest, cues.past) is not None:
        return "a past episode"
    words = words[-HISTORY_REACH:]
    if _find(words, cues.not_denials) is None and _find(words, cues.denials) is not None:
        return "denied"
    if _find(words[-3:], cues.prevention) is not None:
        return "what a vaccine prevents"
    relative = max((k for k, w in enumerate(words) if w in cues.relatives), default=None)
    if relative is not None and _find(words[relative + 1:], cues.having) is not None:
        return "another person's"
    return None
