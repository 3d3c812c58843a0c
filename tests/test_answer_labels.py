"""The hand-labelled answer sets name the bundled cases as they read now.

A label of a renamed or removed reference item would silently count as ``not_found``, and a
new item or critical condition would go unmeasured (tests/data/answers/LABELLING.md).
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest
from ruamel.yaml import YAML

from medbench_tui.core.validate import load_valid_case
from tests.support.answer_labels import label_problems

ROOT = Path(__file__).resolve().parent.parent
HELDOUT = ROOT / "tests" / "data" / "heldout"
NEWCASES = ROOT / "tests" / "data" / "newcases"
FOLDERS = (
    ROOT / "tests" / "data" / "answers", HELDOUT / "answers", *(r / "answers" for r in sorted(HELDOUT.glob("round*"))),
    NEWCASES / "answers",
    *(ROOT / "tests" / "data" / name / "answers" for name in (
        "newcases-c", "answers-d", "newcases-e", "newcases-f", "newcases-g", "newcases-h", "newcases-i", "newcases-j",
        "newcases-k", "newcases-l", "newcases-m", "newcases-n", "newcases-o", "newcases-p", "newcases-q",
        "newcases-r", "newcases-s", "newcases-t", "newcases-u", "newcases-v", "newcases-w", "newcases-x", "newcases-y",
        "newcases-z", "newcases-aa", "newcases-ab", "newcases-ac",
    )),
)
FILES = sorted(path for folder in FOLDERS for path in folder.glob("*.yaml"))


@pytest.mark.parametrize("path", FILES, ids=lambda p: f"{p.parent.parent.name}/{p.stem}")
def test_every_label_names_a_current_reference_item_and_every_condition_has_a_verdict(path: Path) -> None:
    data = YAML(typ="safe", pure=True).load(path.read_text(encoding="utf-8"))
    beside = path.parent.parent / "cases" / f"{data['case']}.yaml"  # new cases are kept beside their answers
    case = load_valid_case(beside if beside.is_file() else ROOT / "cases" / f"{data['case']}.yaml")
    problems = [f"{answer['id']}: {p}" for answer in data["answers"] for p in label_problems(case, answer["labels"])]
    assert not problems, "\n".join(problems)


def test_a_renamed_item_and_a_missing_verdict_are_reported() -> None:
    case = load_valid_case(ROOT / "cases" / "im-af-001.yaml")
    labels = {
        "primary": "final",
        "treatment": {"Bisoprolol for rate control": "found", "Apixaban": "given"},
        "conditions": {"cc-anticoagulation": "OK"},
    }
    problems = label_problems(case, labels)
    assert "treatment: 'Bisoprolol for rate control' is not a reference name of im-af-001" in problems
    assert "treatment: 'Apixaban' has unknown value 'given'" in problems
    assert "conditions: no verdict for 'cc-implicit-contraindicated'" in problems
    assert "conditions: no verdict for 'cc-no-aspirin'" in problems
    assert "conditions: no verdict for 'cc-anticoagulation'" not in problems


def _benchmark() -> ModuleType:
    spec = importlib.util.spec_from_file_location("scoring_agreement", ROOT / "benchmarks" / "scoring_agreement.py")
    assert spec is not None and spec.loader is not None
    bench = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = bench  # dataclasses look their module up
    spec.loader.exec_module(bench)
    return bench


def test_the_agreement_benchmark_warns_of_stale_labels(capsys: pytest.CaptureFixture[str]) -> None:
    bench = _benchmark()
    case = load_valid_case(ROOT / "cases" / "im-af-001.yaml")
    bench.warn_stale([(case, {"id": "old", "labels": {"treatment": {"Bisoprolol for rate control": "found"}}})])
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("WARNING: 5 stale or missing labels")
    assert "  old: treatment: 'Bisoprolol for rate control' is not a reference name of im-af-001" in out


def test_the_agreement_benchmark_counts_a_not_indicated_item_as_given(tmp_path: Path,
                                                                     capsys: pytest.CaptureFixture[str]) -> None:
    bench = _benchmark()
    (tmp_path / "a.yaml").write_text(
        "case: im-cap-001\nanswers:\n- id: one\n  style: test\n  text: |\n"
        "    Pneumonia. Plan: amoxicillin 500 mg TDS; prednisolone 30 mg daily for 5 days.\n"
        "  labels:\n    primary: final\n"
        "    treatment: {Amoxicillin 500 mg three times daily for 5 days: found, Corticosteroids: found}\n")
    assert bench.main(["--answers", str(tmp_path), "--extractor", "text"]) == 0
    out = capsys.readouterr().out
    assert "'Corticosteroids': label found" not in out
