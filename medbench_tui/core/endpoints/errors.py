"""How a model endpoint's failure is told to its callers: one error with the codes they
treat apart, shared by the client and the context budget."""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from dataclasses import dataclass
from email.utils import parsedate_to_datetime

from medbench_tui.core.errors import MedbenchError
from medbench_tui.core.jsondata import JSONObject
from medbench_tui.core.redact import redact
from medbench_tui.core.untrusted import valid_text, visible

CONTEXT_EXCEEDED = "context_exceeded"
IMAGE_UNSUPPORTED = "image_unsupported"
UNREACHABLE = "unreachable"
TIMED_OUT = "timed_out"


class EndpointError(MedbenchError):
    """A model endpoint failed. ``retryable`` is True for rate limits (429 without
    ``insufficient_quota``), server errors (5xx), timeouts, dropped connections and
    garbled replies; False for requests the endpoint will always refuse (400, 401,
    403, 404, insufficient quota, a missing key, a request longer than the context,
    images to a model that takes none, whatever the status).

    ``code`` names the failures callers treat apart: :data:`CONTEXT_EXCEEDED`,
    :data:`IMAGE_UNSUPPORTED`, :data:`UNREACHABLE` (its retries have a time budget),
    :data:`TIMED_OUT`."""

    def __init__(
        self,
        message: str,
        *,
        retryable: bool,
        status: int | None = None,
        retry_after: float | None = None,
        code: str | None = None,
    ) -> None:
        super().__init__(visible(valid_text(redact(message))))  # a server's words: kept, never obeyed
        self.retryable = retryable
        self.status = status
        self.retry_after = retry_after
        self.code = code

    def to_json(self) -> JSONObject:
        return {
            "message": str(self),
            "retryable": self.retryable,
            "status": self.status,
            "retry_after": self.retry_after,
            "code": self.code,
        }


_CONTEXT_WORDING = (
    "exceeds the available context size",  # llama.cpp, 400 (type exceed_context_size_error)
    "exceed_context_size_error",
    "context size has been exceeded",  # llama.cpp, 500, when a shared slot runs out
    "maximum context length",  # vLLM, OpenAI
    "context_length_exceeded",  # OpenAI's error code
    "input is too long",
    "prompt is too long",
)
_IMAGE_WORDING = (
    "image input is not supported",  # llama.cpp without a multimodal projector (mmproj)
    "does not support image",
    "is not a multimodal model",  # vLLM
    "image_url is only supported by certain models",
)


@dataclass(frozen=True)
class ServerRefusal:
    """An error status as the server sent it, whoever read it (the SDK or a batch's
    plain request): the status, the headers, the message and the error's code and type."""

    status: int
    headers: Mapping[str, str]
    message: str
    code: str | None = None
    kind: str | None = None


def retry_after(headers: Mapping[str, str] | None) -> float | None:
    """Seconds to wait, from ``retry-after-ms`` or ``retry-after`` (seconds or a date)."""
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
        when = parsedate_to_datetime(value)
        return max(0.0, (when - dt.datetime.now(when.tzinfo)).total_seconds())
    except (TypeError, ValueError):
        return None


MESSAGE_LIMIT = 1000
"""Characters of a server's error message kept (a gateway may send a whole page)."""


def refused(refusal: ServerRefusal, *, base_url: str, api_key_env: str | None = None) -> EndpointError:
    """What an error status means for the caller, and what to check."""
    status, message = refusal.status, refusal.message
    if len(message) > MESSAGE_LIMIT:
        message = f"{message[:MESSAGE_LIMIT]}... ({len(message):,} characters)"
    if status == 429 and (refusal.code == "insufficient_quota" or "quota" in str(refusal.code or "")):
        return EndpointError(
            f"{base_url} refused: insufficient quota (429): check the account's billing or use another key",
            retryable=False,
            status=status,
        )
    if status in (401, 403):
        key_hint = f"the key in {api_key_env}" if api_key_env else "the API key (api_key_env)"
        return EndpointError(
            f"{base_url} refused {key_hint} ({status}): check that the variable holds a valid key for this endpoint",
            retryable=False,
            status=status,
        )
    wording = f"{message} {refusal.code or ''} {refusal.kind or ''}".lower()
    if any(w in wording for w in _CONTEXT_WORDING):
        return EndpointError(
            f"{CONTEXT_EXCEEDED}: {base_url} answered {status}: {message} (lower the history or max_tokens, "
            "or set context_tokens in medbench.yaml to the server's context size)",
            retryable=False, status=status, code=CONTEXT_EXCEEDED,
        )
    if any(w in wording for w in _IMAGE_WORDING):
        return EndpointError(
            f"{base_url} does not take images ({status}: {message}): set vision: false for this system, "
            "or serve a multimodal model",
            retryable=False, status=status, code=IMAGE_UNSUPPORTED,
        )
    if status == 404:
        return EndpointError(
            f"{base_url} answered 404: check base_url (it usually ends in /v1) and the model name",
            retryable=False,
            status=status,
        )
    retryable = status in (408, 409, 429) or status >= 500
    return EndpointError(f"{base_url} answered {status}: {message}", retryable=retryable, status=status,
                         retry_after=retry_after(refusal.headers))


def timed_out(base_url: str) -> EndpointError:
    return EndpointError(
        f"{base_url} did not answer in time: check the network and the server's load, "
        "or raise `timeout` in medbench.yaml",
        retryable=True,
        code=TIMED_OUT,
    )


def unreachable(base_url: str, cause: BaseException | None) -> EndpointError:
    detail = f" ({cause})" if cause else ""
    return EndpointError(
        f"cannot reach {base_url}{detail}: check base_url, the network, and that the server is running",
        retryable=True,
        code=UNREACHABLE,
    )


def not_json(base_url: str) -> EndpointError:
    return EndpointError(
        f"{base_url} sent a reply that is not valid JSON: check that base_url points to an OpenAI-compatible API",
        retryable=True,
    )
