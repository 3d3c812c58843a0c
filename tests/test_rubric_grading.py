"""Grading answers to rubric cases: phrases read as the scorer reads a plan, numbers with units,
the weighted F1 of a panel, and the LLM judge against the local fake server."""

from __future__ import annotations

import json

import pytest

from medbench_tui.core.cases.bankconfig import EndpointConfig
from medbench_tui.core.rubric import Judge, grade, grade_async
from medbench_tui.core.rubric.decisions import ActionDecision, weighted_f1
from medbench_tui.core.rubric.judge import PROMPT_SHA256
from medbench_tui.core.rubric.numbers import numbers_with_unit
from medbench_tui.core.validate import load_valid_rubric
from tests.support.rubric import RUBRIC_CASES

POINTS = load_valid_rubric(RUBRIC_CASES / "rb-mtx-tmp-001.yaml")
PANEL = load_valid_rubric(RUBRIC_CASES / "rb-panel-001.yaml")
GOOD = ("Avoid trimethoprim: with methotrexate it adds to the antifolate effect and can suppress the marrow. "
        "Her creatinine clearance is about 38.5 mL/min. Nitrofurantoin is an option.")


def verdicts(text: str) -> dict[str, str]:
    return {d.criterion: d.verdict for d in grade(POINTS, text).criteria}


def test_a_good_answer_meets_every_deterministic_criterion_and_leaves_the_judge_one_ungraded():
    graded = grade(POINTS, GOOD)
    assert verdicts(GOOD) == {"c-stop-tmp": "met", "c-crcl": "met", "c-harm": "not_met", "c-judgement": "ungraded"}
    by_id = {d.criterion: d for d in graded.criteria}
    assert by_id["c-stop-tmp"].evidence is not None and by_id["c-stop-tmp"].evidence.text == "Avoid trimethoprim"
    assert by_id["c-stop-tmp"].decided_by == "phrases"
    crcl = by_id["c-crcl"]
    assert crcl.decided_by == "number" and crcl.evidence is not None and crcl.evidence.text == "38.5 mL/min"
    assert GOOD[crcl.evidence.start:crcl.evidence.end] == "38.5 mL/min"
    assert by_id["c-judgement"].decided_by == "ungraded" and "evaluator.judge" in by_id["c-judgement"].reason
    assert graded.score == 1.0  # 10 of the 10 positive points of the graded criteria
    assert graded.axis_scores() == {"accuracy": 1.0}  # the safety criterion gives no points; communication is ungraded


def test_a_denied_phrase_is_not_met_and_a_harmful_one_deducts():
    denied = grade(POINTS, "I would not stop trimethoprim; CrCl 60 mL/min.")
    found = {d.criterion: d for d in denied.criteria}
    assert found["c-stop-tmp"].verdict == "not_met" and found["c-stop-tmp"].evidence is not None
    assert "negated" in found["c-stop-tmp"].reason
    assert found["c-crcl"].verdict == "not_met" and "found 60 mL/min" in found["c-crcl"].reason
    harmful = grade(POINTS, "Avoid trimethoprim. There is no interaction otherwise; CrCl 38 mL/min.")
    assert {d.criterion: d.verdict for d in harmful.criteria}["c-harm"] == "met"
    assert harmful.score == pytest.approx((5 + 5 - 6) / 10)
    assert grade(POINTS, "Continue both.").score == 0.0  # clipped at 0


def test_numbers_are_read_with_their_unit_and_their_decimals():
    assert [n.value for n in numbers_with_unit("eGFR 45 mL/min/1.73m2, CrCl 37 ml / min", "mL/min")] == [45, 37]
    assert [n.value for n in numbers_with_unit("HbA1c 7.5% and 1,250 mg", "%")] == [7.5]


def test_a_unit_of_time_is_read_by_any_of_its_names():
    """"65 mL/hour", "65 ml per hour" and "65 mL/hr" are 65 mL/h; a rate per minute is not."""
    text = "Run at 65 mL/hour (or 65 ml per hour, 65 mL/hr); not 65 mL/min."
    assert [n.value for n in numbers_with_unit(text, "mL/h")] == [65, 65, 65]
    assert [n.value for n in numbers_with_unit(text, "mL/min")] == [65]
    assert [n.value for n in numbers_with_unit("K -2.5 mmol/L; 1,250 mg", "mg")] == [1250]
    assert [n.value for n in numbers_with_unit("K -2.5 mmol/L", "mmol/L")] == [-2.5]
    assert numbers_with_unit("38 mgs", "mg") == []


def test_the_panel_is_scored_with_the_weighted_f1():
    everything_right = grade(PANEL, "Stop methotrexate now and check a full blood count today. Stop trimethoprim.")
    assert everything_right.method == "panel" and everything_right.score == 1.0
    included = {a.action: a for a in everything_right.actions}
    assert included["Full blood count today"].included
    assert included["Full blood count today"].evidence is not None
    harmful = grade(PANEL, "Increase the methotrexate dose and continue trimethoprim.")
    assert harmful.score == 0.0 and harmful.recall == 0.0
    partly = grade(PANEL, "Do not increase the methotrexate dose. Hold methotrexate. Continue trimethoprim.")
    assert not {a.action: a for a in partly.actions}["Increase the methotrexate dose"].included  # declined
    # TP 3 (stop methotrexate), FP 2 (continue trimethoprim), FN 5: P 3/5, R 3/8
    assert partly.precision == pytest.approx(0.6) and partly.recall == pytest.approx(3 / 8)
    assert partly.score == pytest.approx(2 * 0.6 * 0.375 / (0.6 + 0.375))


def test_weighted_f1_is_zero_without_a_true_positive():
    def action(severity: int, included: bool) -> ActionDecision:
        return ActionDecision(action=str(severity), severity=severity, included=included, reason="")

    assert weighted_f1([action(3, False), action(-2, False)]) == (0.0, None, 0.0)
    assert weighted_f1([action(3, True), action(-3, True)])[0] == pytest.approx(2 / 3)


def judge_for(fake_openai, **config) -> Judge:
    return Judge.from_endpoint(EndpointConfig(base_url=fake_openai.base_url, model="judge-model", **config))


async def test_the_judge_grades_its_criteria_in_one_request_and_says_how(fake_openai):
    fake_openai.add_reply(json.dumps({"criteria": [
        {"id": "c-judgement", "met": True, "quote": "adds to the antifolate effect"}]}))
    graded = await grade_async(POINTS, GOOD, judge_for(fake_openai))
    [request] = fake_openai.chat_requests
    assert request.body["temperature"] == 0.0 and request.body["seed"] == 0
    assert request.body["response_format"] == {"type": "json_object"}
    sent = json.loads(request.body["messages"][1]["content"])
    assert [c["id"] for c in sent["criteria"]] == ["c-judgement"] and sent["answer"] == GOOD
    decision = {d.criterion: d for d in graded.criteria}["c-judgement"]
    assert decision.verdict == "met" and decision.decided_by == "judge:judge-model"
    assert decision.evidence is not None and decision.evidence.text == "adds to the antifolate effect"
    assert decision.judge is not None and decision.judge.prompt_sha256 == PROMPT_SHA256
    assert decision.judge.parameters["temperature"] == 0.0 and decision.judge.parameters["seed"] == 0
    assert graded.score == 1.0 and not graded.ungraded and [j.model for j in graded.judges] == ["judge-model"]


async def test_the_endpoints_own_sampling_is_kept(fake_openai):
    fake_openai.add_reply(json.dumps({"criteria": [{"id": "c-judgement", "met": False, "quote": ""}]}))
    graded = await grade_async(POINTS, GOOD, judge_for(fake_openai, seed=42, temperature=0.2))
    assert fake_openai.chat_requests[-1].body["seed"] == 42
    decision = {d.criterion: d for d in graded.criteria}["c-judgement"]
    assert decision.verdict == "not_met" and decision.judge is not None
    assert decision.judge.parameters["seed"] == 42 and decision.judge.parameters["temperature"] == 0.2
    assert graded.score == pytest.approx(10 / 12)


@pytest.mark.parametrize("reply", ["I think it is met.", json.dumps({"verdicts": []}), json.dumps({"criteria": []})])
async def test_a_reply_that_is_not_the_json_asked_for_leaves_the_criterion_ungraded(fake_openai, reply):
    fake_openai.add_reply(reply)
    graded = await grade_async(POINTS, GOOD, judge_for(fake_openai))
    decision = {d.criterion: d for d in graded.criteria}["c-judgement"]
    assert decision.verdict == "ungraded" and "judge-model" in decision.reason
    assert decision.judge is not None  # who was asked is kept all the same


async def test_a_judge_that_cannot_be_reached_raises_its_endpoint_error(fake_openai):
    from medbench_tui.core.endpoints.errors import EndpointError

    fake_openai.add_fault("400")
    with pytest.raises(EndpointError):
        await grade_async(POINTS, GOOD, judge_for(fake_openai))
