"""Planning a group as a researcher expects: a replay plays the cases it has transcripts for
(the others are left out with a note, not recorded as runs that cannot end); ``--cases``
takes several case files, folders, case ids and list files; and an endpoint that cannot be
reached stops the start at once, saying what to check."""

from __future__ import annotations

import json
import shutil
import time
from pathlib import Path

import pytest

from medbench_tui.cli import main
from medbench_tui.core.cases.bank import load_bank
from medbench_tui.core.errors import UsageError
from medbench_tui.core.runs.runner import plan_run
from medbench_tui.core.runs.store import RunStore
from medbench_tui.core.transcript import FinalResponse, Transcript, Turn, dump_transcript
from tests.test_runs_runner import key, make_bank  # noqa: F401  (the fixture)

REPO = Path(__file__).resolve().parent.parent
CASES = ("im-cap-001", "em-pe-001", "ped-dka-001", "psy-mdd-001")


@pytest.fixture
def bank(tmp_path: Path) -> Path:
    folder = tmp_path / "bank"
    folder.mkdir()
    for case_id in CASES:
        shutil.copy(REPO / "cases" / f"{case_id}.yaml", folder)
    return folder


def _replays(folder: Path, with_final: tuple[str, ...], without_final: tuple[str, ...] = ()) -> Path:
    folder.mkdir()
    for case_id in with_final + without_final:
        final = FinalResponse(text="Diagnosis: community-acquired pneumonia") if case_id in with_final else None
        turns = [Turn(role="doctor", text="When did it start?")]
        dump_transcript(Transcript(case_id=case_id, system="replay", turns=turns, final=final),
                        folder / f"{case_id}.yaml")
    return folder


def test_a_replay_plays_the_cases_it_has_and_the_rest_are_left_out_with_a_note(bank, tmp_path, capsys):
    replays = _replays(tmp_path / "replays", ("im-cap-001", "em-pe-001"), ("ped-dka-001",))
    store = tmp_path / "runs.sqlite"
    code = main(["run", "--bank", str(bank), "--system", "checklist", "--system", f"replay:{replays}",
                 "--store", str(store), "--format", "json"])
    out, err = capsys.readouterr()
    assert code == 0
    counts = json.loads(out)["counts"]
    assert counts["planned"] == 4 and counts["incomplete"] == 0 and counts["complete"] == 4
    assert f"left out the cases replay:{replays} cannot play" in err
    assert "has no transcript for 1 case(s) (psy-mdd-001)" in err
    assert "has a transcript without a final response for 1 case(s) (ped-dka-001)" in err
    assert "--resume" not in err
    assert main(["report", "--bank", str(bank), "--store", str(store), "--format", "md"]) == 0
    report = capsys.readouterr().out
    assert f"Left out when planned: 2 case(s) replay:{replays} could not play" in report


def test_a_replay_that_can_play_none_of_the_cases_is_a_usage_error(bank, tmp_path, capsys):
    replays = _replays(tmp_path / "replays", ())
    code = main(["run", "--bank", str(bank), "--system", f"replay:{replays}", "--store", str(tmp_path / "r.sqlite")])
    assert code == 2
    assert "no case can be played by every system" in capsys.readouterr().err


def test_cases_takes_several_paths_case_ids_and_list_files(bank, tmp_path):
    lists = tmp_path / "lists"
    lists.mkdir()
    (lists / "few.txt").write_text("# the cases of the morning\nem-pe-001\n../bank/ped-dka-001.yaml  # by path\n\n",
                                   encoding="utf-8")
    loaded = load_bank(bank)
    plan = plan_run(loaded, ["checklist"], cases=[bank / "im-cap-001.yaml", lists / "few.txt", Path("em-pe-001")],
                    seed=1)
    assert [c.id for c in plan.cases] == ["im-cap-001", "em-pe-001", "ped-dka-001"]
    assert plan.cases_path == f"im-cap-001.yaml; {lists / 'few.txt'}; em-pe-001"
    folder = plan_run(loaded, ["checklist"], cases=[bank], seed=1)
    assert len(folder.cases) == len(CASES)
    (lists / "bad.txt").write_text("nope-001\nim-cap-001\n", encoding="utf-8")
    with pytest.raises(UsageError) as caught:
        plan_run(loaded, ["checklist"], cases=[lists / "bad.txt", tmp_path / "missing.yaml"], seed=1)
    message = str(caught.value)
    assert f"{lists / 'bad.txt'}:1: no such case file, folder, list file or case id (nope-001)" in message
    assert "missing.yaml" in message


def test_cases_on_the_command_line_takes_several(bank, tmp_path, capsys):
    store = tmp_path / "runs.sqlite"
    code = main(["run", "--bank", str(bank), "--system", "checklist", "--cases", "im-cap-001", "em-pe-001",
                 "--cases", str(bank / "psy-mdd-001.yaml"), "--store", str(store), "--format", "json"])
    assert code == 0
    assert json.loads(capsys.readouterr().out)["counts"]["planned"] == 3


def test_an_endpoint_that_cannot_be_reached_stops_the_start_at_once(tmp_path, key, capsys):  # noqa: F811
    folder = make_bank(tmp_path / "bank", "http://127.0.0.1:9/v1", cases=1, timeout=30)
    store = tmp_path / "runs.sqlite"
    started = time.monotonic()
    code = main(["run", "--bank", str(folder), "--system", "fake-doc", "--store", str(store)])
    assert time.monotonic() - started < 20  # not the two minutes of retries a run gives a restarting server
    err = capsys.readouterr().err
    assert code == 1
    assert "not started" in err and "system fake-doc" in err and "cannot reach http://127.0.0.1:9/v1" in err
    assert "check base_url" in err and "medbench systems" in err
    with RunStore(store) as opened:
        assert opened.groups() == []


def test_no_resume_is_suggested_for_runs_that_would_end_the_same_way(bank, tmp_path, capsys):
    """A replay that runs past the case's turn limit ends incomplete every time it is played."""
    folder = tmp_path / "replays"
    folder.mkdir()
    turns = [Turn(role="doctor", text=f"Question {i}?") for i in range(60)]
    dump_transcript(Transcript(case_id="im-cap-001", system="replay", turns=turns,
                               final=FinalResponse(text="Diagnosis: pneumonia")), folder / "im-cap-001.yaml")
    code = main(["run", "--bank", str(bank), "--system", f"replay:{folder}", "--store", str(tmp_path / "r.sqlite")])
    err = capsys.readouterr().err
    assert code == 1
    assert "--resume" not in err and "would end the same way again" in err
