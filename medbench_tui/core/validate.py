"""Validation of case files: every problem, where it is, and what to change.

Findings are :class:`Diagnostic` objects with stable codes. Errors block
``status: final``; warnings do not. Nothing here raises on any input: a file that
cannot even be read is a diagnostic too.

Codes (severity):
  file.unreadable, file.encoding (error)
  yaml.empty, yaml.syntax, yaml.duplicate_key, yaml.not_mapping, yaml.complex_key,
  yaml.recursive_alias, yaml.merge, yaml.tag, yaml.too_deep (error)
  schema.missing, schema.unknown_key, schema.type, schema.enum, schema.pattern,
  schema.too_short, schema.too_long, schema.value (error)
  icd10.* (from ``icd10.check_case_code``: errors, and warnings such as icd10.unspecific);
  icd10.unavailable (error: the WHO table could not be loaded)
  case.id_mismatch, case.final_with_errors (error); case.final_reviewers,
  case.no_required_item, case.num_steps_missing, case.num_steps_over_max (warning)
  ref.unknown_answer, ref.unknown_item, ref.duplicate_id, ref.unknown_parent,
  ref.self_parent (error); ref.unanswered_question, ref.duplicate_item (warning)
  attachment.missing_file, attachment.outside_bank, attachment.no_content,
  attachment.after_turn_missing (error); attachment.after_turn_unused (warning)
  value.not_positive, value.negative (error)
  leak.diagnosis (warning)
  bank.duplicate_id (error); bank.near_duplicate (warning)
  internal.error (error: a bug in medbench, never expected)
"""

from __future__ import annotations

import math
import re
import types
import typing
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path, PurePosixPath
from typing import Any, Literal

from pydantic import BaseModel, ValidationError

from medbench_tui.core import paths
from medbench_tui.core.bank import BankEntry, BankIndex, file_key, iter_case_files, scan_bank
from medbench_tui.core.case import Case
from medbench_tui.core.diagnostics import Diagnostic, Severity, count
from medbench_tui.core.errors import MedbenchError
from medbench_tui.core.text import american_spelling
from medbench_tui.core.yamlio import ParsedCase, YamlPath, parse_case_text, read_case_text

SCHEMA_ID = "urn:medbench:case-format:1"
# rapidfuzz `fuzz.ratio` (0-100) a misspelt key or id must reach to be suggested.
SUGGESTION_CUTOFF = 70.0


@dataclass
class CaseReport:
    path: Path | None
    case_id: str | None
    case: Case | None
    diagnostics: list[Diagnostic] = field(default_factory=list)

    @property
    def errors(self) -> list[Diagnostic]:
        return [d for d in self.diagnostics if d.severity == "error"]

    @property
    def warnings(self) -> list[Diagnostic]:
        return [d for d in self.diagnostics if d.severity == "warning"]

    def to_json(self) -> dict:
        """One entry of ``files`` in ``medbench validate --format json``."""
        return {
            "path": str(self.path) if self.path is not None else None,
            "case_id": self.case_id,
            "diagnostics": [d.model_dump() for d in self.diagnostics],
        }


def format_diagnostic(d: Diagnostic, file: Path | str | None, *, brief: bool = False) -> str:
    """``file:line:col: error code: message`` (``brief``: ``file:line:col: message``)."""
    where = ":".join(str(part) for part in (file or "<text>", d.line, d.column) if part is not None)
    return f"{where}: {d.message}" if brief else f"{where}: {d.severity} {d.code}: {d.message}"


def summary(reports: list[CaseReport]) -> dict:
    """The ``summary`` of ``medbench validate --format json``."""
    every = [d for report in reports for d in report.diagnostics]
    return {"files": len(reports), "errors": count(every, "error"), "warnings": count(every, "warning")}


def validate_text(text: str, path: Path | None = None, *, bank: BankIndex | None = None) -> CaseReport:
    """Check one case held in memory (an editor buffer, or a file's text).

    ``path`` enables the checks that need the file (id = file stem, attachment files);
    ``bank`` enables the checks across cases (parents, duplicate ids, near-duplicates).
    """
    return _validate(parse_case_text(text), Path(path) if path is not None else None, bank)


def validate_file(path: Path, *, bank: BankIndex | None = None) -> CaseReport:
    """Check one case file; without ``bank`` the cases of its folder are the bank."""
    path = Path(path)
    parsed, problem = _read(path)
    if problem is not None:
        return CaseReport(path, None, None, [problem])
    return _validate(parsed, path, bank if bank is not None else scan_bank(path.parent))


def validate_paths(paths_: list[Path]) -> list[CaseReport]:
    """Check files and folders (a folder: its case files); each case against its folder's bank."""
    files: dict[Path, Path] = {}  # file key -> the path as the user named it
    for given in paths_:
        for file in iter_case_files(Path(given)):
            files.setdefault(file_key(file), file)
    parsed: dict[Path, tuple[ParsedCase | None, Diagnostic | None]] = {}

    def read(key: Path, file: Path) -> tuple[ParsedCase | None, Diagnostic | None]:
        if key not in parsed:
            parsed[key] = _read(file)
        return parsed[key]

    banks: dict[Path, BankIndex] = {}
    reports = []
    for key, file in files.items():
        case, problem = read(key, file)
        if problem is not None:
            reports.append(CaseReport(file, None, None, [problem]))
            continue
        if key.parent not in banks:
            members = [(file_key(m), m) for m in iter_case_files(file.parent)]
            banks[key.parent] = BankIndex(
                file.parent, [BankEntry.from_data(m, _data(read(k, m)[0])) for k, m in members]
            )
        reports.append(_validate(case, file, banks[key.parent]))
    return reports


def _read(path: Path) -> tuple[ParsedCase | None, Diagnostic | None]:
    try:
        return parse_case_text(read_case_text(path)), None
    except UnicodeDecodeError as exc:
        before = exc.object[: exc.start]
        return None, Diagnostic(
            severity="error", code="file.encoding",
            message="The file is not UTF-8 text: save it as UTF-8 (the byte at this position "
            "is not valid UTF-8).",
            line=before.count(b"\n") + 1, column=exc.start - (before.rfind(b"\n") + 1) + 1,
        )
    except OSError as exc:
        reason = "no such file" if isinstance(exc, FileNotFoundError) else (exc.strerror or str(exc))
        return None, Diagnostic(severity="error", code="file.unreadable",
                                message=f"Cannot read the case file: {reason}.")


def _data(parsed: ParsedCase | None) -> Any:
    return parsed.data if parsed is not None else None


def _validate(parsed: ParsedCase, path: Path | None, bank: BankIndex | None) -> CaseReport:
    data = parsed.data
    case_id = data.get("id") if isinstance(data, dict) and isinstance(data.get("id"), str) else None
    try:
        checker = _Checker(parsed, path, bank)
        case = checker.run()
        diagnostics = checker.diagnostics
    except Exception as exc:  # a bug of ours must not cost the author the other findings
        case = None
        diagnostics = [*parsed.diagnostics, Diagnostic(
            severity="error", code="internal.error",
            message=f"medbench could not finish checking this file ({type(exc).__name__}: {exc}); "
            "this is a bug in medbench, please report it with the file.",
        )]
    diagnostics.sort(key=Diagnostic.sort_key)
    return CaseReport(path, case_id, case, diagnostics)


# --- the checks ----------------------------------------------------------------------


def _dotted(path: YamlPath) -> str:
    return ".".join(str(part) for part in path)


def _entries(container: Any, key: str) -> list[tuple[int, dict]]:
    """The mapping entries of the list under ``key`` (wrongly typed ones are schema errors)."""
    value = container.get(key) if isinstance(container, dict) else None
    if not isinstance(value, list):
        return []
    return [(i, item) for i, item in enumerate(value) if isinstance(item, dict)]


def _text(container: Any, key: str) -> str | None:
    value = container.get(key) if isinstance(container, dict) else None
    return value if isinstance(value, str) else None


def _texts(container: Any, key: str) -> list[tuple[int, str]]:
    value = container.get(key) if isinstance(container, dict) else None
    if not isinstance(value, list):
        return []
    return [(i, item) for i, item in enumerate(value) if isinstance(item, str)]


def _number(container: Any, key: str) -> float | None:
    value = container.get(key) if isinstance(container, dict) else None
    return value if isinstance(value, (int, float)) and not isinstance(value, bool) else None


def _closest(word: str, choices: list[str]) -> str | None:
    from rapidfuzz import fuzz, process, utils

    found = process.extractOne(word, choices, scorer=fuzz.ratio, processor=utils.default_process,
                               score_cutoff=SUGGESTION_CUTOFF)
    return found[0] if found else None


def _did_you_mean(word: Any, choices: list[str]) -> str:
    suggestion = _closest(word, choices) if isinstance(word, str) else None
    return f" Did you mean `{suggestion}`?" if suggestion else ""


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]


def _show(value: Any, limit: int = 60) -> str:
    text = str(value)
    return text if len(text) <= limit else text[: limit - 1] + "…"


class _Checker:
    """All checks of one case; each appends diagnostics at the YAML path it is about."""

    def __init__(self, parsed: ParsedCase, path: Path | None, bank: BankIndex | None) -> None:
        self.parsed = parsed
        self.data = parsed.data
        self.positions = parsed.positions
        self.path = path
        self.bank = bank
        self.diagnostics: list[Diagnostic] = list(parsed.diagnostics)

    def add(self, severity: Severity, code: str, path: YamlPath, message: str, *,
            at_key: bool = False, at: tuple[int, int] | None = None) -> None:
        where = at or (self.positions.locate_key(path) if at_key else self.positions.locate(path))
        self.diagnostics.append(Diagnostic(
            severity=severity, code=code, message=message, path=_dotted(path),
            line=where[0] if where else None, column=where[1] if where else None,
        ))

    def line_of(self, path: YamlPath) -> str:
        where = self.positions.locate(path)
        return str(where[0]) if where else "?"

    def run(self) -> Case | None:
        if not self.parsed.ok:
            return None
        case = self.schema()
        self.identity()
        self.icd_codes()
        self.links()
        self.attachments()
        self.numbers()
        self.completeness()
        self.leaks()
        if self.bank is not None:
            self.bank_checks()
        self.final_status()
        return case

    # schema ---------------------------------------------------------------------------

    def schema(self) -> Case | None:
        try:
            # by_name=False: the YAML key is `class`; the attribute name `klass` is no key.
            return Case.model_validate(self.data, by_alias=True, by_name=False)
        except ValidationError as exc:
            grouped: dict[YamlPath, list[dict]] = {}
            for error in exc.errors(include_url=False):
                grouped.setdefault(self._data_path(error), []).append(error)
            for path, errors in grouped.items():
                self._schema_error(path, errors)
            return None

    def _data_path(self, error: dict) -> YamlPath:
        """The YAML path of a pydantic error, without union member names and tags."""
        path: list[str | int] = []
        current = self.data
        loc = error["loc"]
        for i, part in enumerate(loc):
            if isinstance(current, list) and isinstance(part, int) and 0 <= part < len(current):
                path.append(part)
                current = current[part]
            elif isinstance(current, dict) and part in current:
                path.append(part)
                current = current[part]
            elif isinstance(current, dict) and i == len(loc) - 1 and error["type"] == "missing":
                path.append(part)
        return tuple(path)

    def _schema_error(self, path: YamlPath, errors: list[dict]) -> None:
        error = errors[0]
        kind = error["type"]
        key = path[-1] if path else ""
        value = error.get("input")
        if kind == "missing":
            parent = path[:-1]
            hint = _allowed_hint(_annotation_at(path))
            self.add("error", "schema.missing", path,
                     f"{_capital(_where(self.data, parent))} has no `{key}`: add `{key}: ...`{hint}.",
                     at=self.positions.locate(parent))
        elif error["loc"][-1] == "[key]":
            self.add("error", "schema.type", path,
                     f"The key `{_show(value)}` must be text: put it in quotes.", at_key=True)
        elif kind in ("extra_forbidden", "invalid_key"):
            keys = _keys_at(path[:-1])
            suggestion = _did_you_mean(key, keys)
            rest = suggestion or f" Keys allowed here: {', '.join(keys)}."
            self.add("error", "schema.unknown_key", path,
                     f"`{key}` is not a key of {_where(self.data, path[:-1])}.{rest} "
                     "(Free-form data belongs under `extensions:`.)", at_key=True)
        elif kind == "literal_error":
            allowed = [str(a) for a in typing.get_args(_annotation_at(path))]
            if path == ("schema_version",):
                message = (f"This file says `schema_version: {_show(value)}`; this version of "
                           "medbench reads case format version 1: set `schema_version: 1`.")
            else:
                message = (f"`{_show(value)}` is not a valid `{key}`: use one of "
                           f"{', '.join(allowed)}.{_did_you_mean(value, allowed)}")
            self.add("error", "schema.enum", path, message)
        elif kind == "string_pattern_mismatch":
            if key in ("id", "parent_id"):
                message = (f"`{_show(value)}` is not a valid case id: use lowercase letters, digits "
                           "and single hyphens, such as `im-cap-001`.")
            else:
                message = f"`{_show(value)}` does not have the required form {error['ctx']['pattern']}."
            self.add("error", "schema.pattern", path, message)
        elif kind in ("too_short", "too_long"):
            size = error.get("ctx", {}).get("min_length" if kind == "too_short" else "max_length")
            bound = "at least" if kind == "too_short" else "at most"
            self.add("error", f"schema.{kind}", path,
                     f"`{_dotted(path)}` needs {bound} {size} entr{'y' if size == 1 else 'ies'}.")
        elif all(_EXPECTED.get(e["type"]) for e in errors):
            expected = " or ".join(dict.fromkeys(_EXPECTED[e["type"]] for e in errors))
            self.add("error", "schema.type", path,
                     f"`{_dotted(path) or 'the case'}` must be {expected}, but it is "
                     f"{_describe(value)}.{_type_hint(expected, value)}")
        else:
            self.add("error", "schema.value", path, f"`{_dotted(path)}`: {error['msg']}.")

    # one case -------------------------------------------------------------------------

    def identity(self) -> None:
        case_id = _text(self.data, "id")
        if case_id is not None and self.path is not None and case_id != self.path.stem:
            self.add("error", "case.id_mismatch", ("id",),
                     f"The case id `{case_id}` differs from the file name `{self.path.name}`: "
                     f"rename the file to `{case_id}.yaml` or set `id: {self.path.stem}`.")
        if case_id is not None and _text(self.data, "parent_id") == case_id:
            self.add("error", "ref.self_parent", ("parent_id",),
                     "`parent_id` names this case itself: name the case this one is a variant of, "
                     "or set `parent_id: null`.")

    def icd_codes(self) -> None:
        from medbench_tui.core.icd10 import check_case_code

        diagnosis = self.data.get("diagnosis")
        primary = diagnosis.get("primary") if isinstance(diagnosis, dict) else None
        coded = [(("diagnosis", "primary"), primary, "primary")] if isinstance(primary, dict) else []
        coded += [(("diagnosis", "secondary", i), d, "secondary") for i, d in _entries(diagnosis, "secondary")]
        coded += [(("differential", i), d, "differential") for i, d in _entries(self.data, "differential")]
        for path, entry, role in coded:
            code = _text(entry, "icd10")
            if code is None:
                continue
            try:
                findings = check_case_code(code, role=role, name=_text(entry, "name"))
            except MedbenchError as exc:  # the WHO table itself is missing or damaged
                self.add("error", "icd10.unavailable", path + ("icd10",),
                         f"The ICD-10 codes could not be checked: {exc}")
                return
            for finding in findings:
                self.add(finding.severity, finding.code, path + ("icd10",), finding.message)

    def links(self) -> None:
        for list_name in ("additional_answers", "control_questions", "attachments", "critical_conditions"):
            first: dict[str, int] = {}
            for i, entry in _entries(self.data, list_name):
                entry_id = _text(entry, "id")
                if entry_id is None:
                    continue
                if entry_id in first:
                    self.add("error", "ref.duplicate_id", (list_name, i, "id"),
                             f"The id `{entry_id}` is used twice in `{list_name}` (first on line "
                             f"{self.line_of((list_name, first[entry_id], 'id'))}): give each entry its own id.")
                else:
                    first[entry_id] = i
        answers = [a for _, entry in _entries(self.data, "additional_answers") if (a := _text(entry, "id"))]
        for i, question in _entries(self.data, "control_questions"):
            label = _text(question, "id") or f"number {i + 1}"
            for j, answer_id in _texts(question, "answered_by"):
                if answer_id not in answers:
                    self.add("error", "ref.unknown_answer", ("control_questions", i, "answered_by", j),
                             f"Control question `{label}` is answered by `{answer_id}`, which is not "
                             f"an id in `additional_answers`.{_did_you_mean(answer_id, answers)}")
            if question.get("answered_by") in (None, []):
                at = ("control_questions", i, "answered_by") if "answered_by" in question else ("control_questions", i)
                self.add("warning", "ref.unanswered_question", at,
                         f"Control question `{label}` is answered by no fact: list in `answered_by` "
                         "the answer ids that satisfy it, or no doctor can ever get credit for it.")
        names: dict[str, str] = {}
        for list_name in ("workup", "treatment"):
            seen: dict[str, int] = {}
            for i, entry in _entries(self.data, list_name):
                item = _text(entry, "item")
                for name in [item] + [a for _, a in _texts(entry, "aliases")]:
                    if name and name.strip():
                        names.setdefault(name.strip().casefold(), name)
                if item is None:
                    continue
                if item.strip().casefold() in seen:
                    first_line = self.line_of((list_name, seen[item.strip().casefold()], "item"))
                    self.add("warning", "ref.duplicate_item", (list_name, i, "item"),
                             f"`{item}` is listed twice in `{list_name}` (first on line {first_line}): "
                             "merge the two entries; each reference item is matched only once.")
                else:
                    seen[item.strip().casefold()] = i
        for i, condition in _entries(self.data, "critical_conditions"):
            for j, name in _texts(condition, "applies_if"):
                if name.strip().casefold() not in names:
                    self.add("error", "ref.unknown_item", ("critical_conditions", i, "applies_if", j),
                             f"`applies_if` names `{_show(name)}`, which is not a workup or treatment "
                             f"item (nor an alias of one).{_did_you_mean(name, list(names.values()))}")

    def attachments(self) -> None:
        root = paths.bank_root_of(self.path) if self.path is not None else None
        for i, attachment in _entries(self.data, "attachments"):
            label = _text(attachment, "id") or f"number {i + 1}"
            file = attachment.get("file")
            content = attachment.get("content")
            if not (isinstance(file, str) and file.strip()) and not (isinstance(content, str) and content.strip()):
                self.add("error", "attachment.no_content", ("attachments", i),
                         f"Attachment `{label}` has neither `file:` nor `content:`: give the path of "
                         "its file (relative to the bank folder) or its text.")
            if isinstance(file, str) and file.strip() and root is not None:
                relative = PurePosixPath(file.strip().replace("\\", "/"))
                if relative.is_absolute() or ".." in relative.parts:
                    self.add("error", "attachment.outside_bank", ("attachments", i, "file"),
                             f"Attachment `{label}`: `{_show(file)}` points outside the bank; use a path "
                             "inside the bank folder, such as `attachments/<case-id>/<name>`.")
                elif not (root / relative).is_file():
                    self.add("error", "attachment.missing_file", ("attachments", i, "file"),
                             f"Attachment `{label}`: the file `{_show(file)}` does not exist in the bank "
                             f"folder {root}. Paths are relative to that folder.")
            available = attachment.get("available")
            after_turn = attachment.get("after_turn")
            if available == "after_turn" and after_turn is None:
                self.add("error", "attachment.after_turn_missing", ("attachments", i, "available"),
                         f"Attachment `{label}` is available `after_turn` but has no `after_turn:` "
                         "number: add the turn after which it is released.")
            elif after_turn is not None and available != "after_turn":
                self.add("warning", "attachment.after_turn_unused", ("attachments", i, "after_turn"),
                         f"Attachment `{label}`: `after_turn` is ignored unless `available: after_turn`; "
                         "set that or delete `after_turn`.")

    def numbers(self) -> None:
        checks: list[tuple[YamlPath, Any, str]] = [((), self.data, "num_steps"), ((), self.data, "max_turns")]
        checks += [(("control_questions", i), q, "weight") for i, q in _entries(self.data, "control_questions")]
        checks += [(("attachments", i), a, "after_turn") for i, a in _entries(self.data, "attachments")]
        for list_name in ("workup", "treatment"):
            for i, entry in _entries(self.data, list_name):
                checks.append(((list_name, i), entry, "weight"))
                if list_name == "workup":
                    checks.append(((list_name, i), entry, "penalty"))
        for path, container, key in checks:
            value = _number(container, key)
            if value is not None and not 0 < value < math.inf:
                self.add("error", "value.not_positive", path + (key,),
                         f"`{key}` must be a number greater than 0, not {_show(value)}{_NUMBER_HINTS[key]}.")
        for key in ("unexpected_penalty", "unlisted_penalty"):
            value = _number(self.data.get("scoring"), key)
            if value is not None and not 0 <= value < math.inf:
                self.add("error", "value.negative", ("scoring", key),
                         f"`{key}` must be 0 or more, not {_show(value)}: a penalty is subtracted, "
                         "so write it as a positive number.")

    def completeness(self) -> None:
        for list_name in ("workup", "treatment"):
            if not any(entry.get("class") == "required" for _, entry in _entries(self.data, list_name)):
                self.add("warning", "case.no_required_item", (list_name,),
                         f"No `{list_name}` item is `class: required`: the {list_name} score needs at "
                         "least one item a good doctor must recommend.", at_key=True)
        num_steps, max_turns = _number(self.data, "num_steps"), _number(self.data, "max_turns")
        if self.data.get("num_steps") is None:
            self.add("warning", "case.num_steps_missing", (),
                     "`num_steps` is not set: add the number of doctor/patient turn pairs a good "
                     "consultation of this case takes (runs are compared with it).")
        elif num_steps is not None and max_turns is not None and num_steps > max_turns:
            self.add("warning", "case.num_steps_over_max", ("num_steps",),
                     f"`num_steps` ({num_steps}) is more than `max_turns` ({max_turns}): no run can "
                     "reach the reference length; raise `max_turns` or lower `num_steps`.")

    def leaks(self) -> None:
        diagnosis = self.data.get("diagnosis")
        primary = diagnosis.get("primary") if isinstance(diagnosis, dict) else None
        if not isinstance(primary, dict):
            return
        names = [n for n in [_text(primary, "name")] + [a for _, a in _texts(primary, "aliases")] if n]
        terms = [t for t in (_Term.of(n) for n in names) if t]
        code = (_text(primary, "icd10") or "").strip()
        code_pattern = re.compile(rf"(?<![A-Za-z0-9]){re.escape(code)}(?![0-9])", re.I) if len(code) >= 3 else None
        if not terms and code_pattern is None:
            return
        behaviours = [b for _, b in _texts(self.data.get("patient"), "behavior")]
        places: list[tuple[YamlPath, str, str | None]] = [(("intro",), "The intro", _text(self.data, "intro"))]
        places += [(("additional_answers", i, "answer"), f"The answer `{_text(a, 'id') or i + 1}`",
                    _text(a, "answer")) for i, a in _entries(self.data, "additional_answers")]
        for path, label, value in places:
            found = _first_leak(value or "", terms, code_pattern)
            if found is None:
                continue
            message = (f"{label} gives the diagnosis away (`{_show(found[1])}`): the patient would "
                       "name what the doctor should find out. Describe what the patient notices instead.")
            if "self_diagnosis" in behaviours:
                message += " (This patient has `self_diagnosis` behaviour: if the guess is intended, keep it.)"
            self.add("warning", "leak.diagnosis", path, message, at=self._leak_position(path, terms, code_pattern))

    def _leak_position(self, path: YamlPath, terms: list[_Term], code_pattern) -> tuple[int, int] | None:
        """The line and column of the give-away in the file (the value's start if it spans lines)."""
        span = self.positions.span(path)
        if span is None:
            return None
        (first, start), (last, end) = span
        lines = _LINE_BREAK.split(self.parsed.text)
        for number in range(first, min(last, len(lines)) + 1):
            offset = start - 1 if number == first else 0
            segment = lines[number - 1][offset: end - 1 if number == last else None]
            found = _first_leak(segment, terms, code_pattern)
            if found is not None:
                return number, offset + found[0] + 1
        return span[0]

    # across the bank ------------------------------------------------------------------

    def bank_checks(self) -> None:
        bank = self.bank
        case_id, parent_id = _text(self.data, "id"), _text(self.data, "parent_id")
        if parent_id is not None and parent_id != case_id and not bank.has_case(parent_id):
            self.add("error", "ref.unknown_parent", ("parent_id",),
                     f"`parent_id` names `{_show(parent_id)}`, but no case in {bank.root} has that id."
                     f"{_did_you_mean(parent_id, sorted(bank.ids))}")
        if case_id is not None:
            others = bank.others_with_id(case_id, self.path)
            if others:
                self.add("error", "bank.duplicate_id", ("id",),
                         f"Another case in this bank has the id `{case_id}` ({', '.join(p.name for p in others)}): "
                         "case ids must be unique.")
        similar = bank.near_duplicates(BankEntry.from_data(self.path or Path("<text>"), self.data))
        if similar:
            named = ", ".join(f"`{other.case_id}` ({other.path.name})" for other, _ in similar[:3])
            more = f" and {len(similar) - 3} more" if len(similar) > 3 else ""
            self.add("warning", "bank.near_duplicate", ("intro",),
                     f"The intro is {similar[0][1]:.0f}% similar to that of {named}{more}: is this the "
                     "same case? Link variants with `parent_id`, or make the presentations differ.",
                     at_key=True)

    def final_status(self) -> None:
        if self.data.get("status") != "final":
            return
        reviewers = {r.strip().casefold() for _, r in _texts(self.data, "reviewers") if r.strip()}
        if len(reviewers) < 2:
            self.add("warning", "case.final_reviewers", ("status",),
                     f"A `final` case needs at least two reviewers; it has {len(reviewers)}: add them "
                     "under `reviewers:` or set `status: review`.")
        errors = count(self.diagnostics, "error")
        if errors:
            self.add("error", "case.final_with_errors", ("status",),
                     f"A case with errors cannot be `final` ({errors} error(s) here): fix them or set "
                     "`status: review`.")


_NUMBER_HINTS = {
    "num_steps": ": the reference number of turn pairs",
    "max_turns": ": the most doctor turns a run may take",
    "weight": " (importance: use 1 for ordinary, more for important)",
    "penalty": " (or delete it to use the bank's default penalty)",
    "after_turn": ": turns are counted from 1",
}


# --- pydantic errors in a physician's words --------------------------------------------

_EXPECTED = {
    "string_type": "text", "int_type": "a whole number", "int_from_float": "a whole number",
    "int_parsing": "a whole number", "float_type": "a number", "float_parsing": "a number",
    "bool_type": "true or false", "bool_parsing": "true or false", "list_type": "a list",
    "dict_type": "a mapping (`key: value` lines)", "model_type": "a mapping (`key: value` lines)",
    "model_attributes_type": "a mapping (`key: value` lines)", "none_required": "empty",
}


def _describe(value: Any) -> str:
    if value is None:
        return "empty"
    if isinstance(value, bool):
        return f"`{str(value).lower()}` (true/false)"
    if isinstance(value, (int, float)):
        return f"the number {_show(value)}"
    if isinstance(value, str):
        return f"the text `{_show(value)}`"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "a mapping"
    return f"{type(value).__name__} `{_show(value)}`"


def _type_hint(expected: str, value: Any) -> str:
    if expected.startswith("text") and value is not None and not isinstance(value, (list, dict)):
        written = str(value).lower() if isinstance(value, bool) else _show(value)
        return f" Put it in quotes: `'{written}'`."
    if expected.startswith("text") and value is None:
        return " Fill it in (or delete the key)."
    if expected == "a list" and isinstance(value, str):
        return f" Write it as a list: `[{_show(value)}]`, or one `- item` per line."
    if "number" in expected and isinstance(value, str):
        return " Write the number without quotes."
    return ""


def _where(data: Any, path: YamlPath) -> str:
    """A physician's name for the mapping at ``path``: the case, `workup` entry `Chest X-ray`."""
    if not path:
        return "the case"
    if isinstance(path[-1], int) and len(path) >= 2:
        node = data
        for part in path:
            node = node[part] if isinstance(node, (dict, list)) else None
        label = next((node[k] for k in ("id", "item", "name") if isinstance(node, dict) and isinstance(node.get(k), str)), None)
        owner = _dotted(path[:-1])
        return f"`{owner}` entry `{_show(label, 40)}`" if label else f"`{owner}` entry {path[-1] + 1}"
    return f"`{_dotted(path)}`"


def _strip_optional(annotation: Any) -> Any:
    if typing.get_origin(annotation) in (typing.Union, types.UnionType):
        members = [a for a in typing.get_args(annotation) if a is not type(None)]
        return members[0] if len(members) == 1 else annotation
    return annotation


def _annotation_at(path: YamlPath) -> Any:
    """The type the case format expects at ``path`` (None when unknown)."""
    annotation: Any = Case
    for part in path:
        annotation = _strip_optional(annotation)
        if isinstance(part, int):
            if typing.get_origin(annotation) is not list:
                return None
            annotation = typing.get_args(annotation)[0]
        elif isinstance(annotation, type) and issubclass(annotation, BaseModel):
            fields = _fields(annotation)
            if part not in fields:
                return None
            annotation = fields[part].annotation
        else:
            return None
    return _strip_optional(annotation)


@lru_cache(maxsize=None)
def _fields(model: type[BaseModel]) -> dict:
    return {(info.alias or name): info for name, info in model.model_fields.items()}


def _keys_at(path: YamlPath) -> list[str]:
    model = _annotation_at(path)
    return list(_fields(model)) if isinstance(model, type) and issubclass(model, BaseModel) else []


def _allowed_hint(annotation: Any) -> str:
    if typing.get_origin(annotation) is Literal:
        return f" (one of: {', '.join(str(a) for a in typing.get_args(annotation))})"
    return ""


# --- the diagnosis given away in the patient's words --------------------------------------

_WORD = re.compile(r"[^\W_]+")
_LINE_BREAK = re.compile("\r\n|[\r\n\x85\u2028\u2029]")  # what YAML counts as a new line


@lru_cache(maxsize=8192)
def _spelling(word: str) -> str:
    """UK and US spellings read as one (anaemia/anemia, oedema/edema, tumour/tumor), by the
    project's one text module."""
    return american_spelling(word.casefold())


@dataclass(frozen=True)
class _Term:
    """A diagnosis name or alias as a word sequence.

    Matched at word boundaries, case-insensitively and across UK/US spelling, with a
    plural allowed on the last word. An abbreviation (written in capitals, such as
    `CAP`) or an alias shorter than 3 characters matches only as the exact whole word,
    so `cap` or `pe` in ordinary speech is not taken for a diagnosis.
    """

    words: tuple[str, ...]
    exact: bool

    @classmethod
    def of(cls, text: str) -> _Term | None:
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


def _first_leak(text: str, terms: list[_Term], code_pattern) -> tuple[int, str] | None:
    """Offset and wording of the first diagnosis name, alias or code in ``text``."""
    found = list(_WORD.finditer(text))
    words = [m.group() for m in found]
    normalised = [_spelling(w) for w in words]
    vocabulary = {*words, *normalised}
    hits = []
    for term in terms:
        start = term.match(words, normalised, vocabulary)
        if start is not None:
            first, last = found[start], found[start + len(term.words) - 1]
            hits.append((first.start(), text[first.start(): last.end()]))
    if code_pattern is not None and (code := code_pattern.search(text)):
        hits.append((code.start(), code.group()))
    return min(hits) if hits else None


# --- the JSON Schema -------------------------------------------------------------------


def case_json_schema() -> dict:
    """The JSON Schema of case format v1 for editors (``medbench schema``; committed copy
    at ``medbench_tui/schema/case.schema.json``)."""
    generated = Case.model_json_schema(by_alias=True)
    generated.pop("title", None)
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": SCHEMA_ID,
        "title": "medbench case, format version 1",
        **generated,
    }
