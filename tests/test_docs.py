"""The documentation in the repository stays true: every field of the case format is
described, every page the docs link to exists, and an installed copy carries the docs."""

from __future__ import annotations

import re
import typing
from pathlib import Path

from pydantic import BaseModel

from medbench_tui.core.cases.model import Case

REPO = Path(__file__).resolve().parents[1]
DOCS = REPO / "docs"


def _fields(model: type[BaseModel], prefix: str = "") -> list[str]:
    paths = []
    for name, info in model.model_fields.items():
        path = f"{prefix}{info.alias or name}"
        paths.append(path)
        annotation = info.annotation
        candidates = [annotation, *typing.get_args(annotation)]
        candidates += [inner for outer in typing.get_args(annotation) for inner in typing.get_args(outer)]
        for candidate in candidates:
            if isinstance(candidate, type) and issubclass(candidate, BaseModel) and candidate is not model:
                paths += _fields(candidate, path + ".")
                break
    return paths


def test_every_field_of_the_case_format_is_described():
    text = (DOCS / "case-format.md").read_text(encoding="utf-8")
    described = set(re.findall(r"`([a-z_0-9.]+)`", text))
    missing = [path for path in _fields(Case) if path not in described]
    assert not missing, f"docs/case-format.md does not describe: {missing}"


def test_every_link_between_the_pages_leads_somewhere():
    broken = []
    for page in [*DOCS.glob("*.md"), REPO / "README.md"]:
        for target in re.findall(r"\]\(([^)#]+\.md)\)", page.read_text(encoding="utf-8")):
            if not (page.parent / target).is_file():
                broken.append(f"{page.name} -> {target}")
    assert not broken


def test_the_docs_ship_in_the_wheel():
    pyproject = (REPO / "pyproject.toml").read_text(encoding="utf-8")
    assert '"docs" = "medbench_tui/_bundled/docs"' in pyproject


def test_every_field_of_the_rubric_case_format_is_described():
    from medbench_tui.core.cases.rubric import RubricCase

    text = (DOCS / "rubric.md").read_text(encoding="utf-8")
    described = set(re.findall(r"`([a-z_0-9.]+)`", text))
    missing = [path for path in _fields(RubricCase) if path not in described]
    assert not missing, f"docs/rubric.md does not describe: {missing}"
