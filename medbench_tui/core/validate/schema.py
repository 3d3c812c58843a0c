"""The JSON Schema of the case format, for editors."""

from __future__ import annotations

from medbench_tui.core.cases.model import Case

SCHEMA_ID = "urn:medbench:case-format:1"


def case_json_schema() -> dict[str, object]:
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
