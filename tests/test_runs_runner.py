"""The runner end to end: real systems against the fake endpoint, faults, resume,
cancellation, hard kills, secrets. Waits between retries are recorded, never slept."""

from __future__ import annotations

import asyncio
import gc
import json
import os
import shutil
import signal
import sqlite3
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from medbench_tui.cli import main
from medbench_tui.core.cases.bank import consultation_files, load_bank
from medbench_tui.core.errors import MedbenchError, UsageError
from medbench_tui.core.runs.retry import RetryPolicy
from medbench_tui.core.runs.runner import (
    _FEWER_COLLECTIONS,
    YOUNG_COLLECTION_THRESHOLD,
    GroupFinished,
    GroupStarted,
    RunFinished,
    Runner,
    RunStarted,
    plan_resume,
    plan_run,
)
from medbench_tui.core.runs.store import RunStore
from medbench_tui.core.transcript import dump_transcript
from tests.support.fake_openai import FakeOpenAI

REPO = Path(__file__).resolve().parent.parent
SECRET = "sk-test-SECRET-1234567890"
QUESTIONS = ("When did it start?", "Do you have a fever?", "Do you take any medicines?", "Any allergies?")
FINAL = """FINAL RESPONSE
Diagnosis: Community-acquired pneumonia
ICD-10: J18.9
Differential: Acute bronchitis
Workup: Chest X-ray
Treatment: Amoxicillin
Advice: Come back at once if you get short of breath."""


def doctor(turns: int = 3):
    """A scripted doctor model: ``turns`` questions, then the final response."""

    def respond(body: dict) -> str:
        asked = sum(1 for m in body.get("messages", []) if m.get("role") == "assistant")
        return FINAL if asked >= turns else QUESTIONS[asked % len(QUESTIONS)]

    return respond


def make_bank(folder: Path, base_url: str, *, cases: int = 3, timeout: float = 5.0) -> Path:
    """A bank with copies of bundled cases and one ``openai-chat`` system on ``base_url``."""
    (folder / "cases").mkdir(parents=True)
    clinical = [p for p in consultation_files(REPO / "cases") if not p.name.startswith("err-")]
    for source in clinical[:cases] if cases else []:  # error-testing cases are left out of runs
        if source.name == "medbench.yaml":
            continue
        shutil.copy(source, folder / "cases" / source.name)
        attachments = REPO / "cases" / "attachments" / source.stem
        if attachments.is_dir():
            shutil.copytree(attachments, folder / "attachments" / source.stem)
    (folder / "medbench.yaml").write_text(
        "systems:\n"
        "  fake-doc:\n"
        "    kind: openai-chat\n"
        f"    base_url: {base_url}\n"
        "    model: fake-model\n"
        "    api_key_env: OPENAI_API_KEY\n"
        f"    timeout: {timeout}\n"
        "    temperature: 0\n",
        encoding="utf-8",
    )
    return folder


async def no_wait(seconds: float) -> None:
    """Backoff waits are recorded by the policy, not slept, in tests."""


@pytest.fixture
def key(monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", SECRET)
    return SECRET


@pytest.fixture
def doc_server():
    server = FakeOpenAI(responder=doctor()).start()
    try:
        yield server
    finally:
        server.close()


def _rows(store_path: Path) -> list[tuple]:
    db = sqlite3.connect(store_path)
    try:
        return db.execute("SELECT group_id, case_id, system, status, reason FROM runs").fetchall()
    finally:
        db.close()


def _play(store: RunStore, plan, **options) -> tuple:
    events = []
    runner = Runner(store, plan, sleep=no_wait, on_event=events.append, **options)
    return asyncio.run(runner.run()), events


def test_faults_end_complete_or_incomplete_and_resume_completes(tmp_path, key, doc_server):
    doc_server.fault_rate = 0.2
    doc_server.fault_kinds = ("429", "500", "503", "drop", "malformed", "401")
    doc_server._random.seed(2)  # this seed draws two 401s among the first ten requests
    bank = make_bank(tmp_path / "bank", doc_server.base_url, cases=5)
    with RunStore(tmp_path / "runs.sqlite") as store:
        plan = plan_run(load_bank(bank), ["fake-doc", "checklist"], seed=5)
        result, events = _play(store, plan, concurrency=4, retry=RetryPolicy(attempts=3))
        planned = len(plan.cases) * 2
        runs = store.runs(result.group_id)
        assert len(runs) == planned
        assert all(r.status in ("complete", "incomplete") for r in runs)
        incomplete = [r for r in runs if not r.complete]
        assert incomplete, "the seeded 401s leave some runs incomplete"
        assert all(r.reason and not r.metrics and r.scorecard is None for r in incomplete)
        assert all(r.metrics for r in runs if r.complete)
        assert sum(r.retries for r in runs) > 0
        assert isinstance(events[0], GroupStarted) and isinstance(events[-1], GroupFinished)
        assert sum(isinstance(e, RunFinished) for e in events) == planned

        doc_server.fault_rate = 0.0
        resumed_plan, group = plan_resume(store, result.group_id)
        again, events = _play(store, resumed_plan, group=group)
        assert events[0].to_play == len(incomplete) and events[0].resumed
        assert again.ok and again.complete == len(incomplete)
        final = store.runs(result.group_id)
        assert len(final) == planned and all(r.complete for r in final)
    keys = [(g, c, s) for g, c, s, _, _ in _rows(tmp_path / "runs.sqlite")]
    assert len(keys) == len(set(keys)) == planned


def test_no_secret_anywhere(tmp_path, key, doc_server, capsys):
    doc_server.add_fault("401")  # an error message that talks about the key
    bank = make_bank(tmp_path / "bank", doc_server.base_url, cases=2)
    store = tmp_path / "runs.sqlite"
    code = main(["run", "--system", "fake-doc", "--cases", str(bank / "cases"), "--store", str(store),
                 "--format", "json", "--cache"])
    assert code == 1
    document = json.loads(capsys.readouterr().out)
    assert document["counts"]["incomplete"] == 1
    assert doc_server.requests[0].headers["authorization"] == f"Bearer {SECRET}"  # it was really sent
    code = main(["run", "--resume", document["group_id"], "--store", str(store)])
    assert code == 0
    for fmt in ("text", "md", "json", "csv"):
        assert main(["report", "--store", str(store), "--format", fmt]) == 0
    for export in ("runs.jsonl", "runs.csv"):
        assert main(["report", "--store", str(store), "--export", str(tmp_path / export)]) == 0
    captured = capsys.readouterr()
    files = b"".join(p.read_bytes() for p in tmp_path.rglob("*") if p.is_file() and p.suffix != ".yaml")
    assert SECRET.encode() not in files
    assert SECRET not in captured.out + captured.err


def test_resume_refuses_changed_case_or_configuration(tmp_path, key, doc_server, capsys):
    bank = make_bank(tmp_path / "bank", doc_server.base_url, cases=2)
    store = tmp_path / "runs.sqlite"
    assert main(["run", "--system", "fake-doc", "--cases", str(bank / "cases"), "--store", str(store),
                 "--format", "json"]) == 0
    group = json.loads(capsys.readouterr().out)["group_id"]

    case_file = sorted((bank / "cases").glob("*.yaml"))[0]
    original = case_file.read_text(encoding="utf-8")
    case_file.write_text(original + "\n# edited\n", encoding="utf-8")
    assert main(["run", "--resume", group, "--store", str(store)]) == 1
    assert f"case file cases/{case_file.name} changed" in capsys.readouterr().err
    case_file.write_text(original, encoding="utf-8")

    config = bank / "medbench.yaml"
    config.write_text(config.read_text().replace("temperature: 0", "temperature: 0.7"))
    assert main(["run", "--resume", group, "--store", str(store)]) == 1
    assert "system fake-doc configuration changed: temperature: 0.0 -> 0.7" in capsys.readouterr().err

    assert main(["run", "--resume", group, "--store", str(store), "--system", "checklist"]) == 1
    assert "systems: the group ran fake-doc; given checklist" in capsys.readouterr().err


class _Stalling:
    """A doctor that finishes some cases and waits forever on the others."""

    def __init__(self, quick: set[str]) -> None:
        self.name = "stalling"
        self.quick = quick
        self.stalled = 0

    def public_config(self) -> dict:
        return {"kind": "test"}

    async def consult(self, consultation):
        from medbench_tui.core.transcript import FinalResponse

        await consultation.ask("When did it start?")
        if consultation.case.id in self.quick:
            return consultation.finish(FinalResponse(text="Diagnosis: pneumonia"))
        self.stalled += 1
        await asyncio.Event().wait()


@pytest.mark.parametrize("how", ["cancel", "task"])
def test_cancelling_records_in_flight_runs_as_cancelled(tmp_path, key, how):
    bank = make_bank(tmp_path / "bank", "http://127.0.0.1:9/v1", cases=5)
    with RunStore(tmp_path / "runs.sqlite") as store:
        plan = plan_run(load_bank(bank), ["checklist"], seed=1, include_error_tests=True)  # five cases
        ids = [c.id for c in plan.cases]
        quick = set(ids[:2])
        stalling = _Stalling(quick)
        plan.systems, plan.specs = [stalling], ["stalling"]

        async def scenario():
            runner = Runner(store, plan, concurrency=3, sleep=no_wait)
            task = asyncio.create_task(runner.run())
            async for event in runner.events():
                if isinstance(event, RunFinished) and event.status == "complete" and sum(
                    r.complete for r in store.runs(runner.group.id)) == len(quick):
                    for _ in range(500):  # bounded: a run that never stalls must fail, not hang
                        if stalling.stalled >= 3:
                            break
                        await asyncio.sleep(0.01)
                    assert stalling.stalled >= 3, [(r.case_id, r.status, r.reason) for r in store.runs(runner.group.id)]
                    if how == "cancel":
                        runner.cancel()
                    else:
                        task.cancel()
            if how == "cancel":
                return await task
            with pytest.raises(asyncio.CancelledError):
                await task
            return runner.result

        result = asyncio.run(scenario())
        assert result.cancelled and result.complete == 2 and result.incomplete == 3
        runs = {r.case_id: r for r in store.runs(result.group_id)}
        assert {c for c, r in runs.items() if r.complete} == quick
        assert sorted(r.reason for r in runs.values() if not r.complete) == ["cancelled"] * 3
        cancelled = store.run(next(r.id for r in runs.values() if not r.complete))
        assert cancelled.transcript["turns"][0]["text"] == "When did it start?"
        assert store.integrity_problems() == []


def test_progress_events_follow_the_runs(tmp_path, key):
    bank = make_bank(tmp_path / "bank", "http://127.0.0.1:9/v1", cases=2)
    with RunStore(tmp_path / "runs.sqlite") as store:
        plan = plan_run(load_bank(bank), ["checklist"], seed=1)

        async def scenario():
            runner = Runner(store, plan, concurrency=2)
            followed = runner.events()
            result = await runner.run()
            return result, [event async for event in followed]

        result, events = asyncio.run(scenario())
    kinds = [type(e) for e in events]
    assert kinds[0] is GroupStarted and kinds[-1] is GroupFinished
    assert kinds.count(RunStarted) == kinds.count(RunFinished) == 2
    assert events[-1].complete == result.complete == 2 and not events[-1].cancelled


def _child_run(args: list[str], env: dict) -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, "-m", "medbench_tui", *args], env=env, cwd=REPO,
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )


@pytest.mark.parametrize("sig", [signal.SIGKILL, signal.SIGINT])
def test_stopped_process_leaves_a_whole_store_and_resume_finishes(tmp_path, key, sig, capsys):
    """The fake endpoint itself stops the child at its 9th request, mid-run; the resume is a
    command of this process (what is stopped is the child, not the resume)."""
    child: dict[str, subprocess.Popen] = {}
    started = threading.Event()
    count = 0
    respond = doctor(turns=3)

    def stop_midway(body: dict) -> str:
        nonlocal count
        count += 1
        if count == 9:
            started.wait(5)
            os.kill(child["p"].pid, sig)
        return respond(body)

    server = FakeOpenAI(responder=stop_midway).start()
    try:
        bank = make_bank(tmp_path / "bank", server.base_url, cases=6)
        store = tmp_path / "runs.sqlite"
        env = {**os.environ, "OPENAI_API_KEY": SECRET}
        child["p"] = _child_run(["run", "--system", "fake-doc", "--store", str(store), "--cases",
                                 str(bank / "cases"), "--concurrency", "3"], env)
        started.set()
        out, err = child["p"].communicate(timeout=60)
        assert child["p"].returncode == (-signal.SIGKILL if sig == signal.SIGKILL else 130), err

        db = sqlite3.connect(store)
        assert db.execute("PRAGMA integrity_check").fetchone() == ("ok",)
        assert db.execute("PRAGMA foreign_key_check").fetchall() == []
        rows = db.execute("SELECT status, reason, scorecard IS NOT NULL, "
                          "(SELECT COUNT(*) FROM metrics m WHERE m.run_id = runs.id) FROM runs").fetchall()
        (group,) = db.execute("SELECT id FROM run_groups").fetchone()
        db.close()
        assert len(rows) < 6
        for status, reason, scored, metrics in rows:
            assert (status == "complete") == scored == (metrics > 0)
            assert status == "complete" or reason
        if sig == signal.SIGINT:
            assert "cancelled" in {reason for _, reason, _, _ in rows}
            assert f"medbench run --resume {group}" in err

        capsys.readouterr()
        resumed = main(["run", "--resume", group, "--store", str(store), "--format", "json"])
        out, err = capsys.readouterr()
        assert resumed == 0, err
        counts = json.loads(out)["counts"]
        assert counts["complete"] == counts["planned"] == 6
        statuses = [row[3] for row in _rows(store)]
        assert statuses == ["complete"] * 6
    finally:
        server.close()


def test_checklist_against_replay_over_bundled_cases(tmp_path, capsys):
    """Offline end to end: replaying the checklist's own transcripts scores the same."""
    store = tmp_path / "runs.sqlite"
    cases = REPO / "cases"
    collections_before = gc.get_threshold()
    assert main(["run", "--system", "checklist", "--cases", str(cases), "--store", str(store),
                 "--format", "json", "--seed", "3"]) == 0
    first = json.loads(capsys.readouterr().out)
    recorded = tmp_path / "recorded"
    with RunStore(store) as opened:
        for run in opened.runs(first["group_id"], full=True):
            dump_transcript(run.transcript_model(), recorded / f"{run.case_id}.json")
    assert main(["run", "--system", "checklist", "--system", f"replay:{recorded}", "--cases", str(cases),
                 "--store", str(store), "--format", "json"]) == 0
    second = json.loads(capsys.readouterr().out)
    assert gc.get_threshold() == collections_before  # a batch collects less often only while it plays
    assert second["counts"]["complete"] == second["counts"]["planned"] == 2 * first["counts"]["planned"]
    assert main(["report", second["group_id"], "--store", str(store), "--format", "json"]) == 0
    report = json.loads(capsys.readouterr().out)
    (comparison,) = report["comparisons"]
    # the error-testing cases test the harness: a run of the folder never plans them
    assert report["error_tests_left_out"] == []
    assert comparison["cases"] == first["counts"]["planned"]
    assert all(d["difference"] == 0 for d in comparison["differences"].values())
    assert comparison["direction"]["only_a"] == comparison["direction"]["only_b"] == 0
    assert main(["report", "--store", str(store), "--format", "md"]) == 0
    markdown = capsys.readouterr().out
    assert markdown.index("Diagnosis Accuracy") < markdown.index("Differential Accuracy") < markdown.index(
        "Treatment Accuracy") < markdown.index("Critical Conditions Passed") < markdown.index("Total steps")


@pytest.mark.parametrize("collect_less", [True, False])
def test_a_batch_collects_less_often_unless_a_screen_draws_beside_it(tmp_path, collect_less):
    before = gc.get_threshold()
    plan = plan_run(load_bank(REPO / "cases"), ["checklist"], cases=REPO / "cases" / "im-cap-001.yaml")
    seen: list[tuple[int, int, int]] = []
    with RunStore(tmp_path / "runs.sqlite") as store:
        runner = Runner(store, plan, collect_less=collect_less, on_event=lambda event: seen.append(gc.get_threshold()))
        result = asyncio.run(runner.run())
    assert result.ok and gc.get_threshold() == before
    assert (seen[-2][0] >= YOUNG_COLLECTION_THRESHOLD) is collect_less  # while the run played


def test_overlapping_batches_put_the_collection_threshold_back_when_the_last_ends():
    before = gc.get_threshold()
    with _FEWER_COLLECTIONS:
        assert gc.get_threshold()[0] >= YOUNG_COLLECTION_THRESHOLD
        with _FEWER_COLLECTIONS:  # a second batch, in another thread of the TUI
            pass
        assert gc.get_threshold()[0] >= YOUNG_COLLECTION_THRESHOLD  # the first still plays
    assert gc.get_threshold() == before


def test_usage_errors(tmp_path, capsys):
    assert main(["run", "--cases", str(tmp_path)]) == 2
    assert "--system" in capsys.readouterr().err
    assert main(["run", "--system", "checklist", "--cases", str(tmp_path / "none")]) == 2
    assert main(["run", "--system", "checklist", "--concurrency", "0"]) == 2
    assert main(["run", "--system", "nobody", "--cases", str(REPO / "cases"), "--store",
                 str(tmp_path / "r.sqlite")]) == 2
    assert main(["report", "--store", str(tmp_path / "missing.sqlite")]) == 1
    assert "medbench run" in capsys.readouterr().err


def test_plan_refuses_invalid_cases(tmp_path):
    bank = make_bank(tmp_path / "bank", "http://127.0.0.1:9/v1", cases=1)
    (bank / "cases" / "broken.yaml").write_text("id: broken\n", encoding="utf-8")
    with pytest.raises(MedbenchError, match="broken.yaml"):
        plan_run(load_bank(bank), ["checklist"])


def test_a_store_that_cannot_be_written_stops_the_group(tmp_path, monkeypatch):
    bank = make_bank(tmp_path / "bank", "http://127.0.0.1:9/v1", cases=4)
    with RunStore(tmp_path / "runs.sqlite") as store:
        plan = plan_run(load_bank(bank), ["checklist"], seed=1)
        written = []

        def full_disk(run):
            if written:
                raise MedbenchError("cannot write to the run store: database or disk is full")
            written.append(run)

        monkeypatch.setattr(store, "record", full_disk)
        with pytest.raises(MedbenchError, match="disk is full"):
            asyncio.run(Runner(store, plan, concurrency=1).run())
        assert len(written) == 1


def test_repeats_play_each_case_n_times_with_recorded_seeds(tmp_path, key, doc_server):
    bank = make_bank(tmp_path / "bank", doc_server.base_url, cases=2)
    with RunStore(tmp_path / "runs.sqlite") as store:
        plan = plan_run(load_bank(bank), ["fake-doc"], seed=9, repeats=3)
        result, events = _play(store, plan)
        assert result.complete == 6 and result.ok
        started = next(e for e in events if isinstance(e, GroupStarted))
        assert started.planned == started.to_play == 6
        runs = store.runs(result.group_id)
        assert sorted((r.case_id, r.repeat) for r in runs) == sorted(
            (c.id, k) for c in plan.cases for k in range(3))
        group = store.group(result.group_id)
        assert group.repeats == 3 and group.planned == 6
        # unseeded endpoint, repeated group: each repeat sends its own run seed, and records it
        for run in runs:
            assert run.seeds["system"] == run.seeds["run"] == run.seeds["retry_jitter"]
            assert run.seeds["simulator"] is None  # the grounded patient does not sample
        assert len({r.seeds["run"] for r in runs}) == 6
        # the runs of a case share its patient's set-up, never its dialogue: each repeat is told
        # the same as the first ("As I said, ..." would be a dialogue kept)
        for case in plan.cases:
            told = {tuple(t.text for t in r.transcript_model().turns if t.role == "patient")
                    for r in store.runs(result.group_id, full=True) if r.case_id == case.id}
            assert len(told) == 1 and not any(text.startswith("As I said") for text in next(iter(told)))
        sent = {body["seed"] for body in (r.body for r in doc_server.chat_requests)}
        assert sent == {r.seeds["system"] for r in runs}
        # the same group seed gives the same seeds again
        again = plan_run(load_bank(bank), ["fake-doc"], seed=9, repeats=3)
        second, _ = _play(store, again)
        assert sorted(r.seeds["run"] for r in store.runs(second.group_id)) == sorted(r.seeds["run"] for r in runs)


def test_the_patient_of_a_repeated_run_sends_the_seed_recorded_with_it(tmp_path, key, doc_server):
    patient = FakeOpenAI(responder=lambda body: "I'm not sure.").start()
    try:
        bank = make_bank(tmp_path / "bank", doc_server.base_url, cases=1)
        with (bank / "medbench.yaml").open("a", encoding="utf-8") as config:
            config.write(f"simulators:\n  pt: {{kind: llm, base_url: '{patient.base_url}', model: m, seed: 4}}\n")
        with RunStore(tmp_path / "runs.sqlite") as store:
            result, _ = _play(store, plan_run(load_bank(bank), ["fake-doc"], simulator="pt", seed=9, repeats=2))
            runs = store.runs(result.group_id)
            assert result.complete == 2
            # configured seed 4: the first repeat sends it, the second one more; each run records its own
            assert sorted(r.seeds["simulator"] for r in runs) == [4, 5]
            assert {r.body["seed"] for r in patient.chat_requests} == {4, 5}
    finally:
        patient.close()


def test_a_single_run_sends_only_the_configured_seed(tmp_path, key, doc_server):
    bank = make_bank(tmp_path / "bank", doc_server.base_url, cases=1)
    with RunStore(tmp_path / "runs.sqlite") as store:
        result, _ = _play(store, plan_run(load_bank(bank), ["fake-doc"], seed=9))
        (run,) = store.runs(result.group_id)
        assert run.repeat == 0 and run.seeds["system"] is None
        assert all("seed" not in r.body for r in doc_server.chat_requests)


def test_repeats_on_the_command_line(tmp_path, key, doc_server, capsys):
    bank = make_bank(tmp_path / "bank", doc_server.base_url, cases=1)
    store = tmp_path / "runs.sqlite"
    assert main(["run", "--bank", str(bank), "--system", "fake-doc", "--repeats", "2", "--store", str(store),
                 "--format", "json"]) == 0
    document = json.loads(capsys.readouterr().out)
    assert document["counts"]["planned"] == document["counts"]["complete"] == 2
    assert main(["run", "--bank", str(bank), "--system", "fake-doc", "--repeats", "0"]) == 2
    assert "--repeats" in capsys.readouterr().err
    assert main(["run", "--resume", document["group_id"], "--repeats", "3", "--store", str(store)]) == 2


def test_error_testing_cases_are_left_out_unless_asked_for(tmp_path, capsys):
    cases = REPO / "cases"
    tests = sorted(p.stem for p in cases.glob("err-*.yaml"))
    plan = plan_run(load_bank(REPO), ["checklist"], cases=cases, seed=1)
    assert plan.left_out_error_tests == tests
    assert not {c.id for c in plan.cases} & set(tests)
    everything = plan_run(load_bank(REPO), ["checklist"], cases=cases, seed=1, include_error_tests=True)
    assert {c.id for c in everything.cases} >= set(tests) and not everything.left_out_error_tests
    named = plan_run(load_bank(REPO), ["checklist"], cases=cases / f"{tests[0]}.yaml", seed=1)
    assert [c.id for c in named.cases] == [tests[0]]  # a case named on its own is always played
    folder = tmp_path / "only-tests"
    folder.mkdir()
    shutil.copy(cases / f"{tests[0]}.yaml", folder)
    with pytest.raises(UsageError, match="--include-error-tests"):
        plan_run(load_bank(REPO), ["checklist"], cases=folder, seed=1)
    one = tmp_path / "one"
    one.mkdir()
    for name in (f"{tests[0]}.yaml", "im-cap-001.yaml"):
        shutil.copy(cases / name, one)
    store = tmp_path / "runs.sqlite"
    assert main(["run", "--system", "checklist", "--cases", str(one), "--store", str(store), "--format", "json"]) == 0
    captured = capsys.readouterr()
    assert json.loads(captured.out)["counts"]["planned"] == 1
    assert f"left out 1 error-testing case(s) ({tests[0]})" in captured.err
    assert main(["run", "--system", "checklist", "--cases", str(one), "--store", str(store), "--format", "json",
                 "--include-error-tests"]) == 0
    assert json.loads(capsys.readouterr().out)["counts"]["planned"] == 2


def test_a_batch_against_a_server_that_is_not_running_says_it_cannot_reach_it(tmp_path, key):
    """A batch's clients send over aiohttp, which reports a refused connection as a connect
    timeout: the run must still say the server cannot be reached, not that it was slow."""
    bank = make_bank(tmp_path / "bank", "http://127.0.0.1:9/v1", cases=1)
    with RunStore(tmp_path / "runs.sqlite") as store:
        plan = plan_run(load_bank(bank), ["fake-doc"], seed=1)
        result, _ = _play(store, plan, retry=RetryPolicy(attempts=2, max_delay=1, unreachable_seconds=2))
        [run] = store.runs(result.group_id)
    assert not run.complete
    assert "cannot reach http://127.0.0.1:9/v1" in run.reason and "did not answer in time" not in run.reason
