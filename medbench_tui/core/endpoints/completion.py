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
