"""All checks of one case held in memory, each finding placed at the YAML path it is about."""

from __future__ import annotations

import math
import re
import typing
from collections.abc import Callable
from pathlib import Path, PurePosixPath
from typing import TypeVar

from pydantic import BaseModel, ValidationError
from pydantic_core import ErrorDetails
from rapidfuzz import fuzz

from medbench_tui.core import paths
from medbench_tui.core.cases.bank import BankEntry, BankIndex
from medbench_tui.core.cases.model import CASE_ID_PATTERN, IMPLICIT_CONDITION, Case
from medbench_tui.core.cases.rubric import CASE_KINDS, RubricCase
from medbench_tui.core.cases.yamlio import ParsedCase
from medbench_tui.core.diagnostics import Diagnostic, Severity, count
from medbench_tui.core.errors import MedbenchError
from medbench_tui.core.jsondata import JSONObject, JSONValue
from medbench_tui.core.text import tokenize
from medbench_tui.core.validate.contradictions import disagreements, statements
from medbench_tui.core.validate.images import placeholder_reason
from medbench_tui.core.validate.leaks import LINE_BREAK, Term, first_leak
from medbench_tui.core.validate.messages import (
    EXPECTED,
    NUMBER_HINTS,
    allowed_hint,
    annotation_at,
    capital,
    closest,
    describe,
    did_you_mean,
    keys_at,
    place_name,
    show,
    type_hint,
)
from medbench_tui.core.validate.reference_fit import (
    HARMFUL_CLASSES,
    CaseItem,
    bare_target_risk,
    broad_alias_risk,
    hospital_only_test,
    related_terms,
    targets_of,
)
from medbench_tui.core.validate.values import dotted, entries_at, number_at, text_at, texts_at
from medbench_tui.core.vocabulary import Term as VocabularyTerm
from medbench_tui.core.vocabulary import read_vocabulary, reading
from medbench_tui.core.yamldoc import YamlPath

Model = TypeVar("Model", bound=BaseModel)

_MARKDOWN_HEADING = re.compile(r"#{1,6} \S")
"""A Markdown heading ("## Plan"), as a final response is written."""

def _finding(words: str) -> Callable[[str], int | None]:
    """Where ``words`` stand in a line, or None."""
    def find(line: str) -> int | None:
        index = line.find(words)
        return index if index >= 0 else None

    return find


RULE_OF = {"phrases": "phrases", "number": "number"}
"""A criterion's grader -> the key that says what it reads (judge and physician read the criterion's text)."""


class Checker:
    """All checks of one case; each appends diagnostics at the YAML path it is about."""

    model: type[BaseModel] = Case
    """The model of the file's kind: keys and allowed values in messages come from it."""

    def __init__(self, parsed: ParsedCase, path: Path | None, bank: BankIndex | None) -> None:
        self.parsed = parsed
        self.data = parsed.data
        self.positions = parsed.positions
        self.path = path
        self.bank = bank
        self.diagnostics: list[Diagnostic] = list(parsed.diagnostics)
        self.rubric: RubricCase | None = None
        """The rubric case, once a rubric file validates (its own checker sets it)."""

    def add(self, severity: Severity, code: str, path: YamlPath, message: str, *,
            at_key: bool = False, at: tuple[int, int] | None = None) -> None:
        where = at or (self.positions.locate_key(path) if at_key else self.positions.locate(path))
        self.diagnostics.append(Diagnostic(
            severity=severity, code=code, message=message, path=dotted(path),
            line=where[0] if where else None, column=where[1] if where else None,
        ))

    def line_of(self, path: YamlPath) -> str:
        where = self.positions.locate(path)
        return str(where[0]) if where else "?"

    def once(self, first: dict[str, int], entry: YamlPath, entry_id: str | None, code: str, *, named: str = "id",
             inside: str = "", noun: str = "entry") -> None:
        """Remember where an id is first used in a list (``entry``: the list's path and the entry's
        index); a second use is an error at its line that says where the first one is."""
        if entry_id is None:
            return
        index = entry[-1]
        assert isinstance(index, int)
        if entry_id in first:
            self.add("error", code, (*entry, "id"),
                     f"The {named} `{entry_id}` is used twice{inside} (first on line "
                     f"{self.line_of((*entry[:-1], first[entry_id], 'id'))}): give each {noun} its own id.")
        else:
            first[entry_id] = index

    def run(self) -> Case | None:
        if not self.parsed.ok:
            return None
        case = self.schema()
        self.empty_values()
        self.identity()
        self.icd_codes()
        self.links()
        self.check_links()
        self.attachments()
        self.numbers()
        self.completeness()
        self.setting_fit()
        self.alias_breadth()
        self.item_structure()
        self.condition_entries()
        self.criterion_entries()
        self.leaks()
        self.contradictions()
        self.comments_in_blocks()
        if self.bank is not None:
            self.bank_checks()
        self.final_status()
        return case

    # schema ---------------------------------------------------------------------------

    def schema(self) -> Case | None:
        return self.validated(Case)

    def validated(self, model: type[Model]) -> Model | None:
        """The file as ``model``, or None with every schema error placed at its line."""
        try:
            # by_name=False: the YAML key is `class`; the attribute name `klass` is no key.
            return model.model_validate(self.data, by_alias=True, by_name=False)
        except ValidationError as exc:
            grouped: dict[YamlPath, list[ErrorDetails]] = {}
            for error in exc.errors(include_url=False):
                grouped.setdefault(self._data_path(error), []).append(error)
            for path, errors in grouped.items():
                self._schema_error(path, errors)
            return None

    def _data_path(self, error: ErrorDetails) -> YamlPath:
        """The YAML path of a pydantic error, without union member names and tags."""
        path: list[str | int] = []
        current = self.data
        loc = error["loc"]
        for i, part in enumerate(loc):
            if (isinstance(current, list) and isinstance(part, int) and 0 <= part < len(current)
                    or isinstance(current, dict) and part in current):
                path.append(part)
                current = current[part] if isinstance(current, dict) else current[int(part)]
            elif isinstance(current, dict) and i == len(loc) - 1 and error["type"] == "missing":
                path.append(part)
        return tuple(path)

    def _schema_error(self, path: YamlPath, errors: list[ErrorDetails]) -> None:
        error = errors[0]
        kind = error["type"]
        key = path[-1] if path else ""
        value = error.get("input")
        if kind == "missing":
            parent = path[:-1]
            hint = allowed_hint(annotation_at(path, self.model))
            self.add("error", "schema.missing", path,
                     f"{capital(place_name(self.data, parent))} has no `{key}`: add `{key}: ...`{hint}.",
                     at=self.positions.locate(parent))
        elif error["loc"][-1] == "[key]":
            self.add("error", "schema.type", path,
                     f"The key `{show(value)}` must be text: put it in quotes.", at_key=True)
        elif kind in ("extra_forbidden", "invalid_key"):
            keys = keys_at(path[:-1], self.model)
            suggestion = did_you_mean(key, keys)
            rest = suggestion or f" Keys allowed here: {', '.join(keys)}."
            self.add("error", "schema.unknown_key", path,
                     f"`{key}` is not a key of {place_name(self.data, path[:-1])}.{rest} "
                     "(Free-form data belongs under `extensions:`.)", at_key=True)
        elif kind == "literal_error":
            allowed = [str(a) for a in typing.get_args(annotation_at(path, self.model))]
            if path == ("kind",):
                message = (f"`{show(value)}` is not a kind of case: leave `kind` out (or write `kind: consultation`) "
                           f"for a consultation, or write `kind: rubric`.{did_you_mean(value, list(CASE_KINDS))}")
            elif path == ("schema_version",):
                written = str(value).lower() if isinstance(value, bool) else show(value)
                message = (f"This file says `schema_version: {written}`; this version of "
                           "medbench reads case format version 1: set `schema_version: 1`.")
            elif allowed:
                message = (f"`{show(value)}` is not a valid `{key}`: use one of "
                           f"{', '.join(allowed)}.{did_you_mean(value, allowed)}")
            else:  # a value of a mapping (a check's verdicts): pydantic knows what it expects
                message = f"`{show(value)}` is not a valid value here: use {error.get('ctx', {}).get('expected')}."
            self.add("error", "schema.enum", path, message)
        elif kind == "string_pattern_mismatch":
            if key in ("id", "parent_id"):
                message = (f"`{show(value)}` is not a valid case id: use lowercase letters, digits "
                           "and single hyphens, such as `im-cap-001`.")
            else:
                message = f"`{show(value)}` does not have the required form {error['ctx']['pattern']}."
            self.add("error", "schema.pattern", path, message)
        elif kind in ("too_short", "too_long"):
            size = error.get("ctx", {}).get("min_length" if kind == "too_short" else "max_length")
            bound = "at least" if kind == "too_short" else "at most"
            self.add("error", f"schema.{kind}", path,
                     f"`{dotted(path)}` needs {bound} {size} entr{'y' if size == 1 else 'ies'}.")
        elif kind in ("greater_than_equal", "less_than_equal"):
            low = kind == "greater_than_equal"
            limit = error.get("ctx", {}).get("ge" if low else "le")
            self.add("error", "schema.value", path,
                     f"`{dotted(path)}` is {show(value)}: it must be {'at least' if low else 'at most'} {limit}.")
        elif kind == "blank_text":
            self.add("error", "schema.value", path,
                     f"`{dotted(path)}` is empty ({describe(value)}): write it out.")
        elif all(EXPECTED.get(e["type"]) for e in errors):
            expected = " or ".join(dict.fromkeys(EXPECTED[e["type"]] for e in errors))
            self.add("error", "schema.type", path,
                     f"`{dotted(path) or 'the case'}` must be {expected}, but it is "
                     f"{describe(value)}.{type_hint(expected, value)}")
        else:
            self.add("error", "schema.value", path, f"`{dotted(path)}`: {error['msg']}.")

    def empty_values(self) -> None:
        """A key written with no value (``age:``) reads as null, which an optional field takes
        silently: the author meant to write something, so it is an error, not an absent value.
        An explicit ``null`` (``parent_id: null``) is a choice and stays allowed."""
        placed = {d.path for d in self.diagnostics if d.severity == "error"}
        for path in self.positions.empty_values():
            if dotted(path) in placed:
                continue  # the schema already says what belongs there
            if isinstance(path[-1], int):
                self.add("error", "value.empty", path,
                         f"Item {path[-1] + 1} of `{dotted(path[:-1])}` is empty (a `-` with nothing after it): "
                         "write the item, or delete the line.")
                continue
            hint = allowed_hint(annotation_at(path, self.model))
            self.add("error", "value.empty", path,
                     f"`{dotted(path)}` has no value: write one after `{path[-1]}:`{hint}, or delete the line "
                     "to leave it out (an explicit `null` also leaves it unset).", at_key=True)

    # one case -------------------------------------------------------------------------

    def identity(self) -> None:
        if self.path is not None and not paths.is_inside(self.path, paths.bank_root_of(self.path)):
            self.add("error", "file.outside_bank", (),
                     f"This case file is a link to {self.path.resolve()}, outside the bank folder "
                     f"{paths.bank_root_of(self.path)}: copy the case into the bank instead of linking to it.")
        case_id = text_at(self.data, "id")
        if case_id is not None and self.path is not None and case_id != self.path.stem:
            self.add("error", "case.id_mismatch", ("id",),
                     f"The case id `{case_id}` differs from the file name `{self.path.name}`: "
                     f"{_id_mismatch_fix(case_id, self.path.stem)}.")
        if case_id is not None and text_at(self.data, "parent_id") == case_id:
            self.add("error", "ref.self_parent", ("parent_id",),
                     "`parent_id` names this case itself: name the case this one is a variant of, "
                     "or set `parent_id: null`.")

    def icd_codes(self) -> None:
        from medbench_tui.core.icd10 import check_case_code
        from medbench_tui.core.icd10.model import Role

        diagnosis = self.data.get("diagnosis")
        primary = diagnosis.get("primary") if isinstance(diagnosis, dict) else None
        coded: list[tuple[YamlPath, JSONObject, Role]] = (
            [(("diagnosis", "primary"), primary, "primary")] if isinstance(primary, dict) else []
        )
        coded += [(("diagnosis", "secondary", i), d, "secondary") for i, d in entries_at(diagnosis, "secondary")]
        coded += [(("differential", i), d, "differential") for i, d in entries_at(self.data, "differential")]
        primary_code = (text_at(primary, "icd10") or "").strip().upper() if isinstance(primary, dict) else ""
        for i, other in entries_at(self.data, "differential"):
            if primary_code and (text_at(other, "icd10") or "").strip().upper() == primary_code:
                self.add("warning", "icd10.primary_as_differential", ("diagnosis", "primary", "icd10"),
                         f"The primary diagnosis and the differential `{show(text_at(other, 'name'))}` (line "
                         f"{self.line_of(('differential', i, 'icd10'))}) have the same code {primary_code}: "
                         "a differential is another condition, so one of the two codes is wrong. Check both with "
                         "`medbench icd lookup`.")
        for path, entry, role in coded:
            code = text_at(entry, "icd10")
            if code is None:
                continue
            try:
                findings = check_case_code(code, role=role, name=text_at(entry, "name"))
            except MedbenchError as exc:  # the WHO table itself is missing or damaged
                self.add("error", "icd10.unavailable", path + ("icd10",),
                         f"The ICD-10 codes could not be checked: {exc}")
                return
            for finding in findings:
                self.add(finding.severity, finding.code, path + ("icd10",), finding.message)

    def links(self) -> None:
        for list_name in ("additional_answers", "control_questions", "attachments", "critical_conditions"):
            first: dict[str, int] = {}
            for i, entry in entries_at(self.data, list_name):
                self.once(first, (list_name, i), text_at(entry, "id"), "ref.duplicate_id", inside=f" in `{list_name}`")
        answers = [a for _, entry in entries_at(self.data, "additional_answers") if (a := text_at(entry, "id"))]
        for i, question in entries_at(self.data, "control_questions"):
            label = text_at(question, "id") or f"number {i + 1}"
            for j, answer_id in texts_at(question, "answered_by"):
                if answer_id not in answers:
                    self.add("error", "ref.unknown_answer", ("control_questions", i, "answered_by", j),
                             f"Control question `{label}` is answered by `{answer_id}`, which is not "
                             f"an id in `additional_answers`.{did_you_mean(answer_id, answers)}")
            if question.get("answered_by") in (None, []):
                at = ("control_questions", i, "answered_by") if "answered_by" in question else ("control_questions", i)
                self.add("warning", "ref.unanswered_question", at,
                         f"Control question `{label}` is answered by no fact: list in `answered_by` "
                         "the answer ids that satisfy it, or no doctor can ever get credit for it.")
        names: dict[str, str] = {}
        for list_name in ("workup", "treatment"):
            seen: dict[str, int] = {}
            for i, entry in entries_at(self.data, list_name):
                item = text_at(entry, "item")
                for name in [item] + [a for _, a in texts_at(entry, "aliases")]:
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
        for i, condition in entries_at(self.data, "critical_conditions"):
            for j, name in texts_at(condition, "applies_if"):
                if name.strip().casefold() not in names:
                    self.add("error", "ref.unknown_item", ("critical_conditions", i, "applies_if", j),
                             f"`applies_if` names `{show(name)}`, which is not a workup or treatment "
                             f"item (nor an alias of one).{did_you_mean(name, list(names.values()))}")

    def check_links(self) -> None:
        """Every name a self-check uses must be one of the case's: an unknown name is a check
        that could never pass (or never fail)."""
        checks = self.data.get("checks") if isinstance(self.data, dict) else None
        if not isinstance(checks, dict):
            return
        items = {text_at(e, "item") for _, e in entries_at(self.data, "workup")}
        items |= {text_at(e, "item") for _, e in entries_at(self.data, "treatment")}
        diagnosis = self.data.get("diagnosis") if isinstance(self.data, dict) else None
        items |= {text_at(e, "name") for _, e in entries_at(diagnosis, "secondary")}
        items |= {text_at(e, "name") for _, e in entries_at(self.data, "differential")}
        known_items = sorted(i for i in items if i)
        conditions = {text_at(e, "id") for _, e in entries_at(self.data, "critical_conditions")}
        if any(text_at(e, "class") == "contraindicated" for _, e in entries_at(self.data, "treatment")):
            conditions.add(IMPLICIT_CONDITION)
        known_conditions = sorted(c for c in conditions if c)
        facts = sorted(a for _, e in entries_at(self.data, "additional_answers") if (a := text_at(e, "id")))
        attachments = sorted(a for _, e in entries_at(self.data, "attachments") if (a := text_at(e, "id")))
        first: dict[str, int] = {}
        for i, check in entries_at(checks, "answers"):
            where = ("checks", "answers", i)
            check_id = text_at(check, "id")
            self.once(first, where, check_id, "check.duplicate_id", named="check id", noun="check")
            expect = check.get("expect")
            if not isinstance(expect, dict):
                continue
            for name in (expect.get("items") or {}) if isinstance(expect.get("items"), dict) else {}:
                if name not in items:
                    self.add("error", "check.unknown_item", (*where, "expect", "items", name),
                             f"Check `{check_id}` expects `{show(name)}`, which is not the `item` or `name` of a "
                             f"workup, treatment, secondary or differential entry of this case (write it exactly)."
                             f"{did_you_mean(str(name), known_items)}", at_key=True)
            for name in (expect.get("conditions") or {}) if isinstance(expect.get("conditions"), dict) else {}:
                if name not in conditions:
                    self.add("error", "check.unknown_condition", (*where, "expect", "conditions", name),
                             f"Check `{check_id}` expects a verdict of `{show(name)}`, which is not a critical "
                             f"condition of this case.{did_you_mean(str(name), known_conditions)}", at_key=True)
        for i, question in entries_at(checks, "questions"):
            where = ("checks", "questions", i)
            for key, known, what in (("facts", facts, "an `additional_answers` id"),
                                     ("may", facts, "an `additional_answers` id"),
                                     ("attachments", attachments, "an attachment id")):
                for j, name in texts_at(question, key):
                    if name not in known:
                        self.add("error", "check.unknown_reference", (*where, key, j),
                                 f"`{show(name)}` is not {what} of this case.{did_you_mean(name, known)}")
            if question.get("default") is True and (question.get("facts") or question.get("attachments")):
                self.add("error", "check.default_with_facts", (*where, "default"),
                         "`default: true` means the record does not cover the question, so no fact or attachment "
                         "is given: remove `facts`/`attachments`, or `default`.")

    def attachments(self) -> None:
        root = paths.bank_root_of(self.path) if self.path is not None else None
        for i, attachment in entries_at(self.data, "attachments"):
            label = text_at(attachment, "id") or f"number {i + 1}"
            file = attachment.get("file")
            content = attachment.get("content")
            # an image or ECG may be only described: a text-only system is sent the description
            description = (text_at(attachment, "description") or "").strip()
            described = attachment.get("kind") in ("image", "ecg") and description
            if not (isinstance(file, str) and file.strip()) and not (isinstance(content, str) and content.strip()) \
                    and not described:
                self.add("error", "attachment.no_content", ("attachments", i),
                         f"Attachment `{label}` has neither `file:` nor `content:`: give the path of "
                         "its file (relative to the bank folder) or its text (an image or ECG may "
                         "instead have only its `description:`).")
            if isinstance(file, str) and file.strip() and root is not None:
                relative = PurePosixPath(file.strip().replace("\\", "/"))
                if relative.is_absolute() or ".." in relative.parts:
                    self.add("error", "attachment.outside_bank", ("attachments", i, "file"),
                             f"Attachment `{label}`: `{show(file)}` points outside the bank; use a path "
                             "inside the bank folder, such as `attachments/<case-id>/<name>`.")
                elif (trouble := _lookup_problem(root / relative)) is not None:
                    self.add("error", "attachment.missing_file", ("attachments", i, "file"),
                             f"Attachment `{label}`: `{show(file)}` cannot be a file in the bank ({trouble}): "
                             "shorten the name or correct the path.")
                elif not (root / relative).is_file():
                    self.add("error", "attachment.missing_file", ("attachments", i, "file"),
                             f"Attachment `{label}`: the file `{show(file)}` does not exist in the bank "
                             f"folder {root}. Paths are relative to that folder.")
                elif not paths.is_inside(root / relative, root):
                    self.add("error", "attachment.outside_bank", ("attachments", i, "file"),
                             f"Attachment `{label}`: `{show(file)}` is a link to "
                             f"{(root / relative).resolve()}, outside the bank folder {root}; copy the "
                             "file into the bank instead of linking to it.")
                elif (reason := placeholder_reason(root / relative)) is not None:
                    self.add("error", "attachment.placeholder_image", ("attachments", i, "file"),
                             f"Attachment `{label}`: `{show(file)}` is a placeholder, not a picture: {reason}. "
                             "A system that takes images would be sent nothing to see: draw a real synthetic "
                             "image that shows the finding, or delete `file:` and keep the `description:`.")
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
        checks: list[tuple[YamlPath, JSONValue, str]] = [((), self.data, "num_steps"), ((), self.data, "max_turns")]
        checks += [(("control_questions", i), q, "weight") for i, q in entries_at(self.data, "control_questions")]
        checks += [(("attachments", i), a, "after_turn") for i, a in entries_at(self.data, "attachments")]
        for list_name in ("workup", "treatment"):
            for i, entry in entries_at(self.data, list_name):
                checks.append(((list_name, i), entry, "weight"))
                if list_name == "workup":
                    checks.append(((list_name, i), entry, "penalty"))
        for path, container, key in checks:
            value = number_at(container, key)
            if value is not None and not 0 < value < math.inf:
                self.add("error", "value.not_positive", path + (key,),
                         f"`{key}` must be a number greater than 0, not {show(value)}{NUMBER_HINTS[key]}.")
        for key in ("unexpected_penalty", "unlisted_penalty"):
            value = number_at(self.data.get("scoring"), key)
            if value is not None and not 0 <= value < math.inf:
                self.add("error", "value.negative", ("scoring", key),
                         f"`{key}` must be 0 or more, not {show(value)}: a penalty is subtracted, "
                         "so write it as a positive number.")

    def completeness(self) -> None:
        for list_name in ("workup", "treatment"):
            if not any(entry.get("class") == "required" for _, entry in entries_at(self.data, list_name)):
                self.add("warning", "case.no_required_item", (list_name,),
                         f"No `{list_name}` item is `class: required`: the {list_name} score needs at "
                         "least one item a good doctor must recommend.", at_key=True)
        num_steps, max_turns = number_at(self.data, "num_steps"), number_at(self.data, "max_turns")
        if self.data.get("num_steps") is None:
            self.add("warning", "case.num_steps_missing", (),
                     "`num_steps` is not set: add the number of doctor/patient turn pairs a good "
                     "consultation of this case takes (runs are compared with it).")
        elif num_steps is not None and max_turns is not None and num_steps > max_turns:
            self.add("warning", "case.num_steps_over_max", ("num_steps",),
                     f"`num_steps` ({num_steps}) is more than `max_turns` ({max_turns}): no run can "
                     "reach the reference length; raise `max_turns` or lower `num_steps`.")

    def setting_fit(self) -> None:
        metadata = self.data.get("metadata")
        setting = text_at(metadata, "setting")
        if isinstance(metadata, dict) and "setting" not in metadata:
            self.add("warning", "setting.missing", ("metadata",),
                     "`metadata.setting` is not set: add where the consultation happens (primary_care, "
                     "emergency_department, inpatient, outpatient_clinic, telehealth or home_visit); it is "
                     "shown to the doctor and the reference must fit it.", at_key=True)
        if setting is None:
            return
        for i, entry in entries_at(self.data, "workup"):
            item = text_at(entry, "item")
            test = hospital_only_test(item, setting) if item and entry.get("class") == "required" else None
            if test is not None:
                self.add("warning", "setting.hospital_test", ("workup", i, "class"),
                         f"`{show(item)}` is required, but {test} is not done in a {setting.replace('_', ' ')} "
                         "consultation: make it `acceptable` and require the referral that leads to it.")

    def case_items(self) -> list[CaseItem]:
        return [CaseItem(list_name, i, text_at(entry, "item") or f"number {i + 1}", text_at(entry, "class"),
                         tuple(n for n in [text_at(entry, "item")] + [a for _, a in texts_at(entry, "aliases")] if n))
                for list_name in ("workup", "treatment") for i, entry in entries_at(self.data, list_name)]

    def alias_breadth(self) -> None:
        items = self.case_items()
        for item in items:
            entry = self.data[item.list_name][item.index]
            for j, alias in texts_at(entry, "aliases"):
                found = broad_alias_risk(alias, item, items)
                if found is None:
                    continue
                self.add("warning", "alias.too_broad", (item.list_name, item.index, "aliases", j),
                         f"The alias `{show(alias)}` of `{show(item.name)}` is too broad: {found.why}. "
                         f"Use a narrower phrase, such as \"{found.narrower}\".")
        self.shared_names(items)

    def critical_bare_aliases(self, items: list[CaseItem]) -> None:
        """A one-word alias of an item a critical condition names that is only a team's name, or only
        a test's or procedure's name (by the vocabulary's teams and the grader's test and therapy
        words), with no action, time or drug: any mention of that team or test (its clinic next month,
        a diagnostic angiogram for PCI) meets the condition the item stands for. A team only where the
        item's time is in its name and not in ``within`` (which holds every alias to it) nor only an
        admission's; a test only where the item's own name does not say it ("LP" of "Lumbar puncture")."""
        named = {_spaced(e) for _, c in entries_at(self.data, "critical_conditions")
                 for _, e in texts_at(c, "items")}
        warned = {d.path for d in self.diagnostics if d.code in ("alias.too_broad", "alias.bare_team")}
        for item in items:
            if item.penalised or not any(_spaced(n) in named for n in item.names):
                continue
            entry = self.data[item.list_name][item.index]
            own = {w for t in tokenize(item.name) for w in (*t.norm.split(), t.low)}
            # an admission's own time (timing.yaml) is no deadline a unit's name could miss: "NICU" on
            # "Admission to the neonatal unit" is the admission
            windows = set(reading.read_action(item.name).windows) - set(reading.read_action("admission").windows)
            # a `within:` holds every name of the item to its time (a mention at another time is dropped);
            # a time said only in the item's name leaves a bare alias untimed
            timed = text_at(entry, "within") is None and bool(windows)
            for j, alias in texts_at(entry, "aliases"):
                where = (item.list_name, item.index, "aliases", j)
                kind = _bare_kind(alias)
                if kind is None or dotted(where) in warned or (kind == "team" and not timed):
                    continue  # an alias that says more, already warned, or an item any team mention meets
                if kind == "test" and _bare_heads(alias) & own:
                    continue  # another name of the test or procedure the item's own name says
                example = f"same-day {alias.strip()}\" or \"refer to {alias.strip()} today" if kind == "team" \
                    else f"{alias.strip()} within 1 hour\" or \"primary PCI"
                self.add("warning", "alias.critical_bare", where,
                         f"The alias `{show(alias)}` of `{show(item.name)}`, which a critical condition names, is "
                         f"only a {'team or specialty' if kind == 'team' else 'test or procedure'} name with no "
                         "action, time or drug: any mention of it (a routine clinic, the test done for another "
                         "reason) meets the condition. Say the action and time the item stands for, such as "
                         f"\"{example}\"{', or give the item its `within:`' if kind == 'team' else ''}, or delete "
                         "the alias.")

    def shared_names(self, items: list[CaseItem]) -> None:
        """A name or alias of an item that gives credit, written again for an item that costs the
        answer (or the reverse): one mention is both, so a plan is credited and penalised for the same
        words, or the grader must guess which the author meant. Within one list only: a test and a
        drug may share a word ("bicarbonate" the result, "bicarbonate" the infusion), as the grader
        reads a reported result as the test and an order to give as the drug."""
        first: dict[tuple[str, str], CaseItem] = {}
        for item in items:
            entry = self.data[item.list_name][item.index]
            named = [(("item",), text_at(entry, "item"))] + [(("aliases", j), a) for j, a in texts_at(entry, "aliases")]
            for where, name in named:
                if not name or not name.strip():
                    continue
                other = first.setdefault((item.list_name, _spaced(name)), item)
                if other is item or other.penalised == item.penalised:
                    continue
                self.add("warning", "alias.shared", (item.list_name, item.index, *where),
                         f"`{show(name)}` names both `{show(other.name)}` ({other.klass}, line "
                         f"{self.line_of((other.list_name, other.index, 'item'))}) and `{show(item.name)}` "
                         f"({item.klass}): a plan that says it would count as both, credited and penalised for the "
                         "same words. Give each item words of its own (the test's result, the drug given).")

    def item_structure(self) -> None:
        """The structured fields of an item (``within``, ``route``, ``target``) must name what the
        clinical vocabulary knows, or they would silently mean nothing; an alias that names only a
        team, on an item that gives no time, is any mention of that team at any time (an outpatient
        letter next month)."""
        vocabulary = read_vocabulary()
        items = self.case_items()
        for list_name in ("workup", "treatment"):
            for i, entry in entries_at(self.data, list_name):
                name = text_at(entry, "item") or f"number {i + 1}"
                within = text_at(entry, "within")
                if within is not None and not reading.within_window(within):
                    self.add("error", "item.unknown_timing", (list_name, i, "within"),
                             f"`within: {show(within)}` of `{show(name)}` gives no time the vocabulary knows: "
                             "write it as `immediately`, `same day`, `4 hours`, `2 weeks`, `tomorrow` or `next week` "
                             "(`medbench vocabulary show timing` lists the words).")
                route = text_at(entry, "route")
                if route is not None and reading.route_named(route) is None:
                    routes = [n for t in vocabulary.of_kind("route") for n in t.names]
                    self.add("error", "item.unknown_route", (list_name, i, "route"),
                             f"`route: {show(route)}` of `{show(name)}` is no route the vocabulary knows."
                             f"{did_you_mean(route, routes)}")
                target = text_at(entry, "target")
                if target is not None and reading.target_named(target) is None:
                    targets = [n for t in vocabulary.of_kind("team", "drug", "drug_class") for n in t.names]
                    self.add("error", "item.unknown_target", (list_name, i, "target"),
                             f"`target: {show(target)}` of `{show(name)}` is no team, drug or drug class the "
                             f"vocabulary knows.{did_you_mean(target, targets)} A bank can add it in its "
                             "`vocabulary.yaml`.")
                timed = within is not None or reading.read_action(text_at(entry, "item") or "").windows
                item = next(c for c in items if c.list_name == list_name and c.index == i)
                self.bare_aliases(entry, item, items, timed=bool(timed))
        self.critical_bare_aliases(items)  # after the team checks: one warning an alias

    def bare_aliases(self, entry: JSONObject, item: CaseItem, items: list[CaseItem], *, timed: bool) -> None:
        """Aliases that name only a team (no action, time, route or dose): where they let a wrong plan
        pass (see ``reference_fit.bare_target_risk`` for why an item with a time is protected)."""
        name_targets = targets_of(item.name)
        name_bare = reading.read_action(item.name).covered >= 1.0
        where = (item.list_name, item.index, "aliases")
        for j, alias in texts_at(entry, "aliases"):
            said = reading.read_action(alias)
            if said.covered < 1.0 or said.acts or said.windows or said.routes or _DIGIT.search(alias):
                continue  # it says an action, a time, a route or a dose as well
            if not said.teams and (said.drugs or said.classes):
                self.bare_drug_alias(alias, (*where, j), said.drugs | said.classes, item, items)
                continue
            if not said.teams or said.drugs or said.classes or (name_bare and said.teams == name_targets):
                continue  # not a team alone, or another name of what the item's own name says
            if item.klass in HARMFUL_CLASSES and not timed:  # any mention counts against the answer
                self.add("warning", "alias.bare_team", (*where, j),
                         f"The alias `{show(alias)}` of the harmful `{show(item.name)}` names only a team: "
                         "any mention of it (the right referral, advice to go there if worse) would "
                         "count against the answer. Say the wrong action and its time in the alias "
                         "(`routine cardiology clinic referral`), or give the item its time.")
                continue
            other = None if timed else bare_target_risk(said.teams, item, items)
            if other is not None:
                self.add("warning", "alias.bare_team", (*where, j),
                         f"The alias `{show(alias)}` of `{show(item.name)}` names only a team, and "
                         f"`{show(other.name)}` ({other.klass}, line "
                         f"{self.line_of((other.list_name, other.index, 'item'))}) is about it too: "
                         f"`{show(item.name, 40)}` gives no time, so a plan that does `{show(other.name, 40)}` "
                         "counts as this item through the alias. Give the item its time (`within: same day`), "
                         "or write the alias with the action and time that tell the two apart.")
            elif timed and name_targets and not any(related_terms(a, b) for a in said.teams for b in name_targets) \
                    and not _named_in(said.teams, item.name):
                named = ", ".join(sorted(t.name for t in name_targets))
                self.add("warning", "alias.bare_team", (*where, j),
                         f"The alias `{show(alias)}` of `{show(item.name)}` names only a team the item does not "
                         f"({named} there): any mention of it with no time said (its clinic, a follow-up) "
                         "counts as this timed item. Say the action and time in the alias "
                         f"(\"same-day {said_team(said)} assessment\"), or delete it.")

    def bare_drug_alias(self, alias: str, where: YamlPath, targets: frozenset[VocabularyTerm], item: CaseItem,
                        items: list[CaseItem]) -> None:
        """An alias that names only a drug or class (no dose, route or time) is any mention of it. It
        lets one plan be read as another in two ways: a class above the item's own drug, with a drug
        of that class on the other side ("NSAID" on the required aspirin, ibuprofen contraindicated);
        or, on a harmful item, the bare drug a credited item gives at another dose ("prednisolone" on
        the harmful low dose, the high dose required). Route, time and dose words in the answer are
        read by the grader, so an alias equal to the item's own drug is not a risk by itself."""
        if len(targets) != 1:
            return
        (said,) = targets
        if alias.strip().casefold() not in {n.casefold() for n in (said.name, *said.also)}:
            return  # more words than the name ("loading dose of insulin"): they say which use it is
        vocabulary = read_vocabulary()
        own = targets_of(item.name)
        harmful = item.klass in HARMFUL_CLASSES
        broader = bool(own) and said not in own and all(said in vocabulary.broader(t) for t in own)
        for other in items:
            if other is item or other.penalised == item.penalised:
                continue
            named = targets_of(other.name)
            if len(named) != 1:
                continue
            (theirs,) = named
            under_own = any(theirs == t or t in vocabulary.broader(theirs) for t in own)
            if broader and not harmful and said in vocabulary.broader(theirs) and not under_own:
                why = f"`{show(alias)}` is a class above `{show(item.name, 40)}`, and `{show(other.name, 40)}`"
            elif harmful and own == {said} and theirs == said:
                why = f"`{show(alias)}` is the drug itself, and `{show(other.name, 40)}`"
            else:
                continue
            self.add("warning", "alias.bare_drug", where,
                     f"{why} ({other.klass}, line {self.line_of((other.list_name, other.index, 'item'))}) is "
                     f"{'that drug at another dose or route' if harmful else 'in that class'}: a plan that gives "
                     f"`{show(other.name, 40)}` {'would be penalised as' if harmful else 'counts as'} "
                     f"`{show(item.name, 40)}` through the alias. Write the alias with the drug, dose or route "
                     "that tells the two apart, or delete it.")
            return

    def condition_entries(self) -> None:
        """A critical condition's entries stand for items: a name split at its comma in a flow list
        is two fragments that match nothing; a bare phrase has no aliases and no meaning."""
        names: dict[str, str] = {}
        for list_name in ("workup", "treatment"):
            for _, entry in entries_at(self.data, list_name):
                for name in [text_at(entry, "item")] + [a for _, a in texts_at(entry, "aliases")]:
                    if name and name.strip():
                        names.setdefault(name.strip().casefold(), name)
        items = [n for _, e in entries_at(self.data, "workup") + entries_at(self.data, "treatment")
                 if (n := text_at(e, "item"))]
        harmful = {name.strip().casefold(): (text_at(e, "item") or name, str(e.get("class")))
                   for _, e in entries_at(self.data, "treatment") if e.get("class") in HARMFUL_CLASSES
                   for name in [text_at(e, "item")] + [a for _, a in texts_at(e, "aliases")] if name}
        for i, entry in entries_at(self.data, "treatment"):
            if entry.get("class") in HARMFUL_CLASSES:
                continue
            for j, alternative in texts_at(entry, "alternatives"):
                meant = harmful.get(alternative.strip().casefold())
                if meant is not None:
                    self.add("error", "item.harmful_alternative", ("treatment", i, "alternatives", j),
                             f"`{show(alternative)}` is an alternative of `{show(text_at(entry, 'item'))}` "
                             f"({entry.get('class')}), but names `{show(meant[0])}`, which is `{meant[1]}`: the "
                             "harmful plan would fully meet the item. Take it out of `alternatives`.")
        joined_names = {_spaced(n): n for n in names.values() if "," in n}
        for i, condition in entries_at(self.data, "critical_conditions"):
            entries = texts_at(condition, "items")
            j = 0
            while j < len(entries):
                run = next((k for k in range(len(entries), j + 1, -1)
                            if _spaced(", ".join(e for _, e in entries[j:k])) in joined_names), None)
                if run is None:
                    j += 1
                    continue
                whole = joined_names[_spaced(", ".join(e for _, e in entries[j:run]))]
                parts = " and ".join(f"`{show(e.strip(), 40)}`" for _, e in entries[j:run])
                self.add("error", "condition.split_name", ("critical_conditions", i, "items", entries[j][0]),
                         f"{parts} are one item's name split at its comma{'s' if run - j > 2 else ''}: in a "
                         f"`[...]` list a comma separates entries, so each fragment names no item. Quote the "
                         f"name in the list (\"{whole}\"), or write one `- ` entry per line.")
                j = run
            kind = text_at(condition, "kind")
            for j, said in entries:
                meant = harmful.get(said.strip().casefold())
                if meant is not None and kind == "must_include":
                    self.add("error", "condition.harmful_item", ("critical_conditions", i, "items", j),
                             f"`{show(said)}` names `{show(meant[0])}`, which is `{meant[1]}`, in a `must_include` "
                             "condition: giving the harmful thing would satisfy what the plan must do. Take it out "
                             "of this list (a harmful item belongs in a `must_not_include` condition).")
                if said.strip().casefold() not in names:
                    close = closest(said, items)
                    if close is not None and fuzz.ratio(said.casefold(), close.casefold()) >= MISSPELT_RATIO:
                        self.add("warning", "condition.misspelt_item", ("critical_conditions", i, "items", j),
                                 f"`{show(said)}` names no item, but is nearly `{show(close)}`: as written it is "
                                 "searched as a bare phrase, without that item's aliases, timing or meaning. "
                                 "Correct it to the item's name.")
                        continue
                    self.add("info", "condition.phrase_entry", ("critical_conditions", i, "items", j),
                             f"`{show(said)}` names no work-up or treatment item, so it is searched as a bare "
                             "phrase, without aliases, timing or meaning. Name the item it stands for (add one, "
                             f"with aliases, if there is none).{did_you_mean(said, items)}")

    def leaks(self) -> None:
        diagnosis = self.data.get("diagnosis")
        primary = diagnosis.get("primary") if isinstance(diagnosis, dict) else None
        if not isinstance(primary, dict):
            return
        names = [n for n in [text_at(primary, "name")] + [a for _, a in texts_at(primary, "aliases")] if n]
        names += [n for term in read_vocabulary().conditions_named(names) for n in (*term.names, *term.lay)]
        terms = [t for t in (Term.of(n) for n in dict.fromkeys(names)) if t]
        code = (text_at(primary, "icd10") or "").strip()
        code_pattern = re.compile(rf"(?<![A-Za-z0-9]){re.escape(code)}(?![0-9])", re.I) if len(code) >= 3 else None
        if not terms and code_pattern is None:
            return
        behaviours = [b for _, b in texts_at(self.data.get("patient"), "behavior")]
        places: list[tuple[YamlPath, str, str | None]] = [(("intro",), "The intro", text_at(self.data, "intro"))]
        places += [(("additional_answers", i, "answer"), f"The answer `{text_at(a, 'id') or i + 1}`",
                    text_at(a, "answer")) for i, a in entries_at(self.data, "additional_answers")]
        for path, label, value in places:
            found = first_leak(value or "", terms, code_pattern)
            if found is None:
                continue
            message = (f"{label} gives the diagnosis away (`{show(found[1])}`): the patient would "
                       "name what the doctor should find out. Describe what the patient notices instead.")
            if "self_diagnosis" in behaviours:
                message += " (This patient has `self_diagnosis` behaviour: if the guess is intended, keep it.)"
            self.add("warning", "leak.diagnosis", path, message, at=self._leak_position(path, terms, code_pattern))
        for i, attachment in entries_at(self.data, "attachments"):
            # the patient hands an attachment over by its title, and play shows it (case-format.md)
            path = ("attachments", i, "title")
            found = first_leak(text_at(attachment, "title") or "", terms, code_pattern)
            if found is not None:
                self.add("warning", "leak.attachment_title", path,
                         f"The title of attachment `{text_at(attachment, 'id') or i + 1}` names the diagnosis "
                         f"(`{show(found[1])}`): it is shown and said when the patient hands it over. Name what "
                         "was done instead (`Leg vein ultrasound`, not `DVT scan`).",
                         at=self._leak_position(path, terms, code_pattern))

    def contradictions(self) -> None:
        """A patient fact and an attachment that disagree about a state (``contradictions.py``): the
        patient would say one thing and the results show another, and a doctor who asks is misled."""
        facts: list[tuple[YamlPath, str, str]] = [(("intro",), "intro", text_at(self.data, "intro") or "")]
        facts += [(("additional_answers", i, "answer"), text_at(a, "id") or str(i + 1), text_at(a, "answer") or "")
                  for i, a in entries_at(self.data, "additional_answers")]
        said = [(path, name, statement) for path, name, text in facts for statement in statements(text)]
        if not said:
            return
        for i, attachment in entries_at(self.data, "attachments"):
            for key in ("content", "description"):
                path: YamlPath = ("attachments", i, key)
                text = text_at(attachment, key) or ""
                found = disagreements([s for _, _, s in said], statements(text))
                for disagreement in found[:1]:
                    fact_path, name = next((p, n) for p, n, s in said if s is disagreement.fact)
                    self.add("warning", "record.contradiction", path,
                             f"The attachment `{text_at(attachment, 'id') or i + 1}` contradicts the patient's "
                             f"`{name}` (line {self.line_of(fact_path)}): {disagreement.why()}. Make the record "
                             "agree with itself; if the change is the point of the case, say so in the fact.",
                             at=self._position_in(path, _finding(disagreement.record.words)))

    def criterion_entries(self) -> None:
        """Each criterion carries what its grader reads and has its own id; some criterion gives points
        (a rubric case's ``criteria``, and a consultation case's points on its final response)."""
        criteria = self.data.get("criteria")
        first: dict[str, int] = {}
        positive = 0.0
        for i, entry in entries_at(self.data, "criteria"):
            where = ("criteria", i)
            criterion_id = text_at(entry, "id")
            self.once(first, where, criterion_id, "criterion.duplicate_id", named="criterion id", noun="criterion")
            points = number_at(entry, "points")
            positive += max(points or 0.0, 0.0)
            self._grader_rule(where, entry, criterion_id or f"number {i + 1}")
        if isinstance(criteria, list) and criteria and positive <= 0:
            self.add("error", "criterion.no_positive", ("criteria",),
                     "No criterion has positive points, so the score (points met over positive points) cannot be "
                     "computed: give at least one criterion positive points.", at_key=True)

    def _grader_rule(self, where: tuple[str, int], entry: JSONObject, label: str) -> None:
        grader = text_at(entry, "grader")
        for key in RULE_OF.values():
            if key in entry and grader in ("phrases", "number", "judge", "physician") and RULE_OF.get(grader) != key:
                self.add("error", "criterion.unused_rule", (*where, key),
                         f"Criterion `{label}` has `{key}:` but `grader: {grader}`, which does not read it: "
                         f"set `grader: {key}`, or delete `{key}:`.", at_key=True)
        needed = RULE_OF.get(grader or "")
        if needed is not None and needed not in entry:
            self.add("error", "criterion.no_rule", (*where, "grader"),
                     f"Criterion `{label}` is graded by `{needed}` but has no `{needed}:`: "
                     + ("add `phrases: {any: [...]}` with the words that meet it."
                        if needed == "phrases" else "add `number: {value: ..., unit: ..., tolerance: ...}`."))
        rule = entry.get("phrases")
        if grader == "phrases" and isinstance(rule, dict):
            said = texts_at(rule, "any") + texts_at(rule, "all")
            if not said and not self._has_schema_error(where):
                self.add("error", "criterion.no_phrases", (*where, "phrases"),
                         f"Criterion `{label}` lists no phrase: write the words that meet it under `any:` "
                         "(one of them) or `all:` (every one).", at_key=True)
            for key in ("any", "all"):
                for j, phrase in texts_at(rule, key):
                    if not phrase.strip():
                        self.add("error", "criterion.blank_phrase", (*where, "phrases", key, j),
                                 f"Phrase {j + 1} of `{key}` is empty: write the words, or delete it.")

    def _has_schema_error(self, where: tuple[str, int]) -> bool:
        prefix = ".".join(map(str, where))
        return any(d.severity == "error" and d.path.startswith(prefix) for d in self.diagnostics)

    def comments_in_blocks(self) -> None:
        """A `# ...` line inside `|` text is text, not a comment: the patient would say it. A check's example final
        response is the exception for Markdown headings (`## Plan`): a response is written that way."""
        lines = LINE_BREAK.split(self.parsed.text)
        for path, first_line, value in self.positions.literal_blocks():
            heading_ok = path[:2] == ("checks", "answers") or path[0] in ("prompt", "messages")
            offset = next((n for n, line in enumerate(value.split("\n")) if line.lstrip().startswith("#")
                           and not (heading_ok and _MARKDOWN_HEADING.match(line.lstrip()))), None)
            if offset is None:
                continue
            number = first_line + offset
            line = lines[number - 1] if number <= len(lines) else ""
            self.add("warning", "yaml.comment_in_block", path,
                     f"`{show(line.strip(), 50)}` looks like a comment, but inside the `|` text of "
                     f"`{dotted(path)}` it is part of the text, shown and said as written: delete it, or "
                     "move the comment above the key.", at=(number, line.find("#") + 1 if "#" in line else 1))

    def _leak_position(
        self, path: YamlPath, terms: list[Term], code_pattern: re.Pattern[str] | None
    ) -> tuple[int, int] | None:
        """The line and column of the give-away in the file (the value's start if it spans lines)."""
        def give_away(segment: str) -> int | None:
            found = first_leak(segment, terms, code_pattern)
            return None if found is None else found[0]

        return self._position_in(path, give_away)

    def _position_in(self, path: YamlPath, find: Callable[[str], int | None]) -> tuple[int, int] | None:
        """The line and column where ``find`` finds its words in the value at ``path``, line by line of
        the file (the value's start if no line has them)."""
        span = self.positions.span(path)
        if span is None:
            return None
        (first, start), (last, end) = span
        lines = LINE_BREAK.split(self.parsed.text)
        for number in range(first, min(last, len(lines)) + 1):
            offset = start - 1 if number == first else 0
            column = find(lines[number - 1][offset: end - 1 if number == last else None])
            if column is not None:
                return number, offset + column + 1
        return span[0]

    # across the bank ------------------------------------------------------------------

    def bank_checks(self) -> None:
        bank = self.bank
        assert bank is not None  # run only against a bank
        case_id, parent_id = text_at(self.data, "id"), text_at(self.data, "parent_id")
        if parent_id is not None and parent_id != case_id and not bank.has_case(parent_id):
            self.add("error", "ref.unknown_parent", ("parent_id",),
                     f"`parent_id` names `{show(parent_id)}`, but no case in {bank.root} has that id."
                     f"{did_you_mean(parent_id, sorted(bank.ids))}")
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
        reviewers = {r.strip().casefold() for _, r in texts_at(self.data, "reviewers") if r.strip()}
        if len(reviewers) < 2:
            self.add("warning", "case.final_reviewers", ("status",),
                     f"A `final` case needs at least two reviewers; it has {len(reviewers)}: add them "
                     "under `reviewers:` or set `status: review`.")
        errors = count(self.diagnostics, "error")
        if errors:
            self.add("error", "case.final_with_errors", ("status",),
                     f"A case with errors cannot be `final` ({errors} error(s) here): fix them or set "
                     "`status: review`.")


_DIGIT = re.compile(r"\d")
MISSPELT_RATIO = 90.0
"""rapidfuzz ratio (0-100) at which a condition entry that names no item is taken for a misspelt
item name ("Intravenous immunoglobin 2 g/kg" for "Intravenous immunoglobulin 2 g/kg")."""


def _named_in(teams: frozenset[VocabularyTerm], name: str) -> bool:
    """Whether a word of substance of any name of ``teams`` is in ``name`` ("high-dependency care"
    names the high dependency unit, though the vocabulary reads no team there)."""
    words = {w for w in re.findall(r"[a-z]{4,}", name.casefold())}
    return any(w in words for team in teams for n in (team.name, *team.also)
               for w in re.findall(r"[a-z]{4,}", n.casefold()))


def _bare_kind(alias: str) -> str | None:
    """"team" where ``alias`` is one word that names only a team, "test" where it is one word that names
    only a test or procedure (one of the grader's unlisted test or therapy words), else None:
    an action, a time, a drug, a dose or other words make it more than a bare name."""
    said = reading.read_action(alias)
    if said.acts or said.windows or said.drugs or said.classes or said.doses or _DIGIT.search(alias):
        return None
    if said.teams:
        return "team" if said.covered >= 1.0 and not said.routes and len(tokenize(alias)) == 1 else None
    return "test" if len(tokenize(alias)) == 1 and _bare_heads(alias) else None


def _bare_heads(text: str) -> set[str]:
    """The words of ``text`` that make it a test or procedure for the grader (its unlisted test and
    therapy words and test endings: "angiography", "transfusion"), as normalised words."""
    vocabulary = read_vocabulary()
    heads = {*vocabulary.phrases("unlisted_test_words"), *vocabulary.phrases("unlisted_therapy_words")}
    endings = tuple(vocabulary.phrases("unlisted_test_endings"))
    norms = {w for t in tokenize(text) for w in (*t.norm.split(), t.low)}
    return {n for n in norms if n in heads or n.endswith(endings)}


def _spaced(text: str) -> str:
    """A name compared as its words: case and the spaces around its commas do not matter."""
    return " ".join(re.findall(r"[^\s,]+|,", text.casefold()))


def said_team(said: reading.ActionReading) -> str:
    """The team a reading names, in the vocabulary's words (for an example in a message)."""
    return min((t.name for t in said.teams), key=len, default="team")


def _lookup_problem(path: Path) -> str | None:
    """Why ``path`` cannot even be looked up (a name over 255 bytes, say), or None."""
    try:
        path.is_file()
    except OSError as exc:
        return (exc.strerror or str(exc)).lower()
    return None


def _id_mismatch_fix(case_id: str, stem: str) -> str:
    """Only offer a name that is itself a valid id, so following the advice never trades one error for another."""
    valid = [name for name in (case_id, stem) if re.fullmatch(CASE_ID_PATTERN, name)]
    if valid == [case_id, stem]:
        return f"rename the file to `{case_id}.yaml` or set `id: {stem}`"
    if valid == [case_id]:
        return f"rename the file to `{case_id}.yaml`"
    if valid == [stem]:
        return f"set `id: {stem}`"
    return ("choose one id of lowercase letters, digits and '-' (for example `cardio-chest-pain-001`), "
            "then use it for both `id:` and the file name")
