"""A text prepared for scoring: normalised tokens and clause boundaries.

A *clause* ends at sentence punctuation (``. ; : ! ?``, not in a number), a line break
or a bullet; cue words (``cues.py``) only reach across tokens of one clause. A clause is at
most :data:`MAX_CLAUSE_TOKENS` long: the readers walk a mention's clause, so a text with no
punctuation at all (a model's run-on output) would make reading quadratic in its length.
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from medbench_tui.core.batch_caches import batch_cache
from medbench_tui.core.scoring.lines import BULLET_START_RE, WRAPPED_LINE_WIDTH
from medbench_tui.core.text import ANSWERS, Token, tokenize
from medbench_tui.core.vocabulary import read_vocabulary

CLAUSE_BREAK_RE = re.compile(r"[;!\n\u2022]|\?(?![A-Za-z])|[.:](?!\d)")
"""Where a clause ends; not at a query mark written before its word ("UGIB ?PU": a query, no question)."""
COMMA_RE = re.compile(r",|\s[-\u2013\u2014]\s")
ARROW_RE = re.compile(r"->|\u2192")
"""An arrow before a word parts two actions of a terse plan ("Cardiology today -> DDD PPM"); between numbers
it is a change of a value ("trop 16->17")."""
DOTTED_RE = re.compile(r"\b[A-Za-z]\.[A-Za-z]\.")
"""An abbreviation of two letters, each with its full stop ("e.g.", "i.e."): grammar of the text, no clause end."""
ABBREVIATED_WORDS = ("incl", "excl", "approx", "esp", "vs", "cf", "viz")
"""Words of grammar shortened with a full stop ("consent incl. possible orchidectomy", "approx. 2 L"): before a
lower-case word or a number the stop is the abbreviation's, no clause end."""
ABBREVIATED_RE = re.compile(rf"\b(?i:{'|'.join(ABBREVIATED_WORDS)})\.(?= [a-z0-9])")
GENUS_RE = re.compile(r"\b[A-Z]\.(?= [a-z]{3,})")
"""A genus written by its initial before the species ("C. difficile", "E. coli"): its full stop ends no clause."""
WRAPPED_LINE_RE = re.compile(r"[ \t]*\n[ \t]*")
SENTENCE_END_RE = re.compile(r"[.!?]\s")
"""The end of a sentence between two words (a full stop right before a word is an abbreviation's)."""
EMPHASIS_MARKS = "*_"
"""Markdown emphasis marks, layout where a line breaks (grammar of the text, not clinical language)."""
MAX_CLAUSE_TOKENS = 150
_LINKS = frozenset(read_vocabulary().phrases("links"))
_ACTION_VERBS = frozenset(read_vocabulary().phrases("action_verbs"))
_OPEN_LINE_ENDS = frozenset(read_vocabulary().phrases("open_line_ends"))
"""A link word before an action verb starts a new piece (the cue lists of ``cues.yaml``)."""
"""A clause longer than this (five times the longest of the labelled answers) is cut: no
sentence of a plan runs that long, and every step that reads a mention's clause stays
bounded, so scoring is linear in the answer's length."""


class Hit(NamedTuple):
    """Tokens ``[first, last]`` of a document (inclusive) where a phrase occurs. A named tuple: hits are
    made, hashed and compared in every search, and a tuple does that without a call into Python."""

    first: int
    last: int


@dataclass
class Document:
    text: str
    section: str | None = None  # the section of a final response the whole text stands in, when it is a part of one
    tokens: list[Token] = field(init=False)
    lows: list[str] = field(init=False)  # the words as written, for cue words
    clause: list[int] = field(init=False)
    comma_before: list[bool] = field(init=False)
    found: dict[Any, Any] = field(init=False, default_factory=dict)  # search results, per table and per concept

    def __post_init__(self) -> None:
        self.tokens = tokenize(self.text)
        if ANSWERS.placed_in(self.text):  # a short form read by the section it stands in ("Imp: necrotising OE")
            from medbench_tui.core.scoring.sections import parse  # sections reads this module's patterns

            section = self.section
            if section is None:
                layout = parse(self.text)
                self.tokens = ANSWERS.tokenize(self.text, lambda offset: layout.section_at(offset).kind)
            else:
                self.tokens = ANSWERS.tokenize(self.text, lambda offset: section)
        self.lows = [t.low for t in self.tokens]
        self.clause = []
        self.comma_before = []
        clause = 0
        clause_length = 0
        previous_end = 0
        previous_start = -1
        dotted = {m.start() + i for m in DOTTED_RE.finditer(self.text) for i in (1, 3)}  # the full stops of "e.g."
        dotted |= {m.start() + 1 for m in GENUS_RE.finditer(self.text)}  # "C. difficile"
        dotted |= {m.end() - 1 for m in ABBREVIATED_RE.finditer(self.text)}  # "incl. possible"
        for token in self.tokens:
            gap = self.text[previous_end : token.start] if token.start != previous_start else ""
            if gap == " " or not gap:  # the usual gap breaks nothing (a token starts with a letter or a digit)
                breaks = comma = False
            else:
                decimal = (  # "2.5 mg", "4,150", "1:1000": one number; "e.g. cefuroxime": one abbreviation
                    gap in (".", ",", ":") and token.low[:1].isdigit()
                    and self.text[previous_end - 1 : previous_end].isdigit()
                ) or (gap.rstrip() == "." and previous_end in dotted)
                ahead = gap + self.text[token.start : token.start + 1]  # "?PU": the mark and its word
                breaks = (previous_start >= 0 and not decimal and CLAUSE_BREAK_RE.search(ahead) is not None
                          and not ("\n" in gap and self._wrapped(gap, previous_end, token.start)))
                comma = (COMMA_RE.search(gap) is not None and not decimal) or (
                    ARROW_RE.search(gap) is not None and token.low[:1].isalpha())
            if breaks or clause_length >= MAX_CLAUSE_TOKENS:
                clause += 1
                clause_length = 0
            clause_length += 1
            self.clause.append(clause)
            self.comma_before.append(comma)
            previous_end = max(previous_end, token.end)
            previous_start = token.start

    def _wrapped(self, gap: str, previous_end: int, start: int) -> bool:
        """Does a long line go on, in lower case, on the next one (prose wrapped at a width:
        "... no D-dimer\nor CTPA"), or any line that ends with a word no sentence ends with ("go to\nA&E")?
        A list item is short, or its next line starts otherwise, unless that line is indented under it.
        Emphasis marks at either end of the break are layout ("do **not**\n take him to theatre")."""
        gap = gap.strip(EMPHASIS_MARKS).removeprefix(")")  # a bracket closed at the line's end: "(Neulasta)\n  and ..."
        if WRAPPED_LINE_RE.fullmatch(gap.removesuffix("(")) and gap.endswith("("):
            return True  # a bracket opening a line explains what went before ("insulin\n(glargine and NovoRapid)")
        line_start = self.text.rfind("\n", 0, previous_end) + 1
        line = self.text[line_start:previous_end]
        if gap.startswith(",") and WRAPPED_LINE_RE.fullmatch(gap[1:]) and gap.rsplit("\n", 1)[-1] \
                and len(line) >= WRAPPED_LINE_WIDTH:
            return True  # a long line indented on: "...; if the pain settles,\n  discharge with analgesia"
        if not WRAPPED_LINE_RE.fullmatch(gap):
            return False
        if line.split() and line.split()[-1].strip(EMPHASIS_MARKS).lower() in _OPEN_LINE_ENDS:
            return True  # "go to\nA&E straight away": no sentence ends with "to"
        goes_on = self.text[start].islower() or self.text[start].isdigit()  # "after\n48 hours"
        indented = bool(gap.rsplit("\n", 1)[-1])  # a list item wrapped under its own text ("- ... no\n  immunology")
        return goes_on and len(line) >= WRAPPED_LINE_WIDTH and (indented or not BULLET_START_RE.match(line))

    def pieces(self) -> list[Hit]:
        """The pieces of the text: its clauses cut at commas and dashes, and at a link word before an
        action verb ("... and refer ..."): one action each, in a list."""
        known = self.found.get("pieces")
        if known is None:
            known, start = [], 0
            for k in range(1, len(self.tokens) + 1):
                if k == len(self.tokens) or self.clause[k] != self.clause[start] or self.comma_before[k] or (
                    k > start + 1 and self.lows[k - 1] in _LINKS and self.lows[k] in _ACTION_VERBS
                ):  # "admit to CCU and refer to cardiothoracic surgery tomorrow": two actions, two times
                    known.append(Hit(start, k - 1))
                    start = k
            self.found["pieces"] = known
        return known

    def sentence_break_within(self, first: int, last: int) -> bool:
        """A sentence ends between two of the tokens ``first..last``: a full stop, question or exclamation mark
        and a space after a word of more than one letter ("furosemide 80 mg IV. Verapamil"; "C. difficile" is an
        initial). A phrase's words do not run over the end of a sentence."""
        return any(self.tokens[k].end - self.tokens[k].start > 1 and SENTENCE_END_RE.match(self.text[self.tokens[k].end:
                                                                                    self.tokens[k + 1].start])
                   for k in range(first, last))

    def piece_of(self, at: int) -> Hit:
        """The piece that holds token ``at``."""
        return self.pieces()[self._piece_index()[at]]

    def pieces_of_clause(self, clause: Hit) -> list[Hit]:
        """The pieces of a clause, in order."""
        index = self._piece_index()
        return self.pieces()[index[clause.first] : index[clause.last] + 1]

    def _piece_index(self) -> list[int]:
        """Token -> the index of its piece (built once: a long answer has many mentions)."""
        known = self.found.get("piece index")
        if known is None:
            known = [0] * len(self.tokens)
            for number, piece in enumerate(self.pieces()):
                known[piece.first : piece.last + 1] = [number] * (piece.last - piece.first + 1)
            self.found["piece index"] = known
        return known

    def clause_of(self, at: int) -> Hit:
        """The clause that holds token ``at`` (a walk of at most :data:`MAX_CLAUSE_TOKENS`)."""
        first = last = at
        while first > 0 and self.clause[first - 1] == self.clause[at]:
            first -= 1
        while last + 1 < len(self.tokens) and self.clause[last + 1] == self.clause[at]:
            last += 1
        return Hit(first, last)

    def tokens_within(self, start: int, end: int) -> range:
        """The tokens that start after character ``start`` and before ``end``: found by the tokens' starts,
        which are in order (listed once: every word inside brackets asks for its brackets' tokens)."""
        starts = self.found.get("starts")
        if starts is None:
            starts = self.found["starts"] = [t.start for t in self.tokens]
        return range(bisect_right(starts, start), bisect_left(starts, end))

    def span(self, hit: Hit) -> tuple[int, int]:
        """Character offsets of a hit in the text."""
        return self.tokens[hit.first].start, self.tokens[hit.last].end

    def quote(self, hit: Hit) -> str:
        return self.text[self.tokens[hit.first].start : self.tokens[hit.last].end]

    def said(self, hit: Hit) -> str:
        """The words of a hit as one line: a line break inside a mention (one clause) is a wrapped line, and
        the mention's text, read again alone (a short text, where the break would end a clause), must not
        lose its words to it ("operate only after the alkalosis is\n   corrected")."""
        return WRAPPED_LINE_RE.sub(" ", self.quote(hit))


@batch_cache(maxsize=64)
def document(text: str, section: str | None = None) -> Document:
    """The document of a text; extraction and the critical-condition check of one
    scoring share it. ``section``: the section of a final response the text is a part of (an entry's words)."""
    return Document(text, section)
