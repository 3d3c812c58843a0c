"""The extractor backed by an OpenAI-compatible model (:class:`LlmExtractor`).

The model reads only the final response (never the case) and returns its structure
through a JSON schema generated from :class:`FinalStructure` (``response_format``
``json_schema``, strict); a server that refuses that format (HTTP 400) is asked again in
JSON mode, then with the instructions alone, and the extractor remembers what it took.
The reply is read tolerantly (:func:`parse_structure`: a fence or prose around the
object, missing lists, plain strings). A reply that stays junk after one more request, or
that was cut off at the token limit, is an extraction error stored with the extraction
(``Extraction.error``): the run is scored as incomplete with that reason, never as 0.
Every entity comes with a verbatim quote; the quote is looked
up in the final text (and advice) after folding case, runs of whitespace, curly quotes
and dashes. A quote that is not there makes the entity ``NO_EVIDENCE``: it is kept in
the extraction, listed on the card, and not scored. What the model lists as advised
against is kept as negated. Structured fields of the final are taken as they are, as
by every extractor; the matching and the metrics are the same as for the text
extractor.

A reply cut at the token limit (``finish_reason: length``) is half a JSON document:
it is asked again once with twice the room (unless that would not fit the endpoint's
``context_tokens``), and the extraction notes it; cut again, the run's scoring fails
with that reason (never "does not follow the schema").
"""

from __future__ import annotations

import asyncio
import json
import re
from typing import TYPE_CHECKING, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from medbench_tui.core.cases.model import Case
from medbench_tui.core.jsondata import JSONObject
from medbench_tui.core.scoring.extraction_model import (
    NO_EVIDENCE,
    Entity,
    EntityKind,
    Evidence,
    Extraction,
    Span,
    SpanField,
    entry_entities,
    merge,
    normalise_icd,
    structured_entities,
)
from medbench_tui.core.scoring.reference import ReferenceTable, reference_table
from medbench_tui.core.transcript import FinalResponse

if TYPE_CHECKING:
    from medbench_tui.core.cases.bankconfig import EndpointConfig
    from medbench_tui.core.endpoints.client import ChatClient, ChatReply


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class QuotedDiagnosis(_Strict):
    name: str = Field(description="The diagnosis as the doctor names it.")
    icd10: str | None = Field(description="The ICD-10 code the doctor wrote for it, else null.")
    quote: str = Field(description="The exact words of the text that state it, copied verbatim.")


class QuotedItem(_Strict):
    item: str = Field(description="The test, examination, drug, procedure, referral or advice.")
    quote: str = Field(description="The exact words of the text that state it, copied verbatim.")


class AdvisedAgainst(_Strict):
    item: str
    kind: Literal["workup", "treatment"]
    quote: str


class FinalStructure(_Strict):
    """What the model returns."""

    diagnoses: list[QuotedDiagnosis] = Field(description="The doctor's final or working diagnoses, most likely first.")
    differential: list[QuotedDiagnosis] = Field(
        description="Alternative diagnoses the doctor lists, considers or wants ruled out, in the doctor's order."
    )
    workup: list[QuotedItem] = Field(description="Tests, examinations and investigations the doctor recommends.")
    treatment: list[QuotedItem] = Field(
        description="Drugs, procedures, referrals, management and safety-netting the doctor recommends."
    )
    advised_against: list[AdvisedAgainst] = Field(
        description="Tests or treatments the doctor says not to do or to avoid."
    )


SYSTEM_PROMPT = """\
You read a doctor's final response to a consultation and return its structure as JSON.
List only what the doctor concludes or recommends. A test or treatment the doctor says
is not needed, should be avoided or stopped goes in advised_against, never in workup or
treatment. A diagnosis the doctor lists as an alternative, or wants to rule out, goes in
the differential, not in diagnoses. Split lists into one entry per item. For every entry
copy into "quote" the shortest exact words of the text that state it: copy them
character for character, do not paraphrase, do not join words from different places.
Use an ICD-10 code only when the doctor wrote one. Return empty lists for what is not
there."""


def strict_schema(model: type[BaseModel]) -> JSONObject:
    """The model's JSON schema as strict structured outputs want it: every property
    required, no other properties, no defaults."""
    schema = model.model_json_schema()

    def walk(node: object) -> None:
        if isinstance(node, dict):
            if node.get("type") == "object" and "properties" in node:
                node["required"] = list(node["properties"])
                node["additionalProperties"] = False
            node.pop("default", None)
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)

    walk(schema)
    return schema


def response_format() -> JSONObject:
    return {
        "type": "json_schema",
        "json_schema": {"name": "final_response", "strict": True, "schema": strict_schema(FinalStructure)},
    }


_FOLD = str.maketrans({"\u2018": "'", "\u2019": "'", "\u201c": '"', "\u201d": '"', "\u2013": "-", "\u2014": "-"})
_SPACE_RE = re.compile(r"\s+")


def _folded(text: str) -> tuple[str, list[int]]:
    """The text lower-cased with whitespace runs as one space (and curly quotes and
    dashes straightened), and for each folded character its offset in ``text``."""
    chars: list[str] = []
    where: list[int] = []
    previous_space = False
    for i, ch in enumerate(text):
        if ch.isspace():
            if previous_space:
                continue
            chars.append(" ")
            previous_space = True
            where.append(i)
        else:
            folded = ch.lower().translate(_FOLD)
            chars.append(folded)
            where.extend([i] * len(folded))
            previous_space = False
    return "".join(chars), where


def locate(quote: str, text: str) -> tuple[int, int] | None:
    """Offsets of ``quote`` in ``text`` after the folding of :func:`_folded`."""
    needle = _SPACE_RE.sub(" ", quote.strip()).lower().translate(_FOLD)
    if not needle:
        return None
    folded, where = _folded(text)
    at = folded.find(needle)
    if at == -1:
        return None
    return where[at], where[at + len(needle) - 1] + 1


class LlmExtractor:
    """Extraction by a model on an OpenAI-compatible endpoint (see the module doc).

    Built from an endpoint configuration (:meth:`from_endpoint`, the ``evaluator.llm``
    of ``medbench.yaml``) or from a base URL and model; the client is
    :class:`medbench_tui.core.endpoints.client.ChatClient`.
    """

    name = "llm"

    def __init__(
        self,
        *,
        model: str,
        base_url: str | None = None,
        api_key: str | None = None,
        client: ChatClient | None = None,
        temperature: float | None = 0.0,
        seed: int | None = None,
        max_tokens: int | None = None,
    ) -> None:
        from medbench_tui.core.endpoints.client import ChatClient

        if client is None:
            if base_url is None:
                raise ValueError("LlmExtractor needs a client or a base_url")
            client = ChatClient(base_url=base_url, api_key=api_key, role="extractor")
        from medbench_tui.core.cases.bankconfig import DEFAULT_MAX_TOKENS

        self.client = client
        self.model = model
        self.params: JSONObject = {
            "temperature": temperature, "seed": seed, "max_tokens": max_tokens or DEFAULT_MAX_TOKENS["extractor"],
        }
        self.endpoint: EndpointConfig | None = None
        """The ``evaluator.llm`` configuration it was built from, if any."""
        self._formats: list[JSONObject | None] = [response_format(), {"type": "json_object"}, None]

    @classmethod
    def from_endpoint(cls, endpoint: EndpointConfig) -> LlmExtractor:
        from medbench_tui.core.endpoints.client import ChatClient

        extractor = cls(model=endpoint.model, client=ChatClient.for_endpoint(endpoint, role="extractor"))
        sampling = endpoint.sampling("extractor")
        if sampling["temperature"] is None:
            sampling["temperature"] = 0.0
        extractor.params = {k: v for k, v in sampling.items() if v is not None}
        extractor.endpoint = endpoint
        return extractor

    def public_config(self) -> JSONObject:
        """What a run records about the extractor (never a key)."""
        return {"extractor": self.name, "base_url": self.client.base_url, "model": self.model, **self.params}

    def extract(self, case: Case, final: FinalResponse) -> Extraction:
        """Blocking: runs :meth:`aextract` in an event loop of its own."""
        try:
            asyncio.get_running_loop()
        except RuntimeError:
            return asyncio.run(self.aextract(case, final))
        from concurrent.futures import ThreadPoolExecutor

        with ThreadPoolExecutor(max_workers=1) as pool:
            return pool.submit(asyncio.run, self.aextract(case, final)).result()

    async def aextract(self, case: Case, final: FinalResponse) -> Extraction:
        table = reference_table(case)
        entities = structured_entities(final, table)
        texts: tuple[tuple[SpanField, str | None], ...] = (("text", final.text), ("advice", final.advice))
        fields = [(name, value) for name, value in texts if value]
        if not fields:
            return Extraction(extractor=self.name, entities=entities)
        try:
            structure, retried = await self._ask(fields)
        except ExtractionError as exc:
            return Extraction(extractor=self.name, entities=entities, error=str(exc))
        found, notes = _entities(structure, fields, table)
        return Extraction(extractor=self.name, entities=merge(entities, found), notes=retried + notes)

    async def _ask(self, fields: list[tuple[SpanField, str]]) -> tuple[FinalStructure, list[str]]:
        """The model's structure of the final, and notes: JSON Schema output where the server
        has it, else JSON mode, else plain instructions; a reply cut at the token limit is
        asked again once with twice the room (when that fits the context), and a junk reply
        once more with a reminder of the format."""
        body = "\n\n".join(f"{name.upper()}:\n{value}" for name, value in fields)
        messages = [{"role": "system", "content": SYSTEM_PROMPT}, {"role": "user", "content": body}]
        limit_key = "max_completion_tokens" if "max_completion_tokens" in self.params else "max_tokens"
        limit = self.params.get(limit_key)
        notes: list[str] = []
        room: JSONObject = {}
        problem = "no reply"
        for attempt in range(REPLY_ATTEMPTS):
            reply = await self._complete(messages, room)
            if getattr(reply, "truncated", False) and not room:
                bigger = 2 * limit if limit else None
                context = getattr(self.client, "context_tokens", None)
                if bigger is None or (context is not None and bigger >= context):
                    raise ExtractionError(
                        f"the extractor model ({self.model}) reply was cut at its token limit ({limit}) and twice "
                        f"that does not fit its context_tokens ({context}): raise evaluator.llm.context_tokens"
                    )
                notes.append(f"the extractor's reply was cut at its token limit ({limit}); asked again with {bigger}")
                room = {limit_key: bigger}
                reply = await self._complete(messages, room)
                if getattr(reply, "truncated", False):
                    raise ExtractionError(
                        f"the extractor model ({self.model}) reply was cut at its token limit ({limit}, then "
                        f"{bigger}): raise max_tokens of evaluator.llm in medbench.yaml"
                    )
            try:
                return parse_structure(reply.text, getattr(reply, "finish_reason", None)), notes
            except ExtractionError as exc:
                problem = str(exc)
                if attempt + 1 < REPLY_ATTEMPTS:
                    messages = [*messages[:2], {"role": "user", "content": f"{body}\n\n{RETRY_HINT}"}]
        raise ExtractionError(f"the extractor model ({self.model}) {problem}")

    async def _complete(self, messages: list[dict[str, str]], room: JSONObject) -> ChatReply:
        """One request, falling back to a weaker output format when the server refuses one."""
        from medbench_tui.core.endpoints.client import EndpointError

        for fmt in self._formats[:]:
            params = {**self.params, **room, **({"response_format": fmt} if fmt is not None else {})}
            try:
                return await self.client.complete(messages, model=self.model, **params)
            except EndpointError as exc:
                if exc.status != 400 or fmt is None:
                    raise
                if fmt in self._formats:
                    self._formats.remove(fmt)  # this server has no such output format: remember it
        raise AssertionError("unreachable: the plain format is always tried")


class ExtractionError(Exception):
    """The model's reply could not be read as the structure (junk, truncated, off-schema)."""


REPLY_ATTEMPTS = 2
RETRY_HINT = (
    "Your previous reply could not be read. Reply with one JSON object only, with the keys diagnoses, "
    "differential, workup, treatment and advised_against, and nothing before or after it."
)
_OBJECT_RE = re.compile(r"\{.*\}", re.DOTALL)


def parse_structure(text: str, finish_reason: str | None = None) -> FinalStructure:
    """The structure in a model's reply, read tolerantly: a Markdown fence or prose around
    the JSON object, missing lists, plain strings for entries, unknown keys. A reply cut
    off by the token limit, or one that is no JSON object, is an :class:`ExtractionError`."""
    if finish_reason == "length":
        raise ExtractionError("reply was cut off at the token limit (finish_reason length); raise max_tokens")
    stripped = _json_text(text)
    found = _OBJECT_RE.search(stripped)
    if found is None:
        if "{" in stripped:
            raise ExtractionError("sent a JSON object that is cut off (no closing brace)")
        raise ExtractionError(f"sent no JSON object: {stripped[:60]!r}")
    try:
        data = json.loads(found.group())
    except json.JSONDecodeError as exc:
        raise ExtractionError(f"sent JSON that does not parse ({exc.msg} at {exc.pos})") from None
    if not isinstance(data, dict):
        raise ExtractionError("sent JSON that is not an object")
    try:
        return FinalStructure.model_validate(_lenient(data))
    except ValidationError as exc:
        raise ExtractionError(f"sent a reply that does not follow the schema: {str(exc).splitlines()[0]}") from None


def _lenient(data: JSONObject) -> JSONObject:
    """The reply's lists with the tolerable deviations mended (see :func:`parse_structure`)."""
    out: JSONObject = {}
    for key, name in (("diagnoses", "name"), ("differential", "name"), ("workup", "item"), ("treatment", "item"),
                      ("advised_against", "item")):
        entries = data.get(key) or []
        if not isinstance(entries, list):
            raise ExtractionError(f"sent {key} as {type(entries).__name__}, not a list")
        mended = []
        for entry in entries:
            if isinstance(entry, str):
                entry = {name: entry, "quote": entry}
            if not isinstance(entry, dict):
                raise ExtractionError(f"sent an entry of {key} that is neither text nor an object")
            entry = {k: v for k, v in entry.items() if k in _FIELDS[key]}
            entry.setdefault("quote", entry.get(name, ""))
            if key in ("diagnoses", "differential"):
                entry.setdefault("icd10", None)
            if key == "advised_against":
                entry.setdefault("kind", "treatment")
            mended.append(entry)
        out[key] = mended
    return out


_FIELDS = {
    "diagnoses": {"name", "icd10", "quote"},
    "differential": {"name", "icd10", "quote"},
    "workup": {"item", "quote"},
    "treatment": {"item", "quote"},
    "advised_against": {"item", "kind", "quote"},
}


def _json_text(text: str) -> str:
    """The reply without the Markdown fence some servers add."""
    stripped = text.strip()
    if stripped.startswith("```"):
        stripped = stripped.split("\n", 1)[1] if "\n" in stripped else ""
        stripped = stripped.rsplit("```", 1)[0]
    return stripped


def _evidence(quote: str, fields: list[tuple[SpanField, str]]) -> Evidence:
    for name, value in fields:
        found = locate(quote, value)
        if found is not None:
            start, end = found
            return Span(start=start, end=end, text=value[start:end], field=name)
    return NO_EVIDENCE


def _entities(
    structure: FinalStructure, fields: list[tuple[SpanField, str]], table: ReferenceTable
) -> tuple[list[Entity], list[str]]:
    out: list[Entity] = []
    notes: list[str] = []
    listed: list[tuple[EntityKind, str, str | None, str]] = [
        *(("diagnosis", d.name, d.icd10, d.quote) for d in structure.diagnoses),
        *(("differential", d.name, d.icd10, d.quote) for d in structure.differential),
        *(("workup", w.item, None, w.quote) for w in structure.workup),
        *(("treatment", t.item, None, t.quote) for t in structure.treatment),
    ]
    for kind, text, code, quote in listed:
        evidence = _evidence(quote, fields)
        if evidence == NO_EVIDENCE:
            notes.append(f'{kind} "{text}": the quote "{quote}" is not in the final text; not scored')
        out += entry_entities(text, normalise_icd(code), kind, evidence, "llm", table)
    for against in structure.advised_against:
        out.append(Entity(kind=against.kind, text=against.item, evidence=_evidence(against.quote, fields),
                          source="llm", negated="advised against"))
    return out, notes
