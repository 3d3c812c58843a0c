"""An LLM judge for the criteria a rule cannot decide (``grader: judge``), on any configured
OpenAI-compatible endpoint (``evaluator.judge`` in ``medbench.yaml``).

One request grades every judge criterion of an answer: the question, the answer and the
criteria go in, one JSON object with a verdict and a quote per criterion comes back. The
request asks for temperature 0 and a seed unless the endpoint sets its own, and every decision
keeps the model asked and served, the sha256 of the prompt template and the parameters, so a
score can always say which judge and which prompt stand behind it. A criterion the reply leaves
out, or a reply that is not the JSON asked for, leaves the criterion ungraded and says why.
"""

from __future__ import annotations

import hashlib
import json
from typing import TYPE_CHECKING

from medbench_tui.core.cases.model import Criterion
from medbench_tui.core.jsondata import JSONObject
from medbench_tui.core.rubric.decisions import JUDGE_PREFIX, NOBODY, CriterionDecision, JudgeRecord
from medbench_tui.core.scoring.extraction_model import Span
from medbench_tui.core.scoring.llm_extractor import locate

if TYPE_CHECKING:
    from medbench_tui.core.cases.bankconfig import EndpointConfig
    from medbench_tui.core.endpoints.client import ChatClient

PROMPT_TEMPLATE = """You grade a clinician's answer against a physician's rubric.
You are given the question put to the clinician, the answer, and criteria, each with an id.
For each criterion decide whether the answer meets it. A criterion that describes something
wrong or harmful is met when the answer does that wrong thing. Judge only what the answer says;
do not reward what it might have meant.

Reply with one JSON object and nothing else, of this form:
{"criteria": [{"id": "<criterion id>", "met": true or false, "quote": "<the words of the answer
your decision rests on, copied exactly, or an empty string>"}]}
Give every criterion exactly once."""
PROMPT_SHA256 = hashlib.sha256(PROMPT_TEMPLATE.encode("utf-8")).hexdigest()
DEFAULT_SEED = 0
JSON_FORMAT = {"type": "json_object"}


class Judge:
    """The judge of one endpoint: a client, the model and the sampling parameters it sends."""

    def __init__(self, client: ChatClient, model: str, parameters: dict[str, float | int | str | None]) -> None:
        self.client = client
        self.model = model
        self.parameters = parameters

    @classmethod
    def from_endpoint(cls, endpoint: EndpointConfig) -> Judge:
        """Temperature 0 and seed 0 unless the endpoint says otherwise."""
        from medbench_tui.core.endpoints.client import ChatClient

        sampling = endpoint.sampling("judge")
        parameters: dict[str, float | int | str | None] = {
            "temperature": 0.0 if sampling["temperature"] is None else sampling["temperature"],
            "seed": DEFAULT_SEED if sampling["seed"] is None else sampling["seed"],
            "max_tokens": sampling["max_tokens"],
            "max_completion_tokens": sampling["max_completion_tokens"],
        }
        return cls(ChatClient.for_endpoint(endpoint, role="judge"), endpoint.model,
                   {k: v for k, v in parameters.items() if v is not None})

    def public_config(self) -> JSONObject:
        """What a run records about the judge (never a key)."""
        return {"base_url": self.client.base_url, "model": self.model, "prompt_sha256": PROMPT_SHA256,
                **self.parameters}

    def messages(self, question: str, answer: str, criteria: list[Criterion]) -> list[dict[str, str]]:
        task = {"question": question, "answer": answer,
                "criteria": [{"id": c.id, "criterion": c.text} for c in criteria]}
        return [{"role": "system", "content": PROMPT_TEMPLATE},
                {"role": "user", "content": json.dumps(task, ensure_ascii=False, indent=1)}]

    async def decide(self, question: str, answer: str, criteria: list[Criterion]) -> dict[str, CriterionDecision]:
        """Criterion id -> the judge's decision on ``answer`` to ``question`` (a rubric case's prompt, or
        a consultation as it went). Raises the client's EndpointError when the endpoint fails."""
        params: JSONObject = {"response_format": JSON_FORMAT, **self.parameters}
        reply = await self.client.complete(self.messages(question, answer, criteria), model=self.model, **params)
        record = JudgeRecord(model=self.model, served_model=reply.model, prompt_sha256=PROMPT_SHA256,
                             parameters=dict(self.parameters))
        verdicts, problem = _read_reply(reply.text)
        if reply.truncated:
            verdicts, problem = {}, "the judge's reply was cut at its token limit"
        decided = {}
        for criterion in criteria:
            found = verdicts.get(criterion.id)
            if found is None:
                why = problem or "the judge gave no decision on this criterion"
                decided[criterion.id] = CriterionDecision.of(criterion, "ungraded", NOBODY,
                                                             f"{why} (judge {self.model})", judge=record)
                continue
            met, quote = found
            at = locate(quote, answer) if quote else None
            evidence = Span(start=at[0], end=at[1], text=answer[at[0]:at[1]]) if at is not None else None
            reason = f"the judge's quote: \"{quote}\"" if evidence is not None else (
                f"the judge's quote is not in the answer: \"{quote}\"" if quote else "the judge quoted nothing")
            decided[criterion.id] = CriterionDecision.of(criterion, "met" if met else "not_met",
                                                         JUDGE_PREFIX + (reply.model or self.model), reason,
                                                         evidence=evidence, judge=record)
        return decided


def _read_reply(text: str) -> tuple[dict[str, tuple[bool, str]], str | None]:
    """Criterion id -> (met, quote) from the judge's reply, and what was wrong with it, if anything."""
    body = text.strip()
    if body.startswith("```"):
        body = body.strip("`").removeprefix("json").strip()
    try:
        data = json.loads(body)
    except json.JSONDecodeError:
        return {}, "the judge's reply is not JSON"
    entries = data.get("criteria") if isinstance(data, dict) else None
    if not isinstance(entries, list):
        return {}, "the judge's reply has no `criteria` list"
    found: dict[str, tuple[bool, str]] = {}
    for entry in entries:
        if isinstance(entry, dict) and isinstance(entry.get("id"), str) and isinstance(entry.get("met"), bool):
            quote = entry.get("quote")
            found.setdefault(entry["id"], (entry["met"], quote if isinstance(quote, str) else ""))
    return found, None
