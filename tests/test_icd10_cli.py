"""`medbench icd lookup|search`: output shapes and exit codes; the data folder in a wheel."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from medbench_tui.cli import main
from medbench_tui.core import paths
from medbench_tui.core.icd10 import data

pytestmark = pytest.mark.cold_icd_cache  # the commands here build the tables themselves, as on a first run

REPO = Path(__file__).resolve().parent.parent


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(["icd", *argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_lookup_json_shape(capsys):
    code, out, err = run(capsys, "lookup", "j189", "E11.65", "J09-J18", "--format", "json")
    assert code == 1  # E11.65 and the block are not valid codes
    document = json.loads(out)
    assert document[0] == {
        "code": "J18.9", "valid": True, "title": "Pneumonia, unspecified", "kind": "subcategory",
        "cm_only": False, "suggestions": [],
    }
    assert document[1]["code"] == "E11.65" and document[1]["valid"] is False and document[1]["cm_only"] is True
    assert document[1]["title"] is None and document[1]["kind"] is None
    assert document[1]["suggestions"][0] == {
        "code": "E11.6", "title": "Type 2 diabetes mellitus with other specified complications"
    }
    assert (document[2]["kind"], document[2]["valid"]) == ("block", False)
    assert all(list(entry) == ["code", "valid", "title", "kind", "cm_only", "suggestions"] for entry in document)


def test_lookup_text(capsys):
    code, out, _ = run(capsys, "lookup", "J18.9", "I10")
    assert code == 0
    assert "J18.9  Pneumonia, unspecified" in out and "valid WHO ICD-10 2019 subcategory" in out
    code, out, _ = run(capsys, "lookup", "R65.21")
    assert code == 1
    assert "ICD-10-CM" in out and "note:" in out and "use instead:" in out and "R57.2  Septic shock" in out


def test_search_json_and_text(capsys):
    code, out, err = run(capsys, "search", "heart", "attack", "--limit", "3", "--format", "json")
    assert code == 0 and err == ""
    hits = json.loads(out)
    assert len(hits) == 3 and hits[0]["code"] == "I21.9"
    assert all(list(hit) == ["code", "title", "score"] and 0 <= hit["score"] <= 100 for hit in hits)
    code, out, _ = run(capsys, "search", "CAP")
    assert code == 0 and out.splitlines()[0].startswith("J18.9")


def test_search_of_a_tumour_type_prints_the_note_to_choose_by_site(capsys):
    code, out, _ = run(capsys, "search", "medulloblastoma", "--limit", "3")
    assert code == 0 and out.splitlines()[0].startswith("C71.6")
    assert out.count("note: ") == 1 and "choose the code of the site" in out
    code, out, _ = run(capsys, "search", "medulloblastoma", "--limit", "1", "--format", "json")
    assert list(json.loads(out)[0]) == ["code", "title", "score", "note"]


def test_search_without_hits_exits_1(capsys):
    code, out, err = run(capsys, "search", "zzzzqqqxxv", "--format", "json")
    assert (code, json.loads(out)) == (1, [])
    code, out, err = run(capsys, "search", "zzzzqqqxxv")
    assert code == 1 and out == "" and "no WHO ICD-10 2019 title matches" in err


@pytest.mark.parametrize(
    "argv",
    [["search", "pneumonia", "--limit", "0"], ["search", "pneumonia", "--limit", "x"], ["lookup"],
     ["search"], ["lookup", "J18.9", "--format", "yaml"]],
)
def test_usage_errors_exit_2(capsys, argv):
    with pytest.raises(SystemExit) as stopped:
        main(["icd", *argv])
    assert stopped.value.code == 2
    assert "Traceback" not in capsys.readouterr().err


def test_no_action_and_blank_text_are_usage_errors(capsys):
    code, _, err = run(capsys)
    assert code == 2 and "medbench icd lookup" in err
    code, _, err = run(capsys, "search", "  ")
    assert code == 2 and "give some words" in err


def test_broken_who_data_is_an_error_not_a_traceback(capsys, tmp_path, monkeypatch):
    folder = tmp_path / "icd10"
    shutil.copytree(paths.icd10_data_dir(), folder)
    manifest = json.loads((folder / "manifest.json").read_text())
    manifest["who_data"]["sha256"] = "0" * 64
    (folder / "manifest.json").write_text(json.dumps(manifest))
    monkeypatch.setattr(paths, "icd10_data_dir", lambda: folder)
    data.reset()
    try:
        code, out, err = run(capsys, "lookup", "J18.9", "--format", "json")
    finally:
        data.reset()
    assert code == 1 and out == ""
    assert err.startswith("medbench: error: WHO ICD-10 data:") and "Traceback" not in err


def test_help_documents_the_exit_codes(capsys):
    with pytest.raises(SystemExit):
        main(["icd", "search", "--help"])
    assert "1 when nothing did" in capsys.readouterr().out


def test_icd10_folder_reaches_the_wheel(tmp_path):
    """pip builds the wheel offline (hatchling is installed); the data folder goes in as
    medbench_tui/_bundled/icd10, without any WHO data, and works from there."""
    built = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q",
         "-w", str(tmp_path), str(REPO)],
        capture_output=True, text=True,
    )
    assert built.returncode == 0, built.stderr
    (wheel,) = tmp_path.glob("medbench_tui-*.whl")
    with zipfile.ZipFile(wheel) as archive:
        names = archive.namelist()
        bundled = [n for n in names if n.startswith("medbench_tui/_bundled/icd10/")]
        assert {"manifest.json", "synonyms.yaml", "cm_rollup_changes.yaml", "README.md"} <= {
            n.rsplit("/", 1)[1] for n in bundled
        }
        assert not [n for n in names if n.endswith(".xml") or "icd_10_v2019" in n]
        assert not [n for n in bundled if n.endswith(".py")]
        archive.extractall(tmp_path / "installed")
    script = (
        "from medbench_tui.core import paths\n"
        "from medbench_tui.core.icd10 import lookup\n"
        "print(paths.icd10_data_dir())\n"
        "print(lookup('E11.65').suggestions[0].code)\n"
    )
    used = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, cwd=tmp_path,
        env={"PYTHONPATH": str(tmp_path / "installed"), "PATH": "/usr/bin:/bin"},
    )
    assert used.returncode == 0, used.stderr
    folder, suggestion = used.stdout.split()
    assert folder == str(tmp_path / "installed" / "medbench_tui" / "_bundled" / "icd10")
    assert suggestion == "E11.6"
