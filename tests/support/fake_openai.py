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
``Authorization`` and ``api-key`` headers; ``"reply"`` puts them in a normal reply. The
``echoing_openai`` fixture is a server set to ``"error"``.

Every request is recorded in ``requests`` (method, path, lower-case headers, JSON body);
``chat_requests`` keeps the chat ones; ``reset()`` forgets requests and the queue.
"""

from __future__ import annotations

import json
import random
import socket
import threading
import time
from collections import deque
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Callable

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
)


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

    def __post_init__(self) -> None:
        self._queue: deque[str | Fault] = deque()
        self._lock = threading.Lock()
        self._random = random.Random(self.seed)
        self._stopping = threading.Event()
        self._httpd: ThreadingHTTPServer | None = None
        self._thread: threading.Thread | None = None

    # -- script -------------------------------------------------------------
    def add_reply(self, *texts: str) -> None:
        with self._lock:
            self._queue.extend(texts)

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

    def _next(self, body: dict) -> str | Fault:
        with self._lock:
            if self._queue:
                return self._queue.popleft()
            if self.fault_rate and self._random.random() < self.fault_rate:
                return Fault(self._random.choice(self.fault_kinds), retry_after=1)
        if self.responder is not None:
            return self.responder(body)
        return self.default_reply

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


def _completion(text: str, body: dict) -> dict:
    return {
        "id": "chatcmpl-fake",
        "object": "chat.completion",
        "created": int(time.time()),
        "model": body.get("model", "fake-model"),
        "choices": [
            {"index": 0, "message": {"role": "assistant", "content": text}, "finish_reason": "stop"}
        ],
        "usage": _usage(text, body),
    }


def _usage(text: str, body: dict) -> dict:
    prompt = max(1, len(json.dumps(body.get("messages", []))) // 4)
    completion = max(1, len(text.split()))
    return {"prompt_tokens": prompt, "completion_tokens": completion, "total_tokens": prompt + completion}


def _chunk(body: dict, delta: dict, finish: str | None = None) -> dict:
    return {
        "id": "chatcmpl-fake",
        "object": "chat.completion.chunk",
        "created": int(time.time()),
        "model": body.get("model", "fake-model"),
        "choices": [{"index": 0, "delta": delta, "finish_reason": finish}],
    }


_STATUS_FAULTS = {
    "429": (429, "rate_limit_exceeded", "Rate limit reached, slow down."),
    "insufficient_quota": (429, "insufficient_quota", "You exceeded your current quota."),
    "500": (500, "server_error", "The server had an error."),
    "503": (503, "server_error", "The engine is currently overloaded."),
    "400": (400, "invalid_request_error", "Invalid request."),
    "401": (401, "invalid_api_key", "Incorrect API key provided."),
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
        try:
            self.connection.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass

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
        if not self.path.rstrip("/").endswith("/chat/completions"):
            self._send_json(404, {"error": {"message": "not found", "type": "invalid_request_error"}})
            return
        state = self.server_state
        if state.echo_credentials:
            self._echo_credentials(body)
            return
        item = state._next(body if isinstance(body, dict) else {})
        if state.latency:
            state._stopping.wait(state.latency)
        stream = isinstance(body, dict) and bool(body.get("stream"))
        if isinstance(item, Fault):
            self._fault(item, body, stream)
        elif stream:
            self._stream(str(item), body)
        else:
            self._send_json(200, _completion(str(item), body))

    def _fault(self, fault: Fault, body: Any, stream: bool) -> None:
        if fault.kind in _STATUS_FAULTS:
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
            self._stream("This reply is cut off", body, cut=True)
        else:  # drop, or drop_stream on a plain request
            self._drop()

    def _echo_credentials(self, body: Any) -> None:
        """Quote the credential headers back, as a careless gateway's error page does."""
        sent = "; ".join(f"{name}: {self.headers[name]}" for name in ("Authorization", "api-key") if self.headers[name])
        text = f"gateway rejected the request (received {sent})"
        if self.server_state.echo_credentials == "reply":
            self._send_json(200, _completion(text, body if isinstance(body, dict) else {}))
        else:
            self._send_json(400, {"error": {"message": text, "type": "invalid_request_error", "code": None}})

    def _stream(self, text: str, body: dict, *, cut: bool = False) -> None:
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
        send(_chunk(body, {"role": "assistant", "content": ""}))
        for index, piece in enumerate(pieces):
            send(_chunk(body, {"content": piece}))
            if cut and index == 0:
                self._drop()
                return
        send(_chunk(body, {}, "stop"))
        if (body.get("stream_options") or {}).get("include_usage"):
            usage_chunk = _chunk(body, {})
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
