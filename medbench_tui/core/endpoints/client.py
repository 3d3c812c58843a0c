"""The one place that talks to OpenAI-compatible chat endpoints.

Every system, simulator and extractor that calls a model goes through
:class:`ChatClient`, so that errors mean the same everywhere (:class:`EndpointError`
with ``retryable``, ``status``, ``retry_after``), token usage is counted, and API
keys are read from the environment only (never stored in a configuration, a
transcript or a log).

Retries: the client makes ``max_retries`` quick retries of its own (the SDK's, which
honour Retry-After; 0 by default): the batch runner owns the real backoff policy. Without
them, a batch's requests skip the SDK's request layer (:mod:`plain_chat`).

Every request is noted (:data:`REQUEST_LOG`, when a run has set it): the role that
made it, the model the server says it served, ``system_fingerprint``,
``finish_reason``, token usage, or the error: what a stored run is audited with. With
``context_tokens`` set, each request is first fitted into the endpoint's context
(:mod:`medbench_tui.core.endpoints.context_budget`).
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import os
import weakref
from collections.abc import AsyncIterator, Awaitable, Callable, Hashable
from contextvars import ContextVar
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol, TypeVar, cast

from medbench_tui.core.endpoints.context_budget import Message, estimate_messages, fit
from medbench_tui.core.endpoints.errors import (
    CONTEXT_EXCEEDED,
    EndpointError,
    ServerRefusal,
    not_json,
    refused,
    timed_out,
    unreachable,
)
from medbench_tui.core.endpoints.plain_chat import PlainChat
from medbench_tui.core.endpoints.trust import (
    NOT_CONFIRMED,
    EndpointLike,
    address_problem,
    allowed,
    destination,
    host_of,
    refusal,
    resolved_problem,
)
from medbench_tui.core.jsondata import JSONObject, JSONValue
from medbench_tui.core.redact import remember_headers, remember_value, remember_variable
from medbench_tui.core.untrusted import valid_text, visible

if TYPE_CHECKING:
    import ssl

    from openai import AsyncOpenAI, AsyncStream
    from openai.types.chat import ChatCompletionChunk

T = TypeVar("T")
DEFAULT_TIMEOUT = 60.0
PROBE_TIMEOUT = 2.0
NO_KEY = "unused"
"""Sent as the key to endpoints configured without ``api_key_env`` (local servers)."""

class EndpointSettings(EndpointLike, Protocol):
    """What a client is built from (``cases.bankconfig.EndpointConfig``): where its key goes, and how
    long and how often it tries."""

    @property
    def timeout(self) -> float: ...
    @property
    def max_retries(self) -> int: ...


class RequestGate(Protocol):
    """What every request of a batch run goes through (``core.runs.runner.RunGate``): the
    per-endpoint concurrency limit, retries with backoff and the optional response cache."""

    async def complete(
        self, client: ChatClient, request: JSONObject, attempt: Callable[[], Awaitable[ChatReply]]
    ) -> ChatReply:
        """The reply to ``request``: ``attempt()`` sends it once to ``client``'s endpoint
        (a streamed request is collected whole by ``attempt``)."""
        ...


REQUEST_GATE: ContextVar[RequestGate | None] = ContextVar("medbench_request_gate", default=None)
"""Set by the batch runner while a run plays: each :meth:`ChatClient.complete` (and each
stream) then goes through ``gate.complete(client, request, send)``."""
REQUEST_LOG: ContextVar[list[JSONObject] | None] = ContextVar("medbench_request_log", default=None)
"""Set by the batch runner to a list per run: each request (or failed attempt) of every
client is noted in it (see :meth:`ChatClient._note`)."""


@dataclass
class TokenUsage:
    """Tokens counted over every request of one client (as the endpoint reported them)."""

    prompt_tokens: int = 0
    completion_tokens: int = 0
    requests: int = 0

    def add(self, usage: object) -> None:
        self.requests += 1
        if usage is not None:
            self.prompt_tokens += getattr(usage, "prompt_tokens", 0) or 0
            self.completion_tokens += getattr(usage, "completion_tokens", 0) or 0

    def as_dict(self) -> dict[str, int]:
        return {
            "prompt_tokens": self.prompt_tokens,
            "completion_tokens": self.completion_tokens,
            "requests": self.requests,
        }


def api_key_from_env(api_key_env: str | None) -> str | None:
    """The key named by ``api_key_env``, or None when unset (or when no variable is named)."""
    if not api_key_env:
        return None
    remember_variable(api_key_env)
    return os.environ.get(api_key_env) or None


def missing_key_error(api_key_env: str) -> EndpointError:
    return EndpointError(
        f"the environment variable {api_key_env} is not set: export the API key in it "
        "(api_key_env in medbench.yaml names the variable)",
        retryable=False,
    )


def _refused(exc: BaseException) -> bool:
    """A connection refused or a name not found, under whatever the transport called it
    (aiohttp's refusals reach the SDK as connect timeouts)."""
    seen = exc.__cause__ or exc.__context__
    for _ in range(8):  # a chain is a few links long; a cycle must not hang
        if seen is None:
            return False
        if isinstance(seen, OSError) and not isinstance(seen, TimeoutError):
            return True
        seen = seen.__cause__ or seen.__context__
    return False


def endpoint_error(exc: BaseException, *, base_url: str, api_key_env: str | None = None) -> EndpointError:
    """Map an SDK or transport exception to an :class:`EndpointError` whose one-line
    message says what to check."""
    import openai

    if isinstance(exc, EndpointError):
        return exc
    if isinstance(exc, TimeoutError):  # the request's deadline passed (see ChatClient)
        return timed_out(base_url)
    if isinstance(exc, openai.APITimeoutError) and not _refused(exc):
        return timed_out(base_url)
    if isinstance(exc, openai.APIConnectionError):
        return unreachable(base_url, exc.__cause__ or exc.__context__)
    if isinstance(exc, openai.APIStatusError):
        return refused(ServerRefusal(exc.status_code, exc.response.headers, getattr(exc, "message", str(exc)),
                                     exc.code, getattr(exc, "type", None)),
                       base_url=base_url, api_key_env=api_key_env)
    if isinstance(exc, (ValueError, openai.APIResponseValidationError)):
        return not_json(base_url)
    return EndpointError(f"{base_url}: {type(exc).__name__}: {exc}", retryable=True)


def _chunk_type() -> type[ChatCompletionChunk]:
    from openai.types.chat import ChatCompletionChunk

    return ChatCompletionChunk


def _stream_type() -> type[AsyncStream[ChatCompletionChunk]]:
    from openai import AsyncStream
    from openai.types.chat import ChatCompletionChunk

    return AsyncStream[ChatCompletionChunk]


@functools.cache
def _tls_context() -> ssl.SSLContext:
    """The CA store, loaded once per process: loading it takes ~17 ms of CPU, and
    systems build a client per run."""
    import ssl

    return ssl.create_default_context()


class Deadline:
    """One request's total deadline (``timeout`` seconds from now) over its steps: a server
    that sends a byte a second never holds a request past it."""

    def __init__(self, seconds: float) -> None:
        self._at = asyncio.get_running_loop().time() + seconds
        self.passed = False

    async def wait(self, step: Awaitable[T]) -> T:
        left = self._at - asyncio.get_running_loop().time()
        try:
            if left <= 0:
                raise TimeoutError
            return await asyncio.wait_for(step, left)
        except TimeoutError:
            self.passed = True
            if asyncio.iscoroutine(step):
                step.close()
            raise


def endpoint_text(text: str) -> str:
    """A text as an endpoint sent it, made safe to keep and show: valid Unicode (a lone
    surrogate replaced), line ends as line feeds, every other control character visible
    (an escape sequence in a reply never reaches a terminal, a transcript or a report)."""
    if text.isprintable():  # the usual reply: nothing to do
        return text
    return visible(valid_text(text.replace("\r\n", "\n").replace("\r", "\n")))


def _label(value: object) -> str | None:
    """A short text the server sent about itself (model, fingerprint, finish reason), made safe."""
    return endpoint_text(value) if isinstance(value, str) else None


@dataclass
class ChatReply:
    """A reply and what the server said about it (``model``: the model it served)."""

    text: str
    finish_reason: str | None = None
    model: str | None = None
    system_fingerprint: str | None = None
    prompt_tokens: int | None = None
    completion_tokens: int | None = None
    cached: bool = False
    left_out: int = 0
    """Messages of the history left out to fit ``context_tokens`` (see context_budget)."""

    @property
    def truncated(self) -> bool:
        """The reply was cut at the token limit."""
        return self.finish_reason == "length"

    def served(self, response: object) -> None:
        """Take the served model, fingerprint and usage from an SDK response or chunk."""
        self.model = _label(getattr(response, "model", None)) or self.model
        self.system_fingerprint = _label(getattr(response, "system_fingerprint", None)) or self.system_fingerprint
        self.finish_reason = _label(self.finish_reason)
        usage = getattr(response, "usage", None)
        if usage is not None:
            self.prompt_tokens = getattr(usage, "prompt_tokens", None)
            self.completion_tokens = getattr(usage, "completion_tokens", None)


class ChatClient:
    """An async chat client for one OpenAI-compatible endpoint.

    The SDK client is built per event loop (so sync code may call ``asyncio.run``
    again and again). ``usage`` accumulates over every call.
    """

    def __init__(
        self,
        *,
        base_url: str,
        api_key: str | None = None,
        api_key_env: str | None = None,
        headers: dict[str, str] | None = None,
        timeout: float = DEFAULT_TIMEOUT,
        max_retries: int = 0,
        role: str = "model",
        extra_body: JSONObject | None = None,
        context_tokens: int | None = None,
    ) -> None:
        self.base_url = base_url.rstrip("/")
        self.api_key_env = api_key_env
        self.role = role
        """Who sends the requests (doctor, patient, extractor): noted with each one."""
        self.extra_body = dict(extra_body or {})
        self.context_tokens = context_tokens
        self.last: ChatReply | None = None
        """The last reply (a stream's deltas carry no finish reason: read it here)."""
        self._api_key = api_key or NO_KEY
        remember_value(api_key)
        remember_headers(headers)
        self._headers = dict(headers or {})
        self._timeout = timeout
        self._max_retries = max_retries
        self._sdk: AsyncOpenAI | None = None
        self._shared = False
        self._loop: asyncio.AbstractEventLoop | None = None
        self._admitted = False
        self.usage = TokenUsage()

    @classmethod
    def for_endpoint(cls, endpoint: EndpointSettings, *, role: str = "model") -> ChatClient:
        """Build from a configuration with ``base_url``, ``api_key_env``, ``headers``,
        ``timeout``, ``max_retries`` (and ``extra_body``, ``context_tokens``); raises
        :class:`EndpointError` when the key variable is named but unset."""
        key = api_key_from_env(endpoint.api_key_env)
        if endpoint.api_key_env and key is None:
            raise missing_key_error(endpoint.api_key_env)
        return cls(
            base_url=endpoint.base_url,
            api_key=key,
            api_key_env=endpoint.api_key_env,
            headers=endpoint.headers,
            timeout=endpoint.timeout,
            max_retries=endpoint.max_retries,
            role=role,
            extra_body=getattr(endpoint, "extra_body", None),
            context_tokens=getattr(endpoint, "context_tokens", None),
        )

    def _client(self) -> AsyncOpenAI:
        loop = asyncio.get_running_loop()
        # A batch's clients are closed when it ends: a client kept across batches takes the next one's.
        sdk = self._sdk
        if sdk is None or self._loop is not loop or (self._shared and sdk.is_closed()):
            if REQUEST_GATE.get() is not None:  # a batch run: one SDK client (and its connections) per endpoint
                shared = _SHARED.setdefault(loop, {})
                key = ("sdk", *self._endpoint_key())
                if key not in shared:
                    shared[key] = self._new_sdk(batch=True)
                sdk, self._shared = cast("AsyncOpenAI", shared[key]), True
            else:
                sdk, self._shared = self._new_sdk(batch=False), False
            self._sdk, self._loop = sdk, loop
        return sdk

    def _endpoint_key(self) -> tuple[Hashable, ...]:
        return (self.base_url, self._api_key, tuple(sorted(self._headers.items())), self._timeout, self._max_retries)

    def _plain(self) -> PlainChat | None:
        """A batch's plain request path to this endpoint (:mod:`plain_chat`), shared by the
        batch's clients; None outside a batch, or when the SDK's quick retries are asked for."""
        if self._max_retries or REQUEST_GATE.get() is None:
            return None
        shared = _SHARED.setdefault(asyncio.get_running_loop(), {})
        key = ("plain", *self._endpoint_key())
        if key not in shared:
            shared[key] = PlainChat(base_url=self.base_url, api_key=self._api_key, api_key_env=self.api_key_env,
                                    headers=self._headers, timeout=self._timeout, tls=_tls_context())
        return cast(PlainChat, shared[key])

    def _new_sdk(self, *, batch: bool) -> AsyncOpenAI:
        """A batch's SDK clients (its streams, and its requests when ``max_retries`` asks for the
        SDK's quick retries) send over aiohttp (the SDK's own option), which spends less CPU a
        request than httpx's pool with dozens of connections open (benchmarks/runner_throughput.py); the
        batch closes them when it ends (:func:`close_shared_clients`). A client of one
        consultation keeps httpx, which needs no closing."""
        import openai

        transport = openai.DefaultAioHttpClient if batch else openai.DefaultAsyncHttpxClient
        return openai.AsyncOpenAI(
            base_url=self.base_url,
            api_key=self._api_key,
            default_headers=self._headers or None,
            timeout=self._timeout,
            max_retries=self._max_retries,
            http_client=transport(verify=_tls_context()),
        )

    @property
    def headers(self) -> dict[str, str]:
        return self._headers

    async def _admit(self) -> None:
        """Refuse before the first request where nothing may go (a metadata or link-local
        address, also by resolved name; plain http with a credential to another machine), and
        a key from the environment bound for a host nobody has allowed (:mod:`.trust`)."""
        if self._admitted:
            return
        place = destination(self)
        problem = address_problem(self.base_url, credentials=self._api_key != NO_KEY or bool(place.headers))
        if problem is None and place.needs_confirmation and place.variable is not None \
                and not allowed(place.variable, place.host):
            raise EndpointError(refusal(place), retryable=False, code=NOT_CONFIRMED)
        problem = problem or await resolved_problem(host_of(self.base_url))
        if problem is not None:
            raise EndpointError(f"{self.base_url}: {problem}", retryable=False)
        self._admitted = True

    def _error(self, exc: BaseException) -> EndpointError:
        return endpoint_error(exc, base_url=self.base_url, api_key_env=self.api_key_env)

    async def complete(self, messages: list[Message], *, model: str, keep: int = 1, **params: JSONValue) -> ChatReply:
        """One chat completion; ``params`` with value None are not sent. With
        ``context_tokens``, the history is fitted first, the first ``keep`` messages
        kept whole (see :func:`context_budget.fit`)."""
        sent = {k: v for k, v in params.items() if v is not None}
        await self._admitted_or_noted(model, sent)
        messages, left_out = await self._fit(messages, model, sent, keep)
        gate = REQUEST_GATE.get()
        if gate is not None:
            request = {"model": model, "messages": messages, **sent, **self.extra_body}
            reply = await gate.complete(self, request, lambda: self._complete(messages, model, sent))
        else:
            reply = await self._complete(messages, model, sent)
        reply.left_out = left_out
        self._finished(model, sent, reply)
        return reply

    async def _admitted_or_noted(self, model: str, sent: JSONObject) -> None:
        try:
            await self._admit()
        except EndpointError as error:  # refused before sending: noted like a refusal of the server
            self._note(model, sent, error=error)
            raise

    async def _fit(
        self, messages: list[Message], model: str, sent: JSONObject, keep: int
    ) -> tuple[list[Message], int]:
        if self.context_tokens is None:
            return messages, 0
        room = sent.get("max_completion_tokens") or sent.get("max_tokens") or 0
        try:
            return await fit(self, messages, context_tokens=self.context_tokens, reply_tokens=room, keep=keep,
                             model=model)
        except EndpointError as error:  # refused before sending: noted like a refusal of the server
            self._note(model, sent, error=error)
            raise

    def _note(self, model: str, sent: JSONObject, reply: ChatReply | None = None,
              error: EndpointError | None = None) -> None:
        """Note one request in the run's log (see :data:`REQUEST_LOG`)."""
        log = REQUEST_LOG.get()
        if log is None:
            return
        note: JSONObject = {"role": self.role, "base_url": self.base_url, "model": model,
                                "max_tokens": sent.get("max_completion_tokens") or sent.get("max_tokens")}
        if reply is not None:
            note |= {"served_model": reply.model, "system_fingerprint": reply.system_fingerprint,
                     "finish_reason": reply.finish_reason, "prompt_tokens": reply.prompt_tokens,
                     "completion_tokens": reply.completion_tokens, "cached": reply.cached, "left_out": reply.left_out}
        if error is not None:
            note |= {"error": str(error), "status": error.status, "code": error.code}
        log.append({k: v for k, v in note.items() if v is not None})

    @staticmethod
    def _sized(error: EndpointError, messages: list[Message], sent: JSONObject) -> EndpointError:
        """A server's context error with the request's size added (llama.cpp's 500 names none)."""
        if error.code != CONTEXT_EXCEEDED:
            return error
        room = sent.get("max_completion_tokens") or sent.get("max_tokens")
        size = f"about {estimate_messages(messages)} tokens of messages, {room or 'no limit'} for the reply"
        return EndpointError(f"{error} [the request: {size}]", retryable=False, status=error.status,
                             code=CONTEXT_EXCEEDED)

    def _body(self, messages: list[Message], model: str, sent: JSONObject) -> JSONObject:
        """The request body: provider options (``extra_body``) first, so medbench's own
        keys are never overridden (the configuration refuses such options anyway)."""
        return {**self.extra_body, "model": model, "messages": messages, **sent}

    async def _complete(self, messages: list[Message], model: str, sent: JSONObject) -> ChatReply:
        try:
            from medbench_tui.core.endpoints.completion import read_completion

            # Not chat.completions.create(): it walks every message against the SDK's
            # TypedDicts (~2 ms a request late in a consultation); the body is plain JSON.
            body = self._body(messages, model, sent)
            plain = self._plain()
            if plain is not None:
                data = await plain.post(body)
            else:  # the timeout is the whole request's deadline, not the longest wait for a byte
                data = await asyncio.wait_for(self._client().post("/chat/completions", body=body, cast_to=bytes),
                                              self._timeout)
            response = read_completion(data)  # not JSON, or not a completion: a ValueError
        except asyncio.CancelledError:
            raise
        except Exception as exc:
            error = self._sized(self._error(exc), messages, sent)
            self._note(model, sent, error=error)
            raise error from exc
        self.usage.add(response.usage)
        if not response.choices:
            raise EndpointError(f"{self.base_url} sent a reply without choices", retryable=True)
        reply = ChatReply(endpoint_text(response.choices[0].message.content or ""), response.choices[0].finish_reason)
        reply.served(response)
        return reply

    async def stream(self, messages: list[Message], *, model: str, keep: int = 1,
                     **params: JSONValue) -> AsyncIterator[str]:
        """The reply as text deltas (the whole reply is then :attr:`last`). A stream
        that ends without a finish reason was cut off: that raises a retryable
        :class:`EndpointError`. In a batch run nobody watches: the gate collects the
        whole reply (retried, cached) and it is yielded once."""
        sent = {k: v for k, v in params.items() if v is not None}
        await self._admitted_or_noted(model, sent)
        messages, left_out = await self._fit(messages, model, sent, keep)
        gate = REQUEST_GATE.get()
        if gate is not None:
            request = {"model": model, "messages": messages, "stream": True, **sent, **self.extra_body}
            reply = await gate.complete(self, request, lambda: self._collect(messages, model, sent))
            reply.left_out = left_out
            self._finished(model, sent, reply)
            yield reply.text
            return
        reply = ChatReply("")
        async for delta in self._stream(messages, model, sent, reply):
            yield delta
        reply.left_out = left_out
        self._finished(model, sent, reply)

    def _finished(self, model: str, sent: JSONObject, reply: ChatReply) -> None:
        self.last = reply
        self._note(model, sent, reply)

    async def _collect(self, messages: list[Message], model: str, sent: JSONObject) -> ChatReply:
        reply = ChatReply("")
        async for _ in self._stream(messages, model, sent, reply):
            pass
        return reply

    async def _stream(self, messages: list[Message], model: str, sent: JSONObject, reply: ChatReply
                      ) -> AsyncIterator[str]:
        """Yield the deltas; fill ``reply`` with the text, finish reason, served model
        and usage (the usage chunk comes last, with no choices)."""
        usage = None
        deadline = Deadline(self._timeout)
        response = None
        try:
            body = self._body(messages, model, sent) | {"stream": True, "stream_options": {"include_usage": True}}
            response = await deadline.wait(self._client().post(
                "/chat/completions", body=body, cast_to=_chunk_type(), stream=True, stream_cls=_stream_type()
            ))
            chunks = response.__aiter__()
            while True:
                try:
                    chunk = await deadline.wait(chunks.__anext__())
                except StopAsyncIteration:
                    break
                reply.served(chunk)
                if getattr(chunk, "usage", None) is not None:
                    usage = chunk.usage
                for choice in chunk.choices or ():
                    if choice.delta is not None and choice.delta.content:
                        delta = endpoint_text(choice.delta.content)
                        reply.text += delta
                        yield delta
                    if choice.finish_reason:
                        reply.finish_reason = choice.finish_reason
        except asyncio.CancelledError:
            raise
        except Exception as exc:
            error = self._sized(self._error(exc), messages, sent)
            self._note(model, sent, error=error)
            raise error from exc
        finally:
            if response is not None and deadline.passed:  # stop reading a stream that trickles
                with contextlib.suppress(Exception):
                    await response.close()
        self.usage.add(usage)
        if reply.finish_reason is None:
            error = EndpointError(
                f"the connection to {self.base_url} dropped during the reply: check the network and retry",
                retryable=True,
            )
            self._note(model, sent, error=error)
            raise error

    async def probe(self, timeout: float = PROBE_TIMEOUT) -> EndpointError | None:
        """None when the endpoint answers ``GET {base_url}/models`` (an endpoint without
        that route still counts as reachable); else why it cannot be used."""
        import openai

        try:
            await self._admit()
            await asyncio.wait_for(self._client().with_options(timeout=timeout, max_retries=0).models.list(), timeout)
        except openai.NotFoundError:
            return None
        except asyncio.CancelledError:
            raise
        except Exception as exc:
            return self._error(exc)
        return None

    async def aclose(self) -> None:
        if self._sdk is not None and not self._shared and self._loop is asyncio.get_running_loop():
            await self._sdk.close()
        self._sdk = None


_SHARED: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, dict[tuple[Hashable, ...], AsyncOpenAI | PlainChat]] = (
    weakref.WeakKeyDictionary()
)
"""The SDK clients and plain request paths the runs of a batch share, per event loop:
building one costs ~2 ms of CPU and a new connection; a batch makes thousands of
requests to a few endpoints."""


async def close_shared_clients() -> None:
    """Close the clients the batch run on this loop shared (it has ended)."""
    for client in _SHARED.pop(asyncio.get_running_loop(), {}).values():
        await client.close()
