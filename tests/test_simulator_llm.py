"""The llm patient against the fake OpenAI server: it is sent only the patient record,
and every reply that leaks or invents is replaced by the grounded answer, with an event."""

from __future__ import annotations

import json
import re

import pytest

from medbench_tui.core.cases.bank import consultation_files
from medbench_tui.core.cases.bankconfig import LlmSimulatorConfig
from medbench_tui.core.cases.model import patient_record
from medbench_tui.core.consultation.loop import Consultation
from medbench_tui.core.endpoints.client import EndpointError
from medbench_tui.core.simulators import LeakGuard, make_simulator
from medbench_tui.core.simulators.guard import SupportCheck, check_reply
from medbench_tui.core.systems.checklist import ChecklistSystem
from tests.test_consultation import fixture_case

KEY = "sk-test-patient-0123456789"


@pytest.fixture
def key(monkeypatch):
    monkeypatch.setenv("MEDBENCH_TEST_KEY", KEY)


def llm_consultation(fake, tmp_path, *, stream: bool = False, case=None) -> Consultation:
    case = case or fixture_case()
    config = LlmSimulatorConfig(
        kind="llm", base_url=fake.base_url, model="patient-model", api_key_env="MEDBENCH_TEST_KEY",
        stream=stream, temperature=0, seed=3,
    )
    return Consultation(case, make_simulator(config, patient_record(case)), system="t", bank_root=tmp_path)


def hidden_strings(case) -> list[str]:
    items = [case.diagnosis.primary, *case.diagnosis.secondary, *case.differential]
    strings = [s for d in items for s in [d.name, *d.aliases]]
    strings += [s for w in case.workup for s in [w.item, *w.aliases]]
    strings += [s for t in case.treatment for s in [t.item, *t.aliases]]
    strings += [c.concept for c in case.control_questions] + [case.notes or ""]
    return [s for s in strings if s]


async def test_model_sees_only_the_patient_record(fake_openai, tmp_path, key):
    fake_openai.add_reply("It started three days ago with shaking chills.")
    c = llm_consultation(fake_openai, tmp_path)
    await c.ask("When did it start?")
    request = fake_openai.chat_requests[0]
    body = json.dumps(request.body)
    case = c.case
    for secret in hidden_strings(case):
        assert not re.search(rf"\b{re.escape(secret)}\b", body, re.IGNORECASE), secret
    assert case.intro in body and "pack a day" in body
    assert request.headers["authorization"] == f"Bearer {KEY}"
    assert request.body["model"] == "patient-model" and request.body["seed"] == 3


async def test_a_clean_supported_reply_passes_with_its_facts(fake_openai, tmp_path, key):
    fake_openai.add_reply("It started three days ago with shaking chills.")
    c = llm_consultation(fake_openai, tmp_path)
    reply = await c.ask("When did it start?")
    assert reply.text == "It started three days ago with shaking chills."
    assert reply.facts == ["onset"] and reply.events == []
    fake_openai.add_reply("No.")
    assert (await c.ask("Any pets?")).text == "No."


@pytest.mark.parametrize(
    ("leak", "reason"),
    [
        ("I'm worried it is community-acquired pneumonia.", "names_diagnosis"),
        ("My neighbour said it sounds like lobar pneumonia.", "names_diagnosis"),
        ("Could it be CAP, doctor?", "names_diagnosis"),
        ("It started three days ago. The code on my letter was J18.9.", "icd_code"),
        ("I wondered about acute bronchitis.", "names_differential"),
        ("Could it be a PE?", "names_differential"),
        ("It started three days ago. I also have a rash on both legs.", "unsupported"),
        ("My ankles have swollen up a lot.", "unsupported"),
    ],
)
async def test_a_leaking_or_invented_reply_is_replaced(fake_openai, tmp_path, key, leak, reason):
    fake_openai.add_reply(leak)
    c = llm_consultation(fake_openai, tmp_path)
    reply = await c.ask("When did it start?")
    assert reply.text == "It started three days ago with shaking chills, then the cough got worse."
    assert reply.facts == ["onset"]
    events = [e for e in c.transcript.events if e.kind == "simulator_replaced"]
    assert len(events) == 1 and events[0].reason == reason and events[0].turn == 1
    assert c.transcript.turns[-1].text == reply.text


async def test_streamed_reply_shows_only_checked_sentences(fake_openai, tmp_path, key):
    fake_openai.add_reply("It started three days ago with shaking chills. I think it is lobar pneumonia.")
    c = llm_consultation(fake_openai, tmp_path, stream=True)
    shown: list[str] = []
    reply = await c.ask("When did it start?", on_text=shown.append)
    assert shown == ["It started three days ago with shaking chills."]
    assert reply.text.startswith("It started three days ago with shaking chills, then")
    assert [e.reason for e in c.transcript.events if e.kind == "simulator_replaced"] == ["names_diagnosis"]
    assert fake_openai.chat_requests[0].body["stream"] is True

    fake_openai.add_reply("About a pack a day for thirty years.")
    shown.clear()
    clean = await c.ask("Do you smoke?", on_text=shown.append)
    assert clean.text == "About a pack a day for thirty years." and clean.facts == ["smoking"]
    assert shown == ["About a pack a day for thirty years."]


def test_leak_guard_is_built_from_the_case_and_spares_the_record_words():
    case = fixture_case()
    guard = LeakGuard.from_case(case)
    assert ("diagnosis", "CAP") in guard.names and "J18.9" in guard.codes
    assert guard.check("Lobar pneumonias run in my family.") == "names_diagnosis"
    assert guard.check("I take vitamin B12.") is None  # a code shape only near 'ICD'/'code' or a case code
    support = SupportCheck(patient_record(case))
    verdict = check_reply("About a pack a day for thirty years. I hope that makes sense.", guard, support)
    assert verdict.ok and verdict.facts == ["smoking"]


async def test_endpoint_error_in_the_patient_ends_the_run_incomplete(fake_openai, tmp_path, key):
    fake_openai.add_fault("401")
    c = llm_consultation(fake_openai, tmp_path)
    transcript = await ChecklistSystem().consult(c)
    assert transcript.status == "incomplete" and transcript.reason.startswith("endpoint error:")
    event = transcript.events[-1]
    assert event.kind == "endpoint_error" and event.detail["status"] == 401 and event.detail["retryable"] is False
    assert isinstance(c.error, EndpointError)
    assert KEY not in json.dumps(transcript.model_dump(mode="json"))


def test_patient_prompt_of_every_bundled_case_holds_no_hidden_string(bundled_cases):
    from medbench_tui.core.cases.model import Case
    from medbench_tui.core.cases.yamlio import parse_case_text
    from medbench_tui.core.simulators.llm import patient_prompt

    checked = 0
    for path in consultation_files(bundled_cases):
        case = Case.model_validate(parse_case_text(path.read_text(encoding="utf-8")).data)
        record = patient_record(case)
        prompt = patient_prompt(record)
        record_text = " ".join([record.intro, *(f"{a.topic} {a.answer}" for a in record.additional_answers)])
        for secret in hidden_strings(case):
            if not re.search(rf"\b{re.escape(secret)}\b", record_text, re.IGNORECASE):
                assert not re.search(rf"\b{re.escape(secret)}\b", prompt, re.IGNORECASE), (case.id, secret)
        checked += 1
    assert checked > 0


async def test_model_gets_the_conversation_rules_and_the_dialogue_so_far(fake_openai, tmp_path, key):
    fake_openai.add_reply("About a pack a day for thirty years.")
    fake_openai.add_reply("Thirty years.")
    c = llm_consultation(fake_openai, tmp_path)
    await c.ask("Do you smoke?")
    await c.ask("how long for?")
    first, second = (r.body["messages"][0]["content"] for r in fake_openai.chat_requests[:2])
    assert "which side?" in first and "As I said" in first and "The consultation so far" not in first
    assert "You last talked about: smoking history." in second
    assert "Already told the doctor" in second
