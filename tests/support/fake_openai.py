"""A real OpenAI-compatible HTTP server on 127.0.0.1 for tests (no network, no key).

Use the ``fake_openai`` fixture (registered in ``tests/conftest.py``); it starts a
:class:`FakeOpenAI` on an ephemeral port in a thread and shuts it down afterwards::

    async def test_x(fake_openai):
        fake_openai.add_reply("Three days ago.")          # queued replies, in order
        fake_openai.add_fault("429", retry_after=7)        # a queued fault takes a turn too
        fake_openai.responder = lambda body: "..."         # when the queue is empty
        client = ChatClient(base_url=fake_openai.base_url, api_key="sk-test", max_retries=0)
        ...
        body = fake_openai.requests[-1].body               # what the client sent
        fake_openai.requests[-1].headers["authorization"]  # header names are lower case

Endpoints: ``POST /v1/chat/completions`` (plain JSON, or SSE when the body has
``"stream": true``: ``data: {chunk}`` lines, a usage chunk when
``stream_options.include_usage``, then ``data: [DONE]``) and ``GET /v1/models``.

Replies: a queue of items (``add_reply(text)``, ``add_fault(kind)``), then
``responder(body) -> str`` if set, else ``default_reply``. ``latency`` (seconds)
delays every chat reply.

Faults (``add_fault(kind, retry_after=None)``, or at random with ``fault_rate`` and
``fault_kinds``, drawn from ``random.Random(seed)``): ``"429"`` (with a Retry-After
header when ``retry_after`` is given), ``"insufficient_quota"`` (a 429 that is not
worth retrying), ``"500"``, ``"503"``, ``"400"``, ``"401"``, ``"timeout"`` (the server
holds the request ``hang_seconds``, longer than a test client's timeout),
``"malformed"`` (200 with a body that is not JSON), ``"drop"`` (the connection is
closed without a response), ``"drop_stream"`` (a streamed reply cut after its first
chunk; like ``"drop"`` for a plain request).

A gateway that leaks credentials (for the redaction tests): ``echo_credentials = "error"``
answers every chat request with a 400 whose message quotes the request's
``Authorization`` and ``api-key`` headers (or those named in ``echo_headers``); ``"reply"``
puts them in a normal reply. The
``echoing_openai`` fixture is a server set to ``"error"``. ``error_message`` answers every
chat request with a 400 carrying that message (what a hostile server may say).

Behaviours real servers showed:

- ``add_reply(text, finish_reason="length")``: a reply cut at the token limit (its
  ``finish_reason`` in the JSON reply and in the last stream chunk);
- faults worded as the servers word them: ``"context_llamacpp"`` (llama.cpp's 400
  ``exceed_context_size_error`` with ``n_prompt_tokens`` and ``n_ctx``),
  ``"context_llamacpp_500"`` (its 500 "Context size has been exceeded." from a shared
  slot), ``"context_vllm"`` (vLLM's 400 "This model's maximum context length is ..."),
  ``"context_openai"`` (code ``context_length_exceeded``), ``"image_unsupported"``
  (llama.cpp's 500 "image input is not supported" for a model without a projector);
- ``context_tokens``: when set, every request whose estimated prompt (``len(json)//4``,
  as ``usage`` reports it) plus ``max_tokens`` exceeds it gets ``context_fault``
  (default ``"context_llamacpp"``): a server with a small context;
- ``served_model`` (the model id replies carry; default: the one asked for: any name
  is accepted) and ``system_fingerprint``;
- ``tokenizer``: ``None`` (no tokenizer route: 404, like hosted APIs and Ollama),
  ``"llamacpp"`` (``POST /tokenize`` with ``content`` gives ``tokens``) or ``"vllm"``
  (``POST /tokenize`` with ``prompt`` gives ``count`` and ``tokens``); a token is a
  whitespace-separated word;
- ``max_in_flight``: the most chat requests it was answering at once (a server's slots);
- a stream always ends with a usage chunk (``choices: []``) when
  ``stream_options.include_usage`` is asked, as vLLM and llama.cpp send it.

Every request is recorded in ``requests`` (method, path, lower-case headers, JSON body);
``chat_requests`` keeps the chat ones; ``reset()`` forgets requests and the queue.
``record = False`` keeps none (a benchmark's server answers hundreds of thousands);
``chat_answered`` counts the chat requests either way.
"""

from __future__ import annotations

import contextlib
import json
import random
import socket
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest

FAULT_KINDS = (
    "429",
    "insufficient_quota",
    "500",
    "503",
    "400",
    "401",
    "timeout",
    "malformed",
    "drop",
    "drop_stream",
    "context_llamacpp",
    "context_llamacpp_500",
    "context_vllm",
    "context_openai",
    "image_unsupported",
)
TOKENIZERS = (None, "llamacpp", "vllm")


@dataclass
class RecordedRequest:
    method: str
    path: str
    headers: dict[str, str]
    body: Any


@dataclass
class Fault:
    kind: str
    retry_after: float | None = None

    def __post_init__(self) -> None:
        if self.kind not in FAULT_KINDS:
            raise ValueError(f"unknown fault {self.kind!r}; one of {', '.join(FAULT_KINDS)}")


@dataclass
class Reply:
    text: str
    finish_reason: str = "stop"


@dataclass
class FakeOpenAI:
    default_reply: str = "I'm not sure."
    responder: Callable[[dict], str] | None = None
    latency: float = 0.0
    fault_rate: float = 0.0
    fault_kinds: tuple[str, ...] = ("429", "500", "timeout", "drop")
    seed: int = 0
    hang_seconds: float = 3.0
    models: list[str] = field(default_factory=lambda: ["fake-model"])
    requests: list[RecordedRequest] = field(default_factory=list)
    echo_credentials: str | None = None  # None, "error" or "reply": see the module docstring
    echo_headers: tuple[str, ...] = ("Authorization", "api-key")
    context_tokens: int | None = None
    context_fault: str = "context_llamacpp"
    served_model: str | None = None
    system_fingerprint: str | None = None
    tokenizer: str | None = None
    error_message: str | None = None  # set: every chat request gets a 400 with this message
    record: bool = True  # False: requests are not kept in ``requests`` (``chat_answered`` still counts them)

    def __post_init__(self) -> None:
        if self.tokenizer not in TOKENIZERS:
            raise ValueError(f"unknown tokenizer {self.tokenizer!r}; one of {TOKENIZERS}")
        self._queue: deque[Reply | Fault] = deque()
        self.in_flight = 0
        self.max_in_flight = 0
        self.chat_answered = 0
        self._lock = threading.Lock()
        self._random = random.Random(self.seed)
        self._stopping = threading.Event()
        self._httpd: ThreadingHTTPServer | None = None
        self._thread: threading.Thread | None = None

    # -- script -------------------------------------------------------------
    def add_reply(self, *texts: str, finish_reason: str = "stop") -> None:
        with self._lock:
            self._queue.extend(Reply(text, finish_reason) for text in texts)

    def add_fault(self, kind: str, *, retry_after: float | None = None, times: int = 1) -> None:
        with self._lock:
            self._queue.extend(Fault(kind, retry_after) for _ in range(times))

    def reset(self) -> None:
        """Forget recorded requests and queued replies/faults (for a server shared by a module)."""
        with self._lock:
            self._queue.clear()
            self.requests.clear()

    @property
    def chat_requests(self) -> list[RecordedRequest]:
        return [r for r in self.requests if r.path.endswith("/chat/completions")]

    @property
    def tokenize_requests(self) -> list[RecordedRequest]:
        return [r for r in self.requests if r.path.rstrip("/").endswith("/tokenize")]

    def _next(self, body: dict) -> Reply | Fault:
        if self.context_tokens is not None:
            needed = _usage("", body)["prompt_tokens"] + int(body.get("max_tokens") or 0)
            if needed > self.context_tokens:
                return Fault(self.context_fault)
        with self._lock:
            if self._queue:
                return self._queue.popleft()
            if self.fault_rate and self._random.random() < self.fault_rate:
                return Fault(self._random.choice(self.fault_kinds), retry_after=1)
        if self.responder is not None:
            return Reply(self.responder(body))
        return Reply(self.default_reply)

    # -- life cycle ---------------------------------------------------------
    @property
    def base_url(self) -> str:
        assert self._httpd is not None, "server not started"
        host, port = self._httpd.server_address[:2]
        return f"http://{host}:{port}/v1"

    def start(self) -> FakeOpenAI:
        fake = self

        class Handler(_Handler):
            server_state = fake

        self._httpd = _Server(("127.0.0.1", 0), Handler)
        self._httpd.daemon_threads = True
        self._thread = threading.Thread(target=self._httpd.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
        self._thread.start()
        return self

    def close(self) -> None:
        self._stopping.set()
        if self._httpd is not None:
            self._httpd.shutdown()
            self._httpd.server_close()
            self._httpd = None


def _served(state: FakeOpenAI, body: dict) -> dict:
    served = {"model": state.served_model or body.get("model", "fake-model")}
    if state.system_fingerprint is not None:
        served["system_fingerprint"] = state.system_fingerprint
    return served


def _completion(state: FakeOpenAI, reply: Reply, body: dict) -> dict:
    return {
        "id": "chatcmpl-fake",
        "object": "chat.completion",
        "created": int(time.time()),
        **_served(state, body),
        "choices": [
            {"index": 0, "message": {"role": "assistant", "content": reply.text}, "finish_reason": reply.finish_reason}
        ],
        "usage": _usage(reply.text, body),
    }


def _usage(text: str, body: dict) -> dict:
    prompt = max(1, len(json.dumps(body.get("messages", []))) // 4)
    completion = max(1, len(text.split()))
    return {"prompt_tokens": prompt, "completion_tokens": completion, "total_tokens": prompt + completion}


def _chunk(state: FakeOpenAI, body: dict, delta: dict, finish: str | None = None) -> dict:
    return {
        "id": "chatcmpl-fake",
        "object": "chat.completion.chunk",
        "created": int(time.time()),
        **_served(state, body),
        "choices": [{"index": 0, "delta": delta, "finish_reason": finish}],
    }


_STATUS_FAULTS = {
    "429": (429, "rate_limit_exceeded", "Rate limit reached, slow down."),
    "insufficient_quota": (429, "insufficient_quota", "You exceeded your current quota."),
    "500": (500, "server_error", "The server had an error."),
    "503": (503, "server_error", "The engine is currently overloaded."),
    "400": (400, "invalid_request_error", "Invalid request."),
    "401": (401, "invalid_api_key", "Incorrect API key provided."),
    "context_llamacpp_500": (500, "server_error", "Context size has been exceeded."),
    "context_vllm": (
        400, "BadRequestError",
        "This model's maximum context length is 4096 tokens. However, you requested 5210 tokens "
        "(4698 in the messages, 512 in the completion). Please reduce the length of the messages or completion.",
    ),
    "context_openai": (
        400, "context_length_exceeded",
        "This model's maximum context length is 128000 tokens. However, your messages resulted in 130412 tokens. "
        "Please reduce the length of the messages.",
    ),
    "image_unsupported": (
        500, "server_error",
        "image input is not supported - hint: if this is unexpected, you may need to provide the mmproj",
    ),
}


class _Server(ThreadingHTTPServer):
    """Room for many clients connecting at once (the runner opens 32)."""

    request_queue_size = 128
    daemon_threads = True


class _Handler(BaseHTTPRequestHandler):
    # Headers and body go out in separate writes: without this, Nagle's algorithm
    # holds the body back ~40 ms on every reply.
    disable_nagle_algorithm = True

    server_state: FakeOpenAI
    protocol_version = "HTTP/1.1"

    def log_message(self, format: str, *args: Any) -> None:  # keep test output clean
        pass

    def _record(self, body: Any) -> None:
        if not self.server_state.record:
            return
        headers = {k.lower(): v for k, v in self.headers.items()}
        with self.server_state._lock:
            self.server_state.requests.append(RecordedRequest(self.command, self.path, headers, body))

    def _send_json(self, status: int, payload: Any, headers: dict[str, str] | None = None) -> None:
        data = json.dumps(payload).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        for name, value in (headers or {}).items():
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(data)

    def _drop(self) -> None:
        self.close_connection = True
        with contextlib.suppress(OSError):
            self.connection.shutdown(socket.SHUT_RDWR)

    def _tokenize(self, body: Any) -> None:
        kind = self.server_state.tokenizer
        body = body if isinstance(body, dict) else {}
        if kind == "llamacpp" and isinstance(body.get("content"), str):
            self._send_json(200, {"tokens": list(range(len(body["content"].split())))})
        elif kind == "vllm" and isinstance(body.get("prompt"), str):
            tokens = list(range(len(body["prompt"].split())))
            self._send_json(200, {"count": len(tokens), "max_model_len": 4096, "tokens": tokens})
        elif kind is None:
            self._send_json(404, {"error": {"message": "not found", "type": "invalid_request_error"}})
        else:
            self._send_json(400, {"error": {"message": "missing field", "type": "invalid_request_error"}})

    def do_GET(self) -> None:
        self._record(None)
        if self.path.rstrip("/").endswith("/models"):
            data = [{"id": m, "object": "model", "owned_by": "fake"} for m in self.server_state.models]
            self._send_json(200, {"object": "list", "data": data})
        else:
            self._send_json(404, {"error": {"message": "not found", "type": "invalid_request_error"}})

    def do_POST(self) -> None:
        length = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(length) if length else b""
        try:
            body = json.loads(raw or b"{}")
        except ValueError:
            body = raw.decode(errors="replace")
        self._record(body)
        if self.path.rstrip("/").endswith("/tokenize"):
            self._tokenize(body)
            return
        if not self.path.rstrip("/").endswith("/chat/completions"):
            self._send_json(404, {"error": {"message": "not found", "type": "invalid_request_error"}})
            return
        state = self.server_state
        if state.echo_credentials:
            self._echo_credentials(body)
            return
        if state.error_message is not None:
            self._send_json(400, {"error": {"message": state.error_message, "type": "invalid_request_error"}})
            return
        with state._lock:
            state.in_flight += 1
            state.max_in_flight = max(state.max_in_flight, state.in_flight)
            state.chat_answered += 1
        try:
            item = state._next(body if isinstance(body, dict) else {})
            if state.latency:
                state._stopping.wait(state.latency)
            stream = isinstance(body, dict) and bool(body.get("stream"))
            if isinstance(item, Fault):
                self._fault(item, body, stream)
            elif stream:
                self._stream(item, body)
            else:
                self._send_json(200, _completion(state, item, body))
        finally:
            with state._lock:
                state.in_flight -= 1

    def _fault(self, fault: Fault, body: Any, stream: bool) -> None:
        if fault.kind == "context_llamacpp":
            prompt = _usage("", body if isinstance(body, dict) else {})["prompt_tokens"]
            n_ctx = self.server_state.context_tokens or 4096
            error = {"code": 400, "type": "exceed_context_size_error", "n_prompt_tokens": prompt, "n_ctx": n_ctx,
                     "message": f"request ({prompt} tokens) exceeds the available context size ({n_ctx} tokens), "
                                "try increasing it"}
            self._send_json(400, {"error": error})
        elif fault.kind in _STATUS_FAULTS:
            status, code, message = _STATUS_FAULTS[fault.kind]
            headers = {"Retry-After": f"{fault.retry_after:g}"} if fault.retry_after is not None else {}
            error = {"message": message, "type": code, "code": code, "param": None}
            self._send_json(status, {"error": error}, headers)
        elif fault.kind == "timeout":
            self.server_state._stopping.wait(self.server_state.hang_seconds)
            self._drop()
        elif fault.kind == "malformed":
            data = b'{"id": "chatcmpl-fake", "choices": [ this is not json'
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)
        elif fault.kind == "drop_stream" and stream:
            self._stream(Reply("This reply is cut off"), body, cut=True)
        else:  # drop, or drop_stream on a plain request
            self._drop()

    def _echo_credentials(self, body: Any) -> None:
        """Quote the credential headers back, as a careless gateway's error page does."""
        names = self.server_state.echo_headers
        sent = "; ".join(f"{name}: {self.headers[name]}" for name in names if self.headers[name])
        text = f"gateway rejected the request (received {sent})"
        if self.server_state.echo_credentials == "reply":
            self._send_json(200, _completion(self.server_state, Reply(text), body if isinstance(body, dict) else {}))
        else:
            self._send_json(400, {"error": {"message": text, "type": "invalid_request_error", "code": None}})

    def _stream(self, reply: Reply, body: dict, *, cut: bool = False) -> None:
        state = self.server_state
        text = reply.text
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Cache-Control", "no-cache")
        self.send_header("Connection", "close")
        self.end_headers()
        self.close_connection = True

        def send(payload: Any) -> None:
            line = payload if isinstance(payload, str) else json.dumps(payload)
            self.wfile.write(f"data: {line}\n\n".encode())
            self.wfile.flush()

        pieces = [p + " " for p in text.split(" ")]
        pieces[-1] = pieces[-1][:-1]
        send(_chunk(state, body, {"role": "assistant", "content": ""}))
        for index, piece in enumerate(pieces):
            send(_chunk(state, body, {"content": piece}))
            if cut and index == 0:
                self._drop()
                return
        send(_chunk(state, body, {}, reply.finish_reason))
        if (body.get("stream_options") or {}).get("include_usage"):
            usage_chunk = _chunk(state, body, {})
            usage_chunk["choices"] = []
            usage_chunk["usage"] = _usage(text, body)
            send(usage_chunk)
        send("[DONE]")


@pytest.fixture
def fake_openai():
    """A started :class:`FakeOpenAI`; closed after the test."""
    server = FakeOpenAI().start()
    try:
        yield server
    finally:
        server.close()


@pytest.fixture
def echoing_openai():
    """A started :class:`FakeOpenAI` that quotes the request's credentials in a 400 error."""
    server = FakeOpenAI(echo_credentials="error").start()
    try:
        yield server
    finally:
        server.close()


@pytest.fixture(scope="module")
def _module_openai():
    server = FakeOpenAI(hang_seconds=0.5).start()
    try:
        yield server
    finally:
        server.close()


@pytest.fixture
def quick_openai(_module_openai):
    """One :class:`FakeOpenAI` for a whole test module (closing one takes half a second),
    forgotten between tests; its ``"timeout"`` fault holds a request half a second."""
    _module_openai.reset()
    return _module_openai
