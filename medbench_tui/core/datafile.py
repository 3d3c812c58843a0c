"""Data files people edit by hand (the vocabulary, the price table): each entry checked
against its pydantic model, every problem reported at its line with what to change, and one
bad entry never hiding the others."""

from __future__ import annotations

import difflib
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, TypeVar

from pydantic import BaseModel, ConfigDict, StringConstraints, ValidationError
from pydantic_core import ErrorDetails

from medbench_tui.core.diagnostics import Diagnostic, Severity
from medbench_tui.core.errors import MedbenchError
from medbench_tui.core.jsondata import JSONObject, JSONValue
from medbench_tui.core.yamldoc import ParsedYaml, YamlPath

Text = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1)]
"""A name or phrase in a data file: trimmed, never empty."""


class StrictEntry(BaseModel):
    """An entry of a data file: an unknown key is an error (a typo must not pass silently), and an
    entry is not changed once read."""

    model_config = ConfigDict(extra="forbid", frozen=True)

FileModel = TypeVar("FileModel", bound=BaseModel)


@dataclass(frozen=True)
class Problem:
    """A finding in a data file."""

    file: Path
    diagnostic: Diagnostic

    def __str__(self) -> str:
        d = self.diagnostic
        return f"{self.file}:{d.line or 1}:{d.column or 1}: {d.severity} {d.code}: {d.message}"


class DataFileError(MedbenchError):
    """A data file has errors: each is listed at its line with what to change."""

    what = "the data file"

    def __init__(self, problems: list[Problem]) -> None:
        self.problems = problems
        errors = [p for p in problems if p.diagnostic.severity == "error"]
        super().__init__(
            f"{len(errors)} error{'s' if len(errors) != 1 else ''} in {self.what}:\n"
            + "\n".join(f"  {p}" for p in errors)
        )


def problem(path: Path, code: str, message: str, at: tuple[int, int] | None,
            severity: Severity = "error", where: YamlPath = ()) -> Problem:
    line, column = at or (1, 1)
    return Problem(path, Diagnostic(severity=severity, code=code, message=message,
                                    path=".".join(str(p) for p in where), line=line, column=column))


def valid_sections(path: Path, parsed: ParsedYaml, problems: list[Problem], file_model: type[FileModel],
                   entry_models: Mapping[str, type[BaseModel]]) -> FileModel:
    """The file's valid parts as ``file_model``: each list section of ``entry_models`` entry by
    entry, the other sections whole; each invalid part is a problem at its line and is left out."""
    kept: JSONObject = {}
    for section, value in dict(parsed.data).items():
        entry_model = entry_models.get(section) if isinstance(section, str) else None
        if entry_model is not None and isinstance(value, list):
            good = []
            for i, entry in enumerate(value):
                try:
                    good.append(entry_model.model_validate(entry, by_alias=True, by_name=False))
                except ValidationError as exc:
                    problems.extend(schema_problems(path, parsed, exc.errors(include_url=False), file_model,
                                                    entry_models, (section, i)))
            kept[section] = good
            continue
        try:
            file_model.model_validate({section: value}, by_alias=True, by_name=False)
            kept[section] = value
        except ValidationError as exc:
            problems.extend(schema_problems(path, parsed, exc.errors(include_url=False), file_model, entry_models))
    return file_model.model_validate(kept, by_alias=True, by_name=False)

_EXPECTED = {
    "string_type": "text", "list_type": "a list", "dict_type": "a mapping", "float_type": "a number",
    "float_parsing": "a number", "int_type": "a whole number", "int_parsing": "a whole number",
    "tuple_type": "a list of two numbers", "model_type": "a mapping", "bool_type": "true or false",
}


def schema_problems(path: Path, parsed: ParsedYaml, errors: list[ErrorDetails], file_model: type[BaseModel],
                    entry_models: Mapping[str, type[BaseModel]], within: YamlPath = ()) -> Iterator[Problem]:
    seen: set[YamlPath] = set()
    for error in errors:
        where = _data_path(parsed.data, {**error, "loc": (*within, *error["loc"])})
        if where in seen:
            continue
        seen.add(where)
        kind = error["type"]
        name = ".".join(str(p) for p in where) or "the file"
        if kind == "missing":
            missing = error["loc"][-1]
            yield problem(path, "schema.missing", f"`{name}` has no `{missing}`: add `{missing}: ...`.",
                           parsed.positions.locate(where), where=where)
        elif kind == "extra_forbidden":
            allowed = _allowed_keys(where, file_model, entry_models)
            hint = difflib.get_close_matches(str(where[-1]), allowed, n=1)
            yield problem(path, "schema.unknown_key",
                           f"`{where[-1]}` is not a key here."
                           + (f" Did you mean `{hint[0]}`?" if hint else "")
                           + (f" Keys allowed here: {', '.join(allowed)}." if allowed else ""),
                           parsed.positions.locate_key(where), where=where)
        elif kind == "literal_error":
            expected = error.get("ctx", {}).get("expected", "")
            yield problem(path, "schema.enum", f"`{error.get('input')}` is not allowed for `{name}`: use {expected}.",
                           parsed.positions.locate(where), where=where)
        elif kind in ("too_short", "string_too_short"):
            yield problem(path, "schema.empty", f"`{name}` is empty: write it out or remove it.",
                           parsed.positions.locate(where), where=where)
        elif kind in _EXPECTED:
            yield problem(path, "schema.type", f"`{name}` must be {_EXPECTED[kind]}.",
                           parsed.positions.locate(where), where=where)
        else:
            yield problem(path, "schema.value", f"`{name}`: {error['msg']}.",
                           parsed.positions.locate(where), where=where)


def _data_path(data: JSONValue, error: ErrorDetails) -> YamlPath:
    """The YAML path of a pydantic error (pydantic's own names of unions and tags dropped)."""
    out: list[str | int] = []
    current = data
    loc = error["loc"]
    for i, part in enumerate(loc):
        inside_list = isinstance(current, list) and isinstance(part, int) and 0 <= part < len(current)
        if inside_list or isinstance(current, dict) and part in current:
            out.append(part)
            current = current[part]
        elif isinstance(current, dict) and i == len(loc) - 1 and error["type"] == "extra_forbidden":
            out.append(part)
    return tuple(out)


def _allowed_keys(where: YamlPath, file_model: type[BaseModel],
                  entry_models: Mapping[str, type[BaseModel]]) -> list[str]:
    section = where[0] if where else None
    if len(where) <= 1:
        return list(file_model.model_fields)
    chosen = entry_models.get(str(section))
    if chosen is None:
        return []
    return [f.alias or n for n, f in chosen.model_fields.items()]
