"""Rubric cases in `medbench run` and `medbench report`: one turn, no patient, graded and stored
beside consultations; the report's rubric score per system with intervals, by theme and axis, paired,
and the judge behind it. Every endpoint is the local fake server."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from medbench_tui.cli import main
from medbench_tui.core.rubric.judge import PROMPT_SHA256, PROMPT_TEMPLATE
from medbench_tui.core.runs.store import RunStore
from tests.support.fake_openai import FakeOpenAI
from tests.support.rubric import RUBRIC_CASES
from tests.test_runs_runner import SECRET, doctor, make_bank

GOOD = ("Avoid trimethoprim: with methotrexate it adds to the antifolate effect. Her creatinine clearance is "
        "38 mL/min. Stop methotrexate and check a full blood count today; stop trimethoprim.")
POOR = "There is no interaction, continue both. Her clearance is 60 mL/min. Increase the methotrexate dose."


def respond(body: dict) -> str:
    messages = body["messages"]
    if messages[0]["content"] == PROMPT_TEMPLATE:  # the judge: every criterion met, quoting the answer
        task = json.loads(messages[1]["content"])
        words = task["answer"].split(".")[0]
        return json.dumps({"criteria": [{"id": c["id"], "met": True, "quote": words} for c in task["criteria"]]})
    if messages[0]["role"] == "user":  # a rubric question (a consultation opens with its protocol)
        return GOOD if body["model"] == "good-model" else POOR
    return doctor()(body)


@pytest.fixture
def server():
    fake = FakeOpenAI(responder=respond).start()
    try:
        yield fake
    finally:
        fake.close()


def rubric_bank(folder: Path, base_url: str, *, consultations: int = 0, judge: bool = True) -> Path:
    bank = make_bank(folder, base_url, cases=consultations)
    for path in RUBRIC_CASES.glob("*.yaml"):
        shutil.copy(path, bank / "cases" / path.name)
    config = (bank / "medbench.yaml").read_text(encoding="utf-8")
    config = config.replace("systems:\n", "systems:\n  good:\n    kind: openai-chat\n"
                            f"    base_url: {base_url}\n    model: good-model\n    api_key_env: OPENAI_API_KEY\n")
    if judge:
        config += (f"evaluator:\n  judge:\n    base_url: {base_url}\n    model: judge-model\n"
                   "    api_key_env: OPENAI_API_KEY\n")
    (bank / "medbench.yaml").write_text(config, encoding="utf-8")
    return bank


def test_rubric_cases_are_answered_graded_and_reported_per_system(tmp_path, monkeypatch, server, capsys):
    monkeypatch.setenv("OPENAI_API_KEY", SECRET)
    bank = rubric_bank(tmp_path / "bank", server.base_url)
    assert main(["run", "--bank", str(bank), "--system", "good", "--system", "fake-doc"]) == 0
    capsys.readouterr()
    store = RunStore(bank / ".medbench" / "runs.sqlite")
    group = store.latest_group()
    assert group is not None
    runs = {(r.case_id, r.system): r for r in store.runs(group.id, full=True)}
    assert len(runs) == 4 and all(r.complete for r in runs.values())
    good = runs[("rb-mtx-tmp-001", "good")]
    assert good.transcript is not None and good.transcript["final"]["text"] == GOOD
    assert good.metrics["rubric_score"] == 100.0 and good.metrics["rubric_ungraded"] == 0
    decisions = {d["criterion"]: d for d in good.scorecard["rubric"]["criteria"]}
    assert decisions["c-judgement"]["decided_by"] == "judge:judge-model"
    assert decisions["c-judgement"]["judge"]["prompt_sha256"] == PROMPT_SHA256
    assert decisions["c-crcl"]["evidence"]["text"] == "38 mL/min"
    asked = [r.body for r in server.chat_requests if r.body["messages"][0]["role"] == "user"]
    assert all(len(b["messages"]) in (1, 3) for b in asked)  # the prompt, or the chat: no consultation protocol
    poor = runs[("rb-panel-001", "fake-doc")]
    assert poor.metrics["rubric_score"] == 0.0
    assert group.config["judge"]["model"] == "judge-model"

    assert main(["report", "--bank", str(bank), "--format", "md"]) == 0
    out = capsys.readouterr().out
    assert "Rubric score" in out and "by theme" in out and "by axis" in out and "paired differences" in out
    assert "Judge: judge-model" in out and PROMPT_SHA256 in out
    assert "drug_safety" in out and "therapeutic_safety" in out
    assert main(["report", "--bank", str(bank), "--format", "json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["rubric"]["systems"]["good"]["score"]["mean"] == 100.0
    assert report["rubric"]["comparisons"][0]["n"] == 2
    assert main(["report", "--bank", str(bank), "--format", "html"]) == 0
    page = capsys.readouterr().out
    assert "Rubric score by axis" in page and "judge-model" in page
    # criteria met and missed side by side, each verdict with the words it rests on
    assert "<h2>Rubric criteria side by side</h2>" in page
    assert "<summary>rb-mtx-tmp-001</summary>" in page and "<summary>rb-panel-001</summary>" in page
    assert '<td class="good">met<q>38 mL/min</q><small>number</small></td>' in page
    assert '<td class="bad">not met<q>60 mL/min</q><small>number</small></td>' in page
    assert "<th>severity</th>" in page and '<td class="good">included<q>Stop methotrexate</q>' in page
    assert report["rubric"]["criteria"]["rb-mtx-tmp-001"][0]["cells"][0]["met"] == 1


def test_a_mixed_bank_plays_consultations_and_answers_rubric_questions_in_one_group(tmp_path, monkeypatch, server,
                                                                                     capsys):
    monkeypatch.setenv("OPENAI_API_KEY", SECRET)
    bank = rubric_bank(tmp_path / "bank", server.base_url, consultations=1, judge=False)
    assert main(["run", "--bank", str(bank), "--system", "good"]) == 0
    capsys.readouterr()
    store = RunStore(bank / ".medbench" / "runs.sqlite")
    group = store.latest_group()
    assert group is not None
    kinds = {c["id"]: c.get("kind", "consultation") for c in group.config["cases"]}
    assert sorted(kinds.values()) == ["consultation", "rubric", "rubric"]
    runs = store.runs(group.id, full=True)
    assert all(r.complete for r in runs)
    judged = next(r for r in runs if r.case_id == "rb-mtx-tmp-001")
    assert judged.metrics["rubric_ungraded"] == 1  # no judge: the judge criterion stays ungraded
    assert main(["report", "--bank", str(bank), "--format", "md"]) == 0
    out = capsys.readouterr().out
    assert "Diagnosis accuracy" in out or "diagnosis" in out.lower()
    assert "Rubric score" in out and "No judge was configured" in out


def test_systems_that_cannot_answer_a_question_leave_the_rubric_cases_out(tmp_path, monkeypatch, server, capsys):
    monkeypatch.setenv("OPENAI_API_KEY", SECRET)
    bank = rubric_bank(tmp_path / "bank", server.base_url, consultations=1, judge=False)
    assert main(["run", "--bank", str(bank), "--system", "good", "--system", "checklist"]) == 0
    err = capsys.readouterr().err
    assert "answers no rubric question" in err
    store = RunStore(bank / ".medbench" / "runs.sqlite")
    group = store.latest_group()
    assert group is not None and {r.case_id for r in store.runs(group.id)} == {
        c["id"] for c in group.config["cases"]} and all(c.get("kind") != "rubric" for c in group.config["cases"])


CRITERIA = """
criteria:
  - id: c-cxr
    text: Orders a chest X-ray
    points: 3
    grader: phrases
    phrases: {any: [chest x-ray, CXR]}
  - id: c-amoxicillin
    text: Treats with amoxicillin
    points: 2
    grader: phrases
    phrases: {any: [amoxicillin]}
  - id: c-quinolone
    text: Prescribes a quinolone
    points: -4
    grader: phrases
    phrases: {any: [levofloxacin, moxifloxacin]}
  - id: c-explains
    text: Explains the diagnosis in plain words
    points: 1
    grader: judge
"""


def test_a_consultation_case_with_criteria_adds_rubric_points_to_its_final_response(tmp_path, monkeypatch, server,
                                                                                     capsys):
    monkeypatch.setenv("OPENAI_API_KEY", SECRET)
    bank = rubric_bank(tmp_path / "bank", server.base_url, consultations=1)
    for path in (bank / "cases").glob("rb-*.yaml"):
        path.unlink()
    [case] = list((bank / "cases").glob("*.yaml"))
    case.write_text(case.read_text(encoding="utf-8") + CRITERIA, encoding="utf-8")
    assert main(["validate", str(case)]) == 0
    capsys.readouterr()
    assert main(["run", "--bank", str(bank), "--system", "fake-doc"]) == 0
    capsys.readouterr()
    store = RunStore(bank / ".medbench" / "runs.sqlite")
    group = store.latest_group()
    assert group is not None and group.config["judge"]["model"] == "judge-model"
    [run] = store.runs(group.id, full=True)
    assert run.complete and run.metrics["rubric_score"] == 100.0
    assert run.metrics["diagnosis_accuracy"] is not None  # the scorecard's own metrics stay
    decisions = {d["criterion"]: d for d in run.scorecard["criteria"]["criteria"]}
    assert decisions["c-cxr"]["verdict"] == "met" and decisions["c-cxr"]["evidence"]["text"] == "Chest X-ray"
    assert decisions["c-quinolone"]["verdict"] == "not_met"
    assert decisions["c-explains"]["decided_by"] == "judge:judge-model"
    judge_asks = [r.body for r in server.chat_requests if r.body["messages"][0]["content"] == PROMPT_TEMPLATE]
    assert "A consultation with a patient" in json.loads(judge_asks[0]["messages"][1]["content"])["question"]
    assert main(["report", "--bank", str(bank), "--format", "md"]) == 0
    assert "Rubric score of the final response (cases with criteria)" in capsys.readouterr().out


def test_criteria_on_a_consultation_case_are_checked_at_their_line(tmp_path, capsys):
    from medbench_tui.core.validate import validate_file

    source = next(p for p in sorted((Path(__file__).parent.parent / "cases").glob("em-*.yaml")))
    case = tmp_path / source.name
    broken = CRITERIA.replace("    phrases: {any: [amoxicillin]}\n", "")
    case.write_text(source.read_text(encoding="utf-8") + broken, encoding="utf-8")
    found = [d for d in validate_file(case).diagnostics if d.code.startswith("criterion.")]
    assert [d.code for d in found] == ["criterion.no_rule"]
    assert found[0].line == len(source.read_text(encoding="utf-8").splitlines()) + 11  # its `grader:`
    assert "Criterion `c-amoxicillin` is graded by `phrases` but has no `phrases:`" in found[0].message
