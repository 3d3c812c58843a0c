"""Checks a model-written patient reply before anyone sees it.

Two halves, kept apart on purpose:

- :class:`LeakGuard` is built from the whole case (diagnosis and differential names
  and aliases, ICD codes): it knows what must not be said, and is never sent to a model.
- :class:`SupportCheck` is built from the patient record only: every sentence of a
  reply must be backed by the intro, the patient data or a fact's answer.

A reply that fails either check is replaced by the grounded answer.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from rapidfuzz import fuzz

from medbench_tui.core.case import Case, PatientRecord
from medbench_tui.core.simulators import voice
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
# Clinical concepts of the lexicon a sentence may not raise unless the record does.
_SYMPTOM_CONCEPTS = frozenset(f"@{c}" for c in CONCEPTS) - {
    "@onset", "@severity", "@location", "@character", "@aggravating", "@relieving", "@progression",
    "@frequency", "@history", "@recurrence", "@age", "@family", "@home", "@occupation",
}


def _norm(text: str) -> str:
    return " ".join(words(text))


@dataclass
class LeakGuard:
    """What the patient must never say: names (with the role they have) and ICD codes.

    Names that the patient record itself uses ("no history of asthma") are not
    leaks: the patient may repeat their own record.
    """

    names: list[tuple[str, str]]
    codes: list[str]

    @classmethod
    def from_case(cls, case: Case) -> LeakGuard:
        record_text = _norm(" ".join([case.intro, *(a.answer for a in case.additional_answers)]))
        names: list[tuple[str, str]] = []
        codes: list[str] = []
        primary = [case.diagnosis.primary, *case.diagnosis.secondary]
        for role, items in (("diagnosis", primary), ("differential", case.differential)):
            for item in items:
                for name in [item.name, *item.aliases]:
                    flat = _norm(name)
                    if flat and not re.search(rf"\b{re.escape(flat)}\b", record_text):
                        names.append((role, name))
                if item.icd10:
                    codes.append(item.icd10.upper())
        return cls(names, codes)

    def check(self, sentence: str) -> str | None:
        """Why the sentence leaks (``names_diagnosis``, ``names_differential``,
        ``icd_code``), or None."""
        flat = _norm(sentence)
        for role, name in self.names:
            target = _norm(name)
            if name.isupper() and len(name) <= 6:  # an acronym: exact word, exact case
                found = re.search(rf"\b{re.escape(name)}\b", sentence) is not None
            else:
                found = re.search(rf"\b{re.escape(target)}s?\b", flat) is not None or (
                    len(target) >= 8
                    and len(flat) >= len(target) - 2  # a sentence shorter than the name cannot hold it
                    and fuzz.partial_ratio(target, flat) >= NAME_FUZZ_THRESHOLD
                )
            if found:
                return f"names_{role}"
        if _CODE_WITH_DOT.search(sentence):
            return "icd_code"
        for code in _BARE_CODE.findall(sentence):
            if _CODE_CUE.search(sentence) or any(c.startswith(code) for c in self.codes):
                return "icd_code"
        return None


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


@dataclass
class Verdict:
    ok: bool
    reason: str | None
    facts: list[str]
    sentence: str | None = None


def check_reply(text: str, guard: LeakGuard, support: SupportCheck) -> Verdict:
    """Check every sentence: first for leaks, then for support. ``facts`` are the ids
    of the facts the reply restates."""
    facts: list[str] = []
    if not text.strip():
        return Verdict(False, "empty_reply", [])
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
