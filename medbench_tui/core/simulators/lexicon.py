"""Words as the simulator compares them: normalised, lightly stemmed, and mapped to
clinical concepts, so that a doctor's "meds" meets a record's "medication" and
"short of breath" meets "breathless".

The concepts are data: the symptom, finding, body-part and history terms of the clinical
vocabulary (``medbench_tui/vocabulary/``: their names, other names and lay words; ``is`` gives
the broader concept a specific one also speaks for), the aspects a question asks (phrase lists
``patient_aspect_*``) and the small words that carry no topic (``patient_small_words``).

A text becomes a list of *units*: one per content word or per known phrase, each a
set of alternatives (the stem, and the ``@concept`` names it stands for). Two texts
match on a unit when any alternative is shared.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from rapidfuzz import fuzz, process

from medbench_tui.core.batch_caches import batch_cache
from medbench_tui.core.text import lemma, stem
from medbench_tui.core.vocabulary import TermKind, Vocabulary, key, read_vocabulary
from medbench_tui.core.vocabulary.load import REWRITE_ANY_WORD
from medbench_tui.core.vocabulary.model import Rewrite

__all__ = [
    "BROADER", "CLINICAL", "CONCEPTS", "STOPWORDS", "Concepts", "Unit", "concept_id", "content_words",
    "misspelt_concepts", "phrase_alternation", "read_concepts", "rewrite_patterns",
    "sentences", "stem", "terms", "units", "words",
]

ASPECTS = (
    "onset", "severity", "location", "radiation", "character", "aggravating", "relieving", "progression",
    "frequency", "interval", "recurrence", "time_of_day", "baseline", "comparison", "time_frame", "amount",
)
"""The aspects a question asks of whatever is talked about, each a phrase list ``patient_aspect_<name>``
of the vocabulary (``medbench_tui/vocabulary/questions.yaml``): concepts ``@<name>``."""
TERM_KINDS: tuple[TermKind, ...] = ("symptom", "finding", "body_part", "history")
"""The kinds of vocabulary terms a question's words are read as (each term a concept ``@<name>``)."""


def concept_id(name: str) -> str:
    """The concept a term stands for, from its name ("self-harm": ``self_harm``)."""
    return key(name).replace(" ", "_")


@dataclass(frozen=True)
class Concepts:
    """The clinical concepts of the vocabulary, as the patient reads questions and records."""

    phrases: dict[str, tuple[str, ...]]
    """Concept -> the phrases that stand for it (UK and US, lay and clinical)."""
    broader: dict[str, tuple[str, ...]]
    """Concept -> the broader concepts it also speaks for, weakly (diarrhoea: bowel)."""
    kinds: dict[str, str]
    """Concept -> its kind (``symptom``, ``body_part``, ..., ``aspect``)."""
    small_words: frozenset[str]

    def of_kind(self, *kinds: str) -> frozenset[str]:
        """The concepts (``@name``) of these kinds."""
        return frozenset(f"@{c}" for c, k in self.kinds.items() if k in kinds)


def read_concepts(vocabulary: Vocabulary) -> Concepts:
    """The concepts of a vocabulary: its symptom, finding, body-part and history terms (names, other
    names and lay words), the question aspects, and the medicines (a class speaks for the
    medicines; a drug is its own concept, weakly of the medicines)."""
    phrases: dict[str, tuple[str, ...]] = {}
    broader: dict[str, tuple[str, ...]] = {}
    kinds: dict[str, str] = {}
    for term in vocabulary.of_kind(*TERM_KINDS):
        concept = concept_id(term.name)
        phrases[concept] = (term.name, *term.also, *term.lay)
        kinds[concept] = term.kind
        broader[concept] = tuple(concept_id(b) for b in term.broader)
    if "medication" in phrases:
        # One medicine is a concept of its own that speaks for the medicines weakly: "are you on
        # warfarin?" of a record without warfarin is answered "No". A name the patient's own terms
        # already give ("the pill": contraception; "aspirin": the medicines) keeps their meaning.
        claimed = {key(p) for said in phrases.values() for p in said}
        for term in vocabulary.of_kind("drug"):
            concept = concept_id(term.name)
            names = tuple(n for n in (*term.names, *term.lay) if key(n) not in claimed)
            if names and concept not in phrases:
                phrases[concept] = names
                kinds[concept] = term.kind
                broader[concept] = ("medication",)
    for aspect in ASPECTS:
        phrases[aspect] = vocabulary.phrases(f"patient_aspect_{aspect}")
        kinds[aspect] = "aspect"
    small = frozenset(w for p in vocabulary.phrases("patient_small_words") for w in p.lower().split())
    return Concepts(phrases, {c: b for c, b in broader.items() if b}, kinds, small)


CLINICAL = read_concepts(read_vocabulary())
"""The shipped vocabulary's concepts (the patient reads questions with these)."""
CONCEPTS: dict[str, tuple[str, ...]] = CLINICAL.phrases
BROADER: dict[str, tuple[str, ...]] = CLINICAL.broader
STOPWORDS: frozenset[str] = CLINICAL.small_words
"""Words that carry no topic of their own in a doctor's question."""


def phrase_alternation(name: str) -> str:
    """The phrases of the vocabulary's list ``name`` as a regular-expression alternation, in the list's order (the
    first that fits at a place is taken), each matched as written: the clinical words of a pattern whose grammar is
    code ("your|his|her|the" before a part of the body)."""
    return "|".join(re.escape(p) for p in read_vocabulary().phrases(name))


_TOKEN = re.compile(r"[a-z0-9]+")
_GRAMMAR = (
    (re.compile(r"\b(what|where|how|who|when)['\u2019]s\b"), r"\1 is"),  # "where's the pain?": where is
    # a word of -ing with 's is the word and "is" or "has" ("how your breathing's been"), never a plural
    (re.compile(r"\b([a-z]{2,}ing)['\u2019]s\b"), r"\1 is"),
    (re.compile(r"['\u2019]"), ""),
    (re.compile(r"&"), " and "),
    (re.compile(r"\bout of 10\b"), "out of ten"),
)
"""The grammar of a question undone before it is read, in order: contractions, apostrophes, "&"."""


def _said(phrases: tuple[str, ...]) -> str:
    """Phrases as a regular-expression alternation of whole words, longest first; a space matches a space."""
    return "|".join(re.escape(p).replace(r"\ ", " ") for p in sorted(phrases, key=len, reverse=True))


def _rewrite(rewrite: Rewrite) -> tuple[re.Pattern[str], str]:
    """The pattern and replacement of a vocabulary rewrite (``patient_rewrites``): its grammar ("before a word",
    "after one of these words in the sentence") is here, its words are data."""
    read_as = rewrite.read_as.replace("\\", "\\\\")
    said = rf"(?:{_said(rewrite.said)})\b"
    if rewrite.followed_by == REWRITE_ANY_WORD:
        said += r"(?= \w)"
    elif rewrite.followed_by is not None:
        said += rf"(?= (?:{phrase_alternation(rewrite.followed_by)})\b)"
    if rewrite.after:  # "take them regularly": up to 40 characters of the same sentence between
        return re.compile(rf"(\b(?:{_said(rewrite.after)})\b[^.?!]{{0,40}}? ){said}"), r"\g<1>" + read_as
    return re.compile(rf"\b{said}"), read_as


def rewrite_patterns(rewrites: tuple[Rewrite, ...]) -> tuple[tuple[re.Pattern[str], str], ...]:
    """The patterns and replacements of vocabulary rewrites, in order (``re.sub`` each in turn)."""
    return tuple(_rewrite(r) for r in rewrites)


_REWRITES = rewrite_patterns(read_vocabulary().rewrites)
"""The vocabulary's rewrites of a question's wording ("water tablets": diuretic tablets), in order."""
_BETWEEN_EPISODES = re.compile(
    rf"\bbetween (?:the |his |her |your |these |those )?(?:\w+ )?(?:{phrase_alternation('patient_episodes')})\b")
"""The time between the attacks, whatever they are called ("between the screaming bouts"): grammar of "between" and
a determiner, read "in between" after the rewrites; the episodes are the vocabulary's list."""
_JOINS = (*_GRAMMAR, *_REWRITES, (_BETWEEN_EPISODES, "in between"))
"""Everything a question's wording is read as before it is split into words, in order."""


@batch_cache(maxsize=8192)
def words(text: str) -> tuple[str, ...]:
    """Lower-case word tokens, apostrophes dropped (``don't`` -> ``dont``); cached, as every
    question is read by several checks."""
    text = text.lower()
    for pattern, replacement in _JOINS:
        text = pattern.sub(replacement, text)
    return tuple(_TOKEN.findall(text))


def says_phrase(text: str, phrases: tuple[str, ...] | list[str]) -> bool:
    """Does ``text`` hold one of ``phrases`` (each already in ``words`` form) as whole words? Worked out once per
    text and tuple of phrases (the rules ask the same question again and again, run after run)."""
    if isinstance(phrases, tuple):
        return _says_phrase(text, phrases)
    said = f" {' '.join(words(text))} "
    return any(f" {phrase} " in said for phrase in phrases)


@batch_cache(maxsize=16384)
def _says_phrase(text: str, phrases: tuple[str, ...]) -> bool:
    said = f" {' '.join(words(text))} "
    return any(f" {phrase} " in said for phrase in phrases)


@dataclass(frozen=True)
class Unit:
    """One content word or known phrase: its surface text and the terms it stands for."""

    text: str
    terms: frozenset[str]
    in_phrase: bool = False
    """Part of a multi-word phrase of the synonym map: its concept says more than its stem."""


def _compile_phrases() -> dict[str, list[tuple[tuple[str, ...], str]]]:
    index: dict[str, list[tuple[tuple[str, ...], str]]] = {}
    for concept, phrases in CONCEPTS.items():
        for phrase in phrases:
            stems = tuple(stem(w) for w in words(phrase))  # as written: "fly" of "he could fly" is no travel
            if stems:
                index.setdefault(stems[0], []).append((stems, concept))
                if len(stems) == 1:
                    _ONE_WORD_FORMS.setdefault((stems[0], concept), set()).add(lemma(words(phrase)[0]))
    for entries in index.values():
        entries.sort(key=lambda e: -len(e[0]))
    return index


_ONE_WORD_FORMS: dict[tuple[str, str], set[str]] = {}
"""The words (by their one form) of each one-word phrase of a concept, by its stem and concept."""
_PHRASES = _compile_phrases()


_FORM_ENDINGS = ("s", "ness")
"""Endings by which a small word is still a one-word phrase's own word ("wheres" of "where", "ill" of "illness")."""


def _small_word_of_another(token: str, stemmed: str, concept: str) -> bool:
    """Is a small word read as a one-word phrase it only shares a stem with ("even" of "evening": no time of day;
    "quite" of "quit": no smoking)? A small word stands for a concept only when it is that phrase's own word, or
    differs from it by an ending of :data:`_FORM_ENDINGS`."""
    if token not in STOPWORDS:
        return False
    own = lemma(token)
    return not any(own == form or own == form + end or own + end == form
                   for form in _ONE_WORD_FORMS.get((stemmed, concept), {own}) for end in _FORM_ENDINGS)

_LIFE_STAGES = tuple(
    sorted(
        {tuple(stem(w) for w in words(p)) for p in read_vocabulary().phrases("patient_time_of_life")} - {()},
        key=len,
        reverse=True,
    )
)
"""Phrases of when in life ("when I was a kid", "in my twenties"), as written stems, longest first."""
LIFE_STAGE = "@time_of_life"
"""The one term of such a phrase: its noun says when, not what ("kid" of it is no child)."""


_LIFE_STAGES_BY_FIRST: dict[str, list[tuple[str, ...]]] = {}
for _stage in _LIFE_STAGES:
    _LIFE_STAGES_BY_FIRST.setdefault(_stage[0], []).append(_stage)  # longest first, as in _LIFE_STAGES
"""The phrases of when in life by their first stem: a word is tried only against those it can begin."""


def _life_stage_spans(written: list[str]) -> list[tuple[int, int]]:
    """Where the text says when in life something was: those words are one unit of the time."""
    spans: list[tuple[int, int]] = []
    i = 0
    while i < len(written):
        n = next((len(p) for p in _LIFE_STAGES_BY_FIRST.get(written[i], ()) if tuple(written[i : i + len(p)]) == p), 0)
        if n:
            spans.append((i, i + n))
        i += max(n, 1)
    return spans


@batch_cache(maxsize=4096)
def units(text: str) -> tuple[Unit, ...]:
    """The content units of a text: one per content word, with its stem and the
    concepts of every known phrase that covers it. A phrase made only of stopwords
    ("when did", "how often") becomes one unit of its concepts."""
    tokens = words(text)
    written = [stem(t) for t in tokens]  # concepts go by the words as written ("could fly" is no flight)
    stems = [stem(lemma(t)) for t in tokens]  # the word itself by its one form (flew, flown: fly)
    concepts: list[set[str]] = [set() for _ in tokens]
    in_phrase = [False] * len(tokens)
    spans: list[tuple[int, int]] = []
    out: list[Unit] = []
    stages = _life_stage_spans(written)
    staged = {j for start, end in stages for j in range(start, end)}
    stage_units = {start: Unit(" ".join(tokens[start:end]), frozenset({LIFE_STAGE})) for start, end in stages}
    for i in range(len(tokens)):
        row, entries = written, _PHRASES.get(written[i], ())
        if not entries and stems[i] != written[i]:
            # a word whose one form is another ("hives": urticaria, spelling.yaml forms) means what that form does
            row, entries = stems, [e for e in _PHRASES.get(stems[i], ()) if len(e[0]) == 1]
        for phrase, concept in entries:
            n = len(phrase)
            if tuple(row[i : i + n]) != phrase or (n == 1 and _small_word_of_another(tokens[i], phrase[0], concept)):
                continue
            if n > 1 and any(start <= i and i + n <= end and end - start > n for start, end in spans):
                continue  # "back passage" of "blood from the back passage": the longer phrase says what it is
            spans.append((i, i + n))
            if all(t in STOPWORDS for t in tokens[i : i + n]):
                out.append(Unit(" ".join(tokens[i : i + n]), frozenset({f"@{concept}"})))
            for j in range(i, i + n):
                if n > 1 and not in_phrase[j]:
                    concepts[j].clear()  # "living" of "for a living" is the work, not the home
                if n > 1 or not in_phrase[j]:
                    concepts[j].add(f"@{concept}")
                in_phrase[j] = in_phrase[j] or n > 1
    for j, (token, stemmed, extra, inside) in enumerate(zip(tokens, stems, concepts, in_phrase, strict=False)):
        if j in stage_units:
            out.append(stage_units[j])
        if token not in STOPWORDS and not token.isdigit() and j not in staged:
            out.append(Unit(token, frozenset({stemmed} | extra), inside))
    return tuple(out)


SPELLING_CUTOFF = 88
"""rapidfuzz ``ratio`` at which a word no concept knows is read as a concept's word misspelt."""


def _concept_words() -> dict[str, frozenset[str]]:
    """Every one-word phrase of five letters or more -> the concepts it stands for."""
    found: dict[str, set[str]] = {}
    for concept, phrases in CONCEPTS.items():
        for phrase in phrases:
            if " " not in phrase and len(phrase) >= 5 and phrase.isalpha():
                found.setdefault(phrase.lower().removesuffix("s"), set()).add(f"@{concept}")
    return {w: frozenset(c) for w, c in found.items()}


_CONCEPT_WORDS = _concept_words()


@batch_cache(maxsize=4096)
def misspelt_concepts(word: str) -> frozenset[str]:
    """The concepts of the clinical word ``word`` misspells ("medicaitons": the medicines), if it is
    close to one (same first letter, :data:`SPELLING_CUTOFF`); none for a word of under eight letters,
    as a short word one letter from a clinical word is often another word ("bother", "brother")."""
    if len(word) < 8 or word in STOPWORDS:
        return frozenset()
    word = word.removesuffix("s")  # "medicaitons", "medication": one and many alike
    candidates = [w for w in _CONCEPT_WORDS if w[0] == word[0] and abs(len(w) - len(word)) <= 2]
    hit = process.extractOne(word, candidates, scorer=fuzz.ratio, score_cutoff=SPELLING_CUTOFF)
    return _CONCEPT_WORDS[hit[0]] if hit and hit[0] != word else frozenset()


def terms(text: str) -> set[str]:
    return {t for u in units(text) for t in u.terms}


def content_words(text: str) -> str:
    """The text without stopwords, stemmed: what fuzzy comparisons look at."""
    return " ".join(stem(t) for t in words(text) if t not in STOPWORDS)


_SENTENCE = re.compile(r"(?<=[.!?])\s+|\n\s*\n+")
_HARD_WRAP = re.compile(r"(?<=\S)[ \t]*\n[ \t]*(?=\S)")


def sentences(text: str) -> list[str]:
    """The sentences of a text; a hard-wrapped line break inside a sentence is a space."""
    return [s.strip() for s in _SENTENCE.split(_HARD_WRAP.sub(" ", text)) if s.strip()]
