"""Checks a model-written patient reply before anyone sees it.

Two halves, kept apart on purpose:

- :class:`LeakGuard` is built from the whole case (diagnosis and differential names
  and aliases, their other and lay names from the vocabulary's conditions, ICD codes, and
  the findings and values of attachments the record does not state): it knows what must
  not be said, and is never sent to a model. A sentence is read three ways: as written,
  with spacing, dots and look-alike characters taken out ("p n e u m o n i a",
  "pn3umonia", "C.A.P."), and with spoken codes read as codes ("J 18 point 1").
- :class:`SupportCheck` is built from the patient record only: every sentence of a
  reply must be backed by the intro, the patient data or a fact's answer.

A reply that fails either check is replaced by the grounded answer.

Both checks read words in the record's own writing. A reply in another script or
language, or with characters that cannot be read as words at all, would pass them
unread, so :func:`unfamiliar_writing` judges the writing first.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

from rapidfuzz import fuzz

from medbench_tui.core.batch_caches import batch_cache
from medbench_tui.core.cases.model import Attachment, Case, PatientRecord
from medbench_tui.core.simulators import voice
from medbench_tui.core.simulators.intent import title_head
from medbench_tui.core.simulators.lexicon import CONCEPTS, content_words, sentences, terms, words

SUPPORT_THRESHOLD = 75
"""rapidfuzz ``token_set_ratio`` (on stemmed content words) a sentence must reach
against some record text to count as supported."""
NAME_FUZZ_THRESHOLD = 90
"""rapidfuzz ``partial_ratio`` at which a hidden name of 8+ letters counts as named
(catches plurals and misspellings)."""

_CODE_WITH_DOT = re.compile(r"\b[A-Z]\d{2}\.\d{1,2}\b")
_BARE_CODE = re.compile(r"\b[A-Z]\d{2}\b")
_CODE_CUE = re.compile(r"\b(icd|code)\b", re.IGNORECASE)
_SPOKEN_CODE = re.compile(r"\b([a-z])[\s-]*(\d)\s*(\d)(?:\s*(?:\.|,|point|dot)\s*(\d))?(?!\d)", re.IGNORECASE)
"""A code written or spoken with spaces ("J 18 point 1", "j-18.1", "J1 8")."""
_SPELT_ACRONYM = re.compile(r"\b(?:[A-Za-z][.\s]\s*){2,}[A-Za-z]\b\.?|\b(?:[A-Za-z]\.){2,}")
"""An acronym spelt out letter by letter: "C.A.P.", "C A P", "p.e"."""
_LOOKALIKES = str.maketrans({"0": "o", "1": "i", "3": "e", "4": "a", "5": "s", "7": "t", "8": "b",
                             "@": "a", "$": "s", "|": "l", "!": "i", "€": "e"})
"""Characters written for letters inside a word ("pn3umonia", "appendic1tis")."""
_WORD = re.compile(r"[^\W_]+|[@$|!€]+")
SQUASHED_MIN_LETTERS = 5
"""A hidden name is looked for with spacing and look-alikes taken out only from this many
letters on: shorter ones are acronyms (matched as written) or too common inside words."""
_FINDING_VALUE = re.compile(r"\d+(?:\.\d+)+|\d+/\d+|\d+(?:\.\d+)?\s?%")
"""A result as an attachment gives it: 38.6, 132/80, 95 %."""
# Clinical concepts of the lexicon a sentence may not raise unless the record does.
_SYMPTOM_CONCEPTS = frozenset(f"@{c}" for c in CONCEPTS) - {
    "@onset", "@severity", "@location", "@character", "@aggravating", "@relieving", "@progression",
    "@frequency", "@history", "@recurrence", "@age", "@family", "@home", "@occupation", "@time_of_day", "@baseline",
    "@comparison", "@interval", "@time_frame",
}


def _norm(text: str) -> str:
    return " ".join(words(text))


def _plain_letters(text: str) -> str:
    """Letters without accents, case folded (``Lungenentzündung`` -> ``lungenentzundung``)."""
    decomposed = unicodedata.normalize("NFKD", text.casefold())
    return "".join(c for c in decomposed if not unicodedata.combining(c))


@dataclass(frozen=True)
class Squashed:
    """A text's letters run together (look-alikes read as letters, digits-only words left
    out), with where its words start and end: a name found in it must start and end with
    words of the text, so "pneu monia" is found and "escape" never holds "cap"."""

    letters: str
    starts: frozenset[int]
    ends: frozenset[int]

    @classmethod
    def of(cls, text: str) -> Squashed:
        letters: list[str] = []
        starts, ends = set(), set()
        for match in _WORD.finditer(_plain_letters(text)):
            word = match.group()
            if word.isdigit():
                continue
            word = word.translate(_LOOKALIKES)
            word = "".join(c for c in word if c.isalpha())
            if not word:
                continue
            starts.add(len(letters))
            letters.extend(word)
            ends.add(len(letters))
        return cls("".join(letters), frozenset(starts), frozenset(ends))

    def holds(self, name: str) -> bool:
        at = self.letters.find(name)
        while at != -1:
            if at in self.starts and at + len(name) in self.ends:
                return True
            at = self.letters.find(name, at + 1)
        return False


@batch_cache(maxsize=4096)
def _squash(name: str) -> str:
    return Squashed.of(name).letters


@batch_cache(maxsize=4096)
def _name_pattern(name: str) -> tuple[str, re.Pattern[str]]:
    """A hidden name's words, and the search for them (or their plural) in a sentence's words."""
    target = _norm(name)
    return target, re.compile(rf"\b{re.escape(target)}s?\b")


def _spelt_out(sentence: str) -> str:
    """The sentence with acronyms spelt letter by letter written as one word ("C.A.P." -> "CAP")."""
    return _SPELT_ACRONYM.sub(lambda m: "".join(c for c in m.group() if c.isalpha()) + " ", sentence)


def _lists_of(case: Case) -> tuple[list[tuple[str, str]], list[str], list[str]]:
    """A case's hidden names (with their roles), ICD codes and attachment findings."""
    told = " ".join([case.intro, *(a.answer for a in case.additional_answers)])
    record = Reading.of(told)
    names: list[tuple[str, str]] = []
    codes: list[str] = []
    primary = [case.diagnosis.primary, *case.diagnosis.secondary]
    for role, items in (("diagnosis", primary), ("differential", case.differential)):
        for item in items:
            own = [item.name, *item.aliases]
            for name in [*own, *(n for names_ in _condition_terms(item.name, own) for n in names_)]:
                # a name the record says (as the guard would find it) is the patient's own to repeat
                if _norm(name) and (role, name) not in names and not record.names(name):
                    names.append((role, name))
            if item.icd10:
                codes.append(item.icd10.upper())
    return names, codes, _attachment_findings(case, told)


def _condition_terms(name: str, names: list[str]) -> list[tuple[str, ...]]:
    """The other and lay names of the vocabulary's conditions that a diagnosis's ``names`` name whole: one of
    them is a condition's name, or says one of several words ("heart failure" of "congestive heart failure"), or
    the diagnosis's own ``name`` says the condition's name ("pneumonia" of "Hospital-acquired pneumonia"). One
    generic word of an alias ("pneumonia" of "usual interstitial pneumonia", beside "Idiopathic pulmonary
    fibrosis"; "diabetes" of "cranial diabetes insipidus") names no condition: the alias itself is kept back."""
    from medbench_tui.core.vocabulary import read_vocabulary
    from medbench_tui.core.vocabulary.load import key

    flat = [f" {key(n)} " for n in names if key(n)]
    own = f" {key(name)} "

    def whole(term_name: str) -> bool:
        k = key(term_name)
        return bool(k) and any(f" {k} " == n or (" " in k and f" {k} " in n) for n in flat)

    return [(*term.names, *term.lay) for term in read_vocabulary().conditions_named(names)
            if any(whole(n) for n in term.names) or (key(term.name) and f" {key(term.name)} " in own)]


class LeakGuard:
    """What the patient must never say: names (with the role they have) and ICD codes.

    Names that the patient record itself uses ("no history of asthma") are not
    leaks: the patient may repeat their own record.

    Built from a case, the lists are worked out on first use: a consultation holds its case's
    guard whatever its patient, and only a model-written reply is ever checked (the grounded
    patient never reads it, and a batch would pay for it on every case).
    """

    def __init__(self, names: list[tuple[str, str]], codes: list[str], findings: list[str] | None = None) -> None:
        self._case: Case | None = None
        self._lists: tuple[list[tuple[str, str]], list[str], list[str]] | None = (names, codes, findings or [])

    @classmethod
    def from_case(cls, case: Case) -> LeakGuard:
        guard = cls([], [])
        guard._case, guard._lists = case, None
        return guard

    def _built(self) -> tuple[list[tuple[str, str]], list[str], list[str]]:
        if self._lists is None:
            assert self._case is not None  # from_case keeps the case until the lists are built
            self._lists = _lists_of(self._case)
            self._case = None
        return self._lists

    @property
    def names(self) -> list[tuple[str, str]]:
        return self._built()[0]

    @property
    def codes(self) -> list[str]:
        return self._built()[1]

    @property
    def findings(self) -> list[str]:
        """Findings and values of the attachments that the patient record does not state."""
        return self._built()[2]

    def said_title(self, attachment: Attachment) -> str:
        """How the patient names an attachment it hands over: by its title, or by what it is (the title before
        a comma or bracket) when the title names what the guard keeps back ("Leg vein ultrasound (DVT
        clinic)"), else plainly; the hand-over never names the diagnosis."""
        for name in (attachment.title, title_head(attachment).strip()):
            if name and not self.check(voice.HAND_OVER.format(title=name)):
                return name
        return voice.PLAIN_TITLE

    def check(self, sentence: str) -> str | None:
        """Why the sentence leaks (``names_diagnosis``, ``names_differential``,
        ``icd_code``, ``names_attachment_finding``), or None."""
        reading = Reading.of(sentence)
        for role, name in self.names:
            if reading.names(name):
                return f"names_{role}"
        if _CODE_WITH_DOT.search(sentence):
            return "icd_code"
        for code in _BARE_CODE.findall(sentence):
            if _CODE_CUE.search(sentence) or any(c.startswith(code) for c in self.codes):
                return "icd_code"
        for letter, tens, units, _ in _SPOKEN_CODE.findall(sentence):
            if any(c.startswith(f"{letter.upper()}{tens}{units}") for c in self.codes):
                return "icd_code"
        low, packed = f" {_norm(sentence)} ", sentence.replace(" ", "")
        if any(finding in packed if finding[0].isdigit() else f" {finding} " in low for finding in self.findings):
            return "names_attachment_finding"
        return None


@dataclass(frozen=True)
class Reading:
    """A sentence read the three ways the guard looks for a name in it."""

    sentence: str
    flat: str
    spelt: str
    letters: Squashed

    @classmethod
    def of(cls, sentence: str) -> Reading:
        return cls(sentence, _norm(sentence), _spelt_out(sentence), Squashed.of(sentence))

    def names(self, name: str) -> bool:
        """Whether the sentence says ``name``: an acronym as written (or spelt out letter by
        letter); a name as words (or a plural), nearly (8 letters or more), or with its
        spacing and look-alike characters changed (5 letters or more)."""
        if name.isupper() and len(name) <= 6:
            return re.search(rf"\b{re.escape(name)}\b", self.spelt) is not None
        target, pattern = _name_pattern(name)
        if pattern.search(self.flat) is not None:
            return True
        if (len(target) >= 8 and len(self.flat) >= len(target) - 2  # a sentence shorter than the name cannot hold it
                and fuzz.partial_ratio(target, self.flat) >= NAME_FUZZ_THRESHOLD):
            return True
        squashed = _squash(name)
        return len(squashed) >= SQUASHED_MIN_LETTERS and (
            self.letters.holds(squashed) or self.letters.holds(squashed + "s"))


def _attachment_findings(case: Case, told: str) -> list[str]:
    """What the attachments hold that the record does not tell the patient: their values
    (38.6, 132/80, 95%) and their findings' words (the vocabulary's ``patient_unseen_findings``)."""
    from medbench_tui.core.vocabulary import read_vocabulary

    content = " ".join(a.content or a.description or "" for a in case.attachments)
    if not content.strip():
        return []
    said, flat_content = f" {_norm(told)} ", f" {_norm(content)} "
    found = [value.replace(" ", "") for value in _FINDING_VALUE.findall(content) if value not in told]
    for phrase in read_vocabulary().phrases("patient_unseen_findings"):
        words_ = _norm(phrase)
        if words_ and f" {words_} " in flat_content and f" {words_} " not in said:
            found.append(words_)
    return sorted(set(found))


class SupportCheck:
    """Is each sentence of a reply backed by the record (or a harmless phrase)?"""

    def __init__(self, record: PatientRecord) -> None:
        self.sources: list[tuple[str | None, str]] = [(None, s) for s in sentences(record.intro)]
        for answer in record.additional_answers:
            self.sources += [(answer.id, s) for s in sentences(answer.answer)]
        patient = record.patient
        if patient.age is not None:
            self.sources.append((None, f"I am {patient.age} years old. He is {patient.age}. She is {patient.age}."))
        self._content = [(fact, content_words(text)) for fact, text in self.sources]
        self._record_terms = terms(" ".join(text for _, text in self.sources))

    def support(self, sentence: str) -> tuple[bool, str | None]:
        """(supported, id of the fact it restates or None)."""
        if self._harmless(sentence):
            return True, None
        raised = terms(sentence) & _SYMPTOM_CONCEPTS
        if raised - self._record_terms:
            return False, None  # a clinical concept the record never mentions: invented
        content = content_words(sentence)
        if not content:
            return True, None
        best, best_fact = 0.0, None
        for fact, source in self._content:
            score = fuzz.token_set_ratio(content, source)
            if score > best:
                best, best_fact = score, fact
        return best >= SUPPORT_THRESHOLD, best_fact if best >= SUPPORT_THRESHOLD else None

    @staticmethod
    def _harmless(sentence: str) -> bool:
        if voice.is_default_answer(sentence) or voice.small_talk(sentence, "") is not None:
            return True
        flat = _norm(sentence)
        stock = [*voice.FILLERS, *voice.DEFLECTIONS, *voice.GREETING, *voice.THANKS, *voice.ACKNOWLEDGE]
        return flat in {"yes", "no", "yeah", "sorry", "pardon"} or any(flat == _norm(s) for s in stock)


# --- the writing of a reply -------------------------------------------------------------

FUNCTION_WORDS = {
    "en": frozenset("the and is it my have has was with of to you he she not yes your this that for been about "
                    "when at but feel had".split()),
    "fr": frozenset("le la les est une un des et je ai pas mon ma avec pour ce elle il depuis très suis".split()),
    "de": frozenset("der die das ist ein eine und ich nicht mein meine mit seit habe hat auch sehr".split()),
    "es": frozenset("el la los las es una un yo mi con desde tengo muy que está estoy".split()),
    "it": frozenset("il lo la gli è una un io non mio mia con da ho sono molto che".split()),
    "pt": frozenset("os as é uma um eu não meu minha com desde tenho muito que está estou".split()),
    "nl": frozenset("de het een en ik niet mijn met sinds heb heeft ook erg".split()),
}
"""A few of the commonest words of each language (articles, pronouns, auxiliaries; no
one-letter words, which many languages share): enough to tell which language a
sentence is in, never a dictionary."""
LANGUAGE_NAMES = {"en": "English", "fr": "French", "de": "German", "es": "Spanish", "it": "Italian",
                  "pt": "Portuguese", "nl": "Dutch"}
LANGUAGE_MIN_HITS = 2
_WORD_RE = re.compile(r"[^\W\d_]+", re.UNICODE)
_HARMLESS_CATEGORIES = frozenset({"Zs", "Pc", "Pd", "Ps", "Pe", "Pi", "Pf", "Po", "Sm", "Sc", "Sk"})
_CONTROL_OK = frozenset("\n\r\t")


def _script(char: str) -> str:
    """The script of a letter or digit, from its Unicode name (``LATIN``, ``CYRILLIC``,
    ``CJK``, ``THAI``...); ASCII digits count as Latin."""
    if "0" <= char <= "9":
        return "LATIN"
    return unicodedata.name(char, "UNKNOWN").split(" ", 1)[0]


def _script_name(script: str) -> str:
    return script if script == "CJK" else script.capitalize()


def _language(text: str) -> str | None:
    """The language of which a text uses the most distinct function words (at least two,
    and more than of any other language), else None: too short or too mixed to tell."""
    tokens = {t.lower() for t in _WORD_RE.findall(text)}
    hits = sorted(((len(tokens & vocabulary), code) for code, vocabulary in FUNCTION_WORDS.items()),
                  reverse=True)
    (best, code), (second, _) = hits[0], hits[1]
    return code if best >= LANGUAGE_MIN_HITS and best > second else None


@dataclass(frozen=True)
class Writing:
    """How the record is written: its scripts, its language, the characters beyond ASCII
    it uses (a reply may repeat those whatever they are)."""

    scripts: frozenset[str]
    language: str | None
    characters: frozenset[str]


@batch_cache(maxsize=64)
def record_writing(record_text: str) -> Writing:
    text = unicodedata.normalize("NFC", record_text)
    scripts = {_script(c) for c in text if c.isalnum()} | {"LATIN"}
    return Writing(frozenset(scripts), _language(text), frozenset(c for c in text if not c.isascii()))


def unfamiliar_writing(reply: str, record_text: str) -> tuple[str, str] | None:
    """Why a reply cannot be checked against a record written in ``record_text``, as
    (reason, explanation), or None when it is written as the record is.

    - ``foreign_script``: a letter or digit of a script the record does not use
      (Cyrillic, CJK, Thai... in an English record);
    - ``uncheckable_characters``: invisible or format characters (zero-width spaces,
      bidirectional marks), control, private-use or unassigned code points, the
      replacement character, pictographs, combining marks left over after composition,
      letters in compatibility forms (fullwidth, mathematical bold), and Latin letters
      beyond ASCII that the record does not use (the checks read words of plain
      letters: "pneumonía" would slip past them);
    - ``foreign_language``: the reply's function words are of another language than
      the record's (a French sentence in an English record).
    """
    writing = record_writing(record_text)
    text = unicodedata.normalize("NFC", reply)
    foreign: set[str] = set()
    odd: set[str] = set()
    for char in text:
        if char.isascii() and (char.isprintable() or char in _CONTROL_OK) or char in writing.characters:
            continue
        category = unicodedata.category(char)
        if char.isalnum() and _script(char) not in writing.scripts:
            foreign.add(_script(char))
        elif char.isalnum() and _script(char) != "LATIN" and unicodedata.normalize("NFKC", char) == char:
            continue  # a letter of another script the record itself is written in
        elif category not in _HARMLESS_CATEGORIES:
            odd.add(f"U+{ord(char):04X}")
    if foreign:
        names = ", ".join(_script_name(s) for s in sorted(foreign))
        known = ", ".join(_script_name(s) for s in sorted(writing.scripts))
        return "foreign_script", f"{names} letters; the record is written in {known} script"
    if odd:
        return "uncheckable_characters", f"characters the checks cannot read: {', '.join(sorted(odd)[:5])}"
    language = _language(text)
    if language is not None and writing.language is not None and language != writing.language:
        return "foreign_language", (
            f"the reply reads as {LANGUAGE_NAMES[language]}; "
            f"the record is written in {LANGUAGE_NAMES[writing.language]}"
        )
    return None


# --- the verdict ---------------------------------------------------------------------------


@dataclass
class Verdict:
    ok: bool
    reason: str | None
    facts: list[str]
    sentence: str | None = None
    why: str | None = None
    """A plain explanation, where the reason alone does not say enough."""


def check_reply(text: str, guard: LeakGuard, support: SupportCheck) -> Verdict:
    """Check the writing of the whole reply, then every sentence: first for leaks, then
    for support. ``facts`` are the ids of the facts the reply restates."""
    facts: list[str] = []
    if not text.strip():
        return Verdict(False, "empty_reply", [])
    unfamiliar = unfamiliar_writing(text, " ".join(source for _, source in support.sources))
    if unfamiliar is not None:
        return Verdict(False, unfamiliar[0], [], text.strip(), unfamiliar[1])
    for sentence in sentences(text):
        leak = guard.check(sentence)
        if leak:
            return Verdict(False, leak, [], sentence)
        supported, fact = support.support(sentence)
        if not supported:
            return Verdict(False, "unsupported", [], sentence)
        if fact and fact not in facts:
            facts.append(fact)
    return Verdict(True, None, facts)
