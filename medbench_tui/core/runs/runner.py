"""Play systems over cases, concurrently, into the run store.

One run group per ``medbench run``: a run per case x system, each written in one
transaction when it ends. At most ``concurrency`` runs are in flight, and at most
``endpoint_concurrency`` requests per endpoint (``base_url``; by default as many as runs)
or fewer where the endpoint's ``max_concurrency`` says so.

Retries happen per request, not per run: while a run is played, the request gate
(:class:`RequestGate`, installed through ``openai_client.REQUEST_GATE``) wraps every
call the system, the simulator or the extractor makes, waits for a free slot on its
endpoint, retries what is retryable with backoff (:mod:`.retry`) and serves the
optional response cache. A consultation is therefore never restarted; a request that
cannot succeed ends its run ``incomplete`` with the reason, and incomplete runs are
never scored. ``--resume`` plays again what is incomplete or missing.

Cancelling (:meth:`Runner.cancel`, or cancelling the task awaiting :meth:`Runner.run`)
stops handing out cases and cancels the runs in flight; each is recorded incomplete
with reason ``cancelled``. Finished runs are already in the store.

Progress is reported as small events (:class:`RunStarted`, :class:`RequestRetried`,
:class:`RunFinished`, ...) to an ``on_event`` callback and to :meth:`Runner.events`.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import hashlib
import os
import random
import secrets
import socket
import sqlite3
import threading
import time
from collections import OrderedDict, deque
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field, replace
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, TypeAlias, TypeVar

from medbench_tui.core.cases.bankconfig import (
    BankConfigError,
    EndpointConfig,
    GroundedSimulatorConfig,
    LlmSimulatorConfig,
)
from medbench_tui.core.cases.casemix import case_facts
from medbench_tui.core.cases.model import ERROR_TESTING
from medbench_tui.core.cases.rubric import RUBRIC, RUBRIC_SCORE, RubricCase
from medbench_tui.core.costs.prices import PriceTable, bank_prices
from medbench_tui.core.endpoints.client import close_shared_clients
from medbench_tui.core.endpoints.seeds import RunSeeds, run_seeds
from medbench_tui.core.errors import MedbenchError, UsageError
from medbench_tui.core.jsondata import JSONObject, JSONValue
from medbench_tui.core.paths import BANK_CONFIG_NAME, run_case_file
from medbench_tui.core.redact import redact
from medbench_tui.core.runs.cache import ResponseCache
from medbench_tui.core.runs.retry import RetryPolicy, as_endpoint_error, call_with_retry
from medbench_tui.core.runs.store import (
    COMPLETE,
    INCOMPLETE,
    RunGroup,
    RunRecord,
    RunStore,
    flatten_metrics,
    utc_now,
)

CLAIM_LEASE_SECONDS = 120.0
"""A run's lease in the store, renewed every quarter of it while the run plays."""
PATIENTS_KEPT = 8
"""Cases whose patient set-up is kept at least (as many as runs in flight)."""

if TYPE_CHECKING:
    from medbench_tui.core.cases.bank import Bank
    from medbench_tui.core.cases.bankconfig import BankConfig, EndpointConfig
    from medbench_tui.core.cases.model import Case
    from medbench_tui.core.consultation.loop import Consultation
    from medbench_tui.core.endpoints.client import ChatClient, ChatReply
    from medbench_tui.core.rubric import Judge, RubricGrade
    from medbench_tui.core.scoring import Extractor
    from medbench_tui.core.simulators.base import PatientSimulator
    from medbench_tui.core.simulators.guard import LeakGuard
    from medbench_tui.core.systems import DoctorSystem
    from medbench_tui.core.transcript import Transcript

CANCELLED = "cancelled"
Reply = TypeVar("Reply")


# --- progress events -------------------------------------------------------------------


@dataclass(frozen=True)
class GroupStarted:
    group_id: str
    planned: int
    """Runs in the group: cases x systems x repeats."""
    to_play: int
    """Runs this invocation plays (all of them, or what a resume found missing)."""
    resumed: bool


@dataclass(frozen=True)
class RunStarted:
    group_id: str
    case_id: str
    system: str
    repeat: int = 0


@dataclass(frozen=True)
class RunClaimedElsewhere:
    """Another process holds the lease on this run (it is playing it), or has just completed it."""

    group_id: str
    case_id: str
    system: str


@dataclass(frozen=True)
class RequestRetried:
    group_id: str
    case_id: str
    system: str
    attempt: int
    delay: float
    reason: str


@dataclass(frozen=True)
class RunFinished:
    group_id: str
    case_id: str
    system: str
    status: str
    reason: str | None
    steps: int
    seconds: float
    metrics: dict[str, float]
    repeat: int = 0


@dataclass(frozen=True)
class GroupFinished:
    group_id: str
    complete: int
    incomplete: int
    not_played: int
    cancelled: bool
    seconds: float


ProgressEvent = GroupStarted | RunStarted | RunClaimedElsewhere | RequestRetried | RunFinished | GroupFinished


# --- what to play ----------------------------------------------------------------------


@dataclass(frozen=True)
class PlannedCase:
    id: str
    path: Path
    stored_path: str
    """As recorded: relative to the bank when the file is inside it."""
    sha256: str
    case: Case

    @property
    def num_steps(self) -> int | None:
        return self.case.num_steps


@dataclass(frozen=True)
class PlannedRubric:
    """A rubric case chosen for a run: one question, answered in a single turn and graded."""

    id: str
    path: Path
    stored_path: str
    sha256: str
    rubric: RubricCase
    num_steps: int | None = None
    """A rubric question has no turns to count."""


SimulatorSetup = str | GroundedSimulatorConfig | LlmSimulatorConfig
"""What ``make_simulator`` takes: a built-in name or the configuration object."""


ENDPOINT_CONCURRENCY_SOURCE = "--endpoint-concurrency, or the setting runner.endpoint_concurrency"


@dataclass
class RunPlan:
    """Everything a group needs, resolved: systems, cases (validated, hashed), configs."""

    bank: Bank
    specs: list[str]
    systems: list[DoctorSystem]
    cases: list[PlannedCase]
    simulator: str
    simulator_setup: SimulatorSetup
    simulator_config: JSONObject
    evaluator_config: JSONObject
    extractor: Extractor | None
    """The scoring extractor (None: the deterministic text extractor)."""
    seed: int
    cases_path: str
    repeats: int = 1
    """Each case x system is played this many times (``run --repeats``)."""
    first_repeat: int = 0
    """The first repeat this plan plays (the ones before are another invocation's): a
    practice session plays the next repeat of its case in the player's practice group."""
    bank_manifest: JSONObject | str = "not frozen"
    """The frozen manifest the cases belong to (see :func:`medbench_tui.core.cases.manifest.frozen_state`)."""
    left_out_error_tests: list[str] = field(default_factory=list)
    """Ids of the ``error_testing`` cases of the folder that were left out (not asked for)."""
    prices: PriceTable | None = None
    """The price table each run's work-up is costed with (the bank's ``prices.yaml`` over the shipped one)."""
    left_out_unplayable: dict[str, dict[str, str]] = field(default_factory=dict)
    """System -> the cases it cannot play (case id -> why), left out of the group for every system."""
    rubrics: list[PlannedRubric] = field(default_factory=list)
    """The rubric cases, each answered in one turn by every system and graded (``core/rubric``)."""
    judge: Judge | None = None
    """The LLM judge of the rubric criteria with ``grader: judge`` (``evaluator.judge``; None: ungraded)."""

    @property
    def items(self) -> list[PlannedCase | PlannedRubric]:
        """Every case the group plays, consultations first."""
        return [*self.cases, *self.rubrics]

    def left_out_notes(self) -> list[str]:
        """What planning left out, in words (``medbench run`` says it; the group records it)."""
        notes = []
        if self.left_out_error_tests:
            notes.append(f"left out {len(self.left_out_error_tests)} error-testing case(s) "
                         f"({', '.join(self.left_out_error_tests)}); --include-error-tests runs them")
        for name, found in self.left_out_unplayable.items():
            notes.append(f"left out the cases {name} cannot play: it {_why_left_out(found)}; "
                         f"the group plays the {len(self.items)} case(s) every system can play")
        return notes

    def endpoints(self) -> list[tuple[str, EndpointConfig]]:
        """Every model endpoint the group's runs use, with who uses it (``system NAME``,
        ``patient simulator NAME``, ``evaluator``)."""
        from medbench_tui.core.cases.bankconfig import EndpointConfig

        found = [(f"system {s.name}", getattr(s, "config", None)) for s in self.systems]
        found.append((f"patient simulator {self.simulator}", self.simulator_setup))
        found.append(("evaluator (evaluator.llm)", getattr(self.extractor, "endpoint", None)))
        if self.judge is not None:
            found.append(("rubric judge (evaluator.judge)", self.plan_judge_endpoint()))
        return [(who, endpoint) for who, endpoint in found if isinstance(endpoint, EndpointConfig)]

    def plan_judge_endpoint(self) -> EndpointConfig | None:
        return self.bank.config.evaluator.judge if self.judge is not None else None

    def endpoint_limits(self) -> dict[str, int]:
        """base_url -> the lowest ``max_concurrency`` configured for it (by a system, the
        simulator or the evaluator): the gate never sends it more requests at once."""
        return {url: cap for url, (cap, _) in self.endpoint_caps(None).items() if cap is not None}

    def endpoint_caps(self, endpoint_concurrency: int | None) -> dict[str, tuple[int | None, str]]:
        """base_url -> the most requests in flight to it (None: no cap) and what sets that: the
        lowest ``max_concurrency`` of the systems, simulator or evaluator that use it, or
        ``endpoint_concurrency`` (the setting or flag) when that is lower."""
        caps: dict[str, tuple[int | None, str]] = {}
        for who, endpoint in self.endpoints():
            cap, why = caps.get(endpoint.base_url, (endpoint_concurrency, ENDPOINT_CONCURRENCY_SOURCE))
            if endpoint.max_concurrency is not None and (cap is None or endpoint.max_concurrency < cap):
                cap, why = endpoint.max_concurrency, f"max_concurrency of {who} in {BANK_CONFIG_NAME}"
            caps[endpoint.base_url] = (cap, why)
        return caps

    def config(self) -> JSONObject:
        """The group's configuration as stored (and compared on resume)."""
        return {
            "bank": str(self.bank.root),
            "cases_path": self.cases_path,
            "systems": [
                {"spec": spec, "name": system.name, "config": system.public_config()}
                for spec, system in zip(self.specs, self.systems, strict=True)
            ],
            "simulator": {"name": self.simulator, "config": self.simulator_config},
            "evaluator": self.evaluator_config,
            "cases": [
                {"id": c.id, "path": c.stored_path, "sha256": c.sha256, "metadata": case_facts(c.case)}
                for c in self.cases
            ] + [
                {"id": r.id, "path": r.stored_path, "sha256": r.sha256, "kind": RUBRIC,
                 "metadata": {"theme": r.rubric.metadata.theme, "pair_id": r.rubric.metadata.pair_id}}
                for r in self.rubrics
            ],
            "judge": self.judge.public_config() if self.judge is not None else None,
            "seed": self.seed,
            "repeats": self.repeats,
            "bank_manifest": self.bank_manifest,
            "prices": self.prices.describe() if self.prices is not None else None,
            "left_out": {"error_tests": self.left_out_error_tests, "unplayable": self.left_out_unplayable},
        }


def file_sha256(path: Path) -> str:
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


def _stored_path(path: Path, bank: Path) -> str:
    path = path.resolve()
    try:
        return path.relative_to(bank.resolve()).as_posix()
    except ValueError:
        return str(path)


def _simulator(bank_config: BankConfig, name: str) -> tuple[SimulatorSetup, JSONObject]:
    """The simulator's configuration (read once, not per case) and its public form."""
    from medbench_tui.core.cases.bankconfig import BUILTIN_SIMULATORS

    if name in BUILTIN_SIMULATORS:
        return name, {"kind": name}
    configured = bank_config.simulators.get(name)
    if configured is None:
        choices = ", ".join([*BUILTIN_SIMULATORS, *bank_config.simulators])
        raise UsageError(f"unknown simulator {name!r}: choose one of {choices} (simulators: in medbench.yaml)")
    public = configured.public() if isinstance(configured, EndpointConfig) else configured.model_dump(mode="json")
    return configured, public


def _evaluator_config(bank_config: BankConfig) -> JSONObject:
    evaluator = bank_config.evaluator
    data = evaluator.model_dump(mode="json")
    if evaluator.llm is not None:
        data["llm"] = evaluator.llm.public()
    return data


def _extractor(bank_config: BankConfig) -> Extractor | None:
    """The scoring extractor the bank asks for: None is the deterministic text extractor."""
    evaluator = bank_config.evaluator
    if evaluator.extractor in ("rules", "text"):
        return None
    if evaluator.extractor == "llm":
        if evaluator.llm is None:
            raise UsageError(f"{bank_config.where()}: evaluator.extractor is llm but evaluator.llm is not set")
        from medbench_tui.core.scoring import LlmExtractor

        return LlmExtractor.from_endpoint(evaluator.llm)
    raise UsageError(f"{bank_config.where()}: unknown evaluator.extractor {evaluator.extractor!r} (rules or llm)")


def _load_cases(files: list[Path], bank: Path) -> tuple[list[PlannedCase], list[PlannedRubric]]:
    """The consultation cases and the rubric cases of ``files``, validated and hashed."""
    from medbench_tui.core.cases.bank import BankEntry
    from medbench_tui.core.validate import load_valid_case, load_valid_rubric

    cases: list[PlannedCase] = []
    rubrics: list[PlannedRubric] = []
    problems: list[str] = []
    seen: dict[str, Path] = {}
    for path in files:
        try:
            digest = file_sha256(path)
            if BankEntry.read(path).kind == RUBRIC:
                rubric = load_valid_rubric(path)
                planned: PlannedCase | PlannedRubric = PlannedRubric(
                    rubric.id, path, _stored_path(path, bank), digest, rubric)
            else:
                case = load_valid_case(path)
                planned = PlannedCase(case.id, path, _stored_path(path, bank), digest, case)
        except FileNotFoundError:
            problems.append(f"{path}: no such case file")
            continue
        except MedbenchError as exc:
            problems.append(str(exc))
            continue
        if planned.id in seen:
            problems.append(f"{path}: case id '{planned.id}' is also used by {seen[planned.id]}")
            continue
        seen[planned.id] = path
        if isinstance(planned, PlannedRubric):
            rubrics.append(planned)
        else:
            cases.append(planned)
    if problems:
        raise MedbenchError("cannot run these cases:\n" + "\n".join(problems))
    return cases, rubrics


NO_ENDPOINT = "answers no rubric question (only a model endpoint can: it is not one)"


def _cannot_answer(system: DoctorSystem) -> str | None:
    """Why ``system`` cannot answer a rubric question (a person, a checklist or a replay), or None."""
    from medbench_tui.core.cases.bankconfig import EndpointConfig

    return None if isinstance(getattr(system, "config", None), EndpointConfig) else NO_ENDPOINT


def _judge(bank_config: BankConfig) -> Judge | None:
    from medbench_tui.core.rubric import Judge

    endpoint = bank_config.evaluator.judge
    return Judge.from_endpoint(endpoint) if endpoint is not None else None


def _resolve_systems(systems: Sequence[str | DoctorSystem], bank: Bank) -> tuple[list[str], list[DoctorSystem]]:
    """The specs and the systems: a name is resolved from the bank; a system object (the
    person at the keyboard, whom no name can summon) is taken as it is."""
    from medbench_tui.core.systems import resolve_system

    specs = [s if isinstance(s, str) else s.name for s in systems]
    if "human" in [s for s in systems if isinstance(s, str)]:
        raise UsageError("'human' needs a person at the keyboard: use 'medbench play' for it")
    resolved = [resolve_system(s, bank=bank) if isinstance(s, str) else s for s in systems]
    names = [s.name for s in resolved]
    twice = sorted({n for n in names if names.count(n) > 1})
    if twice:
        raise UsageError(f"system {', '.join(twice)} given twice: pass each --system once")
    return specs, resolved


def plan_run(
    bank: Bank,
    systems: Sequence[str | DoctorSystem],
    *,
    cases: Path | Sequence[Path] | None = None,
    simulator: str = "grounded",
    seed: int | None = None,
    repeats: int = 1,
    include_error_tests: bool = False,
    rubrics: bool = True,
) -> RunPlan:
    """Resolve systems, validate and hash the case files (default: the bank's cases).
    ``systems`` are names (``--system``), or the system of a person playing (``human``).
    ``cases`` are what ``--cases`` names: case files, folders, list files or case ids
    (see :func:`medbench_tui.core.cases.bank.case_sources`).

    Cases of category ``error_testing`` test the harness, not the system: from a folder
    they are left out (and listed in ``left_out_error_tests``) unless
    ``include_error_tests``; a case named on its own is always played. A case one of the
    systems cannot play (a replay without its transcript) is left out for every system,
    so that the group compares the systems on the same cases (``left_out_unplayable``).
    Rubric cases are answered and graded beside the consultations unless ``rubrics`` is False
    (Compare, whose views show consultations).
    """
    from medbench_tui.core.cases.bank import CaseSource, case_sources, file_key, iter_case_files
    from medbench_tui.core.cases.manifest import frozen_state

    if not systems:
        raise UsageError("name at least one system: --system NAME (see 'medbench systems')")
    if bank.config_problem is not None:
        raise BankConfigError(bank.config_problem)
    given = _given_cases(cases)
    if given:
        sources = case_sources(given, bank.cases_folder)
    else:
        if not bank.cases_folder.exists():
            raise UsageError(f"{bank.cases_folder}: no such case file or folder")
        sources = [CaseSource(path, False) for path in iter_case_files(bank.cases_folder)]
        if not sources:
            raise UsageError(f"{bank.cases_folder}: no case files (*.yaml) found")
    if repeats < 1:
        raise UsageError("--repeats must be at least 1")
    setup, simulator_config = _simulator(bank.config, simulator)
    specs, resolved = _resolve_systems(systems, bank)
    planned, questions = _load_cases([source.path for source in sources], bank.root)
    if not rubrics:
        questions = []
    named = {file_key(source.path) for source in sources if source.named}
    left_out = [] if include_error_tests else [
        c.id for c in planned if c.case.metadata.category == ERROR_TESTING and file_key(c.path) not in named]
    where = "; ".join(str(g) for g in given) or str(bank.cases_folder)
    if left_out and len(left_out) == len(planned) and not questions:
        raise UsageError(f"{where}: every case is an error-testing case; add --include-error-tests to run them")
    planned = [c for c in planned if c.id not in left_out]
    unplayable = {
        system.name: found for system in resolved
        if (found := {c.id: why for c in planned if (why := system.cannot_play(c.id)) is not None}
            | {r.id: why for r in questions if (why := _cannot_answer(system)) is not None})
    }
    out = {case_id for found in unplayable.values() for case_id in found}
    if out and len(out) == len(planned) + len(questions):
        raise UsageError(f"{where}: no case can be played by every system: "
                         + "; ".join(f"{name} {_why_left_out(found)}" for name, found in unplayable.items()))
    planned = [c for c in planned if c.id not in out]
    questions = [r for r in questions if r.id not in out]
    return RunPlan(
        bank=bank,
        specs=specs,
        systems=resolved,
        cases=planned,
        simulator=simulator,
        simulator_setup=setup,
        simulator_config=simulator_config,
        evaluator_config=_evaluator_config(bank.config),
        extractor=_extractor(bank.config),
        seed=random.SystemRandom().randrange(2**31) if seed is None else seed,
        cases_path=_cases_path(given, bank.root) or _stored_path(bank.cases_folder, bank.root),
        repeats=repeats,
        bank_manifest=frozen_state(bank.root, {c.stored_path: c.sha256 for c in planned}
                                   | {r.stored_path: r.sha256 for r in questions}),
        left_out_error_tests=left_out,
        prices=bank_prices(bank.root),
        left_out_unplayable=unplayable,
        rubrics=questions,
        judge=_judge(bank.config) if questions or any(c.case.criteria for c in planned) else None,
    )


def _given_cases(cases: Path | Sequence[Path] | None) -> list[Path]:
    if cases is None:
        return []
    return [Path(cases)] if isinstance(cases, (str, Path)) else [Path(c) for c in cases]


def _cases_path(given: list[Path], bank: Path) -> str:
    """What ``--cases`` named, as the group records it (and a resume compares)."""
    return "; ".join(_stored_path(path, bank) if path.exists() else str(path) for path in given)


def _why_left_out(found: dict[str, str]) -> str:
    """'has no transcript for 27 cases (a, b, ...)', reasons grouped."""
    by_reason: dict[str, list[str]] = {}
    for case_id, why in found.items():
        by_reason.setdefault(why, []).append(case_id)
    parts = []
    for why, ids in by_reason.items():
        shown = ", ".join(ids[:6]) + (f", … ({len(ids) - 6} more)" if len(ids) > 6 else "")
        parts.append(f"{why} for {len(ids)} case(s) ({shown})")
    return "; ".join(parts)


def _differences(old: JSONValue, new: JSONValue, where: str) -> list[str]:
    if isinstance(old, dict) and isinstance(new, dict):
        found = []
        for key in sorted(set(old) | set(new), key=str):
            found += _differences(old.get(key), new.get(key), f"{where}.{key}" if where else str(key))
        return found
    return [] if old == new else [f"{where}: {old!r} -> {new!r}"]


def plan_resume(
    store: RunStore,
    group_id: str,
    *,
    systems: list[str] | None = None,
    cases: Path | Sequence[Path] | None = None,
    simulator: str | None = None,
) -> tuple[RunPlan, RunGroup]:
    """The plan of an earlier group, re-resolved. Refuses (MedbenchError naming each
    change) when a system, the simulator, the evaluator or a case file is not what the
    group started with: mixing them would make the group's runs incomparable."""
    group = store.group(group_id)
    recorded = group.config
    bank = Path(recorded["bank"])
    specs = [s["spec"] for s in recorded["systems"]]
    changes: list[str] = []
    if systems and list(systems) != specs:
        changes.append(f"systems: the group ran {', '.join(specs)}; given {', '.join(systems)}")
    if simulator and simulator != recorded["simulator"]["name"]:
        changes.append(f"simulator: the group used {recorded['simulator']['name']}; given {simulator}")
    given = _given_cases(cases)
    if given and _cases_path(given, bank) != recorded["cases_path"]:
        changes.append(f"cases: the group ran {recorded['cases_path']}; given {'; '.join(map(str, given))}")
    if changes:
        raise MedbenchError(f"run group {group.id} cannot be resumed with other options:\n  " + "\n  ".join(changes)
                            + "\n  (resume with just --resume, or start a new group)")

    from medbench_tui.core.cases.bank import load_bank

    loaded = load_bank(bank, run_store=store.path)
    bank_config = loaded.config
    specs, resolved = _resolve_systems(specs, loaded)
    for spec, system, before in zip(specs, resolved, recorded["systems"], strict=False):
        for change in _differences(before["config"], system.public_config(), ""):
            changes.append(f"system {spec} configuration changed: {change}")
    simulator_name = recorded["simulator"]["name"]
    setup, simulator_config = _simulator(bank_config, simulator_name)
    changes += [f"simulator configuration changed: {c}" for c in
                _differences(recorded["simulator"]["config"], simulator_config, "")]
    changes += [f"evaluator configuration changed: {c}" for c in
                _differences(recorded["evaluator"], _evaluator_config(bank_config), "")]
    files = []
    for entry in recorded["cases"]:
        path = run_case_file(bank, entry["path"])
        if not path.is_file():
            changes.append(f"case file {entry['path']} is gone")
        elif file_sha256(path) != entry["sha256"]:
            changes.append(f"case file {entry['path']} changed since the group started (sha256 differs)")
        files.append(path)
    if changes:
        raise MedbenchError(
            f"run group {group.id} cannot be resumed: its configuration or cases changed:\n  "
            + "\n  ".join(changes)
            + "\n  (restore them, or start a new group with 'medbench run')"
        )
    consultations, rubrics = _load_cases(files, bank)
    judged = bool(rubrics) or any(c.case.criteria for c in consultations)
    judge = _judge(bank_config) if judged else None
    if judged:
        changes = [f"judge configuration changed: {c}" for c in _differences(
            recorded.get("judge"), judge.public_config() if judge is not None else None, "")]
        if changes:
            raise MedbenchError(f"run group {group.id} cannot be resumed: its rubric judge changed:\n  "
                                + "\n  ".join(changes) + "\n  (restore it, or start a new group with 'medbench run')")
    plan = RunPlan(
        bank=loaded, specs=specs, systems=resolved, cases=consultations, rubrics=rubrics,
        judge=judge, simulator=simulator_name,
        simulator_setup=setup, simulator_config=simulator_config, evaluator_config=recorded["evaluator"],
        extractor=_extractor(bank_config),
        seed=group.seed, cases_path=recorded["cases_path"], repeats=group.repeats,
        bank_manifest=recorded.get("bank_manifest", "not frozen"),
    )
    return plan, group


# --- the request gate ------------------------------------------------------------------


class RequestGate:
    """Shared by the runs of a group: per-endpoint slots, retry policy, response cache."""

    def __init__(
        self,
        *,
        endpoint_concurrency: int,
        policy: RetryPolicy,
        cache: ResponseCache | None = None,
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
        endpoint_limits: dict[str, int] | None = None,
    ) -> None:
        self.endpoint_concurrency = endpoint_concurrency
        self.endpoint_limits = dict(endpoint_limits or {})
        """base_url -> the endpoint's own ``max_concurrency`` (its server's slots)."""
        self.policy = policy
        self.cache = cache
        self.sleep = sleep
        self._slots: dict[str, asyncio.Semaphore] = {}

    def slot(self, base_url: str) -> asyncio.Semaphore:
        if base_url not in self._slots:
            limit = min(self.endpoint_concurrency, self.endpoint_limits.get(base_url, self.endpoint_concurrency))
            self._slots[base_url] = asyncio.Semaphore(limit)
        return self._slots[base_url]

    def for_run(self, rng: random.Random, on_retry: Callable[[int, float, Exception], None]) -> RunGate:
        return RunGate(self, rng, on_retry)


class RunGate:
    """The gate as one run sees it (``openai_client.REQUEST_GATE`` while it plays):
    counts this run's retries and reports them."""

    def __init__(self, shared: RequestGate, rng: random.Random, on_retry: Callable[[int, float, Exception], None]):
        self.shared = shared
        self.rng = rng
        self.retries = 0
        self._on_retry = on_retry

    def _retried(self, attempt: int, delay: float, error: Exception) -> None:
        self.retries += 1
        self._on_retry(attempt, delay, error)

    async def complete(
        self, client: ChatClient, request: JSONObject, attempt: Callable[[], Awaitable[ChatReply]]
    ) -> ChatReply:
        """``attempt()`` (one request to ``client``'s endpoint) in a free slot, retried,
        or the cached reply to the same request."""
        cache = self.shared.cache
        keyed = {"base_url": client.base_url, **request}
        if cache is not None and (hit := cache.get(keyed)) is not None:
            await asyncio.sleep(0)  # a reply at once: the other runs in flight get their turn all the same
            return hit

        async def once() -> ChatReply:
            async with self.shared.slot(client.base_url):
                return await attempt()

        reply = await call_with_retry(
            once, policy=self.shared.policy, rng=self.rng, on_retry=self._retried, sleep=self.shared.sleep
        )
        if cache is not None:
            cache.put(keyed, reply)
        return reply


# --- the runner ------------------------------------------------------------------------


class _FewerCollections:
    """While any batch plays, the interpreter collects its youngest objects every
    YOUNG_COLLECTION_THRESHOLD allocations instead of every 700: a batch makes millions of
    short-lived objects, and collecting them that often took about a tenth of its CPU
    (benchmarks/runner_throughput.py). Each collection then takes longer, so a batch that
    plays beside a screen (the TUI's) keeps the usual ones. Batches may overlap: the first
    to start sets the threshold, the last to end puts the old one back."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._playing = 0
        self._before: tuple[int, int, int] | None = None

    def __enter__(self) -> None:
        with self._lock:
            if self._playing == 0:
                self._before = gc.get_threshold()
                gc.set_threshold(max(YOUNG_COLLECTION_THRESHOLD, self._before[0]), *self._before[1:])
            self._playing += 1

    def __exit__(self, *exc: object) -> None:
        with self._lock:
            self._playing -= 1
            if self._playing == 0 and self._before is not None:
                gc.set_threshold(*self._before)


YOUNG_COLLECTION_THRESHOLD = 50_000
_FEWER_COLLECTIONS = _FewerCollections()


@dataclass
class GroupResult:
    group_id: str
    complete: int = 0
    incomplete: int = 0
    not_played: int = 0
    cancelled: bool = False
    seconds: float = 0.0
    incomplete_runs: list[dict[str, str | None]] = field(default_factory=list)
    claimed_elsewhere: int = 0

    @property
    def ok(self) -> bool:
        return not (self.incomplete or self.not_played or self.cancelled)


Pending: TypeAlias = tuple[PlannedCase | PlannedRubric, "DoctorSystem", int]
"""A run still to play: its case, system and repeat."""


@dataclass
class _OpenRun:
    """A run while it plays: when it started, its gate (whose retries it counts), its seeds and the
    requests it made, as :meth:`Runner._record` stores them."""

    started_at: str
    started: float
    gate: RunGate
    seeds: RunSeeds
    requests: list[JSONObject]

    def recorded(self) -> tuple[str, float, int, RunSeeds, list[JSONObject]]:
        return self.started_at, self.started, self.gate.retries, self.seeds, self.requests


class Runner:
    def __init__(
        self,
        store: RunStore,
        plan: RunPlan,
        *,
        group: RunGroup | None = None,
        concurrency: int = 8,
        endpoint_concurrency: int | None = None,
        retry: RetryPolicy | None = None,
        cache: bool = False,
        on_event: Callable[[ProgressEvent], None] | None = None,
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
        collect_less: bool = True,
    ) -> None:
        """``group`` is the group to resume; without it :meth:`run` starts a new one.
        ``collect_less``: collect garbage less often while playing (:class:`_FewerCollections`);
        False beside a screen, whose frames want short collections. ``endpoint_concurrency``
        caps the requests in flight per endpoint; None: as many as runs (``concurrency``), an
        endpoint's own ``max_concurrency`` aside."""
        if concurrency < 1 or (endpoint_concurrency is not None and endpoint_concurrency < 1):
            raise UsageError("concurrency must be at least 1")
        self.store = store
        self.plan = plan
        self.group = group
        self.concurrency = concurrency
        self.gate = RequestGate(
            endpoint_concurrency=endpoint_concurrency or concurrency,
            policy=retry or RetryPolicy(),
            cache=ResponseCache(store) if cache else None,
            sleep=sleep,
            endpoint_limits=plan.endpoint_limits(),
        )
        self._listeners: list[Callable[[ProgressEvent], None]] = [on_event] if on_event else []
        self._workers: list[asyncio.Task[None]] = []
        self._scorer: ThreadPoolExecutor | None = None
        """While :meth:`run` lasts, one thread scores the runs in turn (the scorer's caches are not thread-safe)."""
        self._stopping = False
        self._collect_less = collect_less
        self._patients: OrderedDict[str, tuple[PatientSimulator, LeakGuard, Path]] = OrderedDict()
        self.result: GroupResult | None = None
        self.owner = f"{socket.gethostname()}:{os.getpid()}:{secrets.token_hex(3)}"
        self.lease = CLAIM_LEASE_SECONDS

    def cap_notes(self) -> list[str]:
        """One line per endpoint whose cap keeps fewer requests in flight than runs are played
        at once, and what sets it: said before the run, so a slow batch is not a mystery."""
        return [
            f"{url}: at most {cap} request{'' if cap == 1 else 's'} in flight ({why}), fewer than the "
            f"{self.concurrency} runs played at once"
            for url, (cap, why) in self.plan.endpoint_caps(self.gate.endpoint_concurrency).items()
            if cap is not None and cap < self.concurrency
        ]

    def subscribe(self, listener: Callable[[ProgressEvent], None]) -> None:
        """Call ``listener`` with every event (in the event loop's thread)."""
        self._listeners.append(listener)

    def events(self) -> AsyncIterator[ProgressEvent]:
        """Every event of the coming :meth:`run`, ending with :class:`GroupFinished`.
        Subscribe before starting the run."""
        queue: asyncio.Queue[ProgressEvent] = asyncio.Queue()
        self.subscribe(queue.put_nowait)

        async def follow() -> AsyncIterator[ProgressEvent]:
            while True:
                event = await queue.get()
                yield event
                if isinstance(event, GroupFinished):
                    return

        return follow()

    def _emit(self, event: ProgressEvent) -> None:
        for listener in self._listeners:
            listener(event)

    def cancel(self) -> None:
        """Stop: no new runs; runs in flight end as incomplete, reason ``cancelled``."""
        self._stopping = True
        for worker in self._workers:
            worker.cancel()

    def pending(self, group: RunGroup) -> list[Pending]:
        """(case, system, repeat) without a complete run in the group, case by case."""
        done = {(r.case_id, r.system, r.repeat) for r in self.store.runs(group.id, status=COMPLETE)}
        return [
            (c, s, repeat) for c in self.plan.items for s in self.plan.systems
            for repeat in range(self.plan.first_repeat, self.plan.repeats)
            if (c.id, s.name, repeat) not in done
        ]

    async def run(self) -> GroupResult:
        resumed = self.group is not None
        group = self.group or self.store.create_group(self.plan.config(), self.plan.seed)
        self.group = group
        todo = deque(self.pending(group))
        result = self.result = GroupResult(group.id)
        planned = len(self.plan.items) * len(self.plan.systems) * (self.plan.repeats - self.plan.first_repeat)
        self._emit(GroupStarted(group.id, planned, len(todo), resumed))
        started = time.perf_counter()
        self._scorer = ThreadPoolExecutor(max_workers=1, thread_name_prefix="medbench-scoring")
        self._workers = [
            asyncio.create_task(self._worker(todo)) for _ in range(min(self.concurrency, len(todo)))
        ]
        heartbeat = asyncio.create_task(self._renew_claims())
        try:
            with _FEWER_COLLECTIONS if self._collect_less else contextlib.nullcontext():
                outcomes = await asyncio.gather(*self._workers, return_exceptions=True)
        except asyncio.CancelledError:
            self.cancel()
            await asyncio.gather(*self._workers, return_exceptions=True)
            self._finish(result, todo, started)
            raise
        finally:
            heartbeat.cancel()
            self._scorer.shutdown(wait=False)
            await close_shared_clients()
        self._finish(result, todo, started)
        failures = [o for o in outcomes if isinstance(o, Exception)]
        if isinstance(failure := next(iter(failures), None), MedbenchError):  # the store could not be written
            raise MedbenchError(f"{failure}\n  the runs finished before it are kept in group {group.id}; "
                                f"once it is fixed, finish the group with: medbench run --resume {group.id}") \
                from failure
        if failure is not None:
            raise failure
        return result

    def _finish(self, result: GroupResult, todo: deque[Pending], started: float) -> None:
        result.cancelled = self._stopping
        result.not_played = len(todo)
        result.seconds = time.perf_counter() - started
        self._emit(GroupFinished(result.group_id, result.complete, result.incomplete, result.not_played,
                                 result.cancelled, result.seconds))

    async def _worker(self, todo: deque[Pending]) -> None:
        group, result = self.group, self.result
        assert group is not None and result is not None  # set by run() before the workers start
        try:
            while todo and not self._stopping:
                item, system, repeat = todo.popleft()
                if not self.store.claim(group.id, item.id, system.name, self.owner, lease=self.lease,
                                        repeat=repeat, gone=_process_gone):
                    result.claimed_elsewhere += 1
                    self._emit(RunClaimedElsewhere(group.id, item.id, system.name))
                    continue
                try:
                    if isinstance(item, PlannedRubric):
                        await self._answer(item, system, repeat)
                    else:
                        await self._play(item, system, repeat)
                finally:
                    with contextlib.suppress(sqlite3.Error):  # an unreleased lease only expires
                        self.store.release(group.id, item.id, system.name, self.owner, repeat=repeat)
        except Exception:  # not a run's failure (those are recorded): stop them all
            self.cancel()
            raise

    async def _renew_claims(self) -> None:
        """Keep this process's leases alive while it plays (a dead process's leases expire)."""
        while True:
            await asyncio.sleep(self.lease / 4)
            with contextlib.suppress(sqlite3.Error):
                self.store.renew_claims(self.owner, lease=self.lease)

    async def _play(self, item: PlannedCase, system: DoctorSystem, repeat: int = 0) -> RunRecord:
        """One run, recorded whatever happens; re-raises cancellation once recorded.
        Every model request it makes is noted (``REQUEST_LOG``) and stored with it."""
        consultation = card = None
        with self._opened(item.id, system, repeat) as run:
            try:
                consultation = self._consultation(item, system, run.seeds)
                transcript = await system.consult(consultation)
                if transcript.status == COMPLETE:
                    card, transcript = await self._score(item, transcript)
            except asyncio.CancelledError:
                transcript = _abandoned(consultation, item, system, CANCELLED)
                self._record(item, system, transcript, None, *run.recorded())
                raise
            except Exception as exc:
                transcript = _abandoned(consultation, item, system, _reason(exc))
        return self._record(item, system, transcript, card, *run.recorded())

    @contextlib.contextmanager
    def _opened(self, item_id: str, system: DoctorSystem, repeat: int) -> Iterator[_OpenRun]:
        """What every run (a consultation or a rubric question) holds while it plays: its seeds (handed
        to what plays it), its request gate (retries reported as events) and its request log, the
        last two set for the code it calls and reset after, whatever happens."""
        from medbench_tui.core.endpoints.client import REQUEST_GATE, REQUEST_LOG

        assert self.group is not None  # set by run() before any run is played
        group_id = self.group.id
        self._emit(RunStarted(group_id, item_id, system.name, repeat))
        started_at, started = utc_now(), time.perf_counter()
        seeds = run_seeds(self.plan.seed, item_id, system.name, repeat, repeats=self.plan.repeats)
        gate = self.gate.for_run(
            random.Random(seeds.run),
            lambda attempt, delay, error: self._emit(RequestRetried(
                group_id, item_id, system.name, attempt, delay, redact(str(error), self.store.secrets)
            )),
        )
        token = REQUEST_GATE.set(gate)
        requests: list[JSONObject] = []
        log_token = REQUEST_LOG.set(requests)
        try:
            yield _OpenRun(started_at, started, gate, seeds, requests)
        finally:
            REQUEST_GATE.reset(token)
            REQUEST_LOG.reset(log_token)

    async def _answer(self, item: PlannedRubric, system: DoctorSystem, repeat: int = 0) -> RunRecord:
        """One rubric question: its prompt (or chat) sent to the system once, the reply graded, the run
        recorded whatever happens (as :meth:`_play` records a consultation)."""
        from medbench_tui.core.endpoints.client import ChatClient
        from medbench_tui.core.rubric import grade_async
        from medbench_tui.core.transcript import FinalResponse, Transcript, Usage

        transcript = Transcript(case_id=item.id, system=system.name, status=INCOMPLETE, reason="not answered")
        document = None
        with self._opened(item.id, system, repeat) as run:
            try:
                endpoint = getattr(system, "config", None)
                if not isinstance(endpoint, EndpointConfig):
                    raise MedbenchError(f"{system.name} {NO_ENDPOINT}")
                system_prompt = getattr(endpoint, "system_prompt", None)
                messages = ([{"role": "system", "content": system_prompt}] if system_prompt else []) + [
                    {"role": m.role, "content": m.content} for m in item.rubric.conversation()]
                client = ChatClient.for_endpoint(endpoint, role="doctor")
                try:
                    reply = await client.complete(messages, model=endpoint.model,
                                                  **endpoint.sampling("doctor", run.seeds))
                finally:
                    await client.aclose()
                usage = client.usage
                transcript.usage = Usage(prompt_tokens=usage.prompt_tokens, completion_tokens=usage.completion_tokens,
                                         requests=usage.requests)
                if reply.truncated:
                    transcript.reason = (f"truncated: the reply of {system.name} was cut at its token limit: raise "
                                         "max_tokens in medbench.yaml")
                else:
                    transcript.final = FinalResponse(text=reply.text)
                    transcript.status, transcript.reason = COMPLETE, None
                    try:
                        graded = await grade_async(item.rubric, reply.text, self.plan.judge)
                    except Exception as exc:
                        error = as_endpoint_error(exc)
                        transcript.status = INCOMPLETE
                        transcript.reason = (f"judge: {error}" if error
                                             else f"grading failed: {type(exc).__name__}: {exc}")
                    else:
                        document = rubric_document(graded)
            except asyncio.CancelledError:
                transcript.status, transcript.reason = INCOMPLETE, CANCELLED
                self._record(item, system, transcript, None, *run.recorded())
                raise
            except Exception as exc:
                transcript.status, transcript.reason = INCOMPLETE, _reason(exc)
        return self._record(item, system, transcript, document, *run.recorded())

    def _consultation(self, item: PlannedCase, system: DoctorSystem, seeds: RunSeeds) -> Consultation:
        from medbench_tui.core.consultation.loop import Consultation

        patient, guard, bank_root = self._patient(item)
        return Consultation(item.case, patient.again(), system=system.name, bank_root=bank_root, guard=guard,
                            seeds=seeds)

    def _patient(self, item: PlannedCase) -> tuple[PatientSimulator, LeakGuard, Path]:
        """The case's patient, leak guard and bank folder, set up once for all its runs: the runs
        of a case are played one after another, so the last few cases are kept."""
        if (known := self._patients.get(item.id)) is not None:
            self._patients.move_to_end(item.id)
            return known
        from medbench_tui.core.cases.model import patient_record
        from medbench_tui.core.consultation.loop import make_simulator
        from medbench_tui.core.paths import bank_root_of
        from medbench_tui.core.simulators.guard import LeakGuard

        known = (make_simulator(self.plan.simulator_setup, patient_record(item.case)), LeakGuard.from_case(item.case),
                 bank_root_of(item.path))
        self._patients[item.id] = known
        if len(self._patients) > max(PATIENTS_KEPT, self.concurrency):
            self._patients.popitem(last=False)
        return known

    async def _score(self, item: PlannedCase, transcript: Transcript) -> tuple[JSONObject | None, Transcript]:
        """The scorecard document of a complete run (with the case's criteria graded, when it has
        any). When scoring fails the run becomes incomplete: no score may stand in for one that was
        not computed."""
        from medbench_tui.core.scoring import score, score_async

        try:
            if self.plan.extractor is None:  # the text scorer: synchronous, off the loop the other runs share
                card = await asyncio.get_running_loop().run_in_executor(
                    self._scorer, partial(score, item.case, transcript, prices=self.plan.prices))
            else:
                card = await score_async(item.case, transcript, extractor=self.plan.extractor,
                                         prices=self.plan.prices)
            document = card.to_json()
            if item.case.criteria:  # rubric points on the final response (core/rubric/consultation.py)
                from medbench_tui.core.rubric.consultation import grade_final_async, with_criteria

                with_criteria(document, await grade_final_async(item.case, transcript, self.plan.judge))
            return document, transcript
        except Exception as exc:
            error = as_endpoint_error(exc)
            failed = transcript.model_copy(deep=True)
            failed.status = INCOMPLETE
            failed.reason = f"evaluator: {error}" if error else f"scoring failed: {type(exc).__name__}: {exc}"
            return None, failed

    def _record(self, item: PlannedCase | PlannedRubric, system: DoctorSystem, transcript: Transcript,
                scored: JSONObject | None, started_at: str, started: float, retries: int, seeds: RunSeeds,
                requests: list[JSONObject]) -> RunRecord:
        """``scored``: the scorecard's JSON, or a rubric grade's (``rubric_document``); None when not scored."""
        assert self.group is not None and self.result is not None  # set by run() before any run is played
        seconds = time.perf_counter() - started
        complete = transcript.status == COMPLETE and scored is not None
        document = scored if complete else None
        extraction = document.pop("extraction", None) if document else None
        metrics, labels = flatten_metrics(document["metrics"]) if document else ({}, {})
        reason = None if complete else redact(transcript.reason or "ended without a final response",
                                              self.store.secrets)
        config = system.public_config()
        record = RunRecord(
            group_id=self.group.id, case_id=item.id, case_path=item.stored_path, case_sha256=item.sha256,
            system=system.name, status=COMPLETE if complete else INCOMPLETE, reason=reason,
            system_config=config, simulator_config=self.plan.simulator_config,
            evaluator_config=self.plan.evaluator_config,
            transcript=transcript.model_dump(mode="json", exclude_none=True),
            scorecard=document, extraction=extraction, metrics=metrics, labels=labels,
            ranges=document.get("ranges") or {} if document else {}, steps=transcript.steps,
            num_steps=item.num_steps, outside_soft_range=document.get("outside_soft_range") if document else None,
            started_at=started_at, finished_at=utc_now(), seconds=seconds,
            prompt_tokens=transcript.usage.prompt_tokens, completion_tokens=transcript.usage.completion_tokens,
            retries=retries, requests=list(requests) or None, repeat=seeds.repeat,
            seeds=seeds.recorded(config, self.plan.simulator_config),
        )
        try:
            self.store.record(record)
        except MedbenchError:  # the store cannot be written at all: the batch stops
            raise
        except Exception as exc:  # this run cannot be written as played (a bug): say so, keep the others going
            record = replace(record, status=INCOMPLETE, transcript=None, scorecard=None, extraction=None, metrics={},
                             labels={}, requests=None,
                             reason=f"internal error: the run could not be stored as played ({type(exc).__name__}: "
                                    f"{exc}); play it again with --resume")
            self.store.record(record)
        if record.complete:
            self.result.complete += 1
        else:
            self.result.incomplete += 1
            self.result.incomplete_runs.append({"case_id": item.id, "system": system.name, "reason": record.reason})
        self._emit(RunFinished(self.group.id, item.id, system.name, record.status, record.reason, record.steps,
                               seconds, dict(record.metrics), seeds.repeat))
        return record


RUBRIC_UNGRADED = "rubric_ungraded"


def rubric_document(graded: RubricGrade) -> JSONObject:
    """What a rubric run stores in place of a scorecard: its metrics (the score in points, 0-100, and
    how many criteria are ungraded) and every decision (``rubric``)."""
    metrics: dict[str, float] = {RUBRIC_UNGRADED: float(len(graded.ungraded))}
    if graded.score is not None:
        metrics[RUBRIC_SCORE] = 100.0 * graded.score
    return {"case_id": graded.case_id, "kind": RUBRIC, "complete": True, "metrics": metrics,
            "rubric": graded.model_dump(mode="json")}


def _process_gone(owner: str) -> bool:
    """Whether the runner that holds a lease (``host:pid:token``) is a process of this machine
    that no longer exists (killed: its leases would otherwise block a resume until they expire)."""
    host, _, rest = owner.partition(":")
    pid = rest.partition(":")[0]
    if host != socket.gethostname() or not pid.isdigit():
        return False
    try:
        os.kill(int(pid), 0)
    except ProcessLookupError:
        return True
    except OSError:  # it exists, owned by someone else
        return False
    return False


def _reason(exc: Exception) -> str:
    error = as_endpoint_error(exc)
    if error is not None:
        return str(error)
    if isinstance(exc, MedbenchError):  # a bad input (a replayed transcript): its message says what to fix
        return str(exc)
    return f"internal error: {type(exc).__name__}: {exc}"


def _abandoned(consultation: Consultation | None, item: PlannedCase, system: DoctorSystem, reason: str) -> Transcript:
    """The transcript so far, marked incomplete with ``reason``."""
    from medbench_tui.core.transcript import Transcript

    if consultation is None:
        transcript = Transcript(case_id=item.id, system=system.name)
    else:
        try:
            return consultation.abandon(reason)
        except Exception:  # it had already ended: keep what it recorded
            transcript = consultation.transcript.model_copy(deep=True)
    transcript.status, transcript.reason = INCOMPLETE, reason
    return transcript
