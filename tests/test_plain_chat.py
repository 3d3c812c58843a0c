"""A batch's plain request path (core.plain_chat) against the SDK's: the same request on
the wire that servers read, the same errors for every fault a server shows. Real HTTP
against the fake server."""

from __future__ import annotations

import random
import re
import socket

import pytest

from medbench_tui.core.endpoints.client import REQUEST_GATE, ChatClient, EndpointError, close_shared_clients
from medbench_tui.core.runs.retry import RetryPolicy
from medbench_tui.core.runs.runner import RequestGate
from tests.support.fake_openai import FAULT_KINDS

MESSAGES = [{"role": "user", "content": "Chest pain since this morning."}]


@pytest.fixture
def fake(quick_openai):
    return quick_openai


class OneAttempt:
    """A batch's gate that sends once and waits for nothing: what the path itself does."""

    async def complete(self, client, request, attempt):
        return await attempt()


def _client(fake, **options) -> ChatClient:
    return ChatClient(base_url=fake.base_url, api_key="sk-plain", timeout=options.pop("timeout", 5.0), **options)


async def _in_batch(call):
    token = REQUEST_GATE.set(OneAttempt())
    try:
        return await call()
    finally:
        REQUEST_GATE.reset(token)
        await close_shared_clients()


async def _error(call) -> EndpointError:
    with pytest.raises(EndpointError) as caught:
        await call()
    return caught.value


def _told(error: EndpointError) -> tuple:
    """What a caller reads of an error; the transport's own words for a lost connection aside."""
    return (re.sub(r" \(.*\): check", ": check", str(error)), error.retryable, error.status, error.retry_after,
            error.code)


async def test_the_request_on_the_wire_is_the_one_servers_read(fake):
    fake.add_reply("Since this morning.")
    client = _client(fake, headers={"api-key": "azure-style"})
    reply = await _in_batch(lambda: client.complete(MESSAGES, model="m", temperature=0.0, max_tokens=64))
    assert reply.text == "Since this morning." and reply.finish_reason == "stop"
    sent = fake.chat_requests[-1]
    assert sent.path == "/v1/chat/completions"
    assert sent.headers["authorization"] == "Bearer sk-plain" and sent.headers["api-key"] == "azure-style"
    assert sent.headers["content-type"] == "application/json"
    assert sent.body == {"model": "m", "messages": MESSAGES, "temperature": 0.0, "max_tokens": 64}
    assert client.usage.requests == 1


@pytest.mark.parametrize("fault", [f for f in FAULT_KINDS if f != "drop_stream"])
async def test_every_fault_reads_as_the_sdk_reads_it(fake, fault):
    timeout = 0.2 if fault == "timeout" else 10.0  # only the hanging reply times out, however busy the machine
    fake.add_fault(fault, retry_after=7 if fault == "429" else None)
    by_sdk = await _error(lambda: _client(fake, timeout=timeout).complete(MESSAGES, model="m"))
    fake.add_fault(fault, retry_after=7 if fault == "429" else None)
    plain = await _error(lambda: _in_batch(lambda: _client(fake, timeout=timeout).complete(MESSAGES, model="m")))
    assert _told(plain) == _told(by_sdk)


async def test_a_refused_connection_reads_cannot_reach():
    with socket.socket() as free:
        free.bind(("127.0.0.1", 0))
        port = free.getsockname()[1]
    client = ChatClient(base_url=f"http://127.0.0.1:{port}/v1", timeout=2.0)
    error = await _error(lambda: _in_batch(lambda: client.complete(MESSAGES, model="m")))
    assert str(error).startswith(f"cannot reach http://127.0.0.1:{port}/v1") and error.retryable


async def test_quick_retries_asked_for_keep_the_sdk(fake):
    """``max_retries`` is the SDK's: a batch client that asks for them sends through it."""
    fake.add_fault("500")
    fake.add_reply("Fine.")
    reply = await _in_batch(lambda: _client(fake, max_retries=1).complete(MESSAGES, model="m"))
    assert reply.text == "Fine." and len(fake.chat_requests) == 2


async def test_a_batch_retries_over_the_plain_path(fake):
    fake.add_fault("429", retry_after=2)
    fake.add_fault("drop")
    fake.add_reply("Fine.")
    waits: list[float] = []

    async def wait(seconds: float) -> None:
        waits.append(seconds)

    gate = RequestGate(endpoint_concurrency=2, policy=RetryPolicy(), sleep=wait)
    run_gate = gate.for_run(random.Random(0), lambda *a: None)
    token = REQUEST_GATE.set(run_gate)
    try:
        reply = await _client(fake).complete(MESSAGES, model="m")
    finally:
        REQUEST_GATE.reset(token)
        await close_shared_clients()
    assert reply.text == "Fine." and run_gate.retries == 2 and waits[0] >= 2
