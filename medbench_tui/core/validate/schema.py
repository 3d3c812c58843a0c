"""The JSON Schema of the case format, for editors."""

from __future__ import annotations

from pydantic.json_schema import models_json_schema

from medbench_tui.core.cases.model import Case
from medbench_tui.core.cases.rubric import RUBRIC, RubricCase
from medbench_tui.core.jsondata import JSONObject

SCHEMA_ID = "urn:medbench:case-format:1"


def case_json_schema() -> JSONObject:
    """The JSON Schema of case format v1 for editors (``medbench schema``; committed copy
    at ``medbench_tui/schema/case.schema.json``): a file that says ``kind: rubric`` is a
    rubric case, any other a consultation case."""
    refs, generated = models_json_schema(
        [(Case, "validation"), (RubricCase, "validation")], by_alias=True, ref_template="#/$defs/{model}")
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": SCHEMA_ID,
        "title": "medbench case, format version 1",
        "type": "object",
        "if": {"properties": {"kind": {"const": RUBRIC}}, "required": ["kind"]},
        "then": refs[(RubricCase, "validation")],
        "else": refs[(Case, "validation")],
        **generated,
    }
