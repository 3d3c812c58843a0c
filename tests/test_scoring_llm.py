"""The LLM extractor against the local fake OpenAI-compatible server."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from ruamel.yaml import YAML

from medbench_tui.core.cases.model import Case
from medbench_tui.core.endpoints.client import EndpointError
from medbench_tui.core.scoring import NO_EVIDENCE, LlmExtractor, Span, score, score_async
from medbench_tui.core.scoring.llm_extractor import ExtractionError, locate, parse_structure
from medbench_tui.core.transcript import FinalResponse, Transcript

CASE = Case.model_validate(
    YAML(typ="safe", pure=True).load((Path(__file__).parent / "data" / "scoring" / "golden-cap.yaml").read_text())
)
TEXT = """Impression: this looks like a  community-acquired
pneumonia. Bronchitis is less likely.
Plan: CXR and bloods (FBC). Start amoxicillin 500 mg TDS. I would not use levofloxacin.
Seek urgent care if you get more breathless."""


def reply(**lists) -> str:
    body = {"diagnoses": [], "differential": [], "workup": [], "treatment": [], "advised_against": []}
    body.update(lists)
    return json.dumps(body)


GOOD = reply(
    diagnoses=[{"name": "Community-acquired pneumonia", "icd10": None, "quote": "community-acquired pneumonia"}],
    differential=[{"name": "Acute bronchitis", "icd10": None, "quote": "Bronchitis is less likely"}],
    workup=[
        {"item": "Chest X-ray", "quote": "CXR"},
        {"item": "Full blood count", "quote": "bloods (FBC)"},
        {"item": "CT pulmonary angiography", "quote": "CTPA to exclude PE"},
    ],
    treatment=[
        {"item": "Amoxicillin", "quote": "start amoxicillin 500 mg tds"},
        {"item": "Return precautions", "quote": "Seek urgent care if you get more breathless"},
    ],
    advised_against=[{"item": "Levofloxacin", "kind": "treatment", "quote": "not use levofloxacin"}],
)


def transcript(final: FinalResponse) -> Transcript:
    return Transcript(case_id=CASE.id, final=final)


async def test_llm_extraction_with_quotes(fake_openai):
    fake_openai.add_reply(GOOD)
    extractor = LlmExtractor(base_url=fake_openai.base_url, model="fake-model", api_key="sk-test")
    card = await score_async(CASE, transcript(FinalResponse(text=TEXT)), extractor=extractor)
    assert card.extraction.extractor == "llm"
    m = card.metrics
    assert m.diagnosis_accuracy == 100
    # CXR 2 + FBC 1 of 4; the CTPA quote is not in the text: NO_EVIDENCE, not scored
    assert m.workup_score == 75.0
    ctpa = next(e for e in card.extraction.entities if e.text == "CT pulmonary angiography")
    assert ctpa.evidence == NO_EVIDENCE and not ctpa.scored
    assert any("CTPA to exclude PE" in note for note in card.extraction.notes)
    # quotes found after folding case and whitespace carry exact spans
    pneumonia = next(e for e in card.extraction.entities if e.kind == "diagnosis")
    assert isinstance(pneumonia.evidence, Span)
    assert TEXT[pneumonia.evidence.start : pneumonia.evidence.end] == "community-acquired\npneumonia"
    amoxicillin = next(e for e in card.extraction.entities if e.text == "Amoxicillin")
    assert amoxicillin.evidence.text == "Start amoxicillin 500 mg TDS"
    # advised against: kept, negated, no contraindicated FAIL
    assert next(e for e in card.extraction.entities if e.text == "Levofloxacin").negated == "advised against"
    assert {c.id: c.status for c in card.critical_conditions}["cc-implicit-contraindicated"] == "OK"
    assert {c.id: c.status for c in card.critical_conditions}["cc-return"] == "OK"


async def test_request_uses_a_strict_json_schema(fake_openai):
    fake_openai.add_reply(reply())
    extractor = LlmExtractor(base_url=fake_openai.base_url, model="fake-model", seed=7)
    await extractor.aextract(CASE, FinalResponse(text="Diagnosis: CAP", advice="Rest."))
    body = fake_openai.chat_requests[-1].body
    assert body["model"] == "fake-model" and body["temperature"] == 0 and body["seed"] == 7
    fmt = body["response_format"]
    assert fmt["type"] == "json_schema" and fmt["json_schema"]["strict"] is True
    schema = fmt["json_schema"]["schema"]
    assert schema["additionalProperties"] is False
    assert set(schema["required"]) == {"diagnoses", "differential", "workup", "treatment", "advised_against"}
    item = schema["$defs"]["QuotedDiagnosis"]
    assert set(item["required"]) == {"name", "icd10", "quote"} and item["additionalProperties"] is False
    user = body["messages"][-1]["content"]
    assert "TEXT:\nDiagnosis: CAP" in user and "ADVICE:\nRest." in user
    assert "Community-acquired" not in json.dumps(body)  # the model never sees the case


async def test_structured_fields_are_used_with_the_text(fake_openai):
    fake_openai.add_reply(reply(workup=[{"item": "CRP", "quote": "CRP"}]))
    extractor = LlmExtractor(base_url=fake_openai.base_url, model="fake-model")
    final = FinalResponse(text="Plan: CRP.", workup=["Chest X-ray", "FBC"], diagnoses=["CAP"])
    card = await score_async(CASE, transcript(final), extractor=extractor)
    assert card.metrics.workup_score == 100.0
    assert card.metrics.diagnosis_accuracy == 100


async def test_junk_twice_is_a_stored_extraction_error_not_a_zero(fake_openai):
    fake_openai.add_reply('{"diagnoses": "pneumonia"}', '{"diagnoses": [{"name": "CAP", "quote": "CAP"')
    extractor = LlmExtractor(base_url=fake_openai.base_url, model="fake-model")
    card = await score_async(CASE, transcript(FinalResponse(text="Diagnosis: CAP")), extractor=extractor)
    assert len(fake_openai.chat_requests) == 2  # asked once more, with a hint
    assert "could not be read" in fake_openai.chat_requests[-1].body["messages"][-1]["content"]
    assert card.extraction.error is not None and "cut off" in card.extraction.error
    assert card.complete is False and card.incomplete_reason.startswith("extraction error: the extractor model")


async def test_a_server_without_json_schema_gets_json_mode(fake_openai):
    fake_openai.add_fault("400")
    fake_openai.add_reply(GOOD, reply())
    extractor = LlmExtractor(base_url=fake_openai.base_url, model="fake-model")
    card = await score_async(CASE, transcript(FinalResponse(text=TEXT)), extractor=extractor)
    assert card.metrics.diagnosis_accuracy == 100 and card.extraction.error is None
    formats = [r.body.get("response_format", {}).get("type") for r in fake_openai.chat_requests]
    assert formats == ["json_schema", "json_object"]
    await extractor.aextract(CASE, FinalResponse(text="Diagnosis: CAP"))
    assert fake_openai.chat_requests[-1].body["response_format"]["type"] == "json_object"  # remembered


@pytest.mark.parametrize(
    "text",
    [
        'Here is the structure:\n{"diagnoses": [{"name": "CAP", "quote": "CAP"}]}\nHope this helps.',
        '{"diagnoses": ["CAP"], "extra_key": 1}',
    ],
)
def test_tolerant_reading_of_a_reply(text):
    structure = parse_structure(text)
    assert [d.name for d in structure.diagnoses] == ["CAP"] and structure.workup == []


def test_a_reply_cut_at_the_token_limit_is_an_error():
    with pytest.raises(ExtractionError, match="token limit"):
        parse_structure('{"diagnoses": []}', "length")


async def test_endpoint_failure_is_an_endpoint_error(fake_openai):
    fake_openai.add_fault("500")
    extractor = LlmExtractor(base_url=fake_openai.base_url, model="fake-model")
    with pytest.raises(EndpointError) as caught:
        await extractor.aextract(CASE, FinalResponse(text="Diagnosis: CAP"))
    assert caught.value.status == 500


async def test_no_text_means_no_request(fake_openai):
    extractor = LlmExtractor(base_url=fake_openai.base_url, model="fake-model")
    extraction = await extractor.aextract(CASE, FinalResponse(diagnoses=["CAP"]))
    assert fake_openai.chat_requests == [] and [e.text for e in extraction.entities] == ["CAP"]


def test_sync_score_with_the_llm_extractor(fake_openai):
    fake_openai.add_reply('```json\n' + reply(diagnoses=[{"name": "CAP", "icd10": "J18.9", "quote": "CAP"}]) + "\n```")
    extractor = LlmExtractor(base_url=fake_openai.base_url, model="fake-model")
    card = score(CASE, transcript(FinalResponse(text="Diagnosis: CAP")), extractor=extractor)
    assert (card.metrics.diagnosis_accuracy, card.metrics.primary_icd10) == (100, "exact")


def test_from_endpoint_and_public_config(fake_openai):
    from medbench_tui.core.cases.bankconfig import EndpointConfig

    endpoint = EndpointConfig(base_url=fake_openai.base_url, model="fake-model", seed=3)
    extractor = LlmExtractor.from_endpoint(endpoint)
    assert extractor.public_config() == {
        "extractor": "llm", "base_url": fake_openai.base_url, "model": "fake-model",
        "temperature": 0.0, "seed": 3, "max_tokens": 4096,  # the extractor's default: a reply always ends
    }


@pytest.mark.parametrize(
    ("quote", "found"),
    [("COMMUNITY-ACQUIRED PNEUMONIA", "community-acquired\npneumonia"), ("plan:  cxr", "Plan: CXR"), ("MRI", None)],
)
def test_locate_folds_case_and_whitespace(quote, found):
    span = locate(quote, TEXT)
    assert (TEXT[span[0] : span[1]] if span else None) == found
