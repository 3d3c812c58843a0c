"""The consultation turn loop: opening, one reply per message, attachment releases,
the turn limit, recorded facts, events and timings. Also home of the fixture case the
other consultation-engine tests share (``fixture_case``, ``write_bank``)."""

from __future__ import annotations

import asyncio
import copy
import io
from pathlib import Path

import pytest
from PIL import Image, ImageDraw

from medbench_tui.core.cases.model import Case, patient_record
from medbench_tui.core.consultation.loop import Consultation, ConsultationOver, requested
from medbench_tui.core.simulators import GroundedSimulator
from medbench_tui.core.transcript import FinalResponse


def _picture() -> bytes:
    """A small synthetic chest film (a blank or 1x1 picture would be a placeholder: an error)."""
    image = Image.new("L", (48, 48), 25)
    draw = ImageDraw.Draw(image)
    draw.ellipse((6, 6, 22, 42), fill=70)
    draw.ellipse((26, 6, 42, 42), fill=70)
    draw.ellipse((8, 28, 20, 40), fill=160)  # right lower zone opacity
    buffer = io.BytesIO()
    image.save(buffer, "PNG")
    return buffer.getvalue()


PNG = _picture()

CASE_DATA = {
    "schema_version": 1,
    "id": "fx-cough-001",
    "title": "Fixture: cough and fever",
    "metadata": {"category": "internal_medicine"},
    "patient": {"age": 54, "sex": "male", "informant": "self", "behavior": ["standard"], "default_answer": "negative"},
    "intro": "Doctor, I've had a cough and a fever for three days and I feel awful.",
    "additional_answers": [
        {"id": "onset", "topic": "when the symptoms started", "keywords": ["start", "began", "how long"],
         "answer": "It started three days ago with shaking chills, then the cough got worse."},
        {"id": "sputum", "topic": "phlegm", "keywords": ["phlegm", "sputum", "bringing up"],
         "answer": "I'm bringing up thick green phlegm."},
        {"id": "smoking", "topic": "smoking history", "keywords": ["smoke", "cigarettes", "tobacco"],
         "answer": "About a pack a day for thirty years."},
        {"id": "breathless", "topic": "shortness of breath", "keywords": ["breathless", "short of breath"],
         "answer": "Yes, I get out of breath walking up the stairs."},
        {"id": "chest_pain", "topic": "chest pain on breathing", "keywords": ["chest pain", "pain"],
         "answer": "There's a sharp pain on the right side when I breathe in."},
        {"id": "medications", "topic": "current medicines", "keywords": ["medication", "medicines", "tablets"],
         "answer": "Just paracetamol for the fever."},
        {"id": "allergies", "topic": "allergies", "keywords": ["allergy", "allergic"],
         "answer": "No allergies that I know of."},
        {"id": "alcohol", "topic": "alcohol intake", "keywords": ["alcohol", "drink", "beer"],
         "answer": "A couple of beers at the weekend.", "delayed": True},
    ],
    "control_questions": [
        {"id": "cq-smoke", "concept": "quantify tobacco exposure in pack-years", "answered_by": ["smoking"]},
    ],
    "attachments": [
        {"id": "obs", "kind": "document", "title": "Triage observations", "available": "at_start",
         "content": "Temp 38.9 C, HR 104, RR 24, SpO2 93% on air."},
        {"id": "cxr", "kind": "image", "title": "Chest radiograph, PA view", "available": "on_request",
         "file": "attachments/fx-cough-001/cxr.png", "description": "Right lower lobe consolidation.",
         "request_keywords": ["x-ray", "chest film"]},
        {"id": "bloods", "kind": "lab_report", "title": "Full blood count", "available": "after_turn",
         "after_turn": 2, "file": "attachments/fx-cough-001/fbc.txt"},
    ],
    "diagnosis": {"primary": {"name": "Community-acquired pneumonia", "icd10": "J18.9",
                              "aliases": ["CAP", "lobar pneumonia"]}},
    "differential": [
        {"name": "Acute bronchitis", "icd10": "J20.9", "aliases": ["chest cold"]},
        {"name": "Pulmonary embolism", "icd10": "I26.9", "aliases": ["PE"]},
    ],
    "workup": [{"item": "Chest X-ray", "class": "required", "aliases": ["CXR"]}],
    "treatment": [{"item": "Amoxicillin", "class": "required", "aliases": ["amoxil"]}],
    "notes": "Reviewer note: classic lobar picture, teaching point on CURB-65.",
    "num_steps": 8,
    "max_turns": 5,
}


def fixture_case(**changes) -> Case:
    data = copy.deepcopy(CASE_DATA)
    for key, value in changes.items():
        if key == "behavior":
            data["patient"]["behavior"] = value
        elif key in data["patient"]:
            data["patient"][key] = value
        else:
            data[key] = value
    return Case.model_validate(data)


def write_bank(root: Path, case: Case | None = None) -> Path:
    """A bank folder with the fixture case file and its attachment files; returns the case file."""
    from ruamel.yaml import YAML

    case = case or fixture_case()
    folder = root / "attachments" / case.id
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "cxr.png").write_bytes(PNG)
    (folder / "fbc.txt").write_text("Hb 142 g/L\nWCC 16.2 x10^9/L (neutrophilia)\nCRP 182 mg/L\n")
    (root / "medbench.yaml").write_text("# fixture bank\n")
    path = root / f"{case.id}.yaml"
    with path.open("w") as handle:
        YAML().dump(case.model_dump(mode="json", by_alias=True, exclude_none=True), handle)
    return path


def consultation(tmp_path: Path, **changes) -> Consultation:
    case = fixture_case(**changes)
    write_bank(tmp_path, case)
    return Consultation(case, GroundedSimulator(patient_record(case)), system="test", bank_root=tmp_path)


def test_opening_has_intro_and_turn_zero_attachments(tmp_path):
    c = consultation(tmp_path)
    assert c.opening.intro.startswith("Doctor, I've had a cough")
    assert [a.id for a in c.opening.attachments] == ["obs"]
    assert "SpO2 93%" in c.opening.render()
    assert [(e.turn, e.kind, e.attachment) for e in c.transcript.events] == [(0, "attachment_released", "obs")]
    assert [a.id for a in c.released] == ["obs"]
    assert c.turns_left == 5


async def test_each_message_gets_one_reply_with_facts(tmp_path):
    c = consultation(tmp_path)
    reply = await c.ask("How many cigarettes do you smoke?")
    assert reply.facts == ["smoking"]
    assert "pack a day" in reply.text
    roles = [t.role for t in c.transcript.turns]
    assert roles == ["doctor", "patient"]
    assert c.transcript.turns[1].facts == ["smoking"]
    assert c.transcript.steps == 1 and c.turns_left == 4
    assert all(t.seconds is not None and t.seconds >= 0 for t in c.transcript.turns)


async def test_the_patient_reads_the_start_of_a_huge_message_and_the_transcript_keeps_all_of_it(tmp_path):
    """A model that writes a megabyte held the patient for minutes (reading is linear but not
    cheap); the patient reads the first MAX_HEARD_CHARS, the transcript says so and keeps all."""
    from medbench_tui.core.consultation.loop import MAX_HEARD_CHARS

    c = consultation(tmp_path)
    message = "How many cigarettes do you smoke? " + "lorem ipsum " * 100_000
    reply = await c.ask(message)
    assert reply.facts == ["smoking"]
    assert c.transcript.turns[0].text == message
    cut = [e for e in c.transcript.events if e.kind == "message_cut"]
    assert len(cut) == 1 and cut[0].turn == 1 and f"{MAX_HEARD_CHARS:,}" in (cut[0].reason or "")
    await c.ask("Any fever?")
    assert len([e for e in c.transcript.events if e.kind == "message_cut"]) == 1


async def test_attachment_released_on_request_by_keyword_or_title(tmp_path):
    c = consultation(tmp_path)
    reply = await c.ask("Can I see your X-rays?")
    assert [a.id for a in reply.attachments] == ["cxr"]
    assert reply.text == "Here you are: Chest radiograph, PA view."  # a hand-over, not "No."
    view = reply.attachments[0]
    assert view.image_path == tmp_path / "attachments/fx-cough-001/cxr.png"
    assert "Right lower lobe consolidation." in view.render()
    assert c.transcript.events[-1].model_dump(exclude_none=True, exclude={"detail"}) == {
        "turn": 1, "kind": "attachment_released", "attachment": "cxr"}
    again = await c.ask("And the x-ray once more?")
    assert [a.id for a in again.attachments] == ["cxr", "bloods"]  # shown again on request; bloods after turn 2
    assert "Here it is again: Chest radiograph, PA view." in again.text
    kinds = [(e.kind, e.attachment) for e in c.transcript.events]
    assert kinds.count(("attachment_released", "cxr")) == 1 and ("attachment_shown", "cxr") in kinds


async def test_an_attachment_handed_over_beside_a_fact_is_handed_over_once(tmp_path):
    c = consultation(tmp_path)
    reply = await c.ask("Could I see the chest x-ray? And how many do you smoke?")
    assert reply.facts == ["smoking"] and [a.id for a in reply.attachments] == ["cxr"]
    assert reply.text.count("Chest radiograph, PA view") == 1


def test_request_matching_is_whole_word_and_case_insensitive():
    case = fixture_case()
    cxr = case.attachments[1]
    assert requested(cxr, "could I look at the CHEST RADIOGRAPH please")
    assert requested(cxr, "any chest films done?")
    assert not requested(cxr, "do you have a radiographer friend?")


async def test_after_turn_attachment_is_read_from_the_bank(tmp_path):
    c = consultation(tmp_path)
    first = await c.ask("Any allergies?")
    assert first.attachments == []
    second = await c.ask("Do you take any medicines?")
    assert [a.id for a in second.attachments] == ["bloods"]
    assert "CRP 182 mg/L" in second.attachments[0].render()
    released = [(e.turn, e.attachment) for e in c.transcript.events if e.kind == "attachment_released"]
    assert released == [(0, "obs"), (2, "bloods")]


async def test_max_turns_ends_the_run_incomplete(tmp_path):
    c = consultation(tmp_path)
    for _ in range(5):
        await c.ask("Do you smoke?")
    assert c.turns_left == 0
    with pytest.raises(ConsultationOver):
        await c.ask("One more thing?")
    assert c.transcript.status == "incomplete" and c.transcript.reason == "turn_limit"
    assert c.transcript.steps == 5
    with pytest.raises(ConsultationOver):
        c.finish(FinalResponse(text="too late"))


async def test_finish_records_final_and_timings(tmp_path):
    c = consultation(tmp_path)
    await c.ask("When did it start?")
    transcript = c.finish(FinalResponse(text="Diagnosis: something"))
    assert transcript.status == "complete" and transcript.final.text == "Diagnosis: something"
    assert set(transcript.timings) == {"total", "doctor", "patient"}
    assert transcript.timings["total"] >= transcript.timings["patient"]
    assert transcript.disclosed_facts() == {"onset"}
    assert transcript.model_dump()["simulator"] == "grounded"


def test_abandon_and_listeners(tmp_path):
    seen = []
    case = fixture_case()
    write_bank(tmp_path, case)
    c = Consultation(
        case, GroundedSimulator(patient_record(case)), system="t", bank_root=tmp_path, listeners=[seen.append]
    )
    asyncio.run(c.ask("Any phlegm?"))  # usable from sync code
    transcript = c.abandon("no_final_response")
    assert transcript.status == "incomplete" and transcript.reason == "no_final_response"
    assert [getattr(x, "role", None) or x.kind for x in seen] == ["attachment_released", "doctor", "patient"]


def test_missing_attachment_file_is_shown_not_fatal(tmp_path):
    case = fixture_case()
    c = Consultation(case, GroundedSimulator(patient_record(case)), system="t", bank_root=tmp_path / "nowhere")
    view = c.show(case.attachments[2])
    assert view.missing_file == "attachments/fx-cough-001/fbc.txt"
    assert "file not found" in view.render()


def test_the_fields_a_run_stores_are_declared_on_the_transcript():
    from medbench_tui.core.transcript import Transcript, Usage

    transcript = Transcript(
        case_id="x",
        simulator="llm-patient",
        player_notes="fever since Monday",
        simulator_usage=Usage(prompt_tokens=5, completion_tokens=2, requests=1),
    )
    data = transcript.model_dump(mode="json", exclude_none=True)
    assert data["simulator_usage"] == {"prompt_tokens": 5, "completion_tokens": 2, "requests": 1}
    assert Transcript.model_validate(data) == transcript and transcript.model_extra == {}
    assert "requests" not in Transcript(case_id="x").model_dump(mode="json", exclude_none=True)["usage"]
