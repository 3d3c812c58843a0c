"""Compare mode: checklist against replay on one case and on a small bank, a model
endpoint with a fault, cancelling a running comparison or quitting during it, the
player's own runs, export."""

from __future__ import annotations

import asyncio
import json

from textual.widgets import Select, SelectionList

from medbench_tui.core.paths import reports_dir, run_store_for
from medbench_tui.core.runs.store import RunStore
from medbench_tui.tui.screens.compare import CompareScreen
from medbench_tui.tui.screens.run_group import CaseComparisonScreen
from medbench_tui.tui.widgets.group_report import GroupReport
from medbench_tui.tui.widgets.run_log import RunLog

from .conftest import REPLAY, SIZE, test_settings
from .sessions import ask, shown_in, type_in, until
from .test_play import give_final_response, start


async def open_compare(pilot) -> CompareScreen:
    app = pilot.app
    await until(pilot, lambda: not app.bank_loading)
    await pilot.press("f5")
    await until(pilot, lambda: isinstance(app.screen, CompareScreen))
    return app.screen


async def compare(pilot, systems: list[str], cases: list[str] | None = None) -> CompareScreen:
    """Tick ``systems`` (a replay is added through its input), choose ``cases`` (None: all), run."""
    screen = await open_compare(pilot)
    for spec in systems:
        if spec.startswith("replay:"):
            await type_in(pilot, "#compare-replay", spec.removeprefix("replay:"))
        else:
            screen.query_one("#compare-system-list", SelectionList).select(spec)
    if cases is not None:
        screen.query_one("#compare-scope", Select).value = "chosen"
        for case_id in cases:
            screen.query_one("#compare-case-list", SelectionList).select(str(pilot.app.bank.root / f"{case_id}.yaml"))
    await until(pilot)
    await pilot.press("ctrl+r")
    # A group is made once the run is under way: before that, not running means not started yet.
    # The runs play in a process of their own, whose start is slow on a busy machine: wait longer.
    await until(pilot, lambda: screen.group_id is not None and not screen.running, rounds=1600)
    return screen


async def test_checklist_against_replay_on_one_case(clinic, make_app):
    app = make_app(clinic)
    async with app.run_test(size=SIZE) as pilot:
        screen = await compare(pilot, ["checklist", REPLAY], ["fx-chest-001"])
        assert screen.pane == "compare-one"
        transcripts = shown_in(screen, "#transcript-columns")
        assert "checklist" in transcripts and REPLAY in transcripts
        assert "Can I see the x-ray?" in transcripts and "Handed over: Chest radiograph" in transcripts
        metrics = shown_in(screen, "#scorecard-metrics")
        assert "Diagnosis Accuracy" in metrics and "+100" in metrics
        items = shown_in(screen, "#item-diff")
        assert "replay:replays only" in items  # the replay found the diagnosis, the checklist did not
        assert "neither" in items  # nobody named pulmonary embolism
        with RunStore(run_store_for(clinic)) as store:
            group = store.group(screen.group_id)
            assert group.systems == ["checklist", REPLAY] and "compare" in group.config
            assert group.complete == 2


async def test_checklist_against_replay_on_a_small_bank(clinic, make_app):
    app = make_app(clinic)
    async with app.run_test(size=SIZE) as pilot:
        screen = await compare(pilot, ["checklist", REPLAY])
        assert screen.pane == "compare-many"
        report = screen.query_one(GroupReport)
        await until(pilot, lambda: report.report is not None)
        assert [row.case_id for row in report.rows] == ["fx-chest-001", "fx-throat-002"]
        assert report.report.comparisons[0].cases == 2
        assert "Paired: replay:replays − checklist" in shown_in(screen, "#stats")
        report.query_one("#group-filter", Select).value = "failures"
        await until(pilot)
        assert report.matrix.row_count == 2  # the checklist names no diagnosis: every case fails
        await pilot.press("f")  # next filter: incomplete
        await until(pilot)
        assert report.filter == "incomplete" and report.matrix.row_count == 0
        await pilot.press("f", "f")  # back to all cases
        await until(pilot)
        report.matrix.focus()
        await pilot.press("enter")
        await until(pilot, lambda: isinstance(app.screen, CaseComparisonScreen))
        assert "fx-chest-001" in app.screen.heading
        await pilot.press("escape")
        await until(pilot, lambda: app.screen is screen)
        await pilot.press("ctrl+e")
        await until(pilot)
        written = sorted(p.name for p in reports_dir(clinic).iterdir())
        assert written == sorted([f"{screen.group_id}-cases.csv",
                                  *(f"{screen.group_id}.{s}" for s in ("csv", "html", "json", "md"))])
        assert "<svg" in (reports_dir(clinic) / f"{screen.group_id}.html").read_text()
        assert json.loads((reports_dir(clinic) / f"{screen.group_id}.json").read_text())["systems"] == [
            "checklist", REPLAY,
        ]
        assert "reports/" in app.notes.text()


def fake_doctor_bank(bank, base_url: str) -> None:
    (bank / "medbench.yaml").write_text(
        "systems:\n"
        "  fake-doc:\n"
        "    kind: openai-chat\n"
        f"    base_url: {base_url}\n"
        "    model: fake-model\n"
        "    timeout: 30\n",
        encoding="utf-8",
    )


async def test_a_model_endpoint_fault_leaves_its_run_incomplete_with_the_reason(clinic, make_app, fake_openai):
    fake_doctor_bank(clinic, fake_openai.base_url)
    fake_openai.add_fault("401")
    app = make_app(clinic)
    async with app.run_test(size=SIZE) as pilot:
        screen = await compare(pilot, ["fake-doc", "checklist"], ["fx-chest-001"])
        assert screen.pane == "compare-one"
        with RunStore(run_store_for(clinic)) as store:
            run = store.find_run(screen.group_id, "fx-chest-001", "fake-doc")
        assert run.status == "incomplete" and "401" in run.reason
        header = shown_in(screen, "#transcript-columns")
        assert "incomplete" in header and "401" in header
        assert "INCOMPLETE fx-chest-001 × fake-doc" in "\n".join(
            screen.query_one(RunLog).lines
        )


def waiting_doctor_app(clinic, make_app, fake_openai):
    fake_doctor_bank(clinic, fake_openai.base_url)
    fake_openai.latency = 20  # the doctor's first question never comes back in time
    return make_app(clinic)


async def start_a_waiting_comparison(pilot) -> CompareScreen:
    """The fake doctor against the checklist, run until the doctor's run has started (and waits)."""
    screen = await open_compare(pilot)
    screen.query_one("#compare-system-list", SelectionList).select("fake-doc")
    screen.query_one("#compare-system-list", SelectionList).select("checklist")
    await until(pilot)
    await pilot.press("ctrl+r")
    await until(pilot, lambda: any("× fake-doc" in line and "started" in line
                                   for line in screen.query_one(RunLog).lines), idle=False)
    return screen


async def test_esc_cancels_a_running_comparison(clinic, make_app, fake_openai):
    app = waiting_doctor_app(clinic, make_app, fake_openai)
    async with app.run_test(size=SIZE) as pilot:
        screen = await start_a_waiting_comparison(pilot)
        await pilot.press("escape")
        await until(pilot, lambda: not screen.running)
        assert "Cancelled" in shown_in(screen, "#compare-status")
        assert "cancelled" in app.notes.text().lower()
        assert not any(w.group == "compare-run" and not w.is_finished for w in screen.workers)
        with RunStore(run_store_for(clinic)) as store:
            runs = store.runs(screen.group_id)
        assert ("fake-doc", "cancelled") in {(r.system, r.reason) for r in runs}


async def test_quitting_during_a_comparison_stops_its_runs_and_keeps_them(clinic, make_app, fake_openai):
    app = waiting_doctor_app(clinic, make_app, fake_openai)
    async with app.run_test(size=SIZE) as pilot:
        screen = await start_a_waiting_comparison(pilot)
        group_id = screen.group_id
        app.exit()
    # The app closed before the doctor's reply was due: its run is cancelled and recorded
    # (a closing app waits for that; a test's closed app leaves its loop, so the test waits).
    recorded: set[tuple[str, str | None]] = set()
    for _ in range(100):
        with RunStore(run_store_for(clinic)) as store:
            recorded = {(r.system, r.reason) for r in store.runs(group_id)}
        if ("fake-doc", "cancelled") in recorded:
            break
        await asyncio.sleep(0.1)
    assert ("fake-doc", "cancelled") in recorded


async def test_the_players_own_runs_are_one_of_the_systems(clinic, make_app):
    app = make_app(clinic, settings=test_settings().model_copy(update={"player_name": "Dr Test"}))
    async with app.run_test(size=SIZE) as pilot:
        await start(pilot)
        await ask(pilot, "When did it start?")
        await give_final_response(pilot)
        screen = await compare(pilot, ["human", "checklist"])
        report = screen.query_one(GroupReport)
        await until(pilot, lambda: report.report is not None)
        chest = next(r for r in report.rows if r.case_id == "fx-chest-001")
        throat = next(r for r in report.rows if r.case_id == "fx-throat-002")
        assert chest.runs["human"].complete and "human" not in throat.runs
        assert report.report.paired_cases == ["fx-chest-001"]
        assert "Your played runs: 1 of 2 cases." in "\n".join(
            screen.query_one(RunLog).lines
        )


async def test_fewer_than_two_systems_is_refused(clinic, make_app):
    app = make_app(clinic)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_compare(pilot)
        screen.query_one("#compare-system-list", SelectionList).select("checklist")
        await until(pilot)
        assert "pick at least two" in shown_in(screen, "#compare-plan")
        await pilot.press("ctrl+r")
        await until(pilot)
        assert screen.pane == "compare-setup" and not screen.running
        await type_in(pilot, "#compare-replay", "no/such/folder")
        await until(pilot)
        assert "Not added" in app.notes.text()


async def test_checklist_against_replay_on_bundled_cases(tmp_path, make_app):
    """Bundled cases, one of each category with both error-testing cases: the checklist (no
    diagnosis) against replays of each case's own model answer, read case by case and in
    aggregate (the whole bank runs through the same code in test_runs_runner)."""
    import shutil
    from pathlib import Path

    from medbench_tui.core.cases.bank import consultation_files
    from medbench_tui.core.scoring.model_answer import model_answer
    from medbench_tui.core.transcript import Transcript, dump_transcript
    from medbench_tui.core.validate import load_valid_case

    bank = tmp_path / "bank"
    shutil.copytree(Path(__file__).resolve().parents[2] / "cases", bank)
    kept: set[str] = set()
    for path in consultation_files(bank):  # the first case of each category (its id's prefix)
        category = path.name.split("-")[0]
        if category in kept and category != "err":
            path.unlink()
        kept.add(category)
    error_tests = 0
    for path in consultation_files(bank):
        case = load_valid_case(path)
        answer = Transcript(case_id=case.id, system="reference", final=model_answer(case, "text"))
        dump_transcript(answer, bank / "replays" / f"{case.id}.yaml")
        error_tests += case.metadata.category == "error_testing"
    cases = len(consultation_files(bank)) - error_tests  # "All cases" leaves the error-testing ones out
    app = make_app(bank)
    async with app.run_test(size=SIZE) as pilot:
        screen = await compare(pilot, ["checklist", REPLAY])
        assert f"{error_tests} error-testing cases left out" in str(screen.query_one("#compare-plan").render())
        report = screen.query_one(GroupReport)
        await until(pilot, lambda: report.report is not None)
        assert len(report.rows) == cases >= 8
        comparison = report.report.comparisons[0]
        # error-testing cases test the harness, not the systems: the comparison never planned them
        assert report.report.error_tests_left_out == [] and comparison.cases == cases
        assert comparison.direction["only_b"] == cases  # only the replayed answers are right
        report.query_one("#group-filter", Select).value = "failures"
        await until(pilot)
        assert report.matrix.row_count == cases  # the checklist names no diagnosis anywhere


async def test_a_comparison_with_an_endpoint_that_cannot_be_reached_does_not_start(clinic, make_app):
    """Said at once, with what to check, instead of runs retrying a server that is not there."""
    fake_doctor_bank(clinic, "http://127.0.0.1:9/v1")
    app = make_app(clinic)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_compare(pilot)
        for spec in ("fake-doc", "checklist"):
            screen.query_one("#compare-system-list", SelectionList).select(spec)
        await until(pilot)
        await pilot.press("ctrl+r")
        await until(pilot, lambda: "Cannot run" in app.notes.text(), rounds=1600)
        await until(pilot, lambda: not screen.running)
        text = app.notes.text()
        assert "system fake-doc" in text and "cannot reach http://127.0.0.1:9/v1" in text and "base_url" in text
        assert screen.pane == "compare-setup" and screen.group_id is None
        with RunStore(run_store_for(clinic)) as store:
            assert store.groups() == []
