"""Model servers as their users meet them (llama.cpp, vLLM, Ollama, hosted APIs), each
behaviour against the local test server: replies cut at the token limit, small
contexts, context and image errors in the servers' own wording, tokenizer routes,
provider options, per-endpoint slots, restarts, and what is stored for an audit."""

from __future__ import annotations

import asyncio
import json
import random

import pytest

from medbench_tui.core.cases.bank import load_bank
from medbench_tui.core.cases.bankconfig import (
    BankConfigError,
    LlmSimulatorConfig,
    OpenAIChatSystemConfig,
    parse_bank_config,
)
from medbench_tui.core.cases.model import patient_record
from medbench_tui.core.consultation.loop import Consultation
from medbench_tui.core.endpoints.client import REQUEST_LOG, ChatClient, EndpointError
from medbench_tui.core.endpoints.context_budget import fit
from medbench_tui.core.endpoints.errors import CONTEXT_EXCEEDED, IMAGE_UNSUPPORTED, UNREACHABLE
from medbench_tui.core.reports.report import build_report, render_markdown
from medbench_tui.core.runs.retry import RetryPolicy, call_with_retry
from medbench_tui.core.runs.runner import Runner, plan_resume, plan_run
from medbench_tui.core.runs.store import RunStore
from medbench_tui.core.scoring.llm_extractor import LlmExtractor
from medbench_tui.core.simulators import GroundedSimulator, make_simulator
from medbench_tui.core.systems.openai_chat import OpenAIChatSystem
from medbench_tui.core.transcript import FinalResponse
from tests.support.fake_openai import FakeOpenAI
from tests.test_consultation import fixture_case, write_bank
from tests.test_runs_runner import FINAL, QUESTIONS, _play, doctor, make_bank

FINAL_CUT = "FINAL RESPONSE\nDiagnosis: Community-acquired pneumonia\nICD-10: J18.9\nDifferential: Acute bron"


@pytest.fixture
def key(monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test-servers-0123456789")


def doctor_system(fake: FakeOpenAI, **config) -> OpenAIChatSystem:
    settings = {"kind": "openai-chat", "base_url": fake.base_url, "model": "any-model-name", **config}
    return OpenAIChatSystem("doc", OpenAIChatSystemConfig(**settings))


def grounded_consultation(tmp_path, case=None) -> Consultation:
    case = case or fixture_case()
    write_bank(tmp_path, case)
    return Consultation(case, GroundedSimulator(patient_record(case)), system="doc", bank_root=tmp_path)


# --- item 2: finish_reason --------------------------------------------------------------


async def test_a_final_response_cut_at_the_token_limit_ends_the_run_truncated(fake_openai, tmp_path):
    fake_openai.add_reply("When did it start?")
    fake_openai.add_reply(FINAL_CUT, finish_reason="length")
    transcript = await doctor_system(fake_openai, max_tokens=40).consult(grounded_consultation(tmp_path))
    assert transcript.status == "incomplete" and transcript.final is None
    assert transcript.reason.startswith("truncated:") and "max_tokens" in transcript.reason
    event = next(e for e in transcript.events if e.kind == "truncated")
    assert event.detail == {"role": "doctor", "max_tokens": 40, "reply": FINAL_CUT}



def _one_stored_run(tmp_path, server):
    """One case played by the fake doctor against ``server``: its stored run, in full."""
    bank = make_bank(tmp_path / "bank", server.base_url, cases=1)
    with RunStore(tmp_path / "runs.sqlite") as store:
        result, _ = _play(store, plan_run(load_bank(bank), ["fake-doc"], seed=1))
        return store.runs(result.group_id, full=True)[0]

def test_a_run_whose_final_response_is_cut_is_stored_incomplete_not_scored(tmp_path, key):
    server = FakeOpenAI().start()
    try:
        server.add_reply(FINAL_CUT, finish_reason="length")
        run = _one_stored_run(tmp_path, server)
    finally:
        server.close()
    assert run.status == "incomplete" and run.reason.startswith("truncated:")
    assert run.metrics == {} and run.scorecard is None
    assert run.requests[0]["finish_reason"] == "length"


@pytest.mark.parametrize("stream", [False, True])
async def test_a_patient_reply_cut_mid_sentence_is_replaced(fake_openai, tmp_path, stream):
    fake_openai.add_reply("It started three days ago with shaking chills and then the", finish_reason="length")
    config = LlmSimulatorConfig(kind="llm", base_url=fake_openai.base_url, model="p", stream=stream)
    case = fixture_case()
    c = Consultation(case, make_simulator(config, patient_record(case)), system="t", bank_root=tmp_path)
    shown: list[str] = []
    reply = await c.ask("When did it start?", on_text=shown.append)
    assert reply.text == "It started three days ago with shaking chills, then the cough got worse."
    assert shown == []  # the unfinished sentence never reached the screen
    event = next(e for e in c.transcript.events if e.kind == "simulator_replaced")
    assert event.reason == "truncated" and "token limit (300)" in event.detail["why"]
    assert fake_openai.chat_requests[0].body["max_tokens"] == 300  # the patient's default


def extraction_reply() -> str:
    return json.dumps({"diagnoses": [{"name": "CAP", "icd10": "J18.9", "quote": "CAP"}], "differential": [],
                       "workup": [], "treatment": [], "advised_against": []})


async def test_a_cut_extraction_is_asked_again_with_more_room_and_says_so(fake_openai):
    fake_openai.add_reply('{"diagnoses": [{"name": "CAP", "icd', finish_reason="length")
    fake_openai.add_reply(extraction_reply())
    extractor = LlmExtractor(base_url=fake_openai.base_url, model="x", max_tokens=100)
    extraction = await extractor.aextract(fixture_case(), FinalResponse(text="Diagnosis: CAP"))
    assert [r.body["max_tokens"] for r in fake_openai.chat_requests] == [100, 200]
    assert "cut at its token limit (100); asked again with 200" in extraction.notes[0]


async def test_an_extraction_cut_twice_says_so_rather_than_blaming_the_schema(fake_openai):
    fake_openai.add_reply('{"diagnoses": [', '{"diagnoses": [{"na', finish_reason="length")
    extractor = LlmExtractor(base_url=fake_openai.base_url, model="x", max_tokens=100)
    extraction = await extractor.aextract(fixture_case(), FinalResponse(text="Diagnosis: CAP"))
    assert extraction.error is not None and "cut at its token limit (100, then 200)" in extraction.error
    assert "schema" not in extraction.error


async def test_no_second_try_when_twice_the_room_does_not_fit_the_context(fake_openai):
    from medbench_tui.core.cases.bankconfig import EndpointConfig

    fake_openai.add_reply('{"diagnoses": [', finish_reason="length")
    endpoint = EndpointConfig(base_url=fake_openai.base_url, model="x", max_tokens=3000, context_tokens=5000)
    extractor = LlmExtractor.from_endpoint(endpoint)
    extraction = await extractor.aextract(fixture_case(), FinalResponse(text="Diagnosis: CAP"))
    assert extraction.error is not None and "does not fit its context_tokens" in extraction.error
    assert len(fake_openai.chat_requests) == 1


# --- item 3: the context budget ---------------------------------------------------------


def history(pairs: int) -> list[dict]:
    messages = [{"role": "system", "content": "You are a doctor. " * 20}, {"role": "user", "content": "Intro " * 30}]
    for n in range(pairs):
        messages += [{"role": "assistant", "content": f"question {n} " * 10},
                     {"role": "user", "content": f"a{n} " * 10}]
    return messages


async def test_fit_keeps_system_intro_and_last_turns_whole_and_drops_the_oldest_pairs(fake_openai):
    client = ChatClient(base_url=fake_openai.base_url)
    messages = history(10)
    kept, left_out = await fit(client, messages, context_tokens=400, reply_tokens=50, keep=2, model="m")
    assert kept[:2] == messages[:2] and kept[-1] == messages[-1]
    assert left_out > 0 and left_out % 2 == 0 and kept[2:] == messages[2 + left_out:]
    assert [m["role"] for m in kept[1:4]] == ["user", "assistant", "user"]  # roles still alternate
    everything, none = await fit(client, messages, context_tokens=100_000, reply_tokens=50, keep=2, model="m")
    assert everything == messages and none == 0


async def test_fit_refuses_with_the_sizes_when_the_kept_messages_do_not_fit(fake_openai):
    client = ChatClient(base_url=fake_openai.base_url)
    with pytest.raises(EndpointError, match=r"context_exceeded: the request needs about \d+ tokens") as caught:
        await fit(client, history(3), context_tokens=100, reply_tokens=50, keep=2, model="m")
    assert caught.value.code == CONTEXT_EXCEEDED and not caught.value.retryable


@pytest.mark.parametrize("kind", ["llamacpp", "vllm"])
async def test_the_servers_tokenizer_counts_when_it_has_one(kind):
    server = FakeOpenAI(tokenizer=kind).start()  # a server of its own: the tokenizer kind is found per base_url
    try:
        client = ChatClient(base_url=server.base_url)
        await fit(client, history(1), context_tokens=10_000, reply_tokens=10, keep=2, model="m")
        asked = server.tokenize_requests
        assert asked and all(r.path == "/tokenize" for r in asked)  # at the server root, beside /v1
        dialects = ["content" if "content" in r.body else "prompt" for r in asked]
        # llama.cpp's form is tried first; a server that refuses it is asked vLLM's from then on
        expected = ["content"] * len(asked) if kind == "llamacpp" else ["content"] + ["prompt"] * (len(asked) - 1)
        assert dialects == expected
    finally:
        server.close()


async def test_without_a_tokenizer_route_the_estimate_counts(fake_openai):
    client = ChatClient(base_url=fake_openai.base_url)  # the fake answers /tokenize with 404 by default
    kept, _ = await fit(client, history(2), context_tokens=10_000, reply_tokens=10, keep=2, model="m")
    assert len(kept) == 6


async def test_a_long_consultation_fits_a_small_context_and_says_what_was_left_out(tmp_path):
    server = FakeOpenAI(context_tokens=700).start()
    server.add_reply(*QUESTIONS, FINAL)  # by turn, not by the history (which is cut)
    try:
        system = doctor_system(server, context_tokens=700, max_tokens=100)
        transcript = await system.consult(grounded_consultation(tmp_path))
    finally:
        server.close()
    assert transcript.status == "complete", transcript.reason
    trimmed = [e for e in transcript.events if e.kind == "context_trimmed"]
    assert trimmed and trimmed[-1].detail["left_out"] >= 2


@pytest.mark.parametrize("fault", ["context_llamacpp", "context_llamacpp_500", "context_vllm", "context_openai"])
def test_a_context_error_is_never_retried_and_ends_the_run_context_exceeded(tmp_path, key, fault):
    server = FakeOpenAI(responder=doctor()).start()
    try:
        server.add_fault(fault, times=10)
        run = _one_stored_run(tmp_path, server)
        assert len(server.chat_requests) == 1  # not retried
    finally:
        server.close()
    assert run.status == "incomplete" and run.reason.startswith("context_exceeded:")
    assert run.retries == 0 and run.requests[-1]["code"] == CONTEXT_EXCEEDED
    assert "[the request: about" in run.reason and "2048 for the reply]" in run.reason  # sizes, whatever the server
    if fault == "context_llamacpp":
        assert "request (" in run.reason and "exceeds the available context size (4096 tokens)" in run.reason


# --- item 4: defaults and pass-through ----------------------------------------------------


async def test_every_role_gets_a_default_max_tokens_and_the_options_pass_through(fake_openai, tmp_path):
    fake_openai.add_reply(FINAL)
    system = doctor_system(fake_openai, stop=["\nPatient:"], extra_body={"top_k": 20, "min_p": 0.05})
    await system.consult(grounded_consultation(tmp_path))
    body = fake_openai.chat_requests[0].body
    assert body["max_tokens"] == 2048 and body["stop"] == ["\nPatient:"]
    assert body["top_k"] == 20 and body["min_p"] == 0.05 and body["model"] == "any-model-name"


async def test_max_completion_tokens_is_sent_instead_of_the_default(fake_openai, tmp_path):
    fake_openai.add_reply(FINAL)
    await doctor_system(fake_openai, max_completion_tokens=900).consult(grounded_consultation(tmp_path))
    body = fake_openai.chat_requests[0].body
    assert body["max_completion_tokens"] == 900 and "max_tokens" not in body


def test_extra_body_may_not_set_what_medbench_sends():
    text = "systems:\n  x: {kind: openai-chat, base_url: 'http://h/v1', model: m, extra_body: {temperature: 1}}\n"
    with pytest.raises(BankConfigError, match="extra_body may not set temperature"):
        parse_bank_config(text)
    config = parse_bank_config("systems:\n  x: {kind: openai-chat, base_url: 'http://h/v1', model: m, stop: END}\n")
    assert config.systems["x"].stop == ["END"]


def test_the_runner_keeps_to_an_endpoints_max_concurrency(tmp_path, key):
    server = FakeOpenAI(responder=doctor(turns=1), latency=0.05).start()
    try:
        bank = make_bank(tmp_path / "bank", server.base_url, cases=4)
        config = bank / "medbench.yaml"
        config.write_text(config.read_text() + "    max_concurrency: 2\n")
        with RunStore(tmp_path / "runs.sqlite") as store:
            plan = plan_run(load_bank(bank), ["fake-doc"], seed=1)
            assert plan.endpoint_limits() == {server.base_url: 2}
            result, _ = _play(store, plan, concurrency=8, endpoint_concurrency=8)
        assert result.ok and server.max_in_flight == 2
    finally:
        server.close()


def test_one_endpoint_takes_as_many_requests_as_runs_by_default(tmp_path, key):
    """No hidden cap: 12 runs at once on one endpoint put 12 requests in flight (the old
    default held every endpoint to 8), and nothing is said before the run."""
    server = FakeOpenAI(responder=doctor(turns=1), latency=0.4).start()
    try:
        bank = make_bank(tmp_path / "bank", server.base_url, cases=3)
        with RunStore(tmp_path / "runs.sqlite") as store:
            plan = plan_run(load_bank(bank), ["fake-doc"], seed=1, repeats=4)
            runner = Runner(store, plan, concurrency=12)
            assert runner.cap_notes() == []
            result = asyncio.run(runner.run())
        assert result.complete == 12 and server.max_in_flight > 8
    finally:
        server.close()


def test_a_cap_below_the_runs_at_once_is_printed_before_the_run(tmp_path, key, capsys, monkeypatch):
    from medbench_tui.cli import main

    monkeypatch.chdir(tmp_path)
    server = FakeOpenAI(responder=doctor(turns=1), latency=0.05).start()
    try:
        bank = make_bank(tmp_path / "bank", server.base_url, cases=3)
        config = bank / "medbench.yaml"
        config.write_text(config.read_text() + "    max_concurrency: 2\n")
        status = main(["run", "--bank", str(bank), "--system", "fake-doc", "--concurrency", "6", "--repeats", "2"])
        err = capsys.readouterr().err
        assert status == 0 and server.max_in_flight == 2
        assert (f"{server.base_url}: at most 2 requests in flight (max_concurrency of system fake-doc in "
                "medbench.yaml), fewer than the 6 runs played at once") in err
        server.max_in_flight = 0
        assert main(["run", "--bank", str(bank), "--system", "fake-doc", "--concurrency", "6",
                     "--endpoint-concurrency", "1"]) == 0
        assert "at most 1 request in flight (--endpoint-concurrency" in capsys.readouterr().err
        assert server.max_in_flight == 1
    finally:
        server.close()


# --- item 5: what is not retried, and unreachable servers ---------------------------------


async def test_image_input_unsupported_is_not_retried(fake_openai):
    fake_openai.add_fault("image_unsupported", times=5)
    client = ChatClient(base_url=fake_openai.base_url)

    async def once():
        return await client.complete([{"role": "user", "content": "hi"}], model="m")

    with pytest.raises(EndpointError, match="set vision: false") as caught:
        await call_with_retry(once, policy=RetryPolicy(), rng=random.Random(1), sleep=lambda s: asyncio.sleep(0))
    assert caught.value.code == IMAGE_UNSUPPORTED and len(fake_openai.chat_requests) == 1


async def test_an_unreachable_server_is_retried_for_a_time_budget_not_a_count():
    waits: list[float] = []

    async def sleep(seconds: float) -> None:
        waits.append(seconds)

    client = ChatClient(base_url="http://127.0.0.1:9/v1", timeout=2)

    async def once():
        return await client.complete([{"role": "user", "content": "hi"}], model="m")

    policy = RetryPolicy(attempts=3, max_delay=4, unreachable_seconds=40)
    with pytest.raises(EndpointError, match="gave up after") as caught:
        await call_with_retry(once, policy=policy, rng=random.Random(1), sleep=sleep)
    assert caught.value.code == UNREACHABLE
    assert len(waits) > policy.attempts and sum(waits) <= 40  # kept trying while the server was away


def test_the_unreachable_budget_comes_from_the_settings(tmp_path):
    from medbench_tui.core.settings import load_settings

    (tmp_path / "s.yaml").write_text("runner: {unreachable_seconds: 600}\n")
    assert RetryPolicy.from_settings(load_settings(tmp_path / "s.yaml").runner).unreachable_seconds == 600


# --- item 6: what is stored ---------------------------------------------------------------


def test_each_request_is_stored_with_the_served_model_fingerprint_and_finish_reason(tmp_path, key):
    server = FakeOpenAI(responder=doctor(turns=1), served_model="gemma-3-4b-it-Q4_K_M.gguf",
                        system_fingerprint="b4589-cpu").start()
    try:
        run = _one_stored_run(tmp_path, server)
    finally:
        server.close()
    assert run.complete and len(run.requests) == 2
    first = run.requests[0]
    assert first["role"] == "doctor" and first["model"] == "fake-model"
    assert first["served_model"] == "gemma-3-4b-it-Q4_K_M.gguf" and first["system_fingerprint"] == "b4589-cpu"
    assert first["finish_reason"] == "stop" and first["prompt_tokens"] > 0 and first["max_tokens"] == 2048


async def test_the_extractors_requests_and_usage_are_noted(fake_openai):
    fake_openai.add_reply(extraction_reply())
    notes: list[dict] = []
    token = REQUEST_LOG.set(notes)
    try:
        extractor = LlmExtractor(base_url=fake_openai.base_url, model="x")
        await extractor.aextract(fixture_case(), FinalResponse(text="Diagnosis: CAP"))
    finally:
        REQUEST_LOG.reset(token)
    assert notes[0]["role"] == "extractor" and notes[0]["completion_tokens"] > 0


def test_resume_keeps_the_earlier_failed_attempts(tmp_path, key):
    server = FakeOpenAI(responder=doctor(turns=1)).start()
    try:
        server.add_fault("400")
        bank = make_bank(tmp_path / "bank", server.base_url, cases=1)
        with RunStore(tmp_path / "runs.sqlite") as store:
            result, _ = _play(store, plan_run(load_bank(bank), ["fake-doc"], seed=1))
            assert store.runs(result.group_id)[0].status == "incomplete"
            plan, group = plan_resume(store, result.group_id)
            _play(store, plan, group=group)
            run = store.runs(result.group_id, full=True)[0]
    finally:
        server.close()
    assert run.complete and len(run.attempts) == 1
    earlier = run.attempts[0]
    assert earlier["status"] == "incomplete" and "400" in earlier["reason"]
    assert earlier["requests"][0]["status"] == 400 and earlier["transcript"]["status"] == "incomplete"


def test_the_report_says_when_a_seed_did_not_make_runs_reproducible(tmp_path, key):
    server = FakeOpenAI().start()
    try:
        bank = make_bank(tmp_path / "bank", server.base_url, cases=2)
        config = bank / "medbench.yaml"
        config.write_text(config.read_text() + "    seed: 7\n")
        with RunStore(tmp_path / "runs.sqlite") as store:
            server.responder = doctor(turns=1)
            _play(store, plan_run(load_bank(bank), ["fake-doc"], seed=1))
            same, _ = _play(store, plan_run(load_bank(bank), ["fake-doc"], seed=1))
            assert build_report(store, same.group_id).seed_notes == []
            server.responder = lambda body: FINAL if len(body["messages"]) > 2 else "Tell me more?"
            drifted, _ = _play(store, plan_run(load_bank(bank), ["fake-doc"], seed=1))
            report = build_report(store, drifted.group_id)
    finally:
        server.close()
    assert len(report.seed_notes) == 1 and "Seed 7 did not make fake-doc's runs reproducible" in report.seed_notes[0]
    assert "in 2 of 2 cases" in report.seed_notes[0] and report.seed_notes[0] in render_markdown(report)


# --- item 8: the test server behaves as the real ones --------------------------------------


async def test_any_model_name_is_accepted_and_a_stream_ends_with_its_usage(fake_openai):
    fake_openai.add_reply("Three days ago.")
    client = ChatClient(base_url=fake_openai.base_url)
    text = "".join([d async for d in client.stream([{"role": "user", "content": "hi"}], model="whatever:7b")])
    assert text == "Three days ago." and client.last.model == "whatever:7b"
    assert client.usage.prompt_tokens > 0 and client.usage.completion_tokens == 3


async def test_the_patients_history_is_fitted_too(fake_openai, tmp_path):
    case = fixture_case()
    config = LlmSimulatorConfig(kind="llm", base_url=fake_openai.base_url, model="p", stream=False,
                                context_tokens=900, max_tokens=60)
    c = Consultation(case, make_simulator(config, patient_record(case)), system="t", bank_root=tmp_path)
    for _ in range(case.max_turns):
        fake_openai.add_reply("It started three days ago with shaking chills.")
        await c.ask("When did it start?")
    trimmed = [e for e in c.transcript.events if e.kind == "context_trimmed"]
    assert trimmed and trimmed[0].detail["role"] == "patient"
    # kept whole: the rules, then the note of what was said so far (it grows with the consultation)
    rules = fake_openai.chat_requests[0].body["messages"][0]["content"]
    assert all(r.body["messages"][0]["role"] == "system" and r.body["messages"][0]["content"].startswith(rules[:200])
               for r in fake_openai.chat_requests)


def test_a_context_too_small_for_the_opening_ends_the_run_with_the_sizes_unsent(tmp_path, key):
    server = FakeOpenAI(responder=doctor()).start()
    base_url = server.base_url
    try:
        bank = make_bank(tmp_path / "bank", server.base_url, cases=1)
        config = bank / "medbench.yaml"
        config.write_text(config.read_text() + "    context_tokens: 300\n")
        with RunStore(tmp_path / "runs.sqlite") as store:
            result, _ = _play(store, plan_run(load_bank(bank), ["fake-doc"], seed=1))
            run = store.runs(result.group_id, full=True)[0]
        assert server.chat_requests == []
    finally:
        server.close()
    assert run.status == "incomplete" and run.reason.startswith("context_exceeded: the request needs about")
    assert "context_tokens of" in run.reason and " is 300" in run.reason
    assert run.requests == [{"role": "doctor", "base_url": base_url, "model": "fake-model", "max_tokens": 2048,
                             "error": run.reason, "code": "context_exceeded"}]


def test_the_tuis_runner_keeps_the_endpoint_limits_of_its_plan(tmp_path, key):
    """The TUI builds its Runner from a plan as the CLI does; the limits come with the plan."""
    from medbench_tui.core.comparison.plan import retry_policy
    from medbench_tui.core.runs.runner import Runner

    bank = make_bank(tmp_path / "bank", "http://127.0.0.1:9/v1", cases=1)
    config = bank / "medbench.yaml"
    config.write_text(config.read_text() + "    max_concurrency: 2\n")
    with RunStore(tmp_path / "runs.sqlite") as store:
        from medbench_tui.core.settings import load_settings

        settings = load_settings(tmp_path / "none.yaml").runner
        runner = Runner(store, plan_run(load_bank(bank), ["fake-doc"], seed=1), concurrency=8, endpoint_concurrency=8,
                        retry=retry_policy(settings))
        assert runner.gate.slot("http://127.0.0.1:9/v1")._value == 2


# --- item 7: `systems` on every documented configuration ----------------------------------


def test_systems_lists_an_llm_evaluator_and_flags_one_without_an_endpoint(tmp_path, fake_openai, capsys):
    from medbench_tui.cli import main

    (tmp_path / "medbench.yaml").write_text(
        f"evaluator:\n  extractor: llm\n  llm: {{base_url: '{fake_openai.base_url}', model: x, context_tokens: 8192}}\n"
    )
    assert main(["systems", "--bank", str(tmp_path), "--format", "json"]) == 0
    evaluator = json.loads(capsys.readouterr().out)["evaluator"]
    assert evaluator["can_run"] and evaluator["llm"]["can_run"] and evaluator["llm"]["kind"] == "llm"
    assert evaluator["llm"]["context_tokens"] == 8192

    (tmp_path / "medbench.yaml").write_text("evaluator: {extractor: llm}\n")
    assert main(["systems", "--bank", str(tmp_path)]) == 1
    out = capsys.readouterr().out
    assert "NO  extractor llm" in out and "the llm extractor needs an endpoint" in out


def test_systems_reads_the_bundled_example_configuration(capsys):
    from medbench_tui.cli import main
    from medbench_tui.core.paths import bundled_cases_dir

    assert main(["systems", "--bank", str(bundled_cases_dir()), "--offline", "--format", "json"]) == 0
    document = json.loads(capsys.readouterr().out)
    names = {row["name"] for row in document["systems"]}
    assert {"local-llamacpp", "local-vllm", "local-ollama"} <= names
