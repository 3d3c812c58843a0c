"""Rubric graders against physicians' labels (``medbench agreement --rubric-labels``): the figures
per grader kind, the labels file read with errors at the line, the bundled set, and a judge
reached on the local fake server."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from medbench_tui.cli import main
from medbench_tui.core.review.rubric_agreement import Pair, figures
from medbench_tui.core.rubric.judge import PROMPT_SHA256
from tests.support.rubric import RUBRIC_CASES

ROOT = Path(__file__).resolve().parent.parent
GOOD = ("Avoid trimethoprim: with methotrexate it adds to the antifolate effect and can suppress the marrow. "
        "Her creatinine clearance is about 38.5 mL/min. Nitrofurantoin is an option.")
BAD = "Continue both: there is no interaction. Her creatinine clearance is 60 mL/min."
LABELS = f"""case: rb-mtx-tmp-001
answers:
  - id: good
    text: {json.dumps(GOOD)}
    labels: {{c-stop-tmp: met, c-crcl: met, c-harm: not_met, c-judgement: met}}
  - id: bad
    text: {json.dumps(BAD)}
    labels: {{c-stop-tmp: not_met, c-crcl: met, c-harm: met, c-judgement: not_met}}
"""
PANEL_LABELS = """case: rb-panel-001
answers:
  - id: short
    text: Stop methotrexate and trimethoprim now.
    included: []
"""


def pair(grader: str, physician: str) -> Pair:
    return Pair("phrases", "c", "a", "i", grader, physician, "")


def test_figures_give_agreement_kappa_and_the_f1_of_each_class_and_their_mean():
    pairs = ([pair("met", "met")] * 6 + [pair("met", "not_met")] * 2 + [pair("not_met", "met")] * 1
             + [pair("not_met", "not_met")] * 3)
    found = figures(pairs)
    assert (found["decisions"], found["agreed"], found["agreement"]) == (12, 9, 75.0)
    assert found["f1_met"] == round(12 / 15, 3) and found["f1_not_met"] == round(6 / 9, 3)
    assert found["macro_f1"] == round((12 / 15 + 6 / 9) / 2, 3)
    # kappa by hand: po 0.75, pe (8*7 + 4*5) / 144
    assert found["kappa"] == pytest.approx((0.75 - 76 / 144) / (1 - 76 / 144), abs=1e-3)
    assert found["counts"] == {"both_met": 6, "grader_only_met": 2, "physician_only_met": 1, "both_not_met": 3}


def test_a_grader_that_says_met_to_everything_has_no_better_than_chance_kappa_and_a_poor_macro_f1():
    found = figures([pair("met", "met")] * 8 + [pair("met", "not_met")] * 2)
    assert found["agreement"] == 80.0 and found["kappa"] == 0.0 and found["f1_not_met"] == 0.0
    assert found["f1_met"] == round(16 / 18, 3) and found["macro_f1"] == round(16 / 18 / 2, 3)


def write(folder: Path, name: str, text: str) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / name).write_text(text, encoding="utf-8")
    return folder


def test_labelled_answers_are_graded_and_compared_per_grader_kind(tmp_path, capsys):
    labels = write(tmp_path / "labels", "mtx.yaml", LABELS)
    write(labels, "panel.yaml", PANEL_LABELS)
    assert main(["agreement", "--rubric-labels", str(labels), "--cases", str(RUBRIC_CASES), "--format", "json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert (doc["files"], doc["answers"]) == (2, 3)
    assert doc["by_kind"]["phrases"]["decisions"] == 4 and doc["by_kind"]["number"]["decisions"] == 2
    assert doc["by_kind"]["number"]["counts"] == {"both_met": 1, "grader_only_met": 0, "physician_only_met": 1,
                                                 "both_not_met": 0}
    assert "judge" not in doc["by_kind"] and doc["ungraded"] == {"judge": 2} and doc["judges"] == []
    assert doc["criteria"]["decisions"] == 6
    # The panel answer takes two actions the physician did not label: two disagreements of kind panel.
    panel = [d for d in doc["disagreements"] if d["kind"] == "panel"]
    assert doc["by_kind"]["panel"]["counts"]["grader_only_met"] == len(panel) >= 2
    assert main(["agreement", "--rubric-labels", str(labels), "--cases", str(RUBRIC_CASES), "--show"]) == 0
    text = capsys.readouterr().out
    assert "macro F1" in text and "all criteria" in text and "panel actions" in text
    assert "2 labelled judge decision(s) no grader made (no judge given: --judge-from)" in text
    assert "rb-mtx-tmp-001/bad number c-crcl: physician met, grader not_met" in text


@pytest.mark.parametrize(("text", "found"), [
    (LABELS.replace("c-harm: met", "c-harm: yes"), ":8:"),
    (LABELS.replace("c-harm: met", "c-harms: met"), ":8:"),
    (LABELS.replace("id: bad", "id: good"), ":6:"),
    (LABELS.replace("case: rb-mtx-tmp-001", "case: rb-nothing"), ":1:"),
    (LABELS.replace("    labels: {c-stop-tmp: not_met", "    colour: red\n    labels: {c-stop-tmp: not_met"), ":8:"),
    (PANEL_LABELS.replace("included: []", "included: [Stop the methotrexate]"), ":5:"),
    (PANEL_LABELS.replace("included: []", "labels: {c-x: met}"), ":5:"),
    ("case: [\n", ":1:"),
    ("answers: []\n", ":1:"),
])
def test_a_bad_labels_file_is_an_error_at_its_line_never_a_traceback(tmp_path, capsys, text, found):
    labels = write(tmp_path / "labels", "bad.yaml", text)
    assert main(["agreement", "--rubric-labels", str(labels), "--cases", str(RUBRIC_CASES)]) != 0
    err = capsys.readouterr().err
    assert f"bad.yaml{found}" in err and "Traceback" not in err


def test_the_bundled_set_against_its_physicians_labels(capsys):
    answers = ROOT / "tests" / "data" / "rubric-labels" / "answers"
    assert main(["agreement", "--rubric-labels", str(answers), "--cases", str(ROOT / "cases" / "rubric"),
                 "--format", "json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["files"] >= 20 and doc["answers"] == 3 * doc["files"]
    assert set(doc["by_kind"]) == {"phrases", "number", "panel"} and doc["ungraded"]["judge"] > 0
    # The first figures on the set (benchmarks/rubric_agreement.py): 301/324 criteria, 186/195 actions.
    assert doc["criteria"]["decisions"] == 324 and doc["criteria"]["agreement"] >= 90
    assert doc["by_kind"]["panel"]["decisions"] == 195 and doc["by_kind"]["panel"]["agreement"] >= 90
    assert doc["criteria"]["macro_f1"] >= 0.85 and doc["criteria"]["kappa"] >= 0.7


def test_a_judge_grades_its_criteria_and_the_report_names_its_model_and_prompt(tmp_path, capsys, fake_openai):
    def respond(body: dict) -> str:
        asked = json.loads(body["messages"][-1]["content"])
        met = asked["answer"].startswith("Avoid")
        return json.dumps({"criteria": [{"id": c["id"], "met": met, "quote": ""} for c in asked["criteria"]]})

    fake_openai.responder = respond
    labels = write(tmp_path / "labels", "mtx.yaml", LABELS)
    config = tmp_path / "medbench.yaml"
    config.write_text(f"evaluator:\n  judge:\n    base_url: {fake_openai.base_url}\n    model: judge-model\n",
                      encoding="utf-8")
    assert main(["agreement", "--rubric-labels", str(labels), "--cases", str(RUBRIC_CASES),
                 "--judge-from", str(config), "--format", "json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["by_kind"]["judge"]["decisions"] == 2 and doc["by_kind"]["judge"]["agreement"] == 100.0
    assert doc["ungraded"] == {} and len(fake_openai.chat_requests) == 2
    (judge,) = doc["judges"]
    assert judge["model"] == "judge-model" and judge["prompt_sha256"] == PROMPT_SHA256
    assert judge["parameters"]["temperature"] == 0.0
    assert main(["agreement", "--rubric-labels", str(labels), "--cases", str(RUBRIC_CASES),
                 "--judge-from", str(config)]) == 0
    assert f"Judge: judge-model; prompt sha256 {PROMPT_SHA256[:16]}" in capsys.readouterr().out


def test_a_judge_config_without_a_judge_says_what_to_add(tmp_path, capsys):
    labels = write(tmp_path / "labels", "mtx.yaml", LABELS)
    config = tmp_path / "medbench.yaml"
    config.write_text("systems: {}\n", encoding="utf-8")
    assert main(["agreement", "--rubric-labels", str(labels), "--cases", str(RUBRIC_CASES),
                 "--judge-from", str(config)]) != 0
    assert "configures no judge" in capsys.readouterr().err
