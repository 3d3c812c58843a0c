"""``medbench.yaml`` at the bank root: the systems under test, the patient simulators
and the evaluator (the scoring extractor's choice).

```yaml
systems:
  gpt-consult:                     # the name used with `medbench run --system`
    kind: openai-chat              # openai-chat | checklist | replay
    base_url: https://api.openai.com/v1
    model: gpt-4o
    api_key_env: OPENAI_API_KEY    # the NAME of the variable that holds the key
    protocol: consultation         # consultation | prompt-only
    temperature: 0
    seed: 7
simulators:
  llm-patient:
    kind: llm                      # grounded | llm
    base_url: http://127.0.0.1:8080/v1
    model: local
    context_tokens: 8192           # the server's context: requests are fitted into it
    max_concurrency: 2             # the server's parallel slots
    extra_body: {top_k: 40}        # provider options, sent as they are
evaluator:
  extractor: rules                 # read by the scoring module; `llm:` takes an endpoint
```

API keys live only in environment variables; the file names the variable, never the
key. A missing file is an empty configuration (the built-ins still work).
"""

from __future__ import annotations

import contextlib
import re
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, ValidationInfo, field_validator
from pydantic_core import ErrorDetails

from medbench_tui.core.endpoints.trust import address_problem, sends_credentials
from medbench_tui.core.errors import MedbenchError
from medbench_tui.core.jsondata import JSONObject, JSONValue
from medbench_tui.core.redact import REDACTED, remember_headers, remember_value, remember_variable, secret_header
from medbench_tui.core.yamldoc import CONSTRUCTOR_ERRORS, unreadable_value

if TYPE_CHECKING:
    from medbench_tui.core.endpoints.seeds import RunSeeds

BUILTIN_SYSTEMS = ("checklist", "human")
BUILTIN_SIMULATORS = ("grounded",)
NAME_PATTERN = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]*$")
MASK = "***"
"""A secret header's value in the configuration's public form (stored with every run)."""
HEADER_NAME = re.compile(r"^[!#$%&'*+.^_`|~0-9A-Za-z-]+$")
"""A header name as HTTP allows it (RFC 9110 token)."""
PROTOCOLS = ("consultation", "prompt-only")
DEFAULT_MAX_TOKENS = {"doctor": 2048, "patient": 300, "extractor": 4096, "judge": 2048}
"""``max_tokens`` sent when an endpoint sets neither it nor ``max_completion_tokens``: a
reply always ends (a model without a chat template would otherwise talk until the
context is full). Room for a final response with every section; a patient's one to
three sentences; an extraction with a quote per item; a judge's verdict and quote per criterion."""
RESERVED_BODY_KEYS = frozenset({
    "model", "messages", "stream", "stream_options", "temperature", "seed", "max_tokens", "max_completion_tokens",
    "stop", "response_format",
})


class BankConfigError(MedbenchError):
    """medbench.yaml does not validate; the message lists each problem with its place."""


class Config(BaseModel):
    model_config = ConfigDict(extra="forbid")


class EndpointConfig(Config):
    """How to reach one OpenAI-compatible chat endpoint, and the sampling parameters."""

    base_url: str
    model: str
    api_key_env: str | None = Field(
        default=None, description="Name of the environment variable that holds the API key."
    )
    headers: dict[str, str] = Field(default_factory=dict, description="Extra HTTP headers.")
    timeout: float = Field(default=60.0, gt=0)
    max_retries: int = Field(default=0, ge=0, le=5, description="Quick retries inside the client.")
    temperature: float | None = None
    seed: int | None = None
    max_tokens: int | None = Field(default=None, gt=0, description="Default: one per role (DEFAULT_MAX_TOKENS).")
    max_completion_tokens: int | None = Field(
        default=None, gt=0, description="Sent instead of max_tokens (OpenAI's reasoning models want it)."
    )
    stop: list[str] | None = Field(default=None, description="Stop sequences.")
    extra_body: JSONObject | None = Field(
        default=None, description="Provider options merged into every request body (vLLM's top_k, min_p, ...)."
    )
    context_tokens: int | None = Field(
        default=None, gt=0, description="The server's context size: each request is fitted into it."
    )
    max_concurrency: int | None = Field(
        default=None, ge=1, description="Requests in flight to this endpoint at most (its server's slots)."
    )

    @field_validator("stop", mode="before")
    @classmethod
    def _one_stop(cls, value: JSONValue) -> JSONValue:
        return [value] if isinstance(value, str) else value

    @field_validator("extra_body")
    @classmethod
    def _own_keys(cls, value: JSONObject | None) -> JSONObject | None:
        taken = sorted(RESERVED_BODY_KEYS & set(value or {}))
        if taken:
            raise ValueError(
                f"extra_body may not set {', '.join(taken)}: medbench sends those itself "
                "(set temperature, seed, max_tokens, max_completion_tokens, stop as keys of the endpoint)"
            )
        return value

    @field_validator("base_url")
    @classmethod
    def _http(cls, value: str) -> str:
        if not value.startswith(("http://", "https://")):
            raise ValueError("base_url must start with http:// or https://")
        if any(c in value for c in "\r\n\0\t ") or any(ord(c) < 32 or ord(c) == 127 for c in value):
            raise ValueError("base_url holds a space or a control character: write the address on one line")
        scheme, _, rest = value.partition("://")
        authority = rest.split("/", 1)[0].split("?", 1)[0].split("#", 1)[0]
        if "@" in authority:
            userinfo, _, host = authority.rpartition("@")
            user, colon, password = userinfo.partition(":")
            remember_value(password or user)  # it is a secret wherever it turns up
            masked = f"{scheme}://{REDACTED if not colon else user + ':' + REDACTED}@{host}/..."
            raise ValueError(
                f"base_url holds a user name or password ({masked}): medbench never stores or sends a credential "
                "in the address; put the key in an environment variable named by api_key_env, or in headers"
            )
        return value.rstrip("/")

    @field_validator("headers")
    @classmethod
    def _one_line_headers(cls, value: dict[str, str]) -> dict[str, str]:
        for name, text in value.items():
            if not HEADER_NAME.match(name):
                raise ValueError(f"header name {name!r} is not a valid HTTP header name (letters, digits, '-')")
            if any(ord(c) < 32 and c != "\t" or ord(c) == 127 for c in text):
                shown = REDACTED if secret_header(name) else repr(text)
                raise ValueError(
                    f"headers.{name} holds a line break or a control character (value {shown}): a header value "
                    "is one line; remove the line break (a YAML block `|` adds one at the end: use a plain value)"
                )
        return value

    @field_validator("api_key_env")
    @classmethod
    def _variable_name(cls, value: str | None) -> str | None:
        if value is not None and not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", value):
            raise ValueError(
                "api_key_env is the NAME of an environment variable (e.g. OPENAI_API_KEY), never the key"
            )
        return value

    def sampling(self, role: str, seeds: RunSeeds | None = None) -> JSONObject:
        """The request parameters; ``role`` (doctor, patient, extractor) picks the default
        ``max_tokens`` when neither limit is configured. ``seeds``: the batch run's, which set
        the seed sent (see ``endpoints.seeds``); without them, the configured seed."""
        max_tokens = self.max_tokens
        if max_tokens is None and self.max_completion_tokens is None:
            max_tokens = DEFAULT_MAX_TOKENS[role]
        return {
            "temperature": self.temperature, "seed": self.seed if seeds is None else seeds.endpoint(self.seed),
            "max_tokens": max_tokens, "max_completion_tokens": self.max_completion_tokens, "stop": self.stop,
        }

    def public(self) -> JSONObject:
        """Everything but secrets: every header value but the known non-secrets is masked
        (the one definition of a secret, :func:`medbench_tui.core.redact.secret_header`)."""
        data = self.model_dump(mode="json")
        data["headers"] = {k: (MASK if secret_header(k) else v) for k, v in self.headers.items()}
        return data

    def address_problem(self) -> str | None:
        """Why requests may not go to ``base_url`` as configured (see :mod:`..endpoints.trust`)."""
        return address_problem(self.base_url, credentials=sends_credentials(self))


class OpenAIChatSystemConfig(EndpointConfig):
    kind: Literal["openai-chat"]
    protocol: Literal["consultation", "prompt-only"] = "consultation"
    system_prompt: str | None = Field(default=None, description="Replaces the protocol's prompt.")
    vision: bool = Field(default=False, description="Send images as image parts (else their description).")
    description: str | None = None


class ChecklistSystemConfig(Config):
    kind: Literal["checklist"]
    description: str | None = None


class ReplaySystemConfig(Config):
    kind: Literal["replay"]
    path: str = Field(description="A transcript file, or a folder of <case-id>.yaml|json (relative to the bank).")
    description: str | None = None


SystemConfig = Annotated[
    OpenAIChatSystemConfig | ChecklistSystemConfig | ReplaySystemConfig, Field(discriminator="kind")
]


class GroundedSimulatorConfig(Config):
    kind: Literal["grounded"]
    description: str | None = None


class LlmSimulatorConfig(EndpointConfig):
    kind: Literal["llm"]
    stream: bool = Field(default=True, description="Receive the reply as a stream of text deltas.")
    description: str | None = None


SimulatorConfig = Annotated[
    GroundedSimulatorConfig | LlmSimulatorConfig, Field(discriminator="kind")
]


class EvaluatorConfig(BaseModel):
    """The scoring extractor's choice; its own keys belong to the scoring module."""

    model_config = ConfigDict(extra="allow")

    extractor: str = "rules"
    llm: EndpointConfig | None = None
    judge: EndpointConfig | None = None
    """The LLM judge of rubric criteria with ``grader: judge`` (none: they stay ungraded)."""


class BankConfig(Config):
    systems: dict[str, SystemConfig] = Field(default_factory=dict)
    simulators: dict[str, SimulatorConfig] = Field(default_factory=dict)
    evaluator: EvaluatorConfig = Field(default_factory=EvaluatorConfig)
    path: Path | None = Field(default=None, exclude=True)

    @field_validator("systems", "simulators")
    @classmethod
    def _names(cls, value: JSONObject, info: ValidationInfo) -> JSONObject:
        reserved = BUILTIN_SYSTEMS if info.field_name == "systems" else BUILTIN_SIMULATORS
        for name in value:
            if not NAME_PATTERN.match(name):
                raise ValueError(f"{name!r}: a name is letters, digits, '_', '.', '-'")
            if name in reserved or name.startswith("replay"):
                raise ValueError(f"{name!r} is a built-in name; choose another")
        return value

    def where(self) -> str:
        return str(self.path) if self.path else "medbench.yaml"

    def endpoints(self) -> list[EndpointConfig]:
        """Every endpoint configured: systems, simulators and the evaluator's model."""
        return [endpoint for _, endpoint in self.located_endpoints()]

    def endpoints_for(self, systems: list[str], simulator: str | None) -> list[EndpointConfig]:
        """The endpoints a run of ``systems`` with ``simulator`` would send requests to: those
        systems and that simulator as configured here, and the evaluator's model when it scores."""
        found: list[EndpointConfig] = [
            c for name, c in self.systems.items() if name in systems and isinstance(c, EndpointConfig)]
        chosen = self.simulators.get(simulator or "")
        if isinstance(chosen, EndpointConfig):
            found.append(chosen)
        if self.evaluator.extractor == "llm" and self.evaluator.llm is not None:
            found.append(self.evaluator.llm)
        return found

    def located_endpoints(self) -> list[tuple[tuple[str, ...], EndpointConfig]]:
        """Every endpoint configured with its key path in the file (``systems.gpt``)."""
        found: list[tuple[tuple[str, ...], EndpointConfig]] = [
            ((table, name), c) for table, configs in (("systems", self.systems), ("simulators", self.simulators))
            for name, c in configs.items() if isinstance(c, EndpointConfig)
        ]
        return found + ([(("evaluator", "llm"), self.evaluator.llm)] if self.evaluator.llm is not None else [])


def _locate(data: JSONValue, loc: tuple[int | str, ...]) -> tuple[str, tuple[int, int] | None]:
    """The key path of ``loc`` as written in the file, and the 1-based (line, column) of
    its deepest node found in the ruamel data (pydantic adds union tags to ``loc``:
    those are not keys of the data and are skipped)."""
    parts: list[str] = []
    found = None
    node = data
    for key in loc:
        if isinstance(node, dict) and key in node:
            position = _position(node, key, item=False)
        elif isinstance(node, list) and isinstance(key, int) and key < len(node):
            position = _position(node, key, item=True)
        else:
            continue
        parts.append(str(key))
        if position and position[0] is not None:
            found = (position[0] + 1, position[1] + 1)
        node = node[key]
    return ".".join(parts), found


def _position(node: JSONValue, key: int | str, *, item: bool) -> tuple[int, int] | None:
    """Where ruamel read ``key`` of ``node``, or None: a key a merge (``<<:``) brought in
    has no place of its own."""
    try:
        return (node.lc.item(key) if item else node.lc.key(key)) if hasattr(node, "lc") else None
    except (KeyError, IndexError, TypeError):
        return None


def _message(error: ErrorDetails) -> str:
    kinds = {
        "systems": "openai-chat, checklist, replay",
        "simulators": "grounded, llm",
    }.get(str(error["loc"][0]) if error["loc"] else "", "")
    if error["type"] == "union_tag_not_found":
        return f"missing `kind` (one of: {kinds})"
    if error["type"] == "union_tag_invalid":
        return f"unknown kind {error['input'].get('kind')!r} (one of: {kinds})"
    if error["type"] == "extra_forbidden":
        return "unknown key (a typo?)"
    if error["type"] == "missing":
        return "required, missing"
    return error["msg"].removeprefix("Value error, ")


def parse_bank_config(text: str, path: Path | None = None) -> BankConfig:
    """Validate the text of a medbench.yaml; errors name file:line:column and key path."""
    from ruamel.yaml import YAML
    from ruamel.yaml.error import MarkedYAMLError, YAMLError

    from medbench_tui.core.cases.yamlio import alias_expansion

    where = str(path) if path else "medbench.yaml"
    if (position := alias_expansion(text)) is not None:
        raise BankConfigError(f"{where}:{position[0]}:{position[1]}: the aliases (`*name`) here repeat their "
                              "anchors into too many values: write the values out")
    try:
        data = YAML(typ="rt", pure=True).load(text)
    except MarkedYAMLError as exc:
        mark = exc.problem_mark
        place = f"{where}:{mark.line + 1}:{mark.column + 1}" if mark else where
        raise BankConfigError(f"{place}: not valid YAML: {exc.problem}") from None
    except YAMLError as exc:
        raise BankConfigError(f"{where}: not valid YAML: {exc}") from None
    except RecursionError:
        raise BankConfigError(f"{where}: nested too deeply to read: flatten the lists and mappings") from None
    except CONSTRUCTOR_ERRORS:
        raise BankConfigError(unreadable_value(where, text)) from None
    if data is None:
        data = {}
    if not isinstance(data, dict):
        raise BankConfigError(f"{where}: must be a mapping with systems:, simulators:, evaluator:")
    try:
        config = BankConfig.model_validate(data)
    except ValidationError as exc:
        lines = []
        for error in exc.errors():
            key, position = _locate(data, error["loc"])
            if error["type"] == "missing":
                key = f"{key}.{error['loc'][-1]}" if key else str(error["loc"][-1])
            place = f"{where}:{position[0]}:{position[1]}" if position else where
            lines.append(f"{place}: {key or '(top level)'}: {_message(error)}")
        raise BankConfigError("medbench.yaml is not valid:\n  " + "\n  ".join(lines)) from None
    config.path = path
    for endpoint in config.endpoints():
        remember_variable(endpoint.api_key_env)
        remember_headers(endpoint.headers)
    problems = [(loc, problem) for loc, endpoint in config.located_endpoints()
                if (problem := endpoint.address_problem()) is not None]
    if problems:
        lines = []
        for loc, problem in problems:
            key, position = _locate(data, (*loc, "base_url"))
            place = f"{where}:{position[0]}:{position[1]}" if position else where
            lines.append(f"{place}: {key}: {problem}")
        raise BankConfigError("medbench.yaml is not valid:\n  " + "\n  ".join(lines))
    return config


def remember_bank_secrets(bank: Path) -> None:
    """Learn the key variables of the bank's configuration, so that a command that does not
    otherwise need it (``report``) still redacts their values; a broken file teaches nothing."""
    with contextlib.suppress(MedbenchError):
        load_bank_config(bank)


def load_bank_config(bank: Path) -> BankConfig:
    """The bank's medbench.yaml (at the bank root, else beside its cases in ``cases/``),
    or an empty configuration when there is none."""
    from medbench_tui.core.paths import bank_config_file, cases_dir, is_inside

    for path in (bank_config_file(bank), bank_config_file(cases_dir(bank))):
        if path.is_file():
            if not is_inside(path, bank):
                raise BankConfigError(f"{path} is a link to {path.resolve()}, outside the bank {bank}: "
                                      "copy medbench.yaml into the bank instead of linking to it")
            try:
                text = path.read_text(encoding="utf-8")
            except UnicodeDecodeError as exc:
                raise BankConfigError(f"{path}: not UTF-8 text (byte {exc.start + 1}): save it as UTF-8") from None
            except OSError as exc:
                raise BankConfigError(f"{path}: cannot be read: {exc.strerror or exc}") from None
            return parse_bank_config(text, path)
    return BankConfig(path=None)
