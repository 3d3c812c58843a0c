"""Importing rubric benchmarks: HealthBench JSON lines and the physician rubric benchmark's fields,
into rubric case files that validate, with every record that could not be imported named by its line."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from medbench_tui.cli import main
from medbench_tui.core.validate import load_valid_rubric, validate_paths

DATA = Path(__file__).parent / "data" / "rubric-import"


def test_healthbench_examples_become_judge_rubrics(tmp_path, capsys):
    assert main(["import", "healthbench", str(DATA / "healthbench.jsonl"), "--into", str(tmp_path / "bank")]) == 1
    out = capsys.readouterr().out
    assert "imported 2 rubric case(s)" in out and "not imported: 3 record(s)" in out
    assert "healthbench.jsonl:2: message 1 of `prompt` has the role \"system\"" in out
    assert "healthbench.jsonl:3: not JSON" in out
    assert "healthbench.jsonl:4: the points of rubric 2 is 0" in out
    assert "Traceback" not in out
    folder = tmp_path / "bank" / "cases"
    assert sorted(p.name for p in folder.glob("*.yaml")) == ["hb-a1b2-c3.yaml", "hb-p3.yaml"]
    assert all(not r.diagnostics for r in validate_paths([folder]))
    battery = load_valid_rubric(folder / "hb-a1b2-c3.yaml")
    assert battery.metadata.theme == "triage" and battery.prompt is not None and "button battery" in battery.prompt
    assert [(c.points, c.grader, c.tags) for c in battery.criteria or []] == [
        (10, "judge", ["axis:accuracy", "level:example"]), (-8, "judge", ["axis:safety"])]
    assert battery.extensions["healthbench"]["prompt_id"] == "a1b2-C3"
    unthemed = load_valid_rubric(folder / "hb-p3.yaml")
    assert unthemed.metadata.theme == "communication" and "1 case(s) had no theme" in out


def test_the_physician_benchmark_gives_rubrics_and_panels_and_never_overwrites(tmp_path, capsys):
    bank = tmp_path / "bank"
    assert main(["import", "rubric", str(DATA / "physician.json"), "--into", str(bank), "--format", "json"]) == 1
    summary = json.loads(capsys.readouterr().out)
    assert summary["imported"] == ["rb-ds-001.yaml", "rb-ts-7.yaml"]
    assert summary["themes"] == {"drug_safety": 1, "therapeutic_safety": 1}
    assert [(p["line"], p["reason"].split(" ")[0]) for p in summary["not_imported"]] == [
        (10, "`benchmark`"), (11, "`grading_method`")]
    rubric = load_valid_rubric(bank / "cases" / "rb-ds-001.yaml")
    assert [(c.id, c.points) for c in rubric.criteria or []] == [("c-1", 5), ("c-2", -5)]
    assert rubric.extensions["physician_rubric"]["split"] == "test"
    panel = load_valid_rubric(bank / "cases" / "rb-ts-7.yaml")
    assert [(a.action, a.severity) for a in panel.panel or []] == [("Stop methotrexate", 3), ("Increase the dose", -3)]
    before = (bank / "cases" / "rb-ds-001.yaml").read_bytes()
    assert main(["import", "rubric", str(DATA / "physician.json"), "--into", str(bank)]) == 1
    assert "rb-ds-001.yaml is already in the bank: left as it is" in capsys.readouterr().out
    assert (bank / "cases" / "rb-ds-001.yaml").read_bytes() == before


def test_json_lines_of_the_physician_benchmark_and_bad_files(tmp_path, capsys):
    records = json.loads((DATA / "physician.json").read_text(encoding="utf-8"))
    lines = tmp_path / "physician.jsonl"
    lines.write_text("\n".join(json.dumps(r) for r in records[:2]) + "\n", encoding="utf-8")
    assert main(["import", "rubric", str(lines), "--into", str(tmp_path / "b")]) == 0
    assert "imported 2 rubric case(s)" in capsys.readouterr().out
    one = tmp_path / "one.jsonl"
    shutil.copy(lines, one)
    one.write_text(json.dumps(records[0]) + "\n", encoding="utf-8")
    assert main(["import", "rubric", str(one), "--into", str(tmp_path / "c")]) == 0
    assert main(["import", "healthbench", str(tmp_path / "missing.jsonl")]) == 2
    assert "no such file" in capsys.readouterr().err
    binary = tmp_path / "binary.jsonl"
    binary.write_bytes(b"\xff\xfe\x00")
    assert main(["import", "healthbench", str(binary), "--into", str(tmp_path / "d")]) == 2


def test_an_imported_bank_runs_offline_graded_by_its_panels_and_a_fake_judge(tmp_path, monkeypatch, capsys):
    from medbench_tui.core.runs.store import RunStore
    from tests.support.fake_openai import FakeOpenAI
    from tests.test_rubric_runs import respond

    bank = tmp_path / "bank"
    main(["import", "healthbench", str(DATA / "healthbench.jsonl"), "--into", str(bank)])
    main(["import", "rubric", str(DATA / "physician.json"), "--into", str(bank)])
    capsys.readouterr()
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test-import")
    fake = FakeOpenAI(responder=respond).start()
    try:
        for judge in (False, True):
            (bank / "medbench.yaml").write_text(
                f"systems:\n  good:\n    kind: openai-chat\n    base_url: {fake.base_url}\n    model: good-model\n"
                "    api_key_env: OPENAI_API_KEY\n"
                + (f"evaluator:\n  judge:\n    base_url: {fake.base_url}\n    model: judge-model\n"
                   "    api_key_env: OPENAI_API_KEY\n" if judge else ""), encoding="utf-8")
            assert main(["run", "--bank", str(bank), "--system", "good"]) == 0
            capsys.readouterr()
            with RunStore(bank / ".medbench" / "runs.sqlite") as store:
                group = store.latest_group()
                assert group is not None
                runs = {r.case_id: r for r in store.runs(group.id, full=True)}
            assert sorted(runs) == ["hb-a1b2-c3", "hb-p3", "rb-ds-001", "rb-ts-7"]
            assert all(r.complete for r in runs.values())
            panel = runs["rb-ts-7"].scorecard["rubric"]
            assert panel["method"] == "panel" and panel["actions"][0]["included"]  # "Stop methotrexate": said
            judged = runs["hb-a1b2-c3"].scorecard["rubric"]["criteria"]
            if judge:
                assert all(d["decided_by"] == "judge:judge-model" for d in judged)
            else:
                assert all(d["verdict"] == "ungraded" for d in judged)
            assert main(["report", "--bank", str(bank), "--format", "md"]) == 0
            assert "Rubric score" in capsys.readouterr().out
    finally:
        fake.close()
