"""The JSON Schema of the case format: generated from the models, committed for editors."""

from __future__ import annotations

import json

from medbench_tui.cli import main
from medbench_tui.core import paths
from medbench_tui.core.cases.bank import consultation_files
from medbench_tui.core.validate import SCHEMA_ID, case_json_schema


def test_committed_schema_is_the_generated_one():
    committed = json.loads(paths.schema_file().read_text(encoding="utf-8"))
    assert committed == case_json_schema(), (
        "the committed schema is stale: run `medbench schema > medbench_tui/schema/case.schema.json` "
        "and copy it to cases/")


def test_schema_command_prints_it(capsys):
    assert main(["schema"]) == 0
    assert json.loads(capsys.readouterr().out) == case_json_schema()


def test_schema_names_yaml_keys_and_forbids_unknown_ones():
    schema = case_json_schema()
    assert schema["$id"] == SCHEMA_ID and "version 1" in schema["title"]
    assert schema["$schema"].startswith("https://json-schema.org/")
    workup = schema["$defs"]["WorkupItem"]
    assert "class" in workup["properties"] and "klass" not in workup["properties"]
    assert "class" in workup["required"]
    case = schema["$defs"]["Case"]
    assert case["additionalProperties"] is False
    assert set(case["required"]) >= {"id", "title", "metadata", "intro", "additional_answers", "diagnosis"}
    assert case["properties"]["extensions"]["type"] == "object"


def test_schema_reads_a_rubric_file_as_a_rubric_case_and_any_other_as_a_consultation():
    schema = case_json_schema()
    assert schema["if"] == {"properties": {"kind": {"const": "rubric"}}, "required": ["kind"]}
    assert schema["then"] == {"$ref": "#/$defs/RubricCase"} and schema["else"] == {"$ref": "#/$defs/Case"}
    rubric = schema["$defs"]["RubricCase"]
    assert rubric["additionalProperties"] is False
    assert {"criteria", "panel", "prompt", "messages"} <= set(rubric["properties"])
    assert set(rubric["required"]) == {"kind", "id", "title", "metadata"}


def test_the_bank_schema_reference_survives_a_copy_of_the_bank(tmp_path):
    """The bundled cases' modeline says `$schema=case.schema.json`: the file beside them is a
    copy of the package's schema, not a link, so `cp -r cases mybank` keeps it (a relative
    link would point nowhere from the copy)."""
    import re
    import shutil
    from pathlib import Path

    cases = Path(__file__).resolve().parent.parent / "cases"
    beside = cases / "case.schema.json"
    assert not beside.is_symlink(), "a link breaks when the bank is copied: commit a copy of the schema"
    assert beside.read_bytes() == paths.schema_file().read_bytes(), (
        "the schema beside the bundled cases is stale: cp medbench_tui/schema/case.schema.json cases/")
    copy = tmp_path / "mybank"
    shutil.copytree(cases, copy, symlinks=True)  # what `cp -r` does with links
    for case in copy.glob("*.yaml"):
        found = re.match(r"# yaml-language-server: \$schema=(\S+)", case.read_text(encoding="utf-8"))
        if found is None:
            continue
        target = case.parent / found[1]
        assert target.is_file() and json.loads(target.read_text(encoding="utf-8")) == case_json_schema(), case.name


def test_the_schema_beside_the_bundled_cases_is_the_package_schema_in_repo_and_wheel(tmp_path):
    """The bundled cases' modeline says `$schema=case.schema.json`: in the repo and in a wheel
    that file is a copy of the package's schema."""
    import subprocess
    import sys
    import zipfile
    from pathlib import Path

    repo = Path(__file__).resolve().parent.parent
    beside = repo / "cases" / "case.schema.json"
    assert beside.read_bytes() == paths.schema_file().read_bytes()
    built = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q", "-w", str(tmp_path),
         str(repo)],
        capture_output=True, text=True,
    )
    assert built.returncode == 0, built.stderr
    (wheel,) = tmp_path.glob("medbench_tui-*.whl")
    with zipfile.ZipFile(wheel) as archive:
        assert archive.read("medbench_tui/_bundled/cases/case.schema.json") == archive.read(
            "medbench_tui/schema/case.schema.json")
        # the demo group ships with the bundled bank: the offline comparison works from a wheel too
        names = archive.namelist()
        clinical = [p for p in consultation_files(repo / "cases") if not p.name.startswith("err-")]
        for system in ("strong", "middling", "weak"):
            shipped = [n for n in names if n.startswith(f"medbench_tui/_bundled/cases/demo/{system}/")]
            assert len(shipped) == len(clinical), (system, len(shipped))
        assert b"demo-strong:" in archive.read("medbench_tui/_bundled/cases/medbench.yaml")
