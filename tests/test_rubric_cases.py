"""Rubric cases (``kind: rubric``): the model, validation at the line, and the bank's two kinds."""

from __future__ import annotations

import shutil

import pytest

from medbench_tui.cli import main
from medbench_tui.core.authoring.library import read_entry
from medbench_tui.core.cases.bank import consultation_files, iter_case_files, rubric_files, scan_bank
from medbench_tui.core.errors import MedbenchError
from medbench_tui.core.validate import load_valid_case, load_valid_rubric, validate_text
from tests.support.rubric import RUBRIC_CASES

REPO = RUBRIC_CASES.parents[2]

POINTS = (RUBRIC_CASES / "rb-mtx-tmp-001.yaml").read_text(encoding="utf-8")
PANEL = (RUBRIC_CASES / "rb-panel-001.yaml").read_text(encoding="utf-8")


def findings(text: str, name: str = "rb-mtx-tmp-001.yaml") -> list[tuple[str, int | None]]:
    report = validate_text(text, RUBRIC_CASES / name)
    return [(d.code, d.line) for d in report.diagnostics]


def test_the_fixtures_are_valid_rubric_cases_and_no_consultations():
    for text, name in ((POINTS, "rb-mtx-tmp-001.yaml"), (PANEL, "rb-panel-001.yaml")):
        report = validate_text(text, RUBRIC_CASES / name)
        assert report.diagnostics == [] and report.case is None and report.rubric is not None
    rubric = load_valid_rubric(RUBRIC_CASES / "rb-mtx-tmp-001.yaml")
    assert [c.grader for c in rubric.criteria or []] == ["phrases", "number", "phrases", "judge"]
    assert rubric.conversation()[0].role == "user" and "methotrexate" in rubric.conversation()[0].content
    panel = load_valid_rubric(RUBRIC_CASES / "rb-panel-001.yaml")
    assert panel.graded_by_panel and [m.role for m in panel.conversation()] == ["user", "assistant", "user"]


def test_a_rubric_case_is_refused_where_a_patient_is_needed_and_the_other_way_round():
    with pytest.raises(MedbenchError, match="rubric case .* no patient"):
        load_valid_case(RUBRIC_CASES / "rb-panel-001.yaml")
    consultation = REPO / "cases" / "em-anaphylaxis-001.yaml"
    assert load_valid_case(consultation).kind == "consultation"
    with pytest.raises(MedbenchError, match="not a rubric case"):
        load_valid_rubric(consultation)


@pytest.mark.parametrize(("change", "code", "line"), [
    (("theme: drug_safety", "theme: drug_safty"), "schema.enum", 8),
    (("kind: rubric", "kind: rubrik"), "schema.enum", 2),
    (("    points: 5\n    tags: [axis:accuracy]\n    grader: phrases", "    points: 0\n    tags: [axis:accuracy]\n"
      "    grader: phrases"), "schema.value", 17),
    (("    points: -6", "    points: -11"), "schema.value", 30),
    (("id: c-crcl", "id: c-stop-tmp"), "criterion.duplicate_id", 22),
    (("    grader: number\n    number: {value: 38, unit: mL/min, tolerance: 2}\n", "    grader: number\n"),
     "criterion.no_rule", 26),
    (("    grader: judge", "    grader: judge\n    phrases: {any: [antifolate]}"), "criterion.unused_rule", 40),
    (("      any: [continue both, no interaction]", "      any: []"), "criterion.no_phrases", 33),
    (("      any: [continue both, no interaction]", "      any: [continue both, '  ']"), "criterion.blank_phrase",
     34),
    (("criteria:", "messages: [{role: user, content: hi}]\ncriteria:"), "rubric.two_questions", 14),
    (("notes: |", "panel: [{action: Stop methotrexate, severity: 3}, {action: Continue, severity: -1}]\nnotes: |"),
     "rubric.two_gradings", 40),
])
def test_each_rubric_problem_is_reported_at_its_line(change, code, line):
    old, new = change
    assert old in POINTS
    found = findings(POINTS.replace(old, new))
    assert (code, line) in found, found


def test_points_must_have_a_positive_criterion_and_a_chat_must_end_with_the_user():
    only_harm = POINTS.replace("points: 5", "points: -5").replace("points: 2", "points: -2")
    assert ("criterion.no_positive", 14) in findings(only_harm)
    ends_with_assistant = PANEL.replace(
        "  - role: user\n    content: Mouth ulcers and a sore throat since yesterday. What should happen now?\n", "")
    assert ("rubric.last_message", 10) in findings(ends_with_assistant, "rb-panel-001.yaml")
    no_question = POINTS[:POINTS.index("prompt: |")] + POINTS[POINTS.index("criteria:"):]
    assert ("rubric.no_question", 1) in findings(no_question)


def test_a_panel_needs_good_actions_and_should_hold_bad_ones():
    all_bad = PANEL.replace("severity: 3", "severity: -3").replace("severity: 2", "severity: -2")
    assert ("panel.no_positive", 14) in findings(all_bad, "rb-panel-001.yaml")
    all_good = PANEL.replace("severity: -3", "severity: 3").replace("severity: -2", "severity: 2")
    assert ("panel.one_sided", 14) in findings(all_good, "rb-panel-001.yaml")


def test_messages_name_the_rubric_keys():
    report = validate_text(POINTS.replace("    grader: judge", "    grader: judge\n    colour: red"),
                           RUBRIC_CASES / "rb-mtx-tmp-001.yaml")
    [error] = report.errors
    assert error.code == "schema.unknown_key" and error.line == 40
    assert "id, text, points, tags, grader, phrases, number" in error.message


def test_a_bank_holds_both_kinds_and_hands_each_out_on_its_own(tmp_path, capsys):
    bank = tmp_path / "bank" / "cases"
    bank.mkdir(parents=True)
    shutil.copy(REPO / "cases" / "em-anaphylaxis-001.yaml", bank)
    for path in RUBRIC_CASES.glob("*.yaml"):
        shutil.copy(path, bank / path.name)
    assert [p.name for p in consultation_files(bank)] == ["em-anaphylaxis-001.yaml"]
    assert [p.name for p in rubric_files(bank)] == ["rb-mtx-tmp-001.yaml", "rb-panel-001.yaml"]
    assert len(iter_case_files(bank)) == 3
    assert {e.kind for e in scan_bank(bank).entries} == {"consultation", "rubric"}
    entry = read_entry(bank / "rb-panel-001.yaml", scan_bank(bank))
    assert entry.kind == "rubric" and entry.category == "rubric: therapeutic_safety" and not entry.errors
    assert main(["validate", str(bank), "--no-checks"]) == 0
    assert "3 files checked: 0 errors" in capsys.readouterr().out
