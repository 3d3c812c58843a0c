"""The request gate: retries with backoff, Retry-After, no retry on hopeless errors,
per-endpoint limits, the response cache. Real HTTP against the fake server; waits are
recorded, not slept."""

from __future__ import annotations

import asyncio
import random

import pytest

from medbench_tui.core.endpoints.client import REQUEST_GATE, ChatClient, EndpointError, close_shared_clients
from medbench_tui.core.runs.cache import ResponseCache, request_key
from medbench_tui.core.runs.retry import RetryPolicy
from medbench_tui.core.runs.runner import RequestGate
from medbench_tui.core.runs.store import RunStore


class Waits:
    def __init__(self) -> None:
        self.delays: list[float] = []

    async def __call__(self, seconds: float) -> None:
        self.delays.append(seconds)


async def _through_gate(gate: RequestGate, call, seed: int = 0):
    run_gate = gate.for_run(random.Random(seed), lambda *a: None)
    token = REQUEST_GATE.set(run_gate)
    try:
        return await call(), run_gate
    finally:
        REQUEST_GATE.reset(token)
        await close_shared_clients()  # as a batch does when it ends


@pytest.fixture
def fake(quick_openai):
    return quick_openai


def _client(fake, timeout: float = 5.0) -> ChatClient:
    return ChatClient(base_url=fake.base_url, api_key="sk-test", timeout=timeout)


def test_delay_grows_and_honours_retry_after():
    policy = RetryPolicy(base_delay=1.0, max_delay=8.0)
    rng = random.Random(1)
    for retry, (low, high) in enumerate([(0.5, 1), (1, 2), (2, 4), (4, 8), (4, 8)], start=1):
        assert low <= policy.delay(retry, None, rng) <= high
    assert policy.delay(1, 7.0, rng) == 7.0


async def test_retries_rate_limits_and_server_errors(fake):
    fake.add_fault("429", retry_after=3)
    fake.add_fault("500")
    fake.add_fault("drop")
    fake.add_reply("Three days ago.")
    waits = Waits()
    gate = RequestGate(endpoint_concurrency=2, policy=RetryPolicy(), sleep=waits)
    client = _client(fake)
    reply, run_gate = await _through_gate(gate, lambda: client.complete([{"role": "user", "content": "hi"}], model="m"))
    assert reply.text == "Three days ago."
    assert run_gate.retries == 3 and len(fake.chat_requests) == 4
    assert waits.delays[0] >= 3  # Retry-After honoured
    assert client.usage.requests == 1


async def test_timeouts_are_retried(fake):
    fake.add_fault("timeout")
    fake.add_reply("Fine.")
    gate = RequestGate(endpoint_concurrency=2, policy=RetryPolicy(), sleep=Waits())
    client = _client(fake, timeout=0.1)
    reply, run_gate = await _through_gate(gate, lambda: client.complete([], model="m"))
    assert reply.text == "Fine." and run_gate.retries == 1


@pytest.mark.parametrize("fault", ["401", "400", "insufficient_quota"])
async def test_hopeless_errors_are_not_retried(fake, fault):
    fake.add_fault(fault)
    gate = RequestGate(endpoint_concurrency=2, policy=RetryPolicy(), sleep=Waits())
    with pytest.raises(EndpointError) as caught:
        await _through_gate(gate, lambda: _client(fake).complete([], model="m"))
    assert not caught.value.retryable
    assert len(fake.chat_requests) == 1


async def test_gives_up_after_the_last_attempt(fake):
    fake.add_fault("503", times=3)
    gate = RequestGate(endpoint_concurrency=2, policy=RetryPolicy(attempts=3), sleep=Waits())
    with pytest.raises(EndpointError, match="gave up after 3 attempts"):
        await _through_gate(gate, lambda: _client(fake).complete([], model="m"))
    assert len(fake.chat_requests) == 3


async def test_too_long_retry_after_ends_the_run(fake):
    fake.add_fault("429", retry_after=900)
    gate = RequestGate(endpoint_concurrency=2, policy=RetryPolicy(max_retry_after=60), sleep=Waits())
    with pytest.raises(EndpointError, match="asked to wait 900 s"):
        await _through_gate(gate, lambda: _client(fake).complete([], model="m"))


async def test_streams_are_collected_and_retried(fake):
    fake.add_fault("drop_stream")
    fake.add_reply("It started on Monday.")
    gate = RequestGate(endpoint_concurrency=2, policy=RetryPolicy(), sleep=Waits())
    client = _client(fake)

    async def deltas():
        return [d async for d in client.stream([], model="m")]

    pieces, run_gate = await _through_gate(gate, deltas)
    assert pieces == ["It started on Monday."] and run_gate.retries == 1


async def test_without_the_gate_nothing_changes(fake):
    fake.add_fault("500")
    with pytest.raises(EndpointError) as caught:
        await _client(fake).complete([], model="m")
    assert caught.value.retryable


async def test_endpoint_limit_holds():
    gate = RequestGate(endpoint_concurrency=3, policy=RetryPolicy(), sleep=Waits())
    in_flight = peak = 0
    release = asyncio.Event()

    class Client:
        base_url = "http://127.0.0.1:1/v1"

    async def send():
        nonlocal in_flight, peak
        in_flight += 1
        peak = max(peak, in_flight)
        await release.wait()
        in_flight -= 1
        return "ok"

    async def one():
        return await gate.for_run(random.Random(0), lambda *a: None).complete(Client(), {}, send)

    tasks = [asyncio.create_task(one()) for _ in range(10)]
    for _ in range(20):
        await asyncio.sleep(0)
    assert peak == 3
    release.set()
    assert await asyncio.gather(*tasks) == ["ok"] * 10


async def test_cache_answers_identical_requests(fake, tmp_path):
    fake.add_reply("Once.", "Twice.")
    with RunStore(tmp_path / "runs.sqlite") as store:
        gate = RequestGate(endpoint_concurrency=2, policy=RetryPolicy(), cache=ResponseCache(store), sleep=Waits())
        client = _client(fake)
        ask = lambda: client.complete([{"role": "user", "content": "hi"}], model="m", temperature=0)  # noqa: E731
        first, _ = await _through_gate(gate, ask)
        second, _ = await _through_gate(gate, ask)
        other, _ = await _through_gate(gate, lambda: client.complete([], model="m", temperature=0))
    assert (first.text, second.text, other.text) == ("Once.", "Once.", "Twice.")
    assert len(fake.chat_requests) == 2
    assert gate.cache.hits == 1


def test_request_key_is_canonical():
    assert request_key({"a": 1, "b": [1, 2]}) == request_key({"b": [1, 2], "a": 1})
    assert request_key({"a": 1}) != request_key({"a": 2})
