"""Keeping each request within an endpoint's context (``context_tokens`` in medbench.yaml).

A consultation resends its whole history every turn; a long one overflows a small
context (llama.cpp and vLLM refuse with 400, Ollama silently cuts the start of the
prompt). With ``context_tokens`` set, every request is fitted first:

- the reply's room (``max_tokens`` or ``max_completion_tokens``) is kept free;
- the first ``keep`` messages are kept whole (the system prompt and, for the doctor,
  the intro with its turn-zero attachments), and so is the last message (the one to
  answer);
- the oldest turns in between are left out a pair at a time (a question with its
  answer, so the roles still alternate) until the rest fits; the newest turns stay
  whole, never cut mid-message;
- when even the kept messages do not fit, nothing is sent: an :class:`EndpointError`
  with code ``context_exceeded`` names the sizes (it is never retried, and ends the
  run incomplete).

Counting: the server's own tokenizer when it has one (llama.cpp: ``POST /tokenize``
with ``content``; vLLM: ``POST /tokenize`` with ``prompt``; both at the server root,
beside ``/v1``), asked once per distinct message text; else an estimate of one token
per :data:`BYTES_PER_TOKEN` bytes of UTF-8 (English averages about four characters a
token, so this over-counts: safe), plus :data:`MESSAGE_OVERHEAD` tokens a message for
the chat template and :data:`IMAGE_TOKENS` an image.
"""

from __future__ import annotations

import asyncio
import math
from typing import TYPE_CHECKING, Protocol

from medbench_tui.core.endpoints.errors import CONTEXT_EXCEEDED, EndpointError
from medbench_tui.core.jsondata import JSONObject

if TYPE_CHECKING:
    from openai import AsyncOpenAI

Message = JSONObject
"""A chat message as OpenAI's JSON has it: a role and a content (a text, or a list of text and image parts)."""


class ChatClient(Protocol):
    """The client whose endpoint is asked to count tokens (``openai_client.ChatClient``)."""

    base_url: str

    def _client(self) -> AsyncOpenAI: ...

BYTES_PER_TOKEN = 3
MESSAGE_OVERHEAD = 8
"""Tokens a chat template adds around each message (role markers, separators)."""
IMAGE_TOKENS = 1024
"""An image part, as vision encoders commonly count it (an upper bound for most)."""
TOKENIZE_TIMEOUT = 5.0
_TOKENIZER_KINDS: dict[str, str | None] = {}
"""base_url -> "llamacpp", "vllm" or None (no tokenizer route), found on first use."""
_COUNTS: dict[tuple[str, str], int] = {}
_COUNTS_LIMIT = 20_000


def estimate_tokens(text: str) -> int:
    return math.ceil(len(text.encode("utf-8")) / BYTES_PER_TOKEN)


def _parts(message: Message) -> tuple[str, int]:
    """The text of a message and its number of images."""
    content = message.get("content")
    if isinstance(content, str):
        return content, 0
    texts = [p.get("text", "") for p in content or () if isinstance(p, dict) and p.get("type") == "text"]
    images = sum(1 for p in content or () if isinstance(p, dict) and p.get("type") == "image_url")
    return "\n".join(texts), images


def _root(base_url: str) -> str:
    return base_url.removesuffix("/v1")


def estimate_messages(messages: list[Message]) -> int:
    """The estimate of a whole request's messages (no server asked): for error messages."""
    total = 0
    for message in messages:
        text, images = _parts(message)
        total += estimate_tokens(text) + MESSAGE_OVERHEAD + images * IMAGE_TOKENS
    return total


async def _ask_tokenizer(client: ChatClient, kind: str, text: str, model: str) -> int | None:
    body: JSONObject = {"content": text} if kind == "llamacpp" else {"model": model, "prompt": text}
    try:
        sdk = client._client().with_options(timeout=TOKENIZE_TIMEOUT, max_retries=0)
        answer = await asyncio.wait_for(  # a total deadline: a server may trickle its answer
            sdk.post(f"{_root(client.base_url)}/tokenize", body=body, cast_to=object), TOKENIZE_TIMEOUT)
    except Exception:  # no such route, another server's dialect, or the server is away
        return None
    if isinstance(answer, dict):
        if isinstance(answer.get("count"), int):
            return answer["count"]
        if isinstance(answer.get("tokens"), list):
            return len(answer["tokens"])
    return None


async def count_text(client: ChatClient, text: str, model: str) -> int:
    """Tokens of ``text`` by the server's tokenizer (found on first use), else estimated."""
    key = (client.base_url, text)
    if key in _COUNTS:
        return _COUNTS[key]
    count = None
    kinds = [_TOKENIZER_KINDS[client.base_url]] if client.base_url in _TOKENIZER_KINDS else ["llamacpp", "vllm"]
    for kind in kinds:
        if kind is not None and (count := await _ask_tokenizer(client, kind, text, model)) is not None:
            _TOKENIZER_KINDS[client.base_url] = kind
            break
    else:
        _TOKENIZER_KINDS.setdefault(client.base_url, None)
        count = estimate_tokens(text)
    if len(_COUNTS) > _COUNTS_LIMIT:
        _COUNTS.clear()
    _COUNTS[key] = count
    return count


async def message_tokens(client: ChatClient, message: Message, model: str) -> int:
    text, images = _parts(message)
    return await count_text(client, text, model) + MESSAGE_OVERHEAD + images * IMAGE_TOKENS


async def fit(
    client: ChatClient, messages: list[Message], *, context_tokens: int, reply_tokens: int, keep: int, model: str
) -> tuple[list[Message], int]:
    """The messages to send within ``context_tokens`` (see the module doc), and how many
    were left out."""
    sizes = [await message_tokens(client, m, model) for m in messages]
    budget = context_tokens - reply_tokens
    keep = min(keep, len(messages) - 1)
    total = sum(sizes)
    dropped = 0
    middle = len(messages) - keep - 1  # between the kept head and the last message
    while total > budget and dropped < middle:
        step = min(2, middle - dropped)
        total -= sum(sizes[keep + dropped : keep + dropped + step])
        dropped += step
    if total > budget:
        raise EndpointError(
            f"{CONTEXT_EXCEEDED}: the request needs about {total + reply_tokens} tokens ({total} for the "
            f"messages kept whole, {reply_tokens} for the reply) but context_tokens of {client.base_url} is "
            f"{context_tokens}: raise context_tokens (and the server's context) or lower max_tokens",
            retryable=False,
            code=CONTEXT_EXCEEDED,
        )
    return messages[:keep] + messages[keep + dropped :], dropped
