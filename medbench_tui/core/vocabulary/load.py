"""Reading vocabulary files: the shipped ones and a bank's own, each problem at its line.

The shipped vocabulary is the YAML files of ``medbench_tui/vocabulary/``, read in name order.
A bank may add a ``vocabulary.yaml`` beside its ``medbench.yaml``: its entries add to the
shipped ones (a term it names again gains the new names; a phrase list gains the new
phrases); it cannot take anything away.
"""

from __future__ import annotations

import difflib
import hashlib
import re
import unicodedata
from collections.abc import Iterable, Mapping
from functools import lru_cache
from pathlib import Path

from pydantic import BaseModel

from medbench_tui.core.datafile import DataFileError, Problem, problem, valid_sections
from medbench_tui.core.vocabulary.model import (
    PHRASE_LISTS,
    Abbreviation,
    AbbreviationEntry,
    Form,
    FormEntry,
    GroupEntry,
    Phrases,
    Rewrite,
    RewriteEntry,
    Source,
    Term,
    TermEntry,
    TermKind,
    TimeUnit,
    Timing,
    TimingEntry,
    TreatmentGroup,
    UnitEntry,
    VocabularyFile,
)
from medbench_tui.core.yamldoc import FileKind, ParsedYaml, YamlPath, parse_yaml_text

SHIPPED = Path(__file__).resolve().parents[2] / "vocabulary"
"""The vocabulary files that come with medbench."""
BANK_FILE = "vocabulary.yaml"
"""A bank's own vocabulary, beside its ``medbench.yaml``."""

VOCABULARY_FILE = FileKind(
    noun="vocabulary",
    needs="at least one of `spelling`, `forms`, `abbreviations`, `terms`, `timing`, `units`, `groups`, "
          "`patient_rewrites`, `phrases`",
    example="`terms: [...]`, `phrases: {...}`",
)

REWRITE_ANY_WORD = "a word"
"""``followed_by`` of a rewrite that applies before any word (``patient_rewrites``)."""

_NOT_ALNUM_ASCII = re.compile(r"[^0-9a-z]+")
"""Any run of ASCII characters that are no letter or digit (lower case): a space in a key."""


def key(text: str) -> str:
    """How names are compared in the vocabulary's indexes: case, accents, hyphens and
    punctuation do not matter ("X-ray", "x ray" and "X ray" are one name)."""
    if text.isascii():  # no accents to take off: the same key, by one pattern
        return " ".join(_NOT_ALNUM_ASCII.sub(" ", text.lower()).split())
    return unicode_key(text)


def unicode_key(text: str) -> str:
    """:func:`key` of any text, character by character (accents taken off)."""
    decomposed = unicodedata.normalize("NFKD", text.casefold())
    out = []
    for ch in decomposed:
        if unicodedata.combining(ch):
            continue
        out.append(ch if ch.isalnum() else " ")
    return " ".join("".join(out).split())


class VocabularyError(DataFileError):
    """A vocabulary file has errors: each is listed at its line with what to change."""

    what = "the vocabulary"


class Vocabulary:
    """The merged vocabulary, indexed for the readers (built by :func:`read_vocabulary`)."""

    def __init__(
        self,
        spelling: Mapping[str, str],
        abbreviations: tuple[Abbreviation, ...],
        forms: tuple[Form, ...],
        terms: tuple[Term, ...],
        timing: tuple[Timing, ...],
        units: tuple[TimeUnit, ...],
        phrases: Mapping[str, Phrases],
        digest: str,
        groups: tuple[TreatmentGroup, ...] = (),
        rewrites: tuple[Rewrite, ...] = (),
    ) -> None:
        self.spelling = dict(spelling)
        self.abbreviations = abbreviations
        self.forms = forms
        self.terms = terms
        self.timing = timing
        self.units = units
        self.groups = groups
        self.rewrites = rewrites
        """The wordings the simulated patient reads as others, in order (``patient_rewrites``)."""
        self._phrases = dict(phrases)
        self.digest = digest
        """A hash of every file read: stored with results that depend on the vocabulary."""
        self._by_name: dict[str, list[Term]] = {}
        for term in terms:
            for name in term.names:
                found = self._by_name.setdefault(key(name), [])
                if term not in found:
                    found.append(term)
        self._broader: dict[Term, frozenset[Term]] = {}
        self._conditions: tuple[tuple[Term, tuple[str, ...]], ...] | None = None

    def phrases(self, name: str) -> tuple[str, ...]:
        """The phrases of the list ``name`` (one of :data:`PHRASE_LISTS`)."""
        if name not in PHRASE_LISTS:
            raise KeyError(f"no phrase list {name!r}: declare it in PHRASE_LISTS")
        found = self._phrases.get(name)
        return found.phrases if found is not None else ()

    def lookup(self, name: str, kind: TermKind | None = None) -> tuple[Term, ...]:
        """The terms that ``name`` names (by their name or any other name), of ``kind`` if given."""
        found = self._by_name.get(key(name), [])
        return tuple(t for t in found if kind is None or t.kind == kind)

    def of_kind(self, *kinds: TermKind) -> tuple[Term, ...]:
        return tuple(t for t in self.terms if t.kind in kinds)

    def conditions_named(self, names: list[str]) -> tuple[Term, ...]:
        """The conditions that ``names`` name: a condition whose name or other name is one of
        them, or a whole part of one ("pneumonia" of "community-acquired pneumonia"). Their
        other and lay names are what a patient must not volunteer."""
        flat = [f" {key(name)} " for name in names if key(name)]
        return tuple(term for term, owns in self._condition_keys()
                     if any(own in name for own in owns for name in flat))

    def _condition_keys(self) -> tuple[tuple[Term, tuple[str, ...]], ...]:
        """Each condition with its names' keys, padded: worked out once (a leak guard asks for every
        consultation, and keying every name of every condition each time was most of its set-up)."""
        if self._conditions is None:
            self._conditions = tuple((term, tuple(f" {k} " for own in term.names if (k := key(own))))
                                     for term in self.of_kind("condition"))
        return self._conditions

    def broader(self, term: Term) -> frozenset[Term]:
        """Every term ``term`` belongs to, directly or through others (enoxaparin: low-molecular-
        weight heparin, heparin, anticoagulant)."""
        known = self._broader.get(term)
        if known is None:
            out: set[Term] = set()
            todo = list(term.broader)
            while todo:
                for parent in self.lookup(todo.pop()):
                    if parent not in out and parent != term:
                        out.add(parent)
                        todo.extend(parent.broader)
            known = self._broader[term] = frozenset(out)
        return known

    def narrower(self, term: Term) -> frozenset[Term]:
        """Every term that belongs to ``term`` (the members of a class)."""
        return frozenset(t for t in self.terms if term in self.broader(t))


# --- reading -------------------------------------------------------------------------


def shipped_files() -> list[Path]:
    return sorted(SHIPPED.glob("*.yaml"))


def read_vocabulary(bank_file: Path | None = None) -> Vocabulary:
    """The shipped vocabulary, with ``bank_file`` added when given (and existing).

    Raises :class:`VocabularyError` listing every error (warnings do not stop the reading).
    """
    shipped = _shipped()
    if bank_file is None or not bank_file.is_file():
        return shipped
    stat = bank_file.stat()
    return _with_bank(str(bank_file.resolve()), stat.st_mtime_ns, stat.st_size)


def check_files(files: Iterable[Path]) -> list[Problem]:
    """Every problem of ``files`` read together with the shipped vocabulary (for
    ``medbench vocabulary check`` and the validator); never raises."""
    try:
        _, problems = _build([*shipped_files(), *files], len(shipped_files()))
    except VocabularyError as exc:
        return exc.problems
    return problems


@lru_cache(maxsize=1)
def _shipped() -> Vocabulary:
    vocabulary, _ = _build(shipped_files(), len(shipped_files()))
    return vocabulary


@lru_cache(maxsize=8)
def _with_bank(path: str, mtime_ns: int, size: int) -> Vocabulary:
    files = shipped_files()
    vocabulary, _ = _build([*files, Path(path)], len(files))
    return vocabulary


def _build(files: list[Path], shipped_count: int) -> tuple[Vocabulary, list[Problem]]:
    problems: list[Problem] = []
    merged = _Merge()
    digest = hashlib.sha256()
    for index, path in enumerate(files):
        try:
            raw = path.read_bytes()
            text = raw.decode("utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            problems.append(problem(path, "file.unreadable", f"Cannot read this file ({exc}).", None))
            continue
        digest.update(path.name.encode() + b"\0" + raw + b"\0")
        parsed = parse_yaml_text(text, VOCABULARY_FILE)
        problems.extend(Problem(path, d) for d in parsed.diagnostics)
        if not parsed.ok:
            continue
        content = valid_sections(path, parsed, problems, VocabularyFile, _ENTRY_MODELS)
        merged.add(path, parsed, content, extends=index >= shipped_count, problems=problems)
    merged.check(problems)
    if any(p.diagnostic.severity == "error" for p in problems):
        raise VocabularyError(problems)
    return merged.vocabulary(digest.hexdigest()[:16]), problems


_ENTRY_MODELS: dict[str, type[BaseModel]] = {
    "abbreviations": AbbreviationEntry, "forms": FormEntry, "terms": TermEntry, "timing": TimingEntry,
    "units": UnitEntry, "groups": GroupEntry, "patient_rewrites": RewriteEntry,
}


class _Merge:
    """Entries of every file, in order: the shipped files define, a bank file extends."""

    def __init__(self) -> None:
        self.spelling: dict[str, str] = {}
        self.abbreviations: list[Abbreviation] = []
        self.forms: list[Form] = []
        self.terms: dict[tuple[str, str], Term] = {}
        self.term_lines: dict[tuple[str, str], tuple[Path, tuple[int, int] | None]] = {}
        self.broader_refs: list[tuple[Path, tuple[int, int] | None, YamlPath, str, str]] = []
        self.timing: list[Timing] = []
        self.units: list[TimeUnit] = []
        self.phrases: dict[str, Phrases] = {}
        self.groups: dict[str, TreatmentGroup] = {}
        self.rewrites: list[Rewrite] = []
        self.rewrite_lists: list[tuple[Path, tuple[int, int] | None, YamlPath, str]] = []
        self.group_files: dict[str, Path] = {}

    def add(self, path: Path, parsed: ParsedYaml, content: VocabularyFile, *, extends: bool,
            problems: list[Problem]) -> None:
        at = parsed.positions.locate
        name = path.name

        def source(where: YamlPath) -> Source:
            line = (at(where) or (1, 1))[0]
            return Source(name, line)

        for british, american in content.spelling.items():
            self.spelling[british.casefold()] = american.casefold()
        for i, a in enumerate(content.abbreviations):
            self.abbreviations.append(Abbreviation(
                tuple(a.short), a.means, a.case == "exact", "answers" in a.in_, "questions" in a.in_,
                source(("abbreviations", i)), tuple(a.sections)))
        for i, f in enumerate(content.forms):
            self.forms.append(Form(f.form.casefold(), tuple(w.casefold() for w in f.words), "answers" in f.in_,
                                   "questions" in f.in_, source(("forms", i))))
        for i, t in enumerate(content.terms):
            where: YamlPath = ("terms", i)
            ident = (t.kind, key(t.name))
            term = Term(t.name, t.kind, tuple(t.also), tuple(t.is_), tuple(t.reports), tuple(t.lay), source(where),
                        tuple(t.findings), tuple(t.reverses))
            earlier = self.terms.get(ident)
            if earlier is not None and (not extends or self.term_lines[ident][0] == path):
                first = self.term_lines[ident]
                problems.append(problem(
                    path, "vocabulary.duplicate_term",
                    f"The {t.kind} `{t.name}` is defined twice (first at {first[0].name}:"
                    f"{(first[1] or (1, 1))[0]}): keep one entry and put every name in its `also`.",
                    at(where), where=where))
                continue
            if earlier is not None:  # a bank extends a shipped term
                term = Term(earlier.name, earlier.kind, _union(earlier.also, term.also),
                            _union(earlier.broader, term.broader), _union(earlier.reports, term.reports),
                            _union(earlier.lay, term.lay), earlier.source, _union(earlier.findings, term.findings),
                            _union(earlier.reverses, term.reverses))
            self.term_lines[ident] = (path, at(where))
            self.terms[ident] = term
            for j, parent in enumerate(t.is_):
                self.broader_refs.append((path, at(("terms", i, "is", j)), ("terms", i, "is", j), t.name, parent))
        for i, timing in enumerate(content.timing):
            low, high = timing.hours
            if low > high:
                problems.append(problem(
                    path, "vocabulary.window", f"`hours: [{low:g}, {high:g}]` starts after it ends: "
                    "write [earliest, latest].", at(("timing", i, "hours")), where=("timing", i, "hours")))
            self.timing.append(Timing(tuple(timing.say), low, high, source(("timing", i))))
        for i, unit in enumerate(content.units):
            self.units.append(TimeUnit(tuple(unit.say), unit.hours, unit.shorthand, source(("units", i))))
        for i, g in enumerate(content.groups):
            group_key = key(g.name)
            group = TreatmentGroup(g.name, tuple(g.also), tuple(g.members), source(("groups", i)))
            earlier_group = self.groups.get(group_key)
            if earlier_group is not None and (not extends or self.group_files[group_key] == path):
                problems.append(problem(
                    path, "vocabulary.duplicate_group",
                    f"The group `{g.name}` is defined twice (first at {earlier_group.source}): keep one entry.",
                    at(("groups", i)), where=("groups", i)))
                continue
            if earlier_group is not None:  # a bank extends a shipped group
                group = TreatmentGroup(earlier_group.name, _union(earlier_group.also, group.also),
                                       _union(earlier_group.members, group.members), earlier_group.source)
            self.groups[group_key] = group
            self.group_files[group_key] = path
        for i, r in enumerate(content.patient_rewrites):
            if r.followed_by is not None and r.followed_by != REWRITE_ANY_WORD:
                where = ("patient_rewrites", i, "followed_by")
                self.rewrite_lists.append((path, at(where), where, r.followed_by))
            self.rewrites.append(Rewrite(tuple(s.lower() for s in r.said), r.read_as, r.followed_by,
                                         tuple(a.lower() for a in r.after), source(("patient_rewrites", i))))
        for list_name, phrases in content.phrases.items():
            where = ("phrases", list_name)
            if list_name not in PHRASE_LISTS:
                problems.append(problem(
                    path, "vocabulary.unknown_list",
                    f"No reader uses a phrase list `{list_name}`." + _lists_hint(list_name),
                    parsed.positions.locate_key(where), where=where))
                continue
            earlier_phrases = self.phrases.get(list_name)
            before = earlier_phrases.phrases if earlier_phrases else ()
            sources = earlier_phrases.sources if earlier_phrases else ()
            self.phrases[list_name] = Phrases(list_name, _union(before, tuple(phrases)), (*sources, source(where)))

    def check(self, problems: list[Problem]) -> None:
        for path, at, where, list_name in self.rewrite_lists:
            if list_name not in PHRASE_LISTS:
                problems.append(problem(
                    path, "vocabulary.unknown_list",
                    f"`followed_by: {list_name}` names no phrase list: write `{REWRITE_ANY_WORD}` or a list's name."
                    + _lists_hint(list_name),
                    at, where=where))
        names: dict[str, list[Term]] = {}
        for term in self.terms.values():
            for name in term.names:
                names.setdefault(key(name), []).append(term)
        for path, at, where, owner, parent in self.broader_refs:
            if key(parent) not in names:
                known = difflib.get_close_matches(key(parent), list(names), n=1)
                problems.append(problem(
                    path, "vocabulary.unknown_term",
                    f"`{owner}` is said to be a `{parent}`, but no term has that name."
                    + (f" Did you mean `{known[0]}`?" if known else " Add the broader term as an entry of its own."),
                    at, where=where))

    def vocabulary(self, digest: str) -> Vocabulary:
        return Vocabulary(self.spelling, tuple(self.abbreviations), tuple(self.forms), tuple(self.terms.values()),
                          tuple(self.timing), tuple(self.units), self.phrases, digest, tuple(self.groups.values()),
                          tuple(self.rewrites))


def _lists_hint(list_name: str) -> str:
    """The nearest phrase list's name and where the lists are named: the end of an unknown-list error."""
    hint = difflib.get_close_matches(list_name, list(PHRASE_LISTS), n=1)
    return (f" Did you mean `{hint[0]}`?" if hint else "") + " `medbench vocabulary lists` names the lists."


def _union(first: tuple[str, ...], second: tuple[str, ...]) -> tuple[str, ...]:
    seen = {key(x) for x in first}
    return (*first, *(x for x in second if key(x) not in seen))
