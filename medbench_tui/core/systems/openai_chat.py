"""``openai-chat``: any OpenAI-compatible chat model as the doctor.

The model sees the opening (intro and turn-zero attachments) as the first user
message, then each patient reply (with the attachments it released) as the next.
Text attachments are inlined; images go as image parts (a base64 data URL) when
``vision: true``, else as their description.

A reply cut at the token limit (``finish_reason: length``) ends the run incomplete,
reason ``truncated``: a cut final response cannot be scored, and a cut question is
no question. With ``context_tokens``, the oldest turns are left out of a request that
would not fit (the system prompt and the opening stay whole; ``context_trimmed``
events say when).
"""

from __future__ import annotations

import base64
import mimetypes
from pathlib import Path

from medbench_tui.core.cases.bankconfig import OpenAIChatSystemConfig
from medbench_tui.core.consultation.loop import AttachmentView, Consultation
from medbench_tui.core.endpoints.client import ChatClient
from medbench_tui.core.jsondata import JSONObject
from medbench_tui.core.systems.base import DrivenSystem
from medbench_tui.core.systems.protocols import TURN_LIMIT_NOTICE, protocol
from medbench_tui.core.transcript import Event, FinalResponse, Usage

OPENING_MESSAGES = 2
"""The system prompt and the opening (intro and turn-zero attachments): never left out."""


def image_part(path: Path) -> JSONObject:
    mime = mimetypes.guess_type(str(path))[0] or "image/png"
    data = base64.b64encode(path.read_bytes()).decode("ascii")
    return {"type": "image_url", "image_url": {"url": f"data:{mime};base64,{data}"}}


def user_content(text: str, attachments: list[AttachmentView], *, vision: bool) -> str | list[JSONObject]:
    """A user message: plain text, or text and image parts for a vision model."""
    blocks = [text.strip()] if text.strip() else []
    images = []
    for view in attachments:
        if vision and view.image_path is not None:
            described = f"\nDescription: {view.description.strip()}" if view.description else ""
            blocks.append(f"[Attachment: {view.title} ({view.kind}), image below]{described}")
            images.append(image_part(view.image_path))
        else:
            blocks.append(view.render())
    joined = "\n\n".join(blocks)
    if not images:
        return joined
    return [{"type": "text", "text": joined}, *images]


class OpenAIChatSystem(DrivenSystem):
    def __init__(self, name: str, config: OpenAIChatSystemConfig) -> None:
        self.name = name
        self.config = config
        self.protocol = protocol(config.protocol, config.system_prompt)
        ChatClient.for_endpoint(config)  # fail now, not per case, when the key is missing

    def public_config(self) -> JSONObject:
        return {
            "name": self.name,
            **self.config.public(),
            "system_prompt": self.protocol.prompt,
            "final_rule": self.protocol.final_rule,
        }

    async def drive(self, consultation: Consultation) -> None:
        client = ChatClient.for_endpoint(self.config, role="doctor")  # one per run: its usage is this run's
        messages: list[JSONObject] = [
            {"role": "system", "content": self.protocol.prompt},
            {"role": "user", "content": user_content(
                consultation.opening.intro, consultation.opening.attachments, vision=self.config.vision
            )},
        ]
        sampling = self.config.sampling("doctor", consultation.seeds)
        left_out = 0
        try:
            while True:
                reply = await client.complete(messages, model=self.config.model, keep=OPENING_MESSAGES, **sampling)
                self._count(consultation, client)
                if reply.left_out > left_out:
                    left_out = reply.left_out
                    consultation.note(Event(turn=consultation.steps, kind="context_trimmed",
                                            detail={"role": "doctor", "left_out": left_out,
                                                    "context_tokens": self.config.context_tokens}))
                if reply.truncated:
                    limit = sampling["max_completion_tokens"] or sampling["max_tokens"]
                    consultation.note(Event(turn=consultation.steps, kind="truncated",
                                            detail={"role": "doctor", "max_tokens": limit, "reply": reply.text}))
                    consultation.abandon(f"truncated: the reply of {self.name} was cut at its token limit "
                                         f"({limit}): raise max_tokens in medbench.yaml")
                    return
                messages.append({"role": "assistant", "content": reply.text})
                final = self.protocol.final_text(reply.text)
                if final is not None:
                    consultation.finish(FinalResponse(text=final))
                    return
                if consultation.turns_left == 0:
                    if messages[-2]["content"] == TURN_LIMIT_NOTICE:
                        consultation.abandon("turn_limit")
                        return
                    messages.append({"role": "user", "content": TURN_LIMIT_NOTICE})
                    continue
                patient = await consultation.ask(reply.text)
                messages.append(
                    {
                        "role": "user",
                        "content": user_content(patient.text, patient.attachments, vision=self.config.vision),
                    }
                )
        finally:
            self._count(consultation, client)
            await client.aclose()

    @staticmethod
    def _count(consultation: Consultation, client: ChatClient) -> None:
        consultation.transcript.usage = Usage(
            prompt_tokens=client.usage.prompt_tokens,
            completion_tokens=client.usage.completion_tokens,
            requests=client.usage.requests,
        )
