"""The new-case template, variants and the trash (core, no Textual)."""

from __future__ import annotations

import pytest

from medbench_tui.core.cases.templates import (
    check_new_case_id,
    create_case,
    create_variant,
    new_case_text,
    suggest_variant_id,
    trash_case,
    variant_text,
)
from medbench_tui.core.cases.yamlio import parse_case_text
from medbench_tui.core.errors import MedbenchError
from medbench_tui.core.validate import validate_text


def test_template_fails_only_where_the_author_must_fill_in(tmp_path):
    text = new_case_text("im-new-001")
    path = tmp_path / "im-new-001.yaml"
    report = validate_text(text, path)
    lines = text.splitlines()
    assert report.errors, "the fields to fill in must show up as errors"
    for diagnostic in report.errors:
        assert "FILL IN" in lines[diagnostic.line - 1], (diagnostic, lines[diagnostic.line - 1])
    filled = {d.path for d in report.errors}
    assert {"title", "intro", "diagnosis.primary.name", "diagnosis.primary.icd10"} <= filled


def test_template_has_the_id_and_guiding_comments():
    text = new_case_text("im-new-001")
    data = parse_case_text(text).data
    assert data["id"] == "im-new-001"
    assert data["status"] == "draft"
    assert text.count("FILL IN") >= 5
    assert "__CASE_ID__" not in text


@pytest.mark.parametrize(
    ("case_id", "problem"),
    [
        ("", "Give the new case an id"),
        ("Im-Cap", "not a case id"),
        ("im--cap", "not a case id"),
        ("im cap", "not a case id"),
        ("taken-001", "already a case"),
        ("on-disk-001", "already a case"),
    ],
)
def test_new_case_ids_are_checked(tmp_path, case_id, problem):
    (tmp_path / "on-disk-001.yaml").write_text("id: on-disk-001\n")
    assert problem in check_new_case_id(case_id, tmp_path, {"taken-001"})


def test_a_good_new_id_passes(tmp_path):
    assert check_new_case_id("im-cap-002", tmp_path, {"im-cap-001"}) is None


def test_create_case_writes_the_template_and_never_overwrites(tmp_path):
    path = create_case(tmp_path, "ped-new-001")
    assert path == tmp_path / "ped-new-001.yaml"
    assert path.read_text() == new_case_text("ped-new-001")
    with pytest.raises(MedbenchError, match="already a case"):
        create_case(tmp_path, "ped-new-001")


SOURCE = """\
# A comment at the top that must survive.
schema_version: 1
id: im-cap-001
parent_id: null   # no parent
title: Pneumonia
status: final     # reviewed twice
intro: |
  I have a cough.
"""


def test_variant_gets_new_id_parent_and_draft_and_keeps_comments():
    text = variant_text(SOURCE, "im-cap-001-v2")
    data = parse_case_text(text).data
    assert data["id"] == "im-cap-001-v2"
    assert data["parent_id"] == "im-cap-001"
    assert data["status"] == "draft"
    assert "# A comment at the top that must survive." in text
    assert "# no parent" in text and "# reviewed twice" in text
    assert "intro: |\n  I have a cough.\n" in text


def test_variant_of_a_variant_shares_the_parent():
    source = SOURCE.replace("parent_id: null", "parent_id: im-cap-000")
    assert parse_case_text(variant_text(source, "im-cap-001-v2")).data["parent_id"] == "im-cap-000"


def test_variant_adds_missing_keys_in_place():
    source = "id: x-1\ntitle: T\nintro: hi\n"
    text = variant_text(source, "x-2")
    assert text.splitlines()[:4] == ["id: x-2", "parent_id: x-1", "title: T", "status: draft"]


def test_create_variant_beside_the_source(tmp_path):
    source = tmp_path / "im-cap-001.yaml"
    source.write_text(SOURCE)
    path = create_variant(source, "im-cap-001-v2")
    assert path == tmp_path / "im-cap-001-v2.yaml"
    assert source.read_text() == SOURCE
    assert "parent_id: im-cap-001" in path.read_text()


def test_suggested_variant_ids_are_free():
    assert suggest_variant_id("im-cap-001", set()) == "im-cap-001-v2"
    assert suggest_variant_id("im-cap-001", {"im-cap-001-v2"}) == "im-cap-001-v3"
    assert suggest_variant_id("im-cap-001-v2", {"im-cap-001-v2"}) == "im-cap-001-v3"


def test_trash_keeps_every_deleted_file(tmp_path):
    first = tmp_path / "a-1.yaml"
    first.write_text("one")
    kept = trash_case(first)
    assert kept == tmp_path / ".trash" / "a-1.yaml" and kept.read_text() == "one"
    assert not first.exists()
    first.write_text("two")
    again = trash_case(first)
    assert again == tmp_path / ".trash" / "a-1.2.yaml" and again.read_text() == "two"
    assert kept.read_text() == "one"


def test_trashed_files_are_not_cases(tmp_path):
    from medbench_tui.core.cases.bank import iter_case_files

    case = tmp_path / "a-1.yaml"
    case.write_text("id: a-1\n")
    trash_case(case)
    assert iter_case_files(tmp_path) == []


def test_the_template_modeline_points_at_a_schema_that_exists(tmp_path):
    from pathlib import Path
    from urllib.parse import unquote, urlparse

    first = new_case_text("im-new-001").splitlines()[0]
    assert first.startswith("# yaml-language-server: $schema=file://")
    assert Path(unquote(urlparse(first.split("=", 1)[1]).path)).is_file()
    (tmp_path / "case.schema.json").write_text("{}")
    assert create_case(tmp_path, "im-new-002").read_text().splitlines()[0] == (
        "# yaml-language-server: $schema=case.schema.json")


def test_bundled_cases_point_at_the_schema_beside_them():
    from pathlib import Path

    cases = Path(__file__).resolve().parents[2] / "cases"
    assert (cases / "case.schema.json").is_file()
    for path in cases.glob("*-[0-9][0-9][0-9].yaml"):
        assert path.read_text().startswith("# yaml-language-server: $schema=case.schema.json\n"), path.name
