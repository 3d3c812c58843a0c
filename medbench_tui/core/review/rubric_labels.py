"""Physicians' labels of rubric answers: the file a physician writes to say, for answers to one
rubric case, which criteria each answer meets (a points rubric) or which actions it includes (an
action panel). ``medbench agreement --rubric-labels`` grades the same answers and compares.

One YAML file per rubric case::

    case: rb-calc-001
    answers:
      - id: excellent
        text: |
          ...
        labels: {c-crcl: met, c-no-adjust: not_met}      # a points rubric
        included: ["Stop the co-amoxiclav infusion"]      # an action panel: the actions taken

Every problem is reported at its line, and the labels are checked against the case they name
(an unknown criterion or panel action is an error, not a silent miss).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from pydantic import Field

from medbench_tui.core.cases.rubric import RubricCase
from medbench_tui.core.datafile import DataFileError, Problem, StrictEntry, Text, problem, valid_sections
from medbench_tui.core.errors import MedbenchError
from medbench_tui.core.yamldoc import FileKind, ParsedYaml, parse_yaml_text

Label = Literal["met", "not_met"]

LABEL_FILE = FileKind(
    noun="rubric labels",
    needs="`case:` (a rubric case id) and `answers:` (a list of answers with `id`, `text` and `labels` or `included`)",
    example="`case: ...`, `answers: [...]`",
)


class LabelledAnswer(StrictEntry):
    """One answer and the physician's decision on each criterion or panel action."""

    id: Text = Field(description="the answer's name within the file (excellent, partial, unsafe)")
    text: Text = Field(description="the answer, as a system would have written it")
    labels: dict[str, Label] = Field(default_factory=dict,
                                     description="points rubric: criterion id -> met or not_met")
    included: list[Text] = Field(default_factory=list,
                                 description="action panel: the panel actions (as the case writes them) it takes")
    numbers: dict[str, float] = Field(default_factory=dict,
                                      description="the number the physician read for a number criterion (a note)")


class LabelFile(StrictEntry):
    case: Text | None = Field(default=None, description="the rubric case's id")
    answers: list[LabelledAnswer] = Field(default_factory=list)


class LabelFileError(DataFileError):
    what = "the rubric labels"


@dataclass(frozen=True)
class LabelSet:
    """A read labels file: its answers, and the rubric case they answer."""

    path: Path
    case: RubricCase
    answers: list[LabelledAnswer]


def read_label_file(path: Path) -> tuple[LabelFile, ParsedYaml, list[Problem]]:
    """The file's valid parts, how it parsed (for positions) and its problems."""
    problems: list[Problem] = []
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        return LabelFile(), parse_yaml_text("", LABEL_FILE), [
            problem(path, "file.unreadable", f"Cannot read this file ({exc}): save it as UTF-8 text.", None)]
    parsed = parse_yaml_text(text, LABEL_FILE)
    problems.extend(Problem(path, d) for d in parsed.diagnostics)
    if not parsed.ok:
        return LabelFile(), parsed, problems
    content = valid_sections(path, parsed, problems, LabelFile, {"answers": LabelledAnswer})
    if content.case is None and "case" not in parsed.data:
        problems.append(problem(path, "labels.no_case", "Say which rubric case these answers are to: add `case: <id>`.",
                                (1, 1)))
    if "answers" not in parsed.data:
        problems.append(problem(path, "labels.no_answers", "Add `answers:` (a list of labelled answers).", (1, 1)))
    return content, parsed, problems


def check_against(path: Path, content: LabelFile, parsed: ParsedYaml, case: RubricCase) -> list[Problem]:
    """What in the labels does not fit the case: unknown criteria or actions, labels of the other
    kind (criteria for a panel, actions for a points rubric), answer ids given twice."""
    at = parsed.positions
    out: list[Problem] = []
    criteria = {c.id for c in case.criteria or []}
    actions = {a.action for a in case.panel or []}
    seen: set[str] = set()
    for i, answer in enumerate(content.answers):
        where = ("answers", i)
        if answer.id in seen:
            out.append(problem(path, "labels.duplicate", f"Answer `{answer.id}` is given twice: give each answer "
                               "its own id.", at.locate((*where, "id")), where=(*where, "id")))
        seen.add(answer.id)
        if case.panel is not None:
            if answer.labels:
                out.append(problem(path, "labels.kind", f"{case.id} is an action panel: list the actions the answer "
                                   "takes under `included:`, not criteria under `labels:`.",
                                   at.locate_key((*where, "labels")), where=(*where, "labels")))
            for j, action in enumerate(answer.included):
                if action not in actions:
                    out.append(problem(path, "labels.unknown_action",
                                       f"`{action}` is not an action of {case.id}'s panel: copy the action as the "
                                       "case writes it.", at.locate((*where, "included", j)),
                                       where=(*where, "included", j)))
            continue
        if answer.included:
            out.append(problem(path, "labels.kind", f"{case.id} is a points rubric: label its criteria under "
                               "`labels:` (criterion id: met or not_met), not actions under `included:`.",
                               at.locate_key((*where, "included")), where=(*where, "included")))
        for criterion in answer.labels:
            if criterion not in criteria:
                out.append(problem(path, "labels.unknown_criterion",
                                   f"`{criterion}` is not a criterion of {case.id}: use one of "
                                   f"{', '.join(sorted(criteria))}.", at.locate_key((*where, "labels", criterion)),
                                   where=(*where, "labels", criterion)))
    return out


def rubric_cases_in(where: Path) -> dict[str, RubricCase]:
    """Rubric case id -> the case, for every rubric case file in ``where`` (a folder, a bank or one
    file); an invalid case is an error listing its lines."""
    from medbench_tui.core.cases.bank import BankEntry, rubric_files
    from medbench_tui.core.validate import load_valid_rubric

    if not where.exists():
        raise MedbenchError(f"{where}: no such file or folder")
    files = rubric_files(where)
    if not files:
        raise MedbenchError(f"{where} holds no rubric cases (files with kind: rubric)")
    return {BankEntry.read(f).case_id: load_valid_rubric(f) for f in files}


def load_label_sets(folder: Path, cases: dict[str, RubricCase]) -> list[LabelSet]:
    """Every ``*.yaml`` labels file in ``folder`` (or the one file given), checked against the
    rubric case it names in ``cases``; LabelFileError lists every problem of every file at its line."""
    files = sorted(p for p in folder.iterdir() if p.suffix in (".yaml", ".yml")) if folder.is_dir() else [folder]
    if not files:
        raise LabelFileError([problem(folder, "labels.none", "No labels files (*.yaml) in this folder.", None)])
    problems: list[Problem] = []
    sets = []
    for path in files:
        content, parsed, found = read_label_file(path)
        problems += found
        if content.case is None:
            continue
        case = cases.get(content.case)
        if case is None:
            near = ", ".join(sorted(cases)[:8]) or "none"
            problems.append(problem(path, "labels.unknown_case",
                                    f"No rubric case `{content.case}` among the cases given (--cases): "
                                    f"known: {near}{', ...' if len(cases) > 8 else ''}",
                                    parsed.positions.locate(("case",)), where=("case",)))
            continue
        problems += check_against(path, content, parsed, case)
        sets.append(LabelSet(path, case, list(content.answers)))
    if any(p.diagnostic.severity == "error" for p in problems):
        raise LabelFileError(problems)
    return sets
