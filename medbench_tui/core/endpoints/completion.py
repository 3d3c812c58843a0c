"""The parts of a chat completion reply that medbench reads.

Read straight from the reply's bytes: building the SDK's full ``ChatCompletion`` takes
~0.3 ms a request, a batch makes thousands, and a run keeps only the text, the finish
reason, the served model, the fingerprint and the token counts. Unknown fields are
ignored, as the SDK ignores them.
"""

from __future__ import annotations

from pydantic import BaseModel


class Usage(BaseModel):
    prompt_tokens: int | None = None
    completion_tokens: int | None = None


class Message(BaseModel):
    content: str | None = None


class Choice(BaseModel):
    message: Message = Message()
    finish_reason: str | None = None


class ChatCompletion(BaseModel):
    model: str | None = None
    system_fingerprint: str | None = None
    usage: Usage | None = None
    choices: list[Choice] = []


def read_completion(data: bytes) -> ChatCompletion:
    """The reply read from its bytes. A reply JSON's strict reader refuses (a lone surrogate
    escaped as ``\\ud800``, bytes that are not UTF-8) is read again leniently, every text made
    valid: one odd character never costs a reply. Not JSON at all, or not a completion: a
    ``ValueError``."""
    import json

    from pydantic import ValidationError

    from medbench_tui.core.untrusted import valid_data

    try:
        return ChatCompletion.model_validate_json(data)
    except ValidationError as exc:
        if not any(error["type"] == "json_invalid" for error in exc.errors()):
            raise
    document = json.loads(data.decode("utf-8", "replace"))  # not JSON: a ValueError
    return ChatCompletion.model_validate(valid_data(document))
