"""Title search: an inverted index of title words, then a rapidfuzz re-rank.

Every WHO code is one document (its title); every synonym name is one more document
for each code it points to, so "heart attack" and "MI" find I21.9 although no WHO title
says so; every ICD-10-CM title and inclusion term is one more document for the WHO code
it rolls up to (cm_terms.py), so "Gaucher disease" finds E75.2 "Other sphingolipidosis";
every tumour type of morphology.yaml is one more document for each code of its usual
sites. A query is also tried with its synonym phrases replaced by their WHO wording
("UTI in pregnancy" -> "urinary tract infection in pregnancy" -> O23.4).

Scoring, per document: the IDF-weighted share of query words it contains (exact word
1.0, longer word starting with it 0.9, same stem 0.8, a typo up to 0.8), times
0.7 + 0.3 x rapidfuzz token_sort_ratio of query and title, so that of two titles with
all the query's words the one with fewer other words comes first. 100 is a perfect match.
"""

from __future__ import annotations

import heapq
import math
from array import array
from bisect import bisect_left
from dataclasses import dataclass, field
from operator import itemgetter
from typing import Any

from rapidfuzz import fuzz, process

from medbench_tui.core.icd10.cm_terms import entry_terms
from medbench_tui.core.icd10.data import Synonym, Tables, cached, keep, tables
from medbench_tui.core.icd10.text import QUALIFIERS, content
from medbench_tui.core.text import possessives

CANDIDATES = 60          # documents re-ranked per query variant
EXACT, PREFIX, STEM = 1.0, 0.9, 0.8
TYPO_CUTOFF = 85         # rapidfuzz ratio for a misspelt word: one slip in 7 letters, none in 5 (bowen, bowel)
QUALIFIED_SHARE = 0.5    # "type 1" counts for a title that holds half of what it qualifies
MEMO_LIMIT = 50_000      # remembered query words before the memo starts again
TITLE_RANK = 100         # synonym documents rank by their code's place in the row (0, 1, ...)
CM_RANK = 200            # ICD-10-CM entry terms come after WHO's titles and the synonyms


@dataclass
class Index:
    doc_code: list[str] = field(default_factory=list)
    doc_rank: list[int] = field(default_factory=list)      # tie-break: synonym's own order first
    doc_text: list[str] = field(default_factory=list)      # content words, for the re-rank
    postings: dict[str, list[int] | array[int]] = field(default_factory=dict)  # lists while built
    vocab: list[str] = field(default_factory=list)         # sorted keys of postings
    phrases: dict[tuple[str, ...], Synonym] = field(default_factory=dict)
    longest_phrase: int = 1
    alternatives: dict[str, tuple[str, ...]] = field(default_factory=dict)  # "kidney" <-> "renal", both ways
    aliases: dict[str, list[tuple[str, ...]]] = field(default_factory=dict)  # category -> synonym names
    doc_note: dict[int, str] = field(default_factory=dict)  # tumour-type documents: choose by site
    memo: dict[tuple[str, bool, bool], dict[int, float]] = field(default_factory=dict)

    def __getstate__(self) -> dict[str, object]:
        """Stored without what queries remembered, and with the postings as one array in
        vocabulary order: one object instead of twelve thousand loads several times faster."""
        flat, ends = array("i"), array("i")
        for word in self.vocab:
            flat.extend(self.postings[word])
            ends.append(len(flat))
        return {**self.__dict__, "memo": {}, "postings": (flat, ends)}

    def __setstate__(self, state: dict[str, Any]) -> None:
        flat, ends = state["postings"]
        starts = [0, *ends[:-1]]
        state["postings"] = {word: flat[a:b] for word, a, b in zip(state["vocab"], starts, ends, strict=True)}
        self.__dict__.update(state)

    def weight(self, word: str) -> float:
        """How telling a word is: rare words (appendicitis) far more than common ones (acute)."""
        return math.log(1 + len(self.doc_code) / max(1, len(self.postings.get(word, ()))))

    def add(self, code: str, text: str, tables: Tables, rank: int = TITLE_RANK) -> tuple[str, ...]:
        words = tables.folder.words(text)
        doc = len(self.doc_code)
        self.doc_code.append(tables.items[code].code)  # one string object per code: a smaller cache file
        self.doc_rank.append(rank)
        self.doc_text.append(" ".join(content(words) or words))
        for word in {*words, *tables.folder.compounds(text)}:
            self.postings.setdefault(word, []).append(doc)
        return tuple(words)


def index() -> Index:
    tables()  # the stored file holds the index beside the tables: read first, it is never built again
    return cached("index", _build)


def warm_up() -> None:
    """Load the WHO table and build the search index now rather than on first use."""
    index()


def entry_words(code: str) -> list[tuple[str, ...]]:
    """The content words of the ICD-10-CM entry terms of one WHO code (for the "is this
    the right code?" check: "Gaucher disease" fits E75.2 "Other sphingolipidosis")."""

    def collect() -> dict[str, list[tuple[str, ...]]]:
        idx = index()
        found: dict[str, list[tuple[str, ...]]] = {}
        for doc, home in enumerate(idx.doc_code):
            if idx.doc_rank[doc] == CM_RANK:
                found.setdefault(home, []).append(tuple(idx.doc_text[doc].split()))
        return found

    return cached("entry_words", collect).get(code, [])


def _build() -> Index:
    t = tables()
    idx = Index()
    for code in t.codes:
        if not t.items[code].unassigned:
            idx.add(code, t.items[code].title, t)
    for synonym in t.synonyms:
        for name in synonym.names:
            words: tuple[str, ...] = ()
            for rank, code in enumerate(synonym.codes):
                words = idx.add(code, name, t, rank)
            words = words or tuple(t.folder.words(name))
            meant = t.folder.words(synonym.means or "")
            if len(words) == 1 and len(meant) == 1 and not synonym.codes:
                for one, other in ((words[0], meant[0]), (meant[0], words[0])):
                    if other not in idx.alternatives.setdefault(one, ()):
                        idx.alternatives[one] += (other,)
            elif words:
                idx.phrases.setdefault(words, synonym)
                for category in {code[:3] for code in synonym.codes}:
                    idx.aliases.setdefault(category, []).append(words)
    for morphology in t.morphology:
        for name in morphology.names:
            words = ()
            for rank, code in enumerate(morphology.codes):
                idx.doc_note[len(idx.doc_code)] = morphology.note
                words = idx.add(code, name, t, rank)
            for category in {code[:3] for code in morphology.codes}:
                idx.aliases.setdefault(category, []).append(words)
    for code, term in entry_terms(t):
        idx.add(code, term, t, CM_RANK)
    idx.longest_phrase = max(map(len, idx.phrases), default=1)
    idx.vocab = sorted(idx.postings)
    idx.postings = {word: array("i", docs) for word, docs in idx.postings.items()}  # compact, fast to store
    keep(index=idx)
    return idx


Slot = tuple[str, ...]  # one query word and the word(s) that may stand for it ("kidney", "renal")


def query_variants(text: str) -> list[tuple[Slot, ...]]:
    """The query's words, and again with synonym phrases put in WHO's words. Each word
    is a slot that a one-word synonym may fill instead ("kidney" or "renal")."""
    t, idx = tables(), index()
    words = tuple(t.folder.words(text))
    expanded: list[str] = []
    i = 0
    while i < len(words):
        for n in range(min(idx.longest_phrase, len(words) - i), 0, -1):
            synonym = idx.phrases.get(words[i : i + n])
            if synonym is not None:
                expanded.extend(t.folder.words(synonym.means) if synonym.means else words[i : i + n])
                i += n
                break
        else:
            expanded.append(words[i])
            i += 1
    variants = [words] if words else []
    if expanded and tuple(expanded) != words:
        variants.append(tuple(expanded))
    return [tuple(_slot(idx, word) for word in variant) for variant in variants]


def _slot(idx: Index, word: str) -> Slot:
    return (word, *idx.alternatives.get(word, ()))


def find(text: str, limit: int) -> list[tuple[str, float]]:
    """(code, score 0-100) best first (see `ranked`)."""
    return [(code, score) for code, score, _ in ranked(text, limit)]


def ranked(text: str, limit: int) -> list[tuple[str, float, str | None]]:
    """(code, score 0-100, note) best first; the note says to choose by site when a
    tumour type found the code. Equal scores: a WHO title that says exactly what was
    asked ("alcoholic hepatitis" is K70.1's own title, though a synonym row lists K70.9
    first), then the code a synonym row lists first, then a codable leaf before its
    category, then classification order."""
    t, idx = tables(), index()
    names = {t.folder.word(name) for name in possessives(text)}
    variants = query_variants(text)
    said = {slot[0] for slot in variants[0]} if variants else set()
    best: dict[str, tuple[float, bool, int, int]] = {}
    for slots in variants:
        for doc, score in _score(idx, slots, names):
            code, score = idx.doc_code[doc], round(score, 1)
            own_title = idx.doc_rank[doc] == TITLE_RANK and set(t.folder.words(t.items[code].title)) == said
            found = best.get(code)
            if found is None or score > found[0]:
                best[code] = (score, own_title, -idx.doc_rank[doc], doc)
            elif score == found[0]:  # the same code found twice as well: keep the best of both
                best[code] = (score, own_title or found[1], max(found[2], -idx.doc_rank[doc]),
                              found[3] if found[2] >= -idx.doc_rank[doc] else doc)
    order = sorted(
        best.items(),
        key=lambda item: (-item[1][0], not item[1][1], -item[1][2], bool(t.items[item[0]].children),
                          t.order[item[0]]),
    )
    return [(code, score, idx.doc_note.get(doc)) for code, (score, _, _, doc) in order[:limit]]


def _score(idx: Index, slots: tuple[Slot, ...], names: set[str]) -> list[tuple[int, float]]:
    """Candidates and their scores. Qualifier words and numbers ("type 1", "stage 3")
    count for a document only if it holds at least QUALIFIED_SHARE of the other words:
    "multiple endocrine neoplasia type 1" is not "type 1 diabetes"."""
    unique = list(dict.fromkeys(slots))
    n_docs = len(idx.doc_code)
    accumulated: dict[int, float] = {}
    qualifying: dict[int, float] = {}
    total = main_total = 0.0
    known: list[str] = []  # the words the index holds: the re-rank compares only those
    for position, slot in enumerate(unique):
        typing = position == len(unique) - 1
        matches = _matches(idx, slot[0], typing=typing, correct=slot[0] not in names)
        for other in slot[1:]:
            merged = dict(matches)
            for doc, strength in _matches(idx, other, typing=typing, correct=True).items():
                merged[doc] = max(strength, merged.get(doc, 0.0))
            matches = merged
        weight = math.log(1 + n_docs / max(1, len(matches)))
        total += weight
        if max(matches.values(), default=0.0) >= PREFIX:  # found as itself, not only as a stem or a typo
            known.append(slot[0])
        qualifier = slot[0].isdigit() or slot[0] in QUALIFIERS
        main_total += 0.0 if qualifier else weight
        into = qualifying if qualifier else accumulated
        for doc, strength in matches.items():
            into[doc] = into.get(doc, 0.0) + weight * strength
    for doc, value in qualifying.items():
        if accumulated.get(doc, 0.0) >= QUALIFIED_SHARE * main_total:
            accumulated[doc] = accumulated.get(doc, 0.0) + value
    if not accumulated:
        return []
    known = known or [slot[0] for slot in unique]  # all misspelt: compare them as written
    query = " ".join(content(known) or known)  # "acalculous", unknown, must not look like "calculus"
    scored = []
    for doc, value in heapq.nlargest(CANDIDATES, accumulated.items(), key=itemgetter(1)):
        likeness = fuzz.token_sort_ratio(query, idx.doc_text[doc]) / 100
        scored.append((doc, 100 * (value / total) * (0.7 + 0.3 * likeness)))
    return scored


def _matches(idx: Index, word: str, *, typing: bool, correct: bool) -> dict[int, float]:
    """Documents holding `word`, or a longer word it starts, or its stem, or (when
    `correct`: not a person's name) a near miss.

    A short word is read as a prefix only when it is the last one (still being typed).
    A near miss starts with the same letter and is not the word with a prefix more or
    less, so "acalculous" never becomes "calculous"."""
    key = (word, typing, correct)
    found = idx.memo.get(key)
    if found is not None:
        return found
    found = {}

    def take(stem: str, strength: float) -> None:
        at = bisect_left(idx.vocab, stem)
        while at < len(idx.vocab) and idx.vocab[at].startswith(stem):
            for doc in idx.postings[idx.vocab[at]]:
                if found.get(doc, 0.0) < strength:
                    found[doc] = strength
            at += 1

    if not word.isdigit():
        if len(word) >= 7:
            take(word[: max(5, len(word) - 3)], STEM)
        if len(word) >= 4 or (typing and len(word) >= 3):
            take(word, PREFIX)
    for doc in idx.postings.get(word, ()):
        found[doc] = EXACT
    if not found and correct and len(word) >= 4 and word.isalpha():
        for other, similarity, _ in process.extract(
            word, idx.vocab, scorer=fuzz.ratio, score_cutoff=TYPO_CUTOFF, limit=3
        ):
            if other[0] != word[0] or other.endswith(word) or word.endswith(other):
                continue
            for doc in idx.postings[other]:
                found[doc] = max(found.get(doc, 0.0), STEM * similarity / 100)
    if len(idx.memo) > MEMO_LIMIT:
        idx.memo.clear()
    idx.memo[key] = found
    return found
