"""Play systems over cases, concurrently, into the run store.

One run group per ``medbench run``: a run per case x system, each written in one
transaction when it ends. At most ``concurrency`` runs are in flight, and at most
``endpoint_concurrency`` requests per endpoint (``base_url``).

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
import hashlib
import random
import time
from collections import deque
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from medbench_tui.core.case import ERROR_TESTING
from medbench_tui.core.errors import MedbenchError, UsageError
from medbench_tui.core.runs.cache import ResponseCache
from medbench_tui.core.runs.retry import RetryPolicy, as_endpoint_error, call_with_retry
from medbench_tui.core.runs.store import (
    COMPLETE,
    INCOMPLETE,
    RunGroup,
    RunRecord,
    RunStore,
    flatten_metrics,
    redact,
    utc_now,
)

CANCELLED = "cancelled"


# --- progress events -------------------------------------------------------------------


@dataclass(frozen=True)
class GroupStarted:
    group_id: str
    planned: int
    """Runs in the group: cases x systems."""
    to_play: int
    """Runs this invocation plays (all of them, or what a resume found missing)."""
    resumed: bool


@dataclass(frozen=True)
class RunStarted:
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


@dataclass(frozen=True)
class GroupFinished:
    group_id: str
    complete: int
    incomplete: int
    not_played: int
    cancelled: bool
    seconds: float


ProgressEvent = GroupStarted | RunStarted | RequestRetried | RunFinished | GroupFinished


# --- what to play ----------------------------------------------------------------------


@dataclass(frozen=True)
class PlannedCase:
    id: str
    path: Path
    stored_path: str
    """As recorded: relative to the bank when the file is inside it."""
    sha256: str
    case: Any


@dataclass
class RunPlan:
    """Everything a group needs, resolved: systems, cases (validated, hashed), configs."""

    bank: Path
    specs: list[str]
    systems: list[Any]
    cases: list[PlannedCase]
    simulator: str
    simulator_setup: Any
    """What ``make_simulator`` takes: a built-in name or the configuration object."""
    simulator_config: dict[str, Any]
    evaluator_config: dict[str, Any]
    extractor: Any
    """The scoring extractor (None: the deterministic text extractor)."""
    seed: int
    cases_path: str
    left_out_error_tests: list[str] = field(default_factory=list)
    """Ids of the ``error_testing`` cases of the folder that were left out (not asked for)."""

    def config(self) -> dict[str, Any]:
        """The group's configuration as stored (and compared on resume)."""
        return {
            "bank": str(self.bank),
            "cases_path": self.cases_path,
            "systems": [
                {"spec": spec, "name": system.name, "config": system.public_config()}
                for spec, system in zip(self.specs, self.systems)
            ],
            "simulator": {"name": self.simulator, "config": self.simulator_config},
            "evaluator": self.evaluator_config,
            "cases": [{"id": c.id, "path": c.stored_path, "sha256": c.sha256} for c in self.cases],
            "seed": self.seed,
        }


def file_sha256(path: Path) -> str:
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


def _stored_path(path: Path, bank: Path) -> str:
    path = path.resolve()
    try:
        return path.relative_to(bank.resolve()).as_posix()
    except ValueError:
        return str(path)


def _simulator(bank_config: Any, name: str) -> tuple[Any, dict[str, Any]]:
    """The simulator's configuration (read once, not per case) and its public form."""
    from medbench_tui.core.bankconfig import BUILTIN_SIMULATORS, EndpointConfig

    if name in BUILTIN_SIMULATORS:
        return name, {"kind": name}
    configured = bank_config.simulators.get(name)
    if configured is None:
        choices = ", ".join([*BUILTIN_SIMULATORS, *bank_config.simulators])
        raise UsageError(f"unknown simulator {name!r}: choose one of {choices} (simulators: in medbench.yaml)")
    public = configured.public() if isinstance(configured, EndpointConfig) else configured.model_dump(mode="json")
    return configured, public


def _evaluator_config(bank_config: Any) -> dict[str, Any]:
    evaluator = bank_config.evaluator
    data = evaluator.model_dump(mode="json")
    if evaluator.llm is not None:
        data["llm"] = evaluator.llm.public()
    return data


def _extractor(bank_config: Any) -> Any:
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


def _load_cases(files: list[Path], bank: Path) -> list[PlannedCase]:
    from medbench_tui.core.validate import load_valid_case

    cases, problems, seen = [], [], {}
    for path in files:
        try:
            digest = file_sha256(path)
            case = load_valid_case(path)
        except FileNotFoundError:
            problems.append(f"{path}: no such case file")
            continue
        except MedbenchError as exc:
            problems.append(str(exc))
            continue
        if case.id in seen:
            problems.append(f"{path}: case id '{case.id}' is also used by {seen[case.id]}")
            continue
        seen[case.id] = path
        cases.append(PlannedCase(case.id, path, _stored_path(path, bank), digest, case))
    if problems:
        raise MedbenchError("cannot run these cases:\n" + "\n".join(problems))
    return cases


def _resolve_systems(specs: list[str], bank: Path) -> list[Any]:
    from medbench_tui.core.systems import resolve_system

    systems = [resolve_system(spec, bank=bank) for spec in specs]
    names = [s.name for s in systems]
    twice = sorted({n for n in names if names.count(n) > 1})
    if twice:
        raise UsageError(f"system {', '.join(twice)} given twice: pass each --system once")
    if "human" in names:
        raise UsageError("'human' needs a person at the keyboard: use 'medbench play' for it")
    return systems


def plan_run(
    bank: Path,
    systems: list[str],
    *,
    cases: Path | None = None,
    simulator: str = "grounded",
    seed: int | None = None,
    include_error_tests: bool = False,
) -> RunPlan:
    """Resolve systems, validate and hash the case files (default: the bank's cases).

    Cases of category ``error_testing`` test the harness, not the system: from a folder
    they are left out (and listed in ``left_out_error_tests``) unless
    ``include_error_tests``; a case file named on its own is always played.
    """
    from medbench_tui.core.bank import iter_case_files
    from medbench_tui.core.bankconfig import load_bank_config
    from medbench_tui.core.paths import cases_dir

    if not systems:
        raise UsageError("name at least one system: --system NAME (see 'medbench systems')")
    bank = Path(bank).resolve()
    source = Path(cases) if cases is not None else cases_dir(bank)
    if not source.exists():
        raise UsageError(f"{source}: no such case file or folder")
    files = iter_case_files(source)
    if not files:
        raise UsageError(f"{source}: no case files (*.yaml) found")
    bank_config = load_bank_config(bank)
    setup, simulator_config = _simulator(bank_config, simulator)
    planned = _load_cases(files, bank)
    left_out = [] if include_error_tests or source.is_file() else [
        c.id for c in planned if c.case.metadata.category == ERROR_TESTING]
    if left_out and len(left_out) == len(planned):
        raise UsageError(f"{source}: every case is an error-testing case; add --include-error-tests to run them")
    return RunPlan(
        bank=bank,
        specs=list(systems),
        systems=_resolve_systems(list(systems), bank),
        cases=[c for c in planned if c.id not in left_out],
        simulator=simulator,
        simulator_setup=setup,
        simulator_config=simulator_config,
        evaluator_config=_evaluator_config(bank_config),
        extractor=_extractor(bank_config),
        seed=random.SystemRandom().randrange(2**31) if seed is None else seed,
        cases_path=_stored_path(source, bank),
        left_out_error_tests=left_out,
    )


def _differences(old: Any, new: Any, where: str) -> list[str]:
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
    cases: Path | None = None,
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
    if cases is not None and _stored_path(Path(cases), bank) != recorded["cases_path"]:
        changes.append(f"cases: the group ran {recorded['cases_path']}; given {cases}")
    if changes:
        raise MedbenchError(f"run group {group.id} cannot be resumed with other options:\n  " + "\n  ".join(changes)
                            + "\n  (resume with just --resume, or start a new group)")

    from medbench_tui.core.bankconfig import load_bank_config

    bank_config = load_bank_config(bank)
    resolved = _resolve_systems(specs, bank)
    for spec, system, before in zip(specs, resolved, recorded["systems"]):
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
        path = Path(entry["path"]) if Path(entry["path"]).is_absolute() else bank / entry["path"]
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
    plan = RunPlan(
        bank=bank, specs=specs, systems=resolved, cases=_load_cases(files, bank), simulator=simulator_name,
        simulator_setup=setup, simulator_config=simulator_config, evaluator_config=recorded["evaluator"],
        extractor=_extractor(bank_config),
        seed=group.seed, cases_path=recorded["cases_path"],
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
    ) -> None:
        self.endpoint_concurrency = endpoint_concurrency
        self.policy = policy
        self.cache = cache
        self.sleep = sleep
        self._slots: dict[str, asyncio.Semaphore] = {}

    def slot(self, base_url: str) -> asyncio.Semaphore:
        if base_url not in self._slots:
            self._slots[base_url] = asyncio.Semaphore(self.endpoint_concurrency)
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

    async def complete(self, client: Any, request: dict[str, Any], attempt: Callable[[], Awaitable[Any]]) -> Any:
        """``attempt()`` (one request to ``client``'s endpoint) in a free slot, retried,
        or the cached reply to the same request."""
        from medbench_tui.core.openai_client import ChatReply

        cache = self.shared.cache
        keyed = {"base_url": client.base_url, **request}
        if cache is not None and (hit := cache.get(keyed)) is not None:
            return hit

        async def once() -> Any:
            async with self.shared.slot(client.base_url):
                return await attempt()

        reply = await call_with_retry(
            once, policy=self.shared.policy, rng=self.rng, on_retry=self._retried, sleep=self.shared.sleep
        )
        if cache is not None:
            cache.put(keyed, reply if isinstance(reply, ChatReply) else ChatReply(reply, "stop"))
        return reply

    async def collect(self, client: Any, request: dict[str, Any], stream: Callable[[], AsyncIterator[str]]) -> str:
        """A streamed reply, whole: nobody watches a batch run, and a whole reply can be
        retried and cached like any other."""
        async def whole() -> str:
            return "".join([delta async for delta in stream()])

        reply = await self.complete(client, request, whole)
        return reply if isinstance(reply, str) else reply.text


# --- the runner ------------------------------------------------------------------------


@dataclass
class GroupResult:
    group_id: str
    complete: int = 0
    incomplete: int = 0
    not_played: int = 0
    cancelled: bool = False
    seconds: float = 0.0
    incomplete_runs: list[dict[str, str | None]] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not (self.incomplete or self.not_played or self.cancelled)


class Runner:
    def __init__(
        self,
        store: RunStore,
        plan: RunPlan,
        *,
        group: RunGroup | None = None,
        concurrency: int = 8,
        endpoint_concurrency: int = 8,
        retry: RetryPolicy | None = None,
        cache: bool = False,
        on_event: Callable[[ProgressEvent], None] | None = None,
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
    ) -> None:
        """``group`` is the group to resume; without it :meth:`run` starts a new one."""
        if concurrency < 1 or endpoint_concurrency < 1:
            raise UsageError("concurrency must be at least 1")
        self.store = store
        self.plan = plan
        self.group = group
        self.concurrency = concurrency
        self.gate = RequestGate(
            endpoint_concurrency=endpoint_concurrency,
            policy=retry or RetryPolicy(),
            cache=ResponseCache(store) if cache else None,
            sleep=sleep,
        )
        self._listeners: list[Callable[[ProgressEvent], None]] = [on_event] if on_event else []
        self._workers: list[asyncio.Task] = []
        self._stopping = False
        self.result: GroupResult | None = None

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

    def pending(self, group: RunGroup) -> list[tuple[PlannedCase, Any]]:
        """Case x system pairs without a complete run in the group, case by case."""
        done = {(r.case_id, r.system) for r in self.store.runs(group.id, status=COMPLETE)}
        return [(c, s) for c in self.plan.cases for s in self.plan.systems if (c.id, s.name) not in done]

    async def run(self) -> GroupResult:
        resumed = self.group is not None
        group = self.group or self.store.create_group(self.plan.config(), self.plan.seed)
        self.group = group
        todo = deque(self.pending(group))
        result = self.result = GroupResult(group.id)
        self._emit(GroupStarted(group.id, len(self.plan.cases) * len(self.plan.systems), len(todo), resumed))
        started = time.perf_counter()
        self._workers = [
            asyncio.create_task(self._worker(todo)) for _ in range(min(self.concurrency, len(todo)))
        ]
        try:
            outcomes = await asyncio.gather(*self._workers, return_exceptions=True)
        except asyncio.CancelledError:
            self.cancel()
            await asyncio.gather(*self._workers, return_exceptions=True)
            self._finish(result, todo, started)
            raise
        self._finish(result, todo, started)
        failures = [o for o in outcomes if isinstance(o, Exception)]
        if failures:  # the store could not be written: every worker has stopped
            raise failures[0]
        return result

    def _finish(self, result: GroupResult, todo: deque, started: float) -> None:
        result.cancelled = self._stopping
        result.not_played = len(todo)
        result.seconds = time.perf_counter() - started
        self._emit(GroupFinished(result.group_id, result.complete, result.incomplete, result.not_played,
                                 result.cancelled, result.seconds))

    async def _worker(self, todo: deque) -> None:
        try:
            while todo and not self._stopping:
                await self._play(*todo.popleft())
        except Exception:  # not a run's failure (those are recorded): stop them all
            self.cancel()
            raise

    async def _play(self, item: PlannedCase, system: Any) -> RunRecord:
        """One run, recorded whatever happens; re-raises cancellation once recorded."""
        from medbench_tui.core.openai_client import REQUEST_GATE

        group_id = self.group.id
        self._emit(RunStarted(group_id, item.id, system.name))
        started_at, started = utc_now(), time.perf_counter()
        gate = self.gate.for_run(
            random.Random(f"{self.plan.seed}:{item.id}:{system.name}"),
            lambda attempt, delay, error: self._emit(RequestRetried(
                group_id, item.id, system.name, attempt, delay, redact(str(error), self.store.secrets)
            )),
        )
        token = REQUEST_GATE.set(gate)
        consultation = card = None
        try:
            consultation = self._consultation(item, system)
            transcript = await system.consult(consultation)
            if transcript.status == COMPLETE:
                card, transcript = await self._score(item, transcript)
        except asyncio.CancelledError:
            transcript = _abandoned(consultation, item, system, CANCELLED)
            self._record(item, system, transcript, None, started_at, started, gate.retries)
            raise
        except Exception as exc:
            transcript = _abandoned(consultation, item, system, _reason(exc))
        finally:
            REQUEST_GATE.reset(token)
        return self._record(item, system, transcript, card, started_at, started, gate.retries)

    def _consultation(self, item: PlannedCase, system: Any) -> Any:
        from medbench_tui.core.case import patient_record
        from medbench_tui.core.consultation import Consultation, make_simulator
        from medbench_tui.core.paths import bank_root_of

        simulator = make_simulator(self.plan.simulator_setup, patient_record(item.case), bank=self.plan.bank)
        return Consultation(item.case, simulator, system=system.name, bank_root=bank_root_of(item.path))

    async def _score(self, item: PlannedCase, transcript: Any) -> tuple[Any, Any]:
        """The scorecard of a complete run. When scoring fails the run becomes
        incomplete: no score may stand in for one that was not computed."""
        from medbench_tui.core.scoring import score_async

        try:
            return await score_async(item.case, transcript, extractor=self.plan.extractor), transcript
        except Exception as exc:
            error = as_endpoint_error(exc)
            failed = transcript.model_copy(deep=True)
            failed.status = INCOMPLETE
            failed.reason = f"evaluator: {error}" if error else f"scoring failed: {type(exc).__name__}: {exc}"
            return None, failed

    def _record(self, item: PlannedCase, system: Any, transcript: Any, card: Any, started_at: str, started: float,
                retries: int) -> RunRecord:
        seconds = time.perf_counter() - started
        complete = transcript.status == COMPLETE and card is not None
        document = card.to_json() if complete else None
        extraction = document.pop("extraction", None) if document else None
        metrics, labels = flatten_metrics(document["metrics"]) if document else ({}, {})
        reason = None if complete else redact(transcript.reason or "ended without a final response",
                                              self.store.secrets)
        record = RunRecord(
            group_id=self.group.id, case_id=item.id, case_path=item.stored_path, case_sha256=item.sha256,
            system=system.name, status=COMPLETE if complete else INCOMPLETE, reason=reason,
            system_config=system.public_config(), simulator_config=self.plan.simulator_config,
            evaluator_config=self.plan.evaluator_config,
            transcript=transcript.model_dump(mode="json", exclude_none=True),
            scorecard=document, extraction=extraction, metrics=metrics, labels=labels, steps=transcript.steps,
            num_steps=item.case.num_steps, outside_soft_range=document["outside_soft_range"] if document else None,
            started_at=started_at, finished_at=utc_now(), seconds=seconds,
            prompt_tokens=transcript.usage.prompt_tokens, completion_tokens=transcript.usage.completion_tokens,
            retries=retries,
        )
        self.store.record(record)
        if record.complete:
            self.result.complete += 1
        else:
            self.result.incomplete += 1
            self.result.incomplete_runs.append({"case_id": item.id, "system": system.name, "reason": record.reason})
        self._emit(RunFinished(self.group.id, item.id, system.name, record.status, record.reason, record.steps,
                               seconds, dict(record.metrics)))
        return record


def _reason(exc: Exception) -> str:
    error = as_endpoint_error(exc)
    if error is not None:
        return str(error)
    return f"internal error: {type(exc).__name__}: {exc}"


def _abandoned(consultation: Any, item: PlannedCase, system: Any, reason: str) -> Any:
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
