"""The one text module: what a word is, for the scorer, the patient and the ICD search.

Every part of the project that compares words (the scorer matching an answer against the
reference, the patient simulator reading a question, the leak check and the ICD-10 search)
uses these functions, so that they agree on case, accents, UK/US spelling, plurals and
clinical abbreviations. Each use picks what it needs: :func:`tokenize` (words with their
spans, abbreviations expanded, phrase synonyms folded) for the scorer, :func:`stem` (a
lighter, more aggressive stem for free questions) for the patient, :func:`fold` and
:func:`singular` for titles and names.

The words themselves are data: the shipped vocabulary (``medbench_tui/vocabulary/``:
``abbreviations.yaml``, ``shorthand.yaml``, ``spelling.yaml``; ``docs/vocabulary.md``). This
module compiles it into :class:`TextRules`, once per vocabulary and kind of text; the module's
functions use the shipped vocabulary's rules, and a reader with a bank's own vocabulary asks
:func:`rules_for` for its rules.

For matching answers against a case's reference, both sides (what the doctor wrote and
what the case lists) go through the same functions, so a rule only has to be consistent,
not linguistically perfect: folding "oe" to "e" turns "oedema" and "edema" into the same
token, and any collision it might create would be between two words that are then written
alike on both sides.

Steps, per token (a run of letters and digits, with inner ``&``, ``/``, ``+`` or an
apostrophe kept together so that ``U&E``, ``u/s`` and ``don't`` stay one word):

1. case folding and apostrophes dropped (``don't`` -> ``dont``);
2. the abbreviations of answers (``CXR`` -> ``chest x ray``, ``FBC``/``CBC`` -> ``full blood
   count``, ``paracetamol``/``acetaminophen`` -> one name), singular or plural (``LFTs``);
3. British to American spelling (:func:`american_spelling`: oesophagus, haemorrhage,
   anaemia, paediatric, oedema, ischaemia, tumour, -ise/-isation, centre, sulphate, ...);
4. plurals folded to the singular (``cultures`` -> ``culture``; Greek plurals from the
   vocabulary's ``forms``; acronyms in capitals such as ``AIDS`` are left alone);
5. multi-word abbreviations, longest first (``complete blood count`` -> ``full blood
   count``, ``urea and electrolytes`` -> ``urea electrolyte``).

Matching compares the tokens with the small words of the ``filler`` phrase list left out
("CT of the abdomen" = "CT abdomen") and with the spaces between tokens ignored, so
"x-ray", "x ray" and "xray" (and "gastro-oesophageal" and "gastroesophageal") agree.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable
from typing import NamedTuple

from medbench_tui.core.batch_caches import batch_cache
from medbench_tui.core.vocabulary import Vocabulary, read_vocabulary

TOKEN_RE = re.compile(r"[A-Za-z0-9]+(?:['\u2019&+/][A-Za-z0-9]+)*")
INNER_PUNCT_RE = re.compile(r"['\u2019&+/]")
COMPARISON_RE = r"(?<![-=<>])(?P<sign>{})(?=\s*\d)"
"""A comparison sign before a number (not an arrow's head, "-> 2 L"): grammar of the text; the signs are the
vocabulary's (``condition_above``, ``condition_below``)."""
SIGNED_RE = r"(?<![A-Za-z0-9.,'\u2019])(?P<signed>{})(?![A-Za-z0-9'\u2019])"
"""A short form written with a sign no word keeps (the vocabulary's abbreviations: "2'" is secondary to), standing
alone: grammar of the text."""

MARKUP_SIGNS = "#"
"""The signs that mark up a line of text (a markdown heading, "## Plan", "# Plan"): grammar of the text."""


def _markup_sign(text: str, start: int, end: int) -> bool:
    """Whether a short form written as a sign is a line's markup, not a word: in a run of markup signs ("###"), or
    opening its line before a space (a heading's mark, "# Plan"), where "#NOF" opening its line stays a word."""
    before = text[start - 1:start]
    after = text[end:end + 1]
    if (before and before in MARKUP_SIGNS) or (after and after in MARKUP_SIGNS):
        return True
    line = text[text.rfind("\n", 0, start) + 1:start]
    return not line.strip() and (not after or after.isspace()) and text[start:end] in MARKUP_SIGNS


PhraseTable = dict[str, list[tuple[tuple[str, ...], tuple[str, ...]]]]


class Token(NamedTuple):
    """One normalised word and where it came from in the text."""

    norm: str
    low: str  # the word as written, lower case, apostrophes dropped (for cue words)
    start: int
    end: int
    caps: bool  # written in capitals (an acronym such as FIT or CAP)


def _spelling_pattern(spelling: dict[str, str]) -> tuple[re.Pattern[str] | None, dict[str, str]]:
    """One pattern for every spelling part, longest first (so that at each place in a word the
    longest part that fits is replaced), and the replacement of each part by its group name."""
    parts = sorted(spelling, key=lambda p: (-len(p.strip("^$")), p))
    replacements: dict[str, str] = {}
    alternatives = []
    for i, part in enumerate(parts):
        core = re.escape(part.strip("^$"))
        name = f"p{i}"
        replacements[name] = spelling[part]
        start, end = ("^" if part.startswith("^") else ""), ("$" if part.endswith("$") else "")
        alternatives.append(f"(?P<{name}>{start}{core}{end})")
    if not alternatives:
        return None, replacements
    return re.compile("|".join(alternatives)), replacements


class TextRules:
    """The word rules of one vocabulary for one kind of text (answers and names, or questions):
    abbreviations, spelling, word forms and filler words, compiled once."""

    def __init__(self, vocabulary: Vocabulary, kind: str) -> None:
        self.kind = kind
        self.filler = frozenset(w.casefold() for w in vocabulary.phrases("filler"))
        self._pattern, self._replacements = _spelling_pattern(vocabulary.spelling)
        answers = kind == "answers"
        self.forms = {
            word: f.form for f in vocabulary.forms if (f.in_answers if answers else f.in_questions) for word in f.words
        }
        self.written: dict[str, str] = {}  # short form -> what it means, as written (questions)
        self.caps_only: set[str] = set()
        self.exact_written: set[str] = set()  # exact forms not in capitals, as written ("hyperK", "Cr")
        phrases: dict[str, str] = {}
        placed: dict[str, tuple[frozenset[str], str, bool]] = {}
        for a in vocabulary.abbreviations:
            if not (a.in_answers if answers else a.in_questions):
                continue
            if a.sections:  # read only in the sections it names ("Imp: necrotising OE"); a single word of answers
                if answers:
                    self.exact_written.update(short for short in a.short if a.exact_case and short != short.casefold())
                    placed.update({short.casefold(): (frozenset(a.sections), a.means, a.exact_case)
                                   for short in a.short})
                continue
            for short in a.short:
                low = short.casefold()
                if a.exact_case:
                    self.caps_only.add(low)
                    if short != low:
                        self.exact_written.add(short)
                if answers and (" " in low or "-" in low):  # a hyphen parts words as a space does
                    phrases[short] = a.means  # its words read as written ("HD stable": the HD of a text)
                else:
                    self.written[low] = a.means
        # a comparison written as a sign before a number ("Cl >100") is the word of its list ("above 100")
        self.comparisons: dict[str, str] = {
            sign: words[0] for words in (vocabulary.phrases("condition_above"), vocabulary.phrases("condition_below"))
            for sign in words if answers and not any(c.isalnum() for c in sign)
        }
        signs = "|".join(re.escape(sign) for sign in sorted(self.comparisons, key=len, reverse=True))
        # a short form written with a sign no word keeps ("AKI 2' NSAIDs", "2° to"): one token of its own, read
        # before the number it starts with, and only standing alone (not "12'", "2'3")
        self.signed = sorted((s for s in self.written if answers and not TOKEN_RE.fullmatch(s)), key=len, reverse=True)
        signed = "|".join(re.escape(s) for s in self.signed)
        pattern = TOKEN_RE.pattern
        if signed:
            # not before a word that makes the sign a count ("# of tablets": number of)
            counts = "|".join(re.escape(w) for w in sorted(vocabulary.phrases("sign_counts_before"), key=len,
                                                            reverse=True)) if answers else ""
            pattern = SIGNED_RE.format(signed) + (rf"(?!\s*(?:{counts})\b)" if counts else "") + f"|{pattern}"
        if signs:
            pattern = f"{pattern}|{COMPARISON_RE.format(signs)}"
        self._token_re = re.compile(pattern, re.IGNORECASE) if signed or signs else TOKEN_RE
        self._memo: dict[tuple[str, bool], tuple[str, ...]] = {}
        self._parts: dict[str, tuple[tuple[str, str, int, int, bool], ...]] = {}
        # a single word's meaning, spelled and singular as written words are (not read again)
        self.abbreviations: dict[str, tuple[str, ...]] = {
            low: tuple(self.singular(self.american_spelling(w)) for w in means.casefold().split())
            for low, means in self.written.items()
        } if answers else {}
        self.phrase_synonyms = phrases
        # short form -> (the sections it is read in, its meaning's normalised words, read only as written or in
        # capitals)
        self.placed: dict[str, tuple[frozenset[str], tuple[str, ...], bool]] = {
            low: (where, tuple(self.singular(self.american_spelling(w)) for w in means.casefold().split()), exact)
            for low, (where, means, exact) in placed.items()
        }
        self.placed_words = {low: tuple(entry[1].casefold().split()) for low, entry in placed.items()}
        sectioned = list(placed)
        self._placed_re = re.compile(
            r"(?<![\w/])(?:" + "|".join(re.escape(low) for low in sorted(sectioned, key=len, reverse=True))
            + r")(?![\w/])",
            re.IGNORECASE) if sectioned else None
        self.phrases: PhraseTable = self._phrase_table(phrases) if answers else {}

    # --- words ---------------------------------------------------------------------

    def american_spelling(self, word: str) -> str:
        if self._pattern is None:
            return word
        replacements = self._replacements
        return self._pattern.sub(lambda m: replacements[m.lastgroup or ""], word)

    def singular(self, word: str) -> str:
        form = self.forms.get(word)
        if form is not None:
            return form
        if len(word) >= 5 and word.endswith("ies"):
            return word[:-3] + "y"
        if len(word) >= 5 and word.endswith(("sses", "shes", "xes")):
            return word[:-2]
        if len(word) >= 4 and word.endswith("s") and not word.endswith(("ss", "us", "is")):
            return word[:-1]
        return word

    def normalise_word(self, low: str, caps: bool = False) -> tuple[str, ...]:
        """Steps 2-4 for one lower-case word (no inner punctuation but ``&``/``/``/``+``
        abbreviations); ``caps`` marks a word written in capitals (an acronym)."""
        known = self._memo.get((low, caps))
        if known is not None:
            return known
        out = self._normalise_word(low, caps)
        if len(self._memo) > 65536:
            self._memo.clear()
        self._memo[(low, caps)] = out
        return out

    def _normalise_word(self, low: str, caps: bool) -> tuple[str, ...]:
        table = self.abbreviations
        for key in (low, low[:-1] if low.endswith("s") and len(low) > 2 else None):
            if key is not None and key in table and (caps or key not in self.caps_only):
                return table[key]
        if caps and len(low) <= 5:
            return (low,)
        word = self.singular(self.american_spelling(low))
        if word in table and word not in self.caps_only:
            return table[word]
        return (word,)

    def _word_parts(self, raw: str) -> tuple[tuple[str, str, int, int, bool], ...]:
        """Steps 1-4 for one word as written: (norm, low, start, end, caps) relative to it;
        an abbreviation gives several tokens that share its span."""
        known = self._parts.get(raw)
        if known is not None:
            return known
        low = raw.lower().replace("'", "").replace("\u2019", "")
        table = self.abbreviations
        if INNER_PUNCT_RE.search(low) and low not in table and low.rstrip("s") not in table:
            # split "and/or", "IV/PO" into their parts, each with its own span
            parts = []
            for part in re.finditer(r"[A-Za-z0-9]+", raw):
                sub = part.group()
                caps = sub.isupper() and len(sub) > 1
                parts += [(norm, sub.lower(), part.start(), part.end(), caps)
                          for norm in self.normalise_word(sub.lower(), caps or sub in self.exact_written)]
            out = tuple(parts)
        else:
            caps = raw.isupper() and len(raw) > 1
            out = tuple(
                (norm, low, 0, len(raw), caps) for norm in self.normalise_word(low, caps or raw in self.exact_written)
            )
        if len(self._parts) > 65536:
            self._parts.clear()
        self._parts[raw] = out
        return out

    def words(self, text: str) -> list[Token]:
        """Steps 1-4: the text's words."""
        out: list[Token] = []
        append = out.append
        for match in self._token_re.finditer(text):
            start = match.start()
            if match.lastgroup == "sign":
                append(Token(self.comparisons[match.group()], match.group(), start, match.end(), False))
                continue
            if match.lastgroup == "signed":  # each word it stands for, read as written (a cue word of its own)
                if _markup_sign(text, start, match.end()):
                    continue
                low = match.group().casefold()
                for norm, word in zip(self.abbreviations[low], self.written[low].casefold().split(), strict=False):
                    append(Token(norm, word, start, match.end(), False))
                continue
            for norm, low, a, b, caps in self._word_parts(match.group()):
                append(Token(norm, low, start + a, start + b, caps))
        return out

    # --- phrases -------------------------------------------------------------------

    def _phrase_table(self, phrases: dict[str, str]) -> PhraseTable:
        """Each phrase's words, and the words of its canonical form normalised as written text is
        (so "nothing to eat or drink" -> "nil by mouth" -> "nil oral", as "nil by mouth" reads)."""
        table: PhraseTable = {}
        for phrase, canonical in phrases.items():
            key = tuple(t.norm for t in self.words(phrase) if t.norm not in self.filler)
            if key:
                table.setdefault(key[0], []).append((key, tuple(canonical.casefold().split())))
        for entries in table.values():
            entries.sort(key=lambda e: -len(e[0]))
        return {
            first: [(key, tuple(t.norm for t in self.replace(self.words(" ".join(value)), table)))
                    for key, value in entries]
            for first, entries in table.items()
        }

    def replace(self, words: list[Token], table: PhraseTable | None = None) -> list[Token]:
        """The words with every phrase of the table replaced by its canonical words (on the phrase's span)."""
        table = self.phrases if table is None else table
        if not any(t.norm in table for t in words):
            return words
        filler = self.filler
        out: list[Token] = []
        i = 0
        n = len(words)
        while i < n:
            token = words[i]
            replaced = False
            for key, value in table.get(token.norm, ()):
                j, k = i, 0
                while j < n and k < len(key):
                    if words[j].norm in filler and words[j].norm != key[k]:
                        j += 1
                        continue
                    if words[j].norm != key[k]:
                        break
                    j += 1
                    k += 1
                if k == len(key):
                    last = words[j - 1]
                    low = " ".join(w.low for w in words[i:j])
                    out.extend(Token(norm, low, token.start, last.end, False) for norm in value)
                    i = j
                    replaced = True
                    break
            if not replaced:
                out.append(token)
                i += 1
        return out

    def tokenize(self, text: str, section_at: Callable[[int], str] | None = None) -> list[Token]:
        """Every normalisation step; filler words are kept (cue words need them). ``section_at`` names the section of
        a final response an offset stands in: a short form read only in some sections is written out there."""
        words = self.words(text)
        if section_at is not None and self.placed:
            words = self.place(text, words, section_at)
        return self.replace(words)

    def place(self, text: str, words: list[Token], section_at: Callable[[int], str]) -> list[Token]:
        """The words with each short form read only in some sections written out where it stands in one of them
        ("OE" in a diagnosis line is otitis externa)."""
        out: list[Token] = []
        for token in words:
            entry = self.placed.get(token.low)
            written = text[token.start:token.end]
            if entry is not None and (not entry[2] or written.isupper() or written in self.exact_written) and (
                    section_at(token.start) in entry[0]):
                # each word it stands for, read as written
                out.extend(Token(norm, word, token.start, token.end, False)
                           for norm, word in zip(entry[1], self.placed_words[token.low], strict=False))
            else:
                out.append(token)
        return out

    def placed_in(self, text: str) -> bool:
        """Whether the text holds a short form read only in some sections (so its sections are worth reading)."""
        return self._placed_re is not None and self._placed_re.search(text) is not None

    def key_tokens(self, tokens: list[Token]) -> list[Token]:
        """The tokens that take part in matching (filler words left out)."""
        filler = self.filler
        return [t for t in tokens if t.norm not in filler]


@batch_cache(maxsize=16)
def _rules(vocabulary: Vocabulary, kind: str) -> TextRules:
    return TextRules(vocabulary, kind)


def rules_for(vocabulary: Vocabulary | None = None, kind: str = "answers") -> TextRules:
    """The compiled rules of ``vocabulary`` (default: the shipped one) for answers and names, or questions."""
    return _rules(vocabulary if vocabulary is not None else read_vocabulary(), kind)


ANSWERS = rules_for()
QUESTIONS = rules_for(kind="questions")

FILLER = ANSWERS.filler
"""Words left out when comparing phrases (the vocabulary's ``filler`` list)."""
ABBREVIATIONS: dict[str, tuple[str, ...]] = ANSWERS.abbreviations
"""Short form (lower case) -> the normalised words it stands for, in answers and names."""
PHRASE_SYNONYMS: dict[str, str] = ANSWERS.phrase_synonyms
CAPS_ONLY: frozenset[str] = frozenset(ANSWERS.caps_only)
"""Abbreviations that are also everyday words ("call us", "I'm"): expanded only when
written in capitals."""


def american_spelling(word: str) -> str:
    return ANSWERS.american_spelling(word)


_POSSESSIVE = re.compile(r"['\u2019]s\b")


def fold(text: str) -> str:
    """Lower case without accents or possessive 's ("Ménière's" -> "meniere")."""
    text = text.lower()
    if not text.isascii():
        text = unicodedata.normalize("NFKD", text)
        text = "".join(c for c in text if not unicodedata.combining(c))
    return _POSSESSIVE.sub("", text) if "'" in text or "\u2019" in text else text


_NAMED = re.compile(r"([^\W\d_]+)['\u2019](?:s\b|(?=\s|$))")


def possessives(text: str) -> set[str]:
    """The words written with a possessive ("Bowen's disease", "Graves' disease"), folded:
    the names of people, which no spelling correction should touch."""
    if "'" not in text and "\u2019" not in text:
        return set()
    return {fold(match.group(1)) for match in _NAMED.finditer(text)}


@batch_cache(maxsize=20000)
def stem(word: str) -> str:
    """A light, consistent stem for free text such as a doctor's question: UK/US spelling
    (as :func:`american_spelling`), plurals, -ing/-ed/-ness/-ly ("illnesses" and "illness" both give "ill"), a
    doubled last consonant ("counselling" and "counseling" both give "counsel"), comparatives ("thirstier": thirsty)."""
    word = american_spelling(word)
    if len(word) <= 3 or word.isdigit():
        return word
    for suffix, keep in (
        ("inesses", "y"), ("nesses", ""), ("iness", "y"), ("ness", ""), ("ier", "y"), ("iest", "y"), ("ies", "y"),
        ("ing", ""), ("ed", ""), ("ly", ""),
        ("es", ""), ("s", ""),
    ):
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            if suffix == "s" and word.endswith(("ss", "us", "is")):
                continue
            if suffix == "es" and not word.endswith(("shes", "ches", "xes", "sses", "oes")):
                continue
            if (suffix == "ed" and word.endswith("eed")) or (suffix == "ly" and len(word) < 6):
                continue
            word = word[: -len(suffix)] + keep
            break
    if len(word) > 3 and word[-1] == word[-2] and word[-1] not in "lsz":
        word = word[:-1]
    if len(word) > 3 and word.endswith("e"):
        word = word[:-1]
    return word


def singular(word: str) -> str:
    return ANSWERS.singular(word)


def normalise_word(low: str, caps: bool = False) -> tuple[str, ...]:
    return ANSWERS.normalise_word(low, caps)


SHORT_TEXT = 200
"""A text at most this long (a name, an answer's item, a mention's words) is tokenized once and its tokens kept:
scoring reads the same reference names and answer items again and again."""


def tokenize(text: str) -> list[Token]:
    """Every normalisation step; filler words are kept (cue words need them). A new list each time (its tokens are
    tuples); a short text's tokens are worked out once (:data:`SHORT_TEXT`)."""
    if len(text) <= SHORT_TEXT:
        return list(_short_tokens(text))
    return ANSWERS.tokenize(text)


@batch_cache(maxsize=16384)
def _short_tokens(text: str) -> tuple[Token, ...]:
    return tuple(ANSWERS.tokenize(text))


def key_tokens(tokens: list[Token]) -> list[Token]:
    """The tokens that take part in matching (filler words left out)."""
    return ANSWERS.key_tokens(tokens)


@batch_cache(maxsize=65536)
def normalise(text: str) -> str:
    """The normalised form of a short text, spaces between words (for display and for
    whole-item fuzzy comparison); cached, as item names are normalised at every reading."""
    return " ".join(t.norm for t in key_tokens(tokenize(text)))


@batch_cache(maxsize=65536)
def compact(text: str) -> str:
    """The normalised form with the spaces dropped: what phrase search compares (cached)."""
    return "".join(t.norm for t in key_tokens(tokenize(text)))


# --- Questions (the patient simulator) ------------------------------------------------
# How clinicians abbreviate a *question* to a patient ("any N/V?", "palps?", "FHx?") and how it
# is typed in a chat box: the vocabulary's abbreviations `in: [questions]`. Unlike the answers'
# abbreviations (which fold a term to one canonical token), these are written out in the plain
# words a patient's record uses, so that a question can be matched against lay text.

QUESTION_SHORTHAND: dict[str, str] = QUESTIONS.written
QUESTION_SHORTHAND_CAPS_ONLY: frozenset[str] = frozenset(QUESTIONS.caps_only)
IRREGULAR_FORMS: dict[str, str] = QUESTIONS.forms
"""Irregular word forms of a question, folded to one form before stemming (fly, flew,
flown and flights are one word to the patient). Forms whose tense carries the meaning stay
apart: "ate" (the last meal) is not "eat" (appetite), "lost" (weight lost) is not "lose"."""

_SHORTHAND_RE = re.compile(r"(?<![A-Za-z0-9])[A-Za-z]+[0-9]?(?:[/&+][A-Za-z]+)?(?![A-Za-z0-9])")
"""A word of letters, and one digit at most ("O2")."""


def _only_spelled(short: str, means: str) -> bool:
    """The expansion is only another spelling of the short form ("whats": "what's", "inbetween"), or says only words
    of no topic of their own (`patient_small_words`: "probs" is "problems", which no record is keyed on): nothing
    of it is kept beside."""
    return means.replace(" ", "").replace("'", "").replace("\u2019", "").casefold() == short or all(
        w in _SMALL_WORDS for w in means.casefold().split()
    )


_SMALL_WORDS = frozenset(w for p in read_vocabulary().phrases("patient_small_words") for w in p.casefold().split())


def expand_shorthand(text: str) -> str:
    """The question with clinicians' shorthand and chat spellings written out ("any N/V?" ->
    "any nausea or vomiting?", "whats he like inbetween?" -> "what's he like in between?")."""

    def one(raw: str) -> str:
        low = raw.lower()
        means = QUESTION_SHORTHAND.get(low)
        if means is not None and (raw.isupper() or low not in QUESTION_SHORTHAND_CAPS_ONLY):
            if _only_spelled(low, means):
                return means
            # a plain word is kept beside its expansion: a record may use it ("EpiPen", "meds")
            return means + (f" {raw}" if raw.isalpha() and len(raw) > 3 else "")
        sides = raw.split("/")
        if len(sides) == 2 and min(len(side) for side in sides) > 1 and not {"and", "or"} & {low for low in sides}:
            return " or ".join(one(side) for side in sides)  # "wt loss/night sweats": one or the other
        return raw

    def kept(match: re.Match[str]) -> str:
        if len(match.group()) == 1 and _INITIAL_OR_UNIT.search(text[: match.start()]):
            return match.group()  # "Dr R" is a name, "2 L" a measure: no side
        return one(match.group())

    return _SHORTHAND_RE.sub(kept, text)


_INITIAL_OR_UNIT = re.compile(r"(?:\b(?:dr|mr|mrs|ms|miss|prof|nurse|sister)\.?|[0-9])\s*$", re.IGNORECASE)
"""What a single capital letter follows as a person's initial or a unit, not a side ("R eye", "R or L?")."""


def lemma(word: str) -> str:
    """One form for an irregular word (``flew`` -> ``fly``), else the word."""
    return IRREGULAR_FORMS.get(word, word)
