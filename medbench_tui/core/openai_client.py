"""The one place that talks to OpenAI-compatible chat endpoints.

Every system, simulator and extractor that calls a model goes through
:class:`ChatClient`, so that errors mean the same everywhere (:class:`EndpointError`
with ``retryable``, ``status``, ``retry_after``), token usage is counted, and API
keys are read from the environment only (never stored in a configuration, a
transcript or a log).

Retries: the client makes ``max_retries`` quick retries of its own (the SDK's, which
honour Retry-After; 0 by default): the batch runner owns the real backoff policy.
"""

from __future__ import annotations

import asyncio
import functools
import os
import weakref
from collections.abc import AsyncIterator, Awaitable, Callable
from contextvars import ContextVar
from dataclasses import dataclass
from email.utils import parsedate_to_datetime
from typing import Any, Protocol

from medbench_tui.core.errors import MedbenchError

DEFAULT_TIMEOUT = 60.0
PROBE_TIMEOUT = 2.0
NO_KEY = "unused"
"""Sent as the key to endpoints configured without ``api_key_env`` (local servers)."""



class RequestGate(Protocol):
    """What every request of a batch run goes through (``core.runs.runner.RunGate``): the
    per-endpoint concurrency limit, retries with backoff and the optional response cache."""

    async def complete(
        self, client: ChatClient, request: dict[str, Any], attempt: Callable[[], Awaitable[ChatReply]]
    ) -> ChatReply:
        """The reply to ``request``: ``attempt()`` sends it once to ``client``'s endpoint."""
        ...

    async def collect(
        self, client: ChatClient, request: dict[str, Any], stream: Callable[[], AsyncIterator[str]]
    ) -> str:
        """The whole text of a streamed reply: ``stream()`` sends the request once."""
        ...


REQUEST_GATE: ContextVar[RequestGate | None] = ContextVar("medbench_request_gate", default=None)
"""Set by the batch runner while a run plays: each :meth:`ChatClient.complete` then goes
through ``gate.complete(client, request, send)``, and each stream through ``gate.collect``."""


class EndpointError(MedbenchError):
    """A model endpoint failed. ``retryable`` is True for rate limits (429 without
    ``insufficient_quota``), server errors (5xx), timeouts, dropped connections and
    garbled replies; False for requests the endpoint will always refuse (400, 401,
    403, 404, insufficient quota, a missing key)."""

    def __init__(
        self,
        message: str,
        *,
        retryable: bool,
        status: int | None = None,
        retry_after: float | None = None,
    ) -> None:
        super().__init__(message)
        self.retryable = retryable
        self.status = status
        self.retry_after = retry_after

    def to_json(self) -> dict[str, Any]:
        return {
            "message": str(self),
            "retryable": self.retryable,
            "status": self.status,
            "retry_after": self.retry_after,
        }


@dataclass
class TokenUsage:
    """Tokens counted over every request of one client (as the endpoint reported them)."""

    prompt_tokens: int = 0
    completion_tokens: int = 0
    requests: int = 0

    def add(self, usage: Any) -> None:
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
    return os.environ.get(api_key_env) or None


def missing_key_error(api_key_env: str) -> EndpointError:
    return EndpointError(
        f"the environment variable {api_key_env} is not set: export the API key in it "
        "(api_key_env in medbench.yaml names the variable)",
        retryable=False,
    )


def _retry_after(headers: Any) -> float | None:
    if headers is None:
        return None
    millis = headers.get("retry-after-ms")
    if millis:
        try:
            return float(millis) / 1000
        except ValueError:
            pass
    value = headers.get("retry-after")
    if not value:
        return None
    try:
        return max(0.0, float(value))
    except ValueError:
        pass
    try:
        import datetime as dt

        when = parsedate_to_datetime(value)
        return max(0.0, (when - dt.datetime.now(when.tzinfo)).total_seconds())
    except (TypeError, ValueError):
        return None


def endpoint_error(exc: BaseException, *, base_url: str, api_key_env: str | None = None) -> EndpointError:
    """Map an SDK or transport exception to an :class:`EndpointError` whose one-line
    message says what to check."""
    import openai

    key_hint = f"the key in {api_key_env}" if api_key_env else "the API key (api_key_env)"
    if isinstance(exc, EndpointError):
        return exc
    if isinstance(exc, openai.APITimeoutError):
        return EndpointError(
            f"{base_url} did not answer in time: check the network and the server's load, "
            "or raise `timeout` in medbench.yaml",
            retryable=True,
        )
    if isinstance(exc, openai.APIConnectionError):
        cause = exc.__cause__ or exc.__context__
        detail = f" ({cause})" if cause else ""
        return EndpointError(
            f"cannot reach {base_url}{detail}: check base_url, the network, and that the server is running",
            retryable=True,
        )
    if isinstance(exc, openai.APIStatusError):
        status = exc.status_code
        retry_after = _retry_after(exc.response.headers)
        message = getattr(exc, "message", str(exc))
        if status == 429 and (exc.code == "insufficient_quota" or "quota" in str(exc.code or "")):
            return EndpointError(
                f"{base_url} refused: insufficient quota (429): check the account's billing or use another key",
                retryable=False,
                status=status,
            )
        if status in (401, 403):
            return EndpointError(
                f"{base_url} refused {key_hint} ({status}): check that the variable holds a valid key "
                "for this endpoint",
                retryable=False,
                status=status,
            )
        if status == 404:
            return EndpointError(
                f"{base_url} answered 404: check base_url (it usually ends in /v1) and the model name",
                retryable=False,
                status=status,
            )
        retryable = status in (408, 409, 429) or status >= 500
        return EndpointError(
            f"{base_url} answered {status}: {message}", retryable=retryable, status=status, retry_after=retry_after
        )
    if isinstance(exc, (ValueError, openai.APIResponseValidationError)):
        return EndpointError(
            f"{base_url} sent a reply that is not valid JSON: check that base_url points to an "
            "OpenAI-compatible API",
            retryable=True,
        )
    return EndpointError(f"{base_url}: {type(exc).__name__}: {exc}", retryable=True)


@functools.cache
def _tls_context() -> Any:
    """The CA store, loaded once per process: loading it takes ~17 ms of CPU, and
    systems build a client per run."""
    import ssl

    return ssl.create_default_context()


@dataclass
class ChatReply:
    text: str
    finish_reason: str | None = None


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
    ) -> None:
        self.base_url = base_url.rstrip("/")
        self.api_key_env = api_key_env
        self._api_key = api_key or NO_KEY
        self._headers = dict(headers or {})
        self._timeout = timeout
        self._max_retries = max_retries
        self._sdk: Any = None
        self._shared = False
        self._loop: asyncio.AbstractEventLoop | None = None
        self.usage = TokenUsage()

    @classmethod
    def for_endpoint(cls, endpoint: Any) -> ChatClient:
        """Build from a configuration with ``base_url``, ``api_key_env``, ``headers``,
        ``timeout``, ``max_retries``; raises :class:`EndpointError` when the key
        variable is named but unset."""
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
        )

    def _client(self) -> Any:
        loop = asyncio.get_running_loop()
        if self._sdk is None or self._loop is not loop:
            if REQUEST_GATE.get() is not None:  # a batch run: one SDK client (and its connections) per endpoint
                key = (self.base_url, self._api_key, tuple(sorted(self._headers.items())), self._timeout,
                       self._max_retries)
                shared = _SHARED.setdefault(loop, {})
                if key not in shared:
                    shared[key] = self._new_sdk()
                self._sdk, self._shared = shared[key], True
            else:
                self._sdk, self._shared = self._new_sdk(), False
            self._loop = loop
        return self._sdk

    def _new_sdk(self) -> Any:
        import openai

        return openai.AsyncOpenAI(
            base_url=self.base_url,
            api_key=self._api_key,
            default_headers=self._headers or None,
            timeout=self._timeout,
            max_retries=self._max_retries,
            http_client=openai.DefaultAsyncHttpxClient(verify=_tls_context()),
        )

    def _error(self, exc: BaseException) -> EndpointError:
        return endpoint_error(exc, base_url=self.base_url, api_key_env=self.api_key_env)

    async def complete(self, messages: list[dict], *, model: str, **params: Any) -> ChatReply:
        """One chat completion; ``params`` with value None are not sent."""
        sent = {k: v for k, v in params.items() if v is not None}
        gate = REQUEST_GATE.get()
        if gate is not None:
            request = {"model": model, "messages": messages, **sent}
            return await gate.complete(self, request, lambda: self._complete(messages, model, sent))
        return await self._complete(messages, model, sent)

    async def _complete(self, messages: list[dict], model: str, sent: dict[str, Any]) -> ChatReply:
        try:
            from openai.types.chat import ChatCompletion

            # Not chat.completions.create(): it walks every message against the SDK's
            # TypedDicts (~2 ms a request late in a consultation); the body is plain JSON.
            response = await self._client().post(
                "/chat/completions", body={"model": model, "messages": messages, **sent}, cast_to=ChatCompletion
            )
        except asyncio.CancelledError:
            raise
        except Exception as exc:
            raise self._error(exc) from exc
        self.usage.add(getattr(response, "usage", None))
        choices = getattr(response, "choices", None)
        if not choices:
            raise EndpointError(f"{self.base_url} sent a reply without choices", retryable=True)
        return ChatReply(choices[0].message.content or "", choices[0].finish_reason)

    async def stream(self, messages: list[dict], *, model: str, **params: Any) -> AsyncIterator[str]:
        """The reply as text deltas. A stream that ends without a finish reason was cut
        off: that raises a retryable :class:`EndpointError`. In a batch run nobody
        watches: the gate collects the whole reply (retried, cached) and yields it once."""
        sent = {k: v for k, v in params.items() if v is not None}
        gate = REQUEST_GATE.get()
        if gate is not None:
            request = {"model": model, "messages": messages, "stream": True, **sent}
            yield await gate.collect(self, request, lambda: self._stream(messages, model, sent))
            return
        async for delta in self._stream(messages, model, sent):
            yield delta

    async def _stream(self, messages: list[dict], model: str, sent: dict[str, Any]) -> AsyncIterator[str]:
        finished = False
        usage = None
        try:
            response = await self._client().chat.completions.create(
                model=model, messages=messages, stream=True, stream_options={"include_usage": True}, **sent
            )
            async for chunk in response:
                if getattr(chunk, "usage", None) is not None:
                    usage = chunk.usage
                for choice in chunk.choices or ():
                    if choice.delta is not None and choice.delta.content:
                        yield choice.delta.content
                    if choice.finish_reason:
                        finished = True
        except asyncio.CancelledError:
            raise
        except Exception as exc:
            raise self._error(exc) from exc
        self.usage.add(usage)
        if not finished:
            raise EndpointError(
                f"the connection to {self.base_url} dropped during the reply: check the network and retry",
                retryable=True,
            )

    async def probe(self, timeout: float = PROBE_TIMEOUT) -> str | None:
        """None when the endpoint answers ``GET {base_url}/models`` (an endpoint without
        that route still counts as reachable); else why it cannot be used."""
        import openai

        try:
            await self._client().with_options(timeout=timeout, max_retries=0).models.list()
        except openai.NotFoundError:
            return None
        except asyncio.CancelledError:
            raise
        except Exception as exc:
            return str(self._error(exc))
        return None

    async def aclose(self) -> None:
        if self._sdk is not None and not self._shared and self._loop is asyncio.get_running_loop():
            await self._sdk.close()
        self._sdk = None


_SHARED: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, dict[tuple[Any, ...], Any]] = (
    weakref.WeakKeyDictionary()
)
"""The SDK clients the runs of a batch share, per event loop: building one costs ~2 ms of
CPU and a new connection; a batch makes thousands of requests to a few endpoints."""


async def close_shared_clients() -> None:
    """Close the SDK clients the batch run on this loop shared (it has ended)."""
    for sdk in _SHARED.pop(asyncio.get_running_loop(), {}).values():
        await sdk.close()
