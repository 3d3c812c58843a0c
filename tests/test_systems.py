"""Systems under test against the fake OpenAI server and offline: openai-chat with both
protocols, endpoint error classification, checklist, replay, human, the bank config."""

from __future__ import annotations

import json

import pytest

from medbench_tui.core.cases.bank import load_bank
from medbench_tui.core.cases.bankconfig import (
    BankConfigError,
    OpenAIChatSystemConfig,
    load_bank_config,
    parse_bank_config,
)
from medbench_tui.core.cases.model import patient_record
from medbench_tui.core.consultation.loop import Consultation
from medbench_tui.core.endpoints.client import ChatClient, EndpointError
from medbench_tui.core.errors import UsageError
from medbench_tui.core.simulators import GroundedSimulator
from medbench_tui.core.systems import resolve_system
from medbench_tui.core.systems.checklist import FINAL_TEXT, HISTORY, PREGNANCY, ChecklistSystem
from medbench_tui.core.systems.human import HumanSystem
from medbench_tui.core.systems.openai_chat import OpenAIChatSystem
from medbench_tui.core.systems.protocols import CONSULTATION_PROMPT, FINAL_MARKER, PROMPT_ONLY_PROMPT, protocol
from medbench_tui.core.transcript import FinalResponse, dump_transcript
from tests.test_consultation import fixture_case, write_bank

KEY = "sk-test-doctor-9876543210"


@pytest.fixture
def key(monkeypatch):
    monkeypatch.setenv("MEDBENCH_TEST_KEY", KEY)


def chat_system(fake, **settings) -> OpenAIChatSystem:
    config = {"kind": "openai-chat", "base_url": fake.base_url, "model": "doctor-model",
              "api_key_env": "MEDBENCH_TEST_KEY", "timeout": 5, **settings}
    return OpenAIChatSystem("doc", OpenAIChatSystemConfig.model_validate(config))


def new_consultation(tmp_path, system_name: str = "doc", **changes) -> Consultation:
    case = fixture_case(**changes)
    write_bank(tmp_path, case)
    return Consultation(case, GroundedSimulator(patient_record(case)), system=system_name, bank_root=tmp_path)


# --- openai-chat -------------------------------------------------------------------------


async def test_prompt_only_sends_the_exact_prompt_and_a_reply_without_question_is_final(fake_openai, tmp_path, key):
    fake_openai.add_reply("Do you smoke?", "The most likely diagnosis is a chest infection.")
    system = chat_system(fake_openai, protocol="prompt-only", temperature=0.2, seed=11,
                         headers={"X-Team": "bench", "Authorization-Extra": "secret"})
    transcript = await system.consult(new_consultation(tmp_path))
    assert transcript.status == "complete" and transcript.steps == 1
    assert transcript.final.text == "The most likely diagnosis is a chest infection."
    first = fake_openai.chat_requests[0]
    assert first.body["messages"][0] == {"role": "system", "content": PROMPT_ONLY_PROMPT}
    assert PROMPT_ONLY_PROMPT == "Imagine that you are a doctor. Make a diagnosis or diagnoses."
    assert first.body["temperature"] == 0.2 and first.body["seed"] == 11
    assert first.headers["x-team"] == "bench" and first.headers["authorization"] == f"Bearer {KEY}"
    second = fake_openai.chat_requests[1].body["messages"]
    assert second[2] == {"role": "assistant", "content": "Do you smoke?"}
    assert second[3]["content"] == "About a pack a day for thirty years."
    assert transcript.usage.prompt_tokens > 0 and transcript.usage.completion_tokens > 0
    public = system.public_config()
    assert public["headers"]["Authorization-Extra"] == "***" and public["system_prompt"] == PROMPT_ONLY_PROMPT
    assert KEY not in json.dumps(public) and KEY not in json.dumps(transcript.model_dump(mode="json"))


async def test_consultation_protocol_asks_until_the_final_marker(fake_openai, tmp_path, key):
    final = (
        f"{FINAL_MARKER}\nDiagnosis: chest infection\nICD-10: J22\nDifferential: flu\nWorkup: CXR\n"
        "Treatment: rest\nAdvice: return if worse"
    )
    fake_openai.add_reply("When did it start?", "Could I see the chest X-ray?", final)
    transcript = await chat_system(fake_openai, protocol="consultation").consult(new_consultation(tmp_path))
    assert transcript.status == "complete" and transcript.steps == 2
    assert transcript.final.text.startswith("Diagnosis: chest infection") and FINAL_MARKER not in transcript.final.text
    assert fake_openai.chat_requests[0].body["messages"][0]["content"] == CONSULTATION_PROMPT
    assert [e.attachment for e in transcript.events] == ["obs", "cxr", "bloods"]
    opening = fake_openai.chat_requests[0].body["messages"][1]["content"]
    assert "SpO2 93%" in opening and opening.startswith("Doctor, I've had a cough")


async def test_images_go_as_image_parts_with_vision_else_as_description(fake_openai, tmp_path, key):
    fake_openai.add_reply("Can I see the x-ray?", f"{FINAL_MARKER}\nDiagnosis: x")
    await chat_system(fake_openai, vision=True).consult(new_consultation(tmp_path))
    content = fake_openai.chat_requests[1].body["messages"][3]["content"]
    assert content[0]["type"] == "text" and "Chest radiograph, PA view" in content[0]["text"]
    assert "Description: Right lower lobe consolidation." in content[0]["text"]  # the image and its words
    assert content[1]["type"] == "image_url" and content[1]["image_url"]["url"].startswith("data:image/png;base64,")

    fake_openai.reset()
    fake_openai.add_reply("Can I see the x-ray?", f"{FINAL_MARKER}\nDiagnosis: x")
    await chat_system(fake_openai, vision=False).consult(new_consultation(tmp_path / "b"))
    content = fake_openai.chat_requests[1].body["messages"][3]["content"]
    assert isinstance(content, str) and "Description: Right lower lobe consolidation." in content
    assert ".png" not in content and "attachments" not in content  # never a file path


async def test_turn_limit_gets_one_last_call_then_ends_incomplete(fake_openai, tmp_path, key):
    fake_openai.default_reply = "Anything else?"
    transcript = await chat_system(fake_openai).consult(new_consultation(tmp_path))
    assert transcript.status == "incomplete" and transcript.reason == "turn_limit"
    assert transcript.steps == 5


def test_final_rules():
    consult = protocol("consultation")
    assert consult.final_text("Any fever?") is None
    assert consult.final_text("**FINAL RESPONSE**\nDiagnosis: flu") == "Diagnosis: flu"
    assert protocol("prompt-only").final_text("It is flu.") == "It is flu."
    assert protocol("prompt-only", "Custom prompt").prompt == "Custom prompt"


# --- endpoint errors ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("fault", "retryable", "status"),
    [("429", True, 429), ("500", True, 500), ("503", True, 503), ("timeout", True, None),
     ("drop", True, None), ("malformed", True, None), ("401", False, 401), ("400", False, 400),
     ("insufficient_quota", False, 429)],
)
async def test_faults_become_classified_endpoint_errors(fake_openai, fault, retryable, status):
    fake_openai.hang_seconds = 1.0
    fake_openai.add_fault(fault, retry_after=7 if fault == "429" else None)
    client = ChatClient(base_url=fake_openai.base_url, api_key="sk-x", timeout=0.3)
    with pytest.raises(EndpointError) as caught:
        await client.complete([{"role": "user", "content": "hi"}], model="m")
    error = caught.value
    assert (error.retryable, error.status) == (retryable, status)
    assert "\n" not in str(error)
    if fault == "429":
        assert error.retry_after == 7


async def test_stream_cut_short_is_a_retryable_error(fake_openai):
    fake_openai.add_fault("drop_stream")
    client = ChatClient(base_url=fake_openai.base_url, api_key="sk-x", timeout=2)
    with pytest.raises(EndpointError) as caught:
        async for _ in client.stream([{"role": "user", "content": "hi"}], model="m"):
            pass
    assert caught.value.retryable


async def test_an_endpoint_error_ends_the_run_incomplete_not_scored(fake_openai, tmp_path, key):
    fake_openai.add_reply("When did it start?")
    fake_openai.add_fault("500")
    transcript = await chat_system(fake_openai).consult(new_consultation(tmp_path))
    assert transcript.status == "incomplete" and transcript.final is None
    assert "answered 500" in transcript.reason and transcript.steps == 1
    assert transcript.events[-1].kind == "endpoint_error" and transcript.events[-1].detail["retryable"] is True


async def test_unreachable_endpoint_says_what_to_check():
    client = ChatClient(base_url="http://127.0.0.1:9/v1", timeout=1)
    problem = await client.probe()
    assert problem is not None and "check base_url, the network" in str(problem)
    with pytest.raises(EndpointError) as caught:
        await client.complete([{"role": "user", "content": "hi"}], model="m")
    assert caught.value.retryable and "check base_url" in str(caught.value)


def test_missing_key_variable_is_refused_when_the_system_is_built(fake_openai, monkeypatch):
    monkeypatch.delenv("MEDBENCH_TEST_KEY", raising=False)
    with pytest.raises(EndpointError, match="MEDBENCH_TEST_KEY is not set"):
        chat_system(fake_openai)


# --- checklist, replay, human ------------------------------------------------------------


async def test_checklist_asks_the_history_requests_attachments_and_offers_no_diagnosis(tmp_path):
    case_max = {"max_turns": 30}
    c = new_consultation(tmp_path, system_name="checklist", **case_max)
    system = ChecklistSystem()
    transcript = await system.consult(c)
    doctor = [t.text for t in transcript.turns if t.role == "doctor"]
    assert doctor[: len(HISTORY)] == list(HISTORY) and PREGNANCY not in doctor
    assert doctor[-1] == "Could I see the Chest radiograph, PA view?"
    assert "cxr" in [e.attachment for e in transcript.events]
    assert transcript.status == "complete" and transcript.final.text == FINAL_TEXT and not transcript.final.diagnoses
    assert "floor baseline" in system.public_config()["role"]
    female = await ChecklistSystem().consult(new_consultation(tmp_path / "f", sex="female", age=30, max_turns=30))
    assert PREGNANCY in [t.text for t in female.turns]


async def test_checklist_respects_the_turn_limit(tmp_path):
    transcript = await ChecklistSystem().consult(new_consultation(tmp_path))
    assert transcript.steps == 5 and transcript.status == "complete"


async def test_replay_replays_doctor_turns_and_final(tmp_path):
    recorded = await ChecklistSystem().consult(new_consultation(tmp_path, max_turns=30))
    recorded.final = FinalResponse(text="Diagnosis: pneumonia", diagnoses=["Pneumonia"])
    folder = tmp_path / "runs"
    folder.mkdir()
    dump_transcript(recorded, folder / "fx-cough-001.json")
    bank = load_bank(tmp_path)
    for spec in (f"replay:{folder}", f"replay:{folder / 'fx-cough-001.json'}"):
        system = resolve_system(spec, bank=bank)
        replayed = await system.consult(new_consultation(tmp_path, system_name=system.name, max_turns=30))
        doctor_turns = [t.text for t in recorded.turns if t.role == "doctor"]
        assert [t.text for t in replayed.turns if t.role == "doctor"] == doctor_turns
        assert replayed.final.diagnoses[0].name == "Pneumonia" and replayed.status == "complete"
        assert replayed.disclosed_facts() == recorded.disclosed_facts()
    missing = await resolve_system(f"replay:{folder}", bank=bank).consult(
        Consultation(fixture_case(id="fx-other-001"), GroundedSimulator(patient_record(fixture_case())),
                     system="r", bank_root=tmp_path))
    assert missing.status == "incomplete" and "no transcript for case fx-other-001" in missing.reason


async def test_human_takes_messages_then_a_final(tmp_path):
    script = iter(["Do you smoke?", FinalResponse(text="Diagnosis: pneumonia")])
    shown = []

    async def doctor(_consultation):
        return next(script)

    transcript = await HumanSystem(doctor, show=shown.append).consult(new_consultation(tmp_path, "human"))
    assert transcript.status == "complete" and transcript.steps == 1
    assert shown[0].intro.startswith("Doctor,") and shown[1].facts == ["smoking"]
    with pytest.raises(UsageError):
        await HumanSystem().drive(new_consultation(tmp_path / "x", "human"))


# --- resolve_system and medbench.yaml ----------------------------------------------------


def test_resolve_system_builtins_configured_and_unknown(tmp_path, fake_openai, key):
    (tmp_path / "medbench.yaml").write_text(
        "# comment\nsystems:\n  doc:\n    kind: openai-chat\n"
        f"    base_url: {fake_openai.base_url}\n    model: m\n    api_key_env: MEDBENCH_TEST_KEY\n"
        "  floor: {kind: checklist}\nsimulators:\n  pat: {kind: llm, base_url: 'http://x/v1', model: m}\n"
        "evaluator:\n  extractor: llm\n  llm: {base_url: 'http://y/v1', model: judge}\n"
    )
    bank = load_bank(tmp_path)
    assert resolve_system("checklist", bank=bank).name == "checklist"
    assert resolve_system("human", bank=bank).name == "human"
    assert isinstance(resolve_system("doc", bank=bank), OpenAIChatSystem)
    assert resolve_system("floor", bank=bank).name == "floor"
    with pytest.raises(UsageError, match="configured in .*: doc, floor; built-in"):
        resolve_system("nope", bank=bank)
    config = load_bank_config(tmp_path)
    assert config.evaluator.extractor == "llm" and config.evaluator.llm.model == "judge"
    assert config.simulators["pat"].stream is True


def test_bank_config_errors_name_the_place(tmp_path):
    text = "systems:\n  doc:\n    kind: openai-chat\n    base_url: http://x/v1\n    modle: m\n  bad: {kind: robot}\n"
    with pytest.raises(BankConfigError) as caught:
        parse_bank_config(text, tmp_path / "medbench.yaml")
    message = str(caught.value)
    assert f"{tmp_path / 'medbench.yaml'}:5:5: systems.doc.modle: unknown key" in message
    assert ":2:3: systems.doc.model: required, missing" in message
    assert ":6:3: systems.bad: unknown kind 'robot'" in message
    with pytest.raises(BankConfigError, match="NAME of an environment variable"):
        parse_bank_config(
            "systems:\n  d: {kind: openai-chat, base_url: 'http://x', model: m, api_key_env: 'sk-abc 123'}\n"
        )


def test_bundled_bank_config_parses_and_needs_nothing_offline(bundled_cases):
    config = load_bank_config(bundled_cases)
    assert config.path is not None and config.path.read_text().startswith("# The bundled case bank.")
    kinds = {c.protocol for c in config.systems.values() if c.kind == "openai-chat"}
    assert kinds == {"consultation", "prompt-only"}
    assert any(s.kind == "llm" for s in config.simulators.values())
    assert all(getattr(c, "api_key_env", None) in (None, "OPENAI_API_KEY") for c in config.systems.values())


async def test_streamed_deltas_and_usage(fake_openai):
    fake_openai.add_reply("three small words")
    client = ChatClient(base_url=fake_openai.base_url, api_key="sk-x")
    deltas = [d async for d in client.stream([{"role": "user", "content": "hi"}], model="m")]
    assert "".join(deltas) == "three small words" and len(deltas) == 3
    assert client.usage.requests == 1 and client.usage.completion_tokens == 3
    assert fake_openai.chat_requests[0].body["stream_options"] == {"include_usage": True}


async def test_fault_rate_is_seeded(fake_openai):
    fake_openai.fault_rate, fake_openai.fault_kinds = 0.5, ("500",)
    client = ChatClient(base_url=fake_openai.base_url, api_key="sk-x")

    async def outcomes() -> list[bool]:
        results = []
        for _ in range(12):
            try:
                await client.complete([{"role": "user", "content": "hi"}], model="m")
                results.append(True)
            except EndpointError:
                results.append(False)
        return results

    first = await outcomes()
    assert True in first and False in first
