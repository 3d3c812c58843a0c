"""`medbench play` end to end, as a user scripts it: piped stdin (one test in a subprocess, the
installed command; the others in process, with the same streams, see tests/support/cli_run.py)."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

from medbench_tui.core.cases.bank import consultation_files
from medbench_tui.core.transcript import load_transcript
from tests.support.cli_run import run_medbench
from tests.test_consultation import write_bank

REPO = Path(__file__).resolve().parent.parent
SCRIPT = (
    "Hello doctor\nWhen did this start?\nDo you take any medicines?\n/attachments\nAny allergies?\n"
    "/final\nDiagnosis: to be confirmed\nAdvice: come back if worse\n/end\n"
)


def play(*args: str, stdin: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return run_medbench("play", *args, stdin=stdin, env=env, cwd=REPO)


def test_play_one_bundled_case_of_each_category_offline(bundled_cases, tmp_path, monkeypatch, capsys):
    """A bundled case of each category plays to the end through the command, and one of them as a
    user runs it (a subprocess with piped stdin: what it adds, the process and its pipes, is the same
    for every case). Every bundled case is played by ``benchmarks/play_every_case.py``, whose quick
    mode the tests run."""
    from medbench_tui.cli import main

    cases = consultation_files(bundled_cases)
    assert cases, "no bundled cases"
    by_category = {path.stem.split("-")[0]: path for path in cases}

    def one(path: Path):
        out = tmp_path / f"{path.stem}.json"
        return path, out, subprocess.run(
            [sys.executable, "-m", "medbench_tui", "play", str(path), "--transcript", str(out)],
            input=SCRIPT, capture_output=True, text=True, timeout=120, cwd=REPO)

    def in_process(path: Path):
        out = tmp_path / f"{path.stem}.in.json"
        monkeypatch.setattr(sys, "stdin", io.StringIO(SCRIPT))
        code = main(["play", str(path), "--transcript", str(out)])
        captured = capsys.readouterr()
        return path, out, subprocess.CompletedProcess([], code, captured.out, captured.err)

    results = [one(by_category["im"])] + [in_process(path) for path in by_category.values()]
    for path, out, done in results:
        assert done.returncode == 0, f"{path.name}: {done.stderr}"
        first_line = path.read_text(encoding="utf-8")  # the intro is printed first
        assert done.stdout.startswith("Patient: "), path.name
        assert done.stdout.count("Patient: ") == 5, f"{path.name}: one reply per message\n{done.stdout}"
        transcript = load_transcript(out)
        assert transcript.status == "complete" and transcript.steps == 4, path.name
        assert transcript.final.text.startswith("Diagnosis: to be confirmed")
        assert first_line and transcript.case_id == path.stem


def test_end_of_input_without_final_is_incomplete_and_still_written(tmp_path):
    case = write_bank(tmp_path)
    out = tmp_path / "run.yaml"
    done = play(str(case), "--transcript", str(out), stdin="Do you smoke?\n")
    assert done.returncode == 1
    assert "Patient: About a pack a day for thirty years." in done.stdout
    assert "incomplete (no_final_response)" in done.stdout
    transcript = load_transcript(out)
    assert transcript.status == "incomplete" and transcript.reason == "no_final_response"
    assert transcript.turns[1].facts == ["smoking"]


def test_attachments_command_and_turn_zero_attachments(tmp_path):
    case = write_bank(tmp_path)
    done = play(str(case), stdin="/attachments\nCan I see the chest x-ray?\n/attachments\n/final\nflu\n")
    lines = done.stdout
    attachment = lines.index("[Attachment: Triage observations (document)]")
    assert attachment < lines.index("Patient: Here you are: Chest radiograph, PA view.")
    assert "Description: Right lower lobe consolidation." in lines
    assert done.returncode == 0


def test_an_invalid_case_is_refused_with_its_diagnostics(tmp_path):
    bad = tmp_path / "bad-case-001.yaml"
    bad.write_text("schema_version: 1\nid: bad-case-001\ntitle: Broken\nmetadata: {category: nowhere}\nintro: hi\n")
    done = play(str(bad), stdin="/final\nx\n")
    assert done.returncode == 1 and done.stdout == ""
    assert "is not a valid case" in done.stderr and "bad-case-001.yaml:" in done.stderr


def test_unreachable_llm_patient_hands_over_to_the_grounded_patient(tmp_path):
    import json

    case = write_bank(tmp_path)
    (tmp_path / "medbench.yaml").write_text(  # a refused port answers at once: the 10 s are for a loaded machine
        "simulators:\n  far: {kind: llm, base_url: 'http://127.0.0.1:9/v1', model: m, timeout: 10}\n"
    )
    out = tmp_path / "t.json"
    done = play(str(case), "--simulator", "far", "--transcript", str(out), stdin="Do you smoke?\n/final\nx\n")
    assert done.returncode == 0, done.stderr  # the consultation went on, and was scored
    notices = [line for line in done.stderr.splitlines() if line.startswith("medbench:")]
    assert "check base_url, the network" in notices[0] and "grounded patient" in notices[1]
    assert "Traceback" not in done.stderr
    events = json.loads(out.read_text())["events"]
    assert [e["detail"]["continued_with"] for e in events if e["kind"] == "simulator_unavailable"] == ["grounded"]


def test_missing_key_variable_is_a_one_line_error(tmp_path):
    case = write_bank(tmp_path)
    (tmp_path / "medbench.yaml").write_text(
        "simulators:\n"
        "  pat: {kind: llm, base_url: 'http://127.0.0.1:9/v1', model: m, api_key_env: MEDBENCH_ABSENT_KEY}\n"
    )
    done = play(str(case), "--simulator", "pat", stdin="/final\nx\n", env={"MEDBENCH_ABSENT_KEY": ""})
    assert done.returncode == 1
    assert done.stderr.strip().splitlines() == [
        "medbench: error: the environment variable MEDBENCH_ABSENT_KEY is not set: export the API key in it "
        "(api_key_env in medbench.yaml names the variable)"
    ]


def test_llm_patient_key_never_reaches_the_transcript(tmp_path, fake_openai):
    fake_openai.add_reply("About a pack a day for thirty years.")
    case = write_bank(tmp_path)
    (tmp_path / "medbench.yaml").write_text(
        f"simulators:\n  pat: {{kind: llm, base_url: '{fake_openai.base_url}', model: m, "
        "api_key_env: MEDBENCH_PLAY_KEY, stream: false}\n"
    )
    out = tmp_path / "run.json"
    secret = "sk-play-secret-424242"
    done = play(str(case), "--simulator", "pat", "--transcript", str(out), stdin="Do you smoke?\n/final\nx\n",
                env={"MEDBENCH_PLAY_KEY": secret})
    assert done.returncode == 0, done.stderr
    assert fake_openai.chat_requests[0].headers["authorization"] == f"Bearer {secret}"
    data = json.loads(out.read_text())
    assert data["simulator"] == "pat" and secret not in out.read_text() and secret not in done.stdout


@pytest.mark.parametrize("bad", ["nope-999"])
def test_unknown_case_is_a_usage_error(bad):
    done = play(bad, stdin="")
    assert done.returncode == 2 and "no such case file" in done.stderr
