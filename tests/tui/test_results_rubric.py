"""Results mode on a rubric run: the question, the answer, the score and every criterion with
its verdict, points, who decided and the evidence quoted from the answer."""

from __future__ import annotations

import asyncio
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from textual.widgets import DataTable, TabbedContent

from medbench_tui.core.cases.bank import load_bank
from medbench_tui.core.paths import run_store_for
from medbench_tui.core.runs.runner import Runner, plan_run
from medbench_tui.core.runs.store import RunStore
from medbench_tui.tui.screens.results import RunScreen
from medbench_tui.tui.screens.run_group import CaseComparisonScreen
from medbench_tui.tui.widgets.rubric_view import RubricView
from medbench_tui.tui.widgets.side_by_side import CaseComparison
from tests.support.fake_openai import FakeOpenAI
from tests.support.rubric import RUBRIC_CASES

from .conftest import SIZE
from .sessions import shown_in, until
from .test_results import open_results

pytestmark = pytest.mark.usefixtures("fixed_group_ids")

ANSWER = ("Avoid trimethoprim: with methotrexate it adds to the antifolate effect. Her creatinine clearance "
          "is about 60 mL/min, so nitrofurantoin is a safe alternative.")
"""Meets the advice, misses the clearance (38 mL/min) and avoids the harm; the judge criterion stays
ungraded (no judge is configured)."""
PANEL_ANSWER = "Withhold methotrexate now and check a full blood count today."
"""Two of the three good panel actions, none of the harmful ones."""


@pytest.fixture
def server() -> Iterator[FakeOpenAI]:
    fake = FakeOpenAI(responder=lambda body: PANEL_ANSWER if len(body["messages"]) > 1 else ANSWER).start()
    try:
        yield fake
    finally:
        fake.close()


def rubric_bank(clinic: Path, base_url: str) -> Path:
    """The clinic bank with one rubric question and one system on the fake server."""
    for name in ("rb-mtx-tmp-001.yaml", "rb-panel-001.yaml"):
        shutil.copy(RUBRIC_CASES / name, clinic / name)
    (clinic / "medbench.yaml").write_text(
        f"systems:\n  good:\n    kind: openai-chat\n    base_url: {base_url}\n    model: good-model\n"
        "    api_key_env: OPENAI_API_KEY\n    temperature: 0\n", encoding="utf-8")
    return clinic


async def rubric_run(bank: Path, case: str = "rb-mtx-tmp-001") -> None:
    with RunStore(run_store_for(bank)) as store:
        await Runner(store, plan_run(load_bank(bank), ["good"], cases=[bank / f"{case}.yaml"])).run()


async def open_rubric_run(pilot) -> RunScreen:
    app = pilot.app
    await open_results(pilot)
    await pilot.press("enter", "enter")  # into the group's runs, then its only run
    await until(pilot, lambda: isinstance(app.screen, RunScreen))
    return app.screen


async def test_a_rubric_run_shows_criteria_met_and_missed_with_evidence(clinic, make_app, server, monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test-rubric")
    bank = rubric_bank(clinic, server.base_url)
    await rubric_run(bank)
    async with make_app(bank).run_test(size=SIZE) as pilot:
        screen = await open_rubric_run(pilot)
        assert screen.query(RubricView) and screen.rubric is not None
        assert "What do you advise" in shown_in(screen, "#rubric-prompt")
        assert "Avoid trimethoprim" in shown_in(screen, "#rubric-answer")
        assert "Score 50% of points" in shown_in(screen, "#rubric-score")
        lines = shown_in(screen, "#rubric-criteria").splitlines()
        cells = {row[2]: row for row in ([c.strip() for c in line.split("│")] for line in lines) if len(row) == 5}
        advice = cells["Advises against co-prescribing trimethoprim with methotrexate"]
        assert advice[:2] == ["met", "+5"] and advice[3] == "phrases" and advice[4] == "“Avoid trimethoprim”"
        clearance = cells["Gives the creatinine clearance as 38 mL/min (Cockcroft-Gault)"]
        assert clearance[:2] == ["not met", "+5"] and clearance[3] == "number" and clearance[4] == "“60 mL/min”"
        assert cells["Recommends continuing both drugs unchanged"][:2] == ["not met", "-6"]
        assert cells["Explains the mechanism (additive antifolate effect) in plain words"][0] == "ungraded"
        assert "found 60 mL/min, expected 38 mL/min" in "\n".join(lines)
        await pilot.press("escape")
        await until(pilot, lambda: not isinstance(pilot.app.screen, RunScreen))


async def test_a_panel_run_shows_its_weighted_f1_and_the_actions_included(clinic, make_app, server, monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test-rubric")
    bank = rubric_bank(clinic, server.base_url)
    await rubric_run(bank, "rb-panel-001")
    async with make_app(bank).run_test(size=SIZE) as pilot:
        screen = await open_rubric_run(pilot)
        assert "Weighted F1 86% · precision 100% · recall 75%" in shown_in(screen, "#rubric-score")
        assert "user: I take methotrexate weekly" in shown_in(screen, "#rubric-prompt")
        rows = [[c.strip() for c in line.split("│")] for line in shown_in(screen, "#rubric-criteria").splitlines()]
        cells = {row[2]: row for row in rows if len(row) == 5}
        assert cells["Stop methotrexate"][:2] == ["included", "+3"]
        assert cells["Stop methotrexate"][4] == "“Withhold methotrexate”"
        assert cells["Stop trimethoprim"][:2] == ["left out", "+2"]
        assert cells["Increase the methotrexate dose"][:2] == ["left out", "-3"]


def test_a_rubric_run_looks(clinic, make_app, server, monkeypatch, snap_compare):
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test-rubric")
    bank = rubric_bank(clinic, server.base_url)
    asyncio.run(rubric_run(bank))

    async def run_before(pilot) -> None:
        await open_rubric_run(pilot)

    assert snap_compare(make_app(bank), terminal_size=SIZE, run_before=run_before)


async def test_a_physician_grades_an_ungraded_criterion_in_review_and_the_score_counts_it(
        clinic, make_app, server, monkeypatch):
    from medbench_tui.core.comparison.view import RubricAnswer
    from medbench_tui.core.review.adjudication import AdjudicationBook
    from medbench_tui.tui.screens.review import ReviewScreen

    from .test_review import open_review, start

    monkeypatch.setenv("OPENAI_API_KEY", "sk-test-rubric")
    bank = rubric_bank(clinic, server.base_url)
    await rubric_run(bank)
    async with make_app(bank).run_test(size=SIZE) as pilot:
        screen = await open_review(pilot)
        assert isinstance(screen, ReviewScreen)
        await start(pilot, screen)
        run = screen.current
        assert run is not None
        assert [(d.section, d.reference, d.evaluator) for d in run.decisions] == [
            ("criterion", "c-stop-tmp", "met"), ("criterion", "c-crcl", "not_met"),
            ("criterion", "c-harm", "not_met"), ("criterion", "c-judgement", "ungraded")]
        assert "Avoid trimethoprim" in shown_in(screen, "#review-answer")
        table = screen.query_one("#review-decisions", DataTable)
        assert "c-judgement: Explains the mechanism" in str(table.get_row_at(3)[3])
        table.move_cursor(row=3)
        await until(pilot)
        assert "your verdict (m met, n not met) grades it" in shown_in(screen, "#review-reason")
        await pilot.press("y")  # nothing to agree with: refused, nothing saved
        await pilot.press("o")  # a condition's label: refused
        await until(pilot)
        with RunStore(run_store_for(bank)) as store:
            assert AdjudicationBook(store).records() == []
        await pilot.press("m")
        await until(pilot, lambda: str(table.get_row_at(3)[2]) == "met")
        await pilot.app.workers.wait_for_complete()
    with RunStore(run_store_for(bank)) as store:
        [record] = AdjudicationBook(store).records()
        assert (record.reference, record.evaluator, record.physician) == ("c-judgement", "ungraded", "met")
        stored = store.runs(store.groups()[0].id)[0]
        graded = RubricAnswer.of_run(store.run(stored.id), bank, store)
    assert graded is not None
    judged = next(d for d in graded.grade.criteria if d.criterion == "c-judgement")
    assert judged.verdict == "met" and judged.decided_by.startswith("physician:")
    assert graded.grade.score == pytest.approx(7 / 12)  # 5 + 2 of 5 + 5 + 2 positive points


LOOSE_ANSWER = "No interaction: continue both. Her clearance is 38 mL/min."


async def two_systems_graded(clinic: Path) -> Path:
    """The rubric bank with a second system (on its own model) that answers unsafely, both run."""
    answers = {"good-model": ANSWER, "loose-model": LOOSE_ANSWER}
    fake = FakeOpenAI(responder=lambda body: answers[body["model"]]).start()
    try:
        bank = rubric_bank(clinic, fake.base_url)
        with (bank / "medbench.yaml").open("a", encoding="utf-8") as config:
            config.write(f"  loose:\n    kind: openai-chat\n    base_url: {fake.base_url}\n    model: loose-model\n"
                         "    api_key_env: OPENAI_API_KEY\n    temperature: 0\n")
        with RunStore(run_store_for(bank)) as store:
            await Runner(store, plan_run(load_bank(bank), ["good", "loose"], cases=[bank / "rb-mtx-tmp-001.yaml"]),
                         concurrency=1).run()  # one at a time: the runs' numbers (in the pictures) in plan order
    finally:
        fake.close()
    return bank


async def compare_marked(pilot) -> CaseComparison:
    await open_results(pilot)
    await pilot.press("enter", "space", "down", "space", "c")
    await until(pilot, lambda: isinstance(pilot.app.screen, CaseComparisonScreen))
    comparison = pilot.app.screen.query_one(CaseComparison)
    await until(pilot, lambda: comparison.query_one("#comparison-tabs", TabbedContent).active == "tab-criteria")
    return comparison


async def test_two_systems_rubric_runs_are_compared_criterion_by_criterion(clinic, make_app, monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test-rubric")
    bank = await two_systems_graded(clinic)
    async with make_app(bank).run_test(size=SIZE) as pilot:
        comparison = await compare_marked(pilot)
        scores = shown_in(comparison, "#rubric-columns-scores")
        assert "good: Score 50% of points" in scores and "loose: Score 0% of points" in scores
        rows = [[c.strip() for c in line.split("│")] for line in shown_in(comparison, "#rubric-columns").splitlines()]
        text = "\n".join(" ".join(r) for r in rows)
        assert "Recommends continuing both drugs unchanged" in text
        assert "“continue both”" in text and "“Avoid trimethoprim”" in text and "“38 mL/min”" in text
        tabs = comparison.query_one("#comparison-tabs", TabbedContent)
        assert not tabs.get_tab("tab-transcripts").display and tabs.get_tab("tab-criteria").display


def test_two_rubric_runs_side_by_side_look(clinic, make_app, monkeypatch, snap_compare):
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test-rubric")
    bank = asyncio.run(two_systems_graded(clinic))

    async def run_before(pilot) -> None:
        await compare_marked(pilot)
        pilot.app.clear_notifications()  # the "run marked" toasts time out: on a busy machine, before the picture
        await until(pilot)

    assert snap_compare(make_app(bank), terminal_size=SIZE, run_before=run_before)


async def test_compare_runs_a_rubric_question_and_shows_its_criteria_side_by_side(clinic, make_app, monkeypatch):
    from .test_compare import compare

    answers = {"good-model": ANSWER, "loose-model": LOOSE_ANSWER}
    fake = FakeOpenAI(responder=lambda body: answers[body["model"]]).start()
    try:
        monkeypatch.setenv("OPENAI_API_KEY", "sk-test-rubric")
        bank = rubric_bank(clinic, fake.base_url)
        with (bank / "medbench.yaml").open("a", encoding="utf-8") as config:
            config.write(f"  loose:\n    kind: openai-chat\n    base_url: {fake.base_url}\n    model: loose-model\n"
                         "    api_key_env: OPENAI_API_KEY\n    temperature: 0\n")
        async with make_app(bank).run_test(size=SIZE) as pilot:
            screen = await compare(pilot, ["good", "loose"], ["rb-mtx-tmp-001"])
            assert screen.pane == "compare-one"
            comparison = screen.query_one(CaseComparison)
            await until(pilot, lambda: comparison.query_one("#comparison-tabs", TabbedContent).active == "tab-criteria")
            assert "loose: Score 0% of points" in shown_in(comparison, "#rubric-columns-scores")
            assert "“continue both”" in shown_in(comparison, "#rubric-columns")
    finally:
        fake.close()


async def test_a_consultation_runs_criteria_are_shown_in_their_own_tab(clinic, make_app):
    from medbench_tui.tui.widgets.run_view import RunView

    from .test_results import stored_group

    case = clinic / "fx-chest-001.yaml"
    case.write_text(case.read_text(encoding="utf-8") + (
        "criteria:\n"
        "  - {id: c-amoxicillin, text: Treats with amoxicillin, points: 2, grader: phrases,"
        " phrases: {any: [amoxicillin]}}\n"
        "  - {id: c-quinolone, text: Prescribes a quinolone, points: -3, grader: phrases,"
        " phrases: {any: [levofloxacin]}}\n"), encoding="utf-8")
    await stored_group(clinic)
    async with make_app(clinic).run_test(size=SIZE) as pilot:
        await open_results(pilot)
        await pilot.press("enter", "down", "enter")  # the replay's run of fx-chest-001
        await until(pilot, lambda: isinstance(pilot.app.screen, RunScreen))
        view = pilot.app.screen.query_one(RunView)
        tabs = view.query_one("#run-tabs", TabbedContent)
        assert tabs.get_tab("tab-criteria").display
        assert "Score 100% of points" in shown_in(view, "#rubric-columns-scores")
        criteria = shown_in(view, "#rubric-columns")
        assert "Treats with amoxicillin" in criteria and "“Amoxicillin”" in criteria
