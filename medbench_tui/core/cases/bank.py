"""A case bank: the case files of a folder, indexed for the checks that span cases.

The index holds only what cross-case checks need (ids, parents, intros), read with the
fast parser; it never needs a case to be valid.
"""

from __future__ import annotations

import bisect
import math
import os
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING

from medbench_tui.core.cases.rubric import CONSULTATION, RUBRIC, CaseKind
from medbench_tui.core.jsondata import JSONValue
from medbench_tui.core.paths import BANK_CONFIG_NAME

if TYPE_CHECKING:
    from medbench_tui.core.cases.bankconfig import BankConfig

# Two intros at least this similar (rapidfuzz `fuzz.ratio` after lower-casing and
# stripping punctuation, 0-100) are reported as near-duplicate cases, unless the cases
# are variants of one another (`parent_id`). An intro copied with a few words changed
# scores 95 or more; the bundled cases, variants included, score at most about 60 against
# each other (median 43), and even the template-built benchmark bank stays below 90.
NEAR_DUPLICATE_THRESHOLD = 90.0
SHORTER_AT_LEAST = NEAR_DUPLICATE_THRESHOLD / (200 - NEAR_DUPLICATE_THRESHOLD)
"""fuzz.ratio is 200 x common / (both lengths), so a pair that reaches the threshold has its
shorter intro at least this share of the longer one's length (90 -> 0.818)."""


def file_key(path: Path) -> Path:
    """One name per file however it was given (``cases/a.yaml``, ``./cases/a.yaml``),
    without touching the disk."""
    return Path(os.path.normpath(Path(path).absolute()))


ENTRY_KEYS = frozenset({"id", "parent_id", "intro", "kind"})
"""The keys of a case that its bank entry holds."""


@dataclass(frozen=True)
class BankEntry:
    path: Path
    case_id: str  # the file's `id`, or its stem when the file cannot be read
    parent_id: str | None = None
    intro: str | None = None
    kind: CaseKind = CONSULTATION
    """rubric for a file that says `kind: rubric`; anything else is read (and checked) as a consultation."""

    @classmethod
    def from_data(cls, path: Path, data: JSONValue) -> BankEntry:
        data = data if isinstance(data, dict) else {}

        def text(key: str) -> str | None:
            value = data.get(key)
            return value if isinstance(value, str) else None

        kind: CaseKind = RUBRIC if data.get("kind") == RUBRIC else CONSULTATION
        return cls(Path(path), text("id") or Path(path).stem, text("parent_id"), text("intro"), kind)

    @classmethod
    def read(cls, path: Path) -> BankEntry:
        """The entry of a case file, read without building the case (unreadable: its file name)."""
        from medbench_tui.core.cases.yamlio import parse_case_text, read_case_text
        from medbench_tui.core.yamldoc import top_level_scalars

        try:
            text = read_case_text(path)
        except (OSError, UnicodeDecodeError):
            return cls.from_data(path, None)
        found = top_level_scalars(text, ENTRY_KEYS)
        return cls.from_data(path, found if found is not None else parse_case_text(text).data)

    def linked_to(self, other: BankEntry) -> bool:
        """Variants of one case: one is the other's parent, or they share a parent."""
        return (
            self.parent_id == other.case_id
            or other.parent_id == self.case_id
            or (self.parent_id is not None and self.parent_id == other.parent_id)
        )


@dataclass
class BankIndex:
    root: Path
    entries: list[BankEntry] = field(default_factory=list)
    _pairs: dict[int, list[tuple[int, float]]] | None = field(default=None, init=False, repr=False)
    """entry -> (other entry, score) of every near-duplicate pair, once ``index_near_duplicates`` ran."""

    @cached_property
    def ids(self) -> dict[str, list[Path]]:
        """Case id -> the files that use it (more than one is an error)."""
        found: dict[str, list[Path]] = {}
        for entry in self.entries:
            found.setdefault(entry.case_id, []).append(entry.path)
        return found

    @cached_property
    def parents(self) -> dict[str, str | None]:
        return {entry.case_id: entry.parent_id for entry in self.entries}

    @cached_property
    def intros(self) -> dict[Path, str]:
        return {entry.path: entry.intro for entry in self.entries if entry.intro}

    @cached_property
    def _keys(self) -> list[Path]:
        return [file_key(entry.path) for entry in self.entries]

    @cached_property
    def _processed_intros(self) -> list[str | None]:
        from rapidfuzz import utils

        return [utils.default_process(entry.intro) if entry.intro else None for entry in self.entries]

    @cached_property
    def _by_length(self) -> tuple[list[int], list[int]]:
        """The entries with an intro, shortest intro first, and their intros' lengths: two intros
        can reach the threshold only if the shorter is at least ``SHORTER_AT_LEAST`` of the longer."""
        processed = self._processed_intros
        order = sorted((i for i, text in enumerate(processed) if text), key=lambda i: len(processed[i] or ""))
        return order, [len(processed[i] or "") for i in order]

    def _window(self, length: int) -> tuple[int, int]:
        """Where in ``_by_length`` the intros are whose length may pair with ``length``."""
        _, lengths = self._by_length
        return (bisect.bisect_left(lengths, math.ceil(length * SHORTER_AT_LEAST - 1e-9)),
                bisect.bisect_right(lengths, math.floor(length / SHORTER_AT_LEAST + 1e-9)))

    def _similar_to(self, text: str, order: list[int]) -> list[tuple[int, float]]:
        from rapidfuzz import fuzz, process

        processed = self._processed_intros
        hits = process.extract(text, [processed[i] for i in order], scorer=fuzz.ratio,
                               score_cutoff=NEAR_DUPLICATE_THRESHOLD, limit=None)
        return [(order[at], score) for _, score, at in hits]

    def index_near_duplicates(self) -> None:
        """Score every pair of intros once, for a pass over the whole bank (``medbench validate``):
        half the comparisons of asking case by case, and none between intros whose lengths
        alone rule the threshold out."""
        if self._pairs is not None:
            return
        order, lengths = self._by_length
        pairs: dict[int, list[tuple[int, float]]] = {}
        processed = self._processed_intros
        for k, i in enumerate(order):
            _, end = self._window(lengths[k])
            for j, score in self._similar_to(processed[i] or "", order[k + 1: end]):
                pairs.setdefault(i, []).append((j, score))
                pairs.setdefault(j, []).append((i, score))
        self._pairs = pairs

    def has_case(self, case_id: str) -> bool:
        return case_id in self.ids

    def others_with_id(self, case_id: str, path: Path | None) -> list[Path]:
        """Files other than ``path`` whose case has the id ``case_id``."""
        own = file_key(path) if path is not None else None
        return [p for p in self.ids.get(case_id, []) if file_key(p) != own]

    def near_duplicates(self, candidate: BankEntry) -> list[tuple[BankEntry, float]]:
        """Other cases whose intro is nearly the same as ``candidate``'s, most similar first."""
        if not candidate.intro or not candidate.intro.strip():
            return []
        from rapidfuzz import utils

        own = file_key(candidate.path)
        text = utils.default_process(candidate.intro)
        at = self._at.get(own)
        if self._pairs is not None and at is not None and self._processed_intros[at] == text:
            hits = self._pairs.get(at, [])
        else:  # an editor's buffer, or a bank not indexed: only the intros of a fitting length
            order, _ = self._by_length
            start, end = self._window(len(text))
            hits = self._similar_to(text, order[start:end])
        hits = sorted(hits, key=lambda hit: (-hit[1], hit[0]))
        found = [(self.entries[index], score) for index, score in hits if self._keys[index] != own]
        return [(entry, score) for entry, score in found if not entry.linked_to(candidate)]

    @cached_property
    def _at(self) -> dict[Path, int]:
        return {key: index for index, key in enumerate(self._keys)}


def iter_case_files(path: Path) -> list[Path]:
    """A file as it is; a folder's ``*.yaml`` cases (and its ``cases/`` folder's), sorted."""
    path = Path(path)
    if not path.is_dir():
        return [path]
    files = _case_files_in(path)
    if (path / "cases").is_dir():
        files += _case_files_in(path / "cases")
    return files


def consultation_files(path: Path) -> list[Path]:
    """:func:`iter_case_files` without the rubric cases: what a patient can be played from."""
    return [file for file in iter_case_files(path) if BankEntry.read(file).kind == CONSULTATION]


def rubric_files(path: Path) -> list[Path]:
    """:func:`iter_case_files` that are rubric cases (``kind: rubric``)."""
    return [file for file in iter_case_files(path) if BankEntry.read(file).kind == RUBRIC]


CASE_SUFFIXES = (".yaml", ".yml")


@dataclass(frozen=True)
class CaseSource:
    """A case file chosen for a run, and whether it was named on its own (a case file, a
    case id or a line of a list) rather than found in a folder."""

    path: Path
    named: bool


def case_sources(given: list[Path], cases_folder: Path) -> list[CaseSource]:
    """The case files that ``--cases`` names, in order, each once: a case file; a folder
    (its cases); a list file (any other file: one case file, folder or case id a line,
    ``#`` starts a comment, paths relative to the list's folder); or a case id of the bank
    (``cases_folder``). Raises a :class:`UsageError` naming every entry that is none of these."""
    from medbench_tui.core.errors import UsageError

    found: dict[Path, CaseSource] = {}
    problems: list[str] = []

    def add(entry: Path, where: str, *, in_list: bool = False) -> None:
        if entry.is_dir():
            for path in iter_case_files(entry):
                found.setdefault(file_key(path), CaseSource(path, False))
        elif entry.is_file() and (entry.suffix.lower() in CASE_SUFFIXES or in_list):
            if entry.suffix.lower() not in CASE_SUFFIXES:
                problems.append(f"{where}: {entry} is not a case file (.yaml): a list cannot name another list")
                return
            found[file_key(entry)] = CaseSource(entry, True)
        elif entry.is_file():
            read_list(entry)
        elif len(entry.parts) == 1 and (cases_folder / f"{entry}.yaml").is_file():
            case = cases_folder / f"{entry}.yaml"
            found[file_key(case)] = CaseSource(case, True)
        else:
            problems.append(f"{where}: no such case file, folder, list file or case id ({entry})")

    def read_list(path: Path) -> None:
        try:
            lines = path.read_text(encoding="utf-8").splitlines()
        except UnicodeDecodeError:
            problems.append(f"--cases {path}: neither a case file (.yaml) nor a text list of cases")
            return
        except OSError as exc:
            problems.append(f"--cases {path}: cannot be read ({exc.strerror or exc})")
            return
        for number, line in enumerate(lines, 1):
            text = line.split("#", 1)[0].strip()
            if text:
                listed = Path(text).expanduser()
                beside = listed if listed.is_absolute() else path.parent / listed
                add(beside if beside.exists() else listed, f"{path}:{number}", in_list=True)

    for item in given:
        add(Path(item).expanduser(), f"--cases {item}")
    if problems:
        raise UsageError("\n".join(problems))
    if not found:
        raise UsageError(f"--cases {' '.join(str(g) for g in given)}: no case files (*.yaml) found")
    return list(found.values())


def _case_files_in(folder: Path) -> list[Path]:
    return sorted(
        p for p in folder.glob("*.yaml")
        if p.name != BANK_CONFIG_NAME and not p.name.startswith(".") and p.is_file()
    )


def scan_bank(folder: Path) -> BankIndex:
    """Index the cases of ``folder`` (unreadable files count under their file name)."""
    folder = Path(folder)
    return BankIndex(folder, [BankEntry.read(path) for path in (iter_case_files(folder) if folder.is_dir() else [])])


@dataclass(frozen=True)
class Bank:
    """A case bank as a front end holds it: where it is, where its runs are stored, its
    configuration (``medbench.yaml``) and the index of its cases. Making one only names
    places (:func:`load_bank`); the configuration and the index are read once, on first
    use (:meth:`reloaded` reads them at once, for a worker thread)."""

    root: Path
    run_store: Path

    @property
    def cases_folder(self) -> Path:
        from medbench_tui.core.paths import cases_dir

        return cases_dir(self.root)

    @cached_property
    def _config(self) -> tuple[BankConfig, str | None]:
        from medbench_tui.core.cases.bankconfig import (
            BankConfig,
            BankConfigError,
            load_bank_config,
        )

        try:
            return load_bank_config(self.root), None
        except BankConfigError as exc:
            return BankConfig(path=None), str(exc)

    @property
    def config(self) -> BankConfig:
        """The systems, simulators and evaluator of ``medbench.yaml`` (empty when it cannot be used)."""
        return self._config[0]

    @property
    def config_problem(self) -> str | None:
        """Why ``medbench.yaml`` could not be used; None when it could (or there is none)."""
        return self._config[1]

    @cached_property
    def index(self) -> BankIndex:
        """The index of the bank's cases (a command that only plays cases never needs it)."""
        return scan_bank(self.cases_folder)

    def reloaded(self) -> Bank:
        """The same bank read again (a case or ``medbench.yaml`` changed), configuration
        and index read now, in the caller's thread."""
        fresh = Bank(self.root, self.run_store)
        fresh.config  # noqa: B018
        fresh.index  # noqa: B018
        return fresh


def load_bank(root: Path, *, run_store: Path | None = None, strict: bool = True) -> Bank:
    """The bank at ``root`` as the user named it (mapped through :func:`paths.bank_root`).
    ``run_store`` overrides where runs are kept (``--store``, the ``run_store`` setting).
    ``strict``: a ``medbench.yaml`` that does not validate raises :class:`BankConfigError`
    now; else it is read when first needed and its problem kept in ``config_problem``."""
    from medbench_tui.core.cases.bankconfig import BankConfigError
    from medbench_tui.core.paths import bank_root, run_store_for

    root = bank_root(Path(root))
    bank = Bank(root, run_store_for(root, run_store))
    if strict and bank.config_problem is not None:
        raise BankConfigError(bank.config_problem)
    return bank
