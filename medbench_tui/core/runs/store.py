"""The run store: every run of every ``medbench run``, in one SQLite file.

One file per case bank (see :func:`medbench_tui.core.paths.run_store_for`). WAL mode,
foreign keys on, a busy timeout so the TUI can read while a run writes. Each run row
(with its metrics) is written in one transaction, so a crash or a hard kill leaves
either the whole run or nothing. The schema carries its version in
``PRAGMA user_version`` and is brought up to date by ordered migration steps.

Nothing stored may hold an API key value: configurations come from
``public_config()``, and every text is also scrubbed of every known secret value before
it is written (:func:`medbench_tui.core.redact.redact`).
"""

from __future__ import annotations

import csv
import io
import json
import math
import re
import secrets as _random
import sqlite3
import sys
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import asdict, dataclass, field
from datetime import UTC, datetime
from functools import lru_cache
from pathlib import Path
from typing import IO, TYPE_CHECKING, Final

from pydantic_core import PydanticSerializationError, to_json

from medbench_tui.core.errors import MedbenchError
from medbench_tui.core.jsondata import JSONObject, JSONValue
from medbench_tui.core.redact import header_names, may_need_redaction, redact, redact_data, secret_values
from medbench_tui.core.untrusted import valid_data, valid_text

PATH_KEYS = ("bank", "cases_path", "case_path")
"""Keys of a stored configuration that hold paths: stored as they are (resume reads them)."""

if TYPE_CHECKING:
    from medbench_tui.core.scoring.scorecard import Scorecard
    from medbench_tui.core.transcript import Transcript

BUSY_TIMEOUT_MS = 10_000
REDACTED_MEMO_SIZE = 64
REDACTED_MEMO_CHARS = 16_384
"""Documents of at most this many characters of JSON whose redaction is remembered (the last
REDACTED_MEMO_SIZE of them): a batch stores its system's configuration with every run, and its
``api_key_env`` key made each one a walk of every text (~60 us a run)."""
COMPLETE: Final = "complete"
INCOMPLETE: Final = "incomplete"


# --- schema -----------------------------------------------------------------------------

def _v1_groups_and_runs(db: sqlite3.Connection) -> None:
    db.execute(
        """CREATE TABLE run_groups (
            id TEXT PRIMARY KEY,
            created_at TEXT NOT NULL,
            seed INTEGER NOT NULL,
            config TEXT NOT NULL
        )"""
    )
    db.execute(
        """CREATE TABLE runs (
            id INTEGER PRIMARY KEY,
            group_id TEXT NOT NULL REFERENCES run_groups(id) ON DELETE CASCADE,
            case_id TEXT NOT NULL,
            case_path TEXT NOT NULL,
            case_sha256 TEXT NOT NULL,
            system TEXT NOT NULL,
            system_config TEXT NOT NULL,
            simulator_config TEXT NOT NULL,
            evaluator_config TEXT NOT NULL,
            status TEXT NOT NULL CHECK (status IN ('complete', 'incomplete')),
            reason TEXT,
            transcript TEXT,
            scorecard TEXT,
            steps INTEGER NOT NULL DEFAULT 0,
            num_steps INTEGER,
            outside_soft_range INTEGER,
            started_at TEXT NOT NULL,
            finished_at TEXT NOT NULL,
            seconds REAL NOT NULL,
            prompt_tokens INTEGER NOT NULL DEFAULT 0,
            completion_tokens INTEGER NOT NULL DEFAULT 0,
            retries INTEGER NOT NULL DEFAULT 0,
            UNIQUE (group_id, case_id, system)
        )"""
    )
    db.execute("CREATE INDEX runs_by_case ON runs (case_id)")


def _v2_metrics_table(db: sqlite3.Connection) -> None:
    """Metrics as rows (fast aggregation without parsing JSON), the extraction in its
    own column; backfilled from the scorecards of complete runs."""
    db.execute(
        """CREATE TABLE metrics (
            run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
            name TEXT NOT NULL,
            value REAL,
            label TEXT,
            PRIMARY KEY (run_id, name)
        ) WITHOUT ROWID"""
    )
    db.execute("ALTER TABLE runs ADD COLUMN extraction TEXT")
    rows = db.execute("SELECT id, scorecard FROM runs WHERE status = 'complete' AND scorecard IS NOT NULL")
    for run_id, scorecard in rows.fetchall():
        values, labels = flatten_metrics(json.loads(scorecard).get("metrics", {}))
        _insert_metrics(db, run_id, values, labels)


def _v3_response_cache(db: sqlite3.Connection) -> None:
    db.execute(
        """CREATE TABLE response_cache (
            key TEXT PRIMARY KEY,
            response TEXT NOT NULL,
            created_at TEXT NOT NULL
        )"""
    )


def _v4_run_claims(db: sqlite3.Connection) -> None:
    """Leases on the runs being played, so that two processes resuming one group never
    play (and overwrite) the same run: a lease is renewed while its run plays, and one
    not renewed by ``expires_at`` (its process died) may be taken over."""
    db.execute(
        """CREATE TABLE claims (
            group_id TEXT NOT NULL REFERENCES run_groups(id) ON DELETE CASCADE,
            case_id TEXT NOT NULL,
            system TEXT NOT NULL,
            repeat INTEGER NOT NULL DEFAULT 0,
            owner TEXT NOT NULL,
            expires_at REAL NOT NULL,
            PRIMARY KEY (group_id, case_id, system, repeat)
        ) WITHOUT ROWID"""
    )


def _v5_audit(db: sqlite3.Connection) -> None:
    """Each run's request notes (role, served model, fingerprint, finish reason, usage,
    errors) and the earlier attempts a resumed run replaced."""
    db.execute("ALTER TABLE runs ADD COLUMN requests TEXT")
    db.execute("ALTER TABLE runs ADD COLUMN attempts TEXT")


def _v6_repeats(db: sqlite3.Connection) -> None:
    """Repeated runs: each run gets its repeat number (0 for every earlier run) and the
    seeds it used, and a run is unique per (group, case, system, repeat).

    SQLite cannot change a table constraint in place, so the runs table is rebuilt from
    its own current definition (columns other steps added are kept); the rows of tables
    that refer to it (metrics, ...) are set aside while the old table is dropped, so no
    cascade loses them.
    """
    db.execute("ALTER TABLE runs ADD COLUMN repeat INTEGER NOT NULL DEFAULT 0")
    db.execute("ALTER TABLE runs ADD COLUMN seeds TEXT")
    definition = db.execute("SELECT sql FROM sqlite_master WHERE type = 'table' AND name = 'runs'").fetchone()[0]
    widened = re.sub(r"^CREATE TABLE \"?runs\"?", "CREATE TABLE runs_widened", definition).replace(
        "UNIQUE (group_id, case_id, system)", "UNIQUE (group_id, case_id, system, repeat)"
    )
    indexes = [row[0] for row in db.execute(
        "SELECT sql FROM sqlite_master WHERE type = 'index' AND tbl_name = 'runs' AND sql IS NOT NULL"
    )]
    tables = [row[0] for row in db.execute("SELECT name FROM sqlite_master WHERE type = 'table' AND name != 'runs'")]
    children = [t for t in tables if any(fk[2] == "runs" for fk in db.execute(f'PRAGMA foreign_key_list("{t}")'))]
    db.execute(widened)
    db.execute("INSERT INTO runs_widened SELECT * FROM runs")
    for table in children:
        db.execute(f'CREATE TEMP TABLE "kept_{table}" AS SELECT * FROM "{table}"')
        db.execute(f'DELETE FROM "{table}"')
    db.execute("DROP TABLE runs")
    db.execute("ALTER TABLE runs_widened RENAME TO runs")
    for table in children:
        db.execute(f'INSERT INTO "{table}" SELECT * FROM temp."kept_{table}"')
        db.execute(f'DROP TABLE temp."kept_{table}"')
    for index in indexes:
        db.execute(index)


MIGRATIONS: tuple[Callable[[sqlite3.Connection], None], ...] = (
    _v1_groups_and_runs,
    _v2_metrics_table,
    _v3_response_cache,
    _v4_run_claims,
    _v5_audit,
    _v6_repeats,
)
SCHEMA_VERSION = len(MIGRATIONS)


# --- records ----------------------------------------------------------------------------

@dataclass
class RunGroup:
    """One ``medbench run`` invocation: its configuration, seed and progress."""

    id: str
    created_at: str
    seed: int
    config: JSONObject
    complete: int = 0
    incomplete: int = 0

    @property
    def systems(self) -> list[str]:
        return [s["name"] for s in self.config.get("systems", [])]

    @property
    def repeats(self) -> int:
        """How many times each case x system is played (1 unless ``run --repeats``)."""
        return int(self.config.get("repeats", 1))

    @property
    def practice(self) -> bool:
        """A player's practice group: every case the player played, each session a run."""
        play = self.config.get("play")
        return isinstance(play, dict) and bool(play.get("practice"))

    @property
    def planned(self) -> int:
        if self.practice:  # nothing is planned ahead: what was played
            return self.complete + self.incomplete
        return len(self.config.get("cases", [])) * len(self.config.get("systems", [])) * self.repeats

    @property
    def not_run(self) -> int:
        return max(0, self.planned - self.complete - self.incomplete)


@dataclass(slots=True)
class RunRecord:
    """One case x system run. Incomplete runs carry a reason and no metrics.

    Lists from :meth:`RunStore.runs` leave the JSON documents (``transcript``,
    ``scorecard``, ``extraction``) unloaded unless asked with ``full=True``.
    """

    group_id: str
    case_id: str
    case_path: str
    case_sha256: str
    system: str
    status: str
    reason: str | None = None
    system_config: JSONObject = field(default_factory=dict)
    simulator_config: JSONObject = field(default_factory=dict)
    evaluator_config: JSONObject = field(default_factory=dict)
    transcript: JSONObject | None = None
    scorecard: JSONObject | None = None
    extraction: JSONObject | list[JSONValue] | None = None
    metrics: dict[str, float] = field(default_factory=dict)
    labels: dict[str, str] = field(default_factory=dict)
    ranges: dict[str, list[float]] = field(default_factory=dict)
    """metric -> [low, high] if every uncertain decision went the other way (scoring/ranges.py)."""
    steps: int = 0
    num_steps: int | None = None
    outside_soft_range: bool | None = None
    started_at: str = ""
    finished_at: str = ""
    seconds: float = 0.0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    retries: int = 0
    """Requests sent again after a retryable endpoint failure, over the whole run."""
    requests: list[JSONObject] | None = None
    """One note per model request (and failed attempt) of the run: role, model asked for
    and ``served_model``, ``system_fingerprint``, ``finish_reason``, token usage, error."""
    attempts: list[JSONObject] | None = None
    """The earlier runs of this case and system in the group that this one replaced
    (oldest first): status, reason, times, transcript and requests. Filled in by
    :meth:`RunStore.record`."""
    repeat: int = 0
    """Which play of this case x system it is, as stored: 0, 1, ... with ``run --repeats``
    (people read :attr:`repeat_number`)."""
    seeds: dict[str, int | None] = field(default_factory=dict)
    """The seeds the run used (see :mod:`medbench_tui.core.endpoints.seeds`); empty for older runs."""
    id: int | None = None

    @property
    def complete(self) -> bool:
        return self.status == COMPLETE

    @property
    def repeat_number(self) -> int:
        """The repeat as every report, matrix, export and screen numbers it: from 1."""
        return self.repeat + 1

    def transcript_model(self) -> Transcript | None:
        """The stored transcript as a :class:`~medbench_tui.core.transcript.Transcript`."""
        from medbench_tui.core.transcript import Transcript

        return None if self.transcript is None else Transcript.model_validate(self.transcript)

    def scorecard_model(self) -> Scorecard | None:
        """The stored scorecard (with its extraction) as a ``scoring.Scorecard``."""
        from medbench_tui.core.scoring import Scorecard

        if self.scorecard is None:
            return None
        return Scorecard.model_validate({**self.scorecard, "extraction": self.extraction})

    def to_json(self) -> JSONObject:
        return asdict(self)


RANGE_PREFIX = "range:"
"""Metric rows that hold a run's ranges ("range:treatment_accuracy:low"): kept beside the metrics
so reports aggregate them without reading scorecards, and never read as metrics."""


def range_rows(ranges: dict[str, list[float]]) -> dict[str, float]:
    return {f"{RANGE_PREFIX}{name}:{end}": value for name, pair in ranges.items() if len(pair) == 2
            for end, value in zip(("low", "high"), pair, strict=True)}


def split_ranges(numbers: dict[str, float]) -> tuple[dict[str, float], dict[str, list[float]]]:
    """The metrics, and the ranges stored among their rows (``range_rows``): one pass, each name
    looked at once per report rather than once per run (``_range_end``)."""
    metrics: dict[str, float] = {}
    ranges: dict[str, list[float]] = {}
    for key, value in numbers.items():
        end = _range_end(key)
        if end is None:
            metrics[key] = value
        else:
            ranges.setdefault(end[0], [math.nan, math.nan])[end[1]] = value
    return metrics, {k: v for k, v in ranges.items() if not any(math.isnan(x) for x in v)}


@lru_cache(maxsize=1024)
def _range_end(name: str) -> tuple[str, int] | None:
    """(metric, 0 for its low end or 1 for its high) of a range row's name; None for a metric's."""
    if not name.startswith(RANGE_PREFIX):
        return None
    metric, _, end = name[len(RANGE_PREFIX):].rpartition(":")
    return metric, 0 if end == "low" else 1


def flatten_metrics(metrics: JSONObject) -> tuple[dict[str, float], dict[str, str]]:
    """Split a scorecard's ``metrics`` into numbers and labels.

    Booleans count as 100/0; nested mappings become ``outer.inner``. The primary ICD-10
    agreement label also yields the two rates reported for it:
    ``primary_icd10_exact`` and ``primary_icd10_category`` (exact or same category).
    """
    values: dict[str, float] = {}
    labels: dict[str, str] = {}

    def walk(prefix: str, value: JSONValue) -> None:
        if isinstance(value, bool):
            values[prefix] = 100.0 if value else 0.0
        elif isinstance(value, (int, float)):
            values[prefix] = float(value)
        elif isinstance(value, str):
            labels[prefix] = value
        elif isinstance(value, dict):
            for key, inner in value.items():
                walk(f"{prefix}.{key}", inner)

    for name, value in metrics.items():
        walk(name, value)
    agreement = labels.get("primary_icd10")
    if agreement is not None:
        values.setdefault("primary_icd10_exact", 100.0 if agreement == "exact" else 0.0)
        values.setdefault("primary_icd10_category", 100.0 if agreement in ("exact", "category") else 0.0)
    return values, labels


def _insert_metrics(db: sqlite3.Connection, run_id: int, values: dict[str, float], labels: dict[str, str]) -> None:
    rows: list[tuple[int, str, float | None, str | None]] = [
        (run_id, name, value, labels.get(name)) for name, value in values.items()
    ]
    rows += [(run_id, name, None, label) for name, label in labels.items() if name not in values]
    db.executemany("INSERT INTO metrics (run_id, name, value, label) VALUES (?, ?, ?, ?)", rows)


def new_group_id(now: datetime | None = None) -> str:
    """Short, sortable by time, unique enough: ``20250612-143012-7f3a``."""
    now = now or datetime.now(UTC)
    return f"{now:%Y%m%d-%H%M%S}-{_random.token_hex(2)}"


def utc_now() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds")


# --- the store --------------------------------------------------------------------------

_RUN_COLUMNS = (
    "id", "group_id", "case_id", "case_path", "case_sha256", "system", "status", "reason",
    "system_config", "simulator_config", "evaluator_config", "steps", "num_steps",
    "outside_soft_range", "started_at", "finished_at", "seconds", "prompt_tokens",
    "completion_tokens", "retries", "repeat", "seeds",
)
_JSON_COLUMNS = ("transcript", "scorecard", "extraction", "requests", "attempts")
_ATTEMPT_COLUMNS = ("status", "reason", "started_at", "finished_at", "seconds", "steps", "retries", "transcript",
                    "requests", "attempts")
_CONFIG_COLUMNS = ("system_config", "simulator_config", "evaluator_config", "seeds")
_SHARED_COLUMNS = ("group_id", "case_id", "case_path", "case_sha256", "system", "status")
"""Texts many runs repeat: read once, each run pointing at the same string."""
METRICS_CHUNK = 500
"""Runs whose metric rows are read in one query (and held at once while their records are made)."""
_NUMBER_COLUMNS = ("steps", "num_steps", "seconds", "prompt_tokens", "completion_tokens", "retries",
                   "outside_soft_range", "repeat")


def _json_part(document: JSONValue, path: str) -> JSONValue:
    """The value at a plain JSON path ("$.cost.unpriced") of a decoded document, as SQLite's
    ``json_extract`` finds it (None where absent)."""
    found = document
    for key in path.removeprefix("$").split(".")[1:]:
        if not isinstance(found, dict):
            return None
        found = found.get(key)
    return found


def existing_store(path: Path) -> RunStore | None:
    """The run store at ``path`` when one was ever written there (never created), else None:
    for screens that only read runs."""
    try:
        return RunStore(path, create=False)
    except MedbenchError:
        return None


class RunStore:
    """Reader and writer of one run store file. Safe to share between threads."""

    def __init__(self, path: Path, *, create: bool = True) -> None:
        self.path = Path(path)
        if not create and not self.path.is_file():
            raise MedbenchError(f"no run store at {self.path}: run 'medbench run' first, or pass --store")
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self._db = sqlite3.connect(
                self.path, isolation_level=None, check_same_thread=False, timeout=BUSY_TIMEOUT_MS / 1000
            )
            self._db.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
            self._db.execute("PRAGMA journal_mode = WAL")
            self._db.execute("PRAGMA synchronous = NORMAL")
            self._db.execute("PRAGMA foreign_keys = ON")
        except (OSError, sqlite3.Error) as exc:
            raise MedbenchError(f"cannot open the run store {self.path}: {exc}; pass --store PATH") from None
        self._lock = threading.RLock()
        self._redacted: dict[tuple[str, frozenset[str], frozenset[str]], str] = {}
        """Stored JSON of documents that needed a redaction walk, by their plain JSON, the secrets
        and the credential header names known (see :meth:`_json`)."""
        try:
            migrate(self._db)
        except sqlite3.OperationalError as exc:  # locked by another process, disk full, read-only
            self._db.close()
            raise self.unwritable(exc) from None
        except sqlite3.DatabaseError as exc:
            raise self._damaged("the file", str(exc)) from None

    def check_writable(self) -> None:
        """Write to the file once (and take it back): a store that cannot be written is said now,
        not when the first run ends (``medbench serve`` checks before any student starts)."""
        try:
            with self.transaction() as db:
                db.execute("CREATE TABLE writable_check (x)")
                db.execute("DROP TABLE writable_check")
        except sqlite3.Error as exc:
            raise MedbenchError(f"cannot write to the run store {self.path}: {exc}") from None

    @property
    def secrets(self) -> set[str]:
        """The secret values known now (a client built after the store opened adds its key)."""
        return secret_values()

    def close(self) -> None:
        with self._lock:
            self._db.close()

    def __enter__(self) -> RunStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @contextmanager
    def transaction(self) -> Iterator[sqlite3.Connection]:
        """One write transaction (``BEGIN IMMEDIATE``): all of it, or none of it."""
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                yield self._db
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
            self._db.execute("COMMIT")

    @contextmanager
    def connection(self) -> Iterator[sqlite3.Connection]:
        """The connection, held for a few reads (or DDL) by a module that keeps its own
        tables in the store, such as the adjudication records."""
        with self._lock:
            yield self._db

    def _query(self, sql: str, params: Sequence[object] = ()) -> list[sqlite3.Row]:
        with self._lock:
            try:
                cursor = self._db.execute(sql, params)
                cursor.row_factory = sqlite3.Row
                return cursor.fetchall()
            except sqlite3.OperationalError as exc:  # locked for too long, or a schema we do not know
                raise MedbenchError(f"cannot read the run store {self.path}: {exc}") from None
            except sqlite3.DatabaseError as exc:  # damaged pages
                raise self._damaged("the file", str(exc)) from None

    def unwritable(self, exc: sqlite3.Error) -> MedbenchError:
        """A write the store refused, in words that say what to do."""
        detail = str(exc)
        if "locked" in detail or "busy" in detail:
            why = (f"another process has held it locked for more than {BUSY_TIMEOUT_MS // 1000} s (a run or a "
                   "resume in progress?): wait for it to finish and try again, or pass --store PATH")
        elif "full" in detail:
            why = "the disk is full: free some space and try again"
        elif "readonly" in detail or "read-only" in detail:
            why = "it is read-only: pass --store PATH to write runs elsewhere"
        else:
            why = detail
        return MedbenchError(f"cannot write to the run store {self.path}: {why}")

    def _damaged(self, what: str, detail: str) -> MedbenchError:
        return MedbenchError(f"the run store {self.path} is damaged ({what}: {detail}): restore it from a "
                             "backup, or pass --store PATH to start a new one")

    def _decode(self, text: str | bytes | None, what: str) -> JSONValue:
        """A stored JSON value; a row changed by hand or by a failing disk is reported, never a trace."""
        if text is None:
            return None
        try:
            return json.loads(text)
        except (TypeError, ValueError):
            raise self._damaged(what, "not valid JSON") from None

    def _json(self, value: JSONValue, secrets: set[str] | None = None) -> str | None:
        """``value`` as stored JSON, secrets redacted in its texts and every text valid Unicode
        (``secrets``: those known now, looked up once by a caller writing several values)."""
        if value is None:
            return None
        known = self.secrets if secrets is None else secrets
        try:  # the common case: nothing to redact and every text valid, so the JSON as it is
            text = to_json(value, inf_nan_mode="constants").decode()
        except PydanticSerializationError:  # a lone surrogate (made valid below), or a value of no JSON type
            text = None
        if text is not None and not may_need_redaction(text, known):
            return text
        key = None if text is None or len(text) > REDACTED_MEMO_CHARS else (text, frozenset(known), header_names())
        if key is not None and (redacted := self._redacted.get(key)) is not None:
            return redacted
        value = valid_data(redact_data(value, known, verbatim=PATH_KEYS))
        # pydantic's encoder: what json.dumps writes (NaN too), in a quarter of the time
        redacted = to_json(value, inf_nan_mode="constants").decode()
        if key is not None:
            with self._lock:
                if len(self._redacted) >= REDACTED_MEMO_SIZE:
                    self._redacted.pop(next(iter(self._redacted)))
                self._redacted[key] = redacted
        return redacted

    @property
    def schema_version(self) -> int:
        return self._query("PRAGMA user_version")[0][0]

    # writing

    def update_group_config(self, group_id: str, config: JSONObject) -> None:
        """Replace a group's configuration (a practice group lists each new case it is played on)."""
        try:
            with self.transaction() as db:
                db.execute("UPDATE run_groups SET config = ? WHERE id = ?", (self._json(config), group_id))
        except sqlite3.OperationalError as exc:
            raise MedbenchError(f"cannot write to the run store {self.path}: {exc}") from exc

    def create_group(self, config: JSONObject, seed: int, *, group_id: str | None = None) -> RunGroup:
        """A new group; ``group_id``: the id chosen beforehand (by the process that shows
        the group, while another plays it), else a new one."""
        text = self._json(config)
        for _ in range(1 if group_id else 5):
            group = RunGroup(id=group_id or new_group_id(), created_at=utc_now(), seed=seed,
                             config=json.loads(text or "{}"))
            try:
                with self.transaction() as db:
                    db.execute(
                        "INSERT INTO run_groups (id, created_at, seed, config) VALUES (?, ?, ?, ?)",
                        (group.id, group.created_at, seed, text),
                    )
                return group
            except sqlite3.IntegrityError:
                continue
            except sqlite3.OperationalError as exc:  # locked for too long, disk full, read-only
                raise self.unwritable(exc) from None
        if group_id:
            raise MedbenchError(f"the run store {self.path} already holds a group {group_id}")
        raise MedbenchError(f"could not create a run group in {self.path}")

    def record(self, run: RunRecord) -> int:
        """Write one run and its metrics in one transaction, replacing an earlier run of
        the same case and system in the group (a resumed run): the earlier run is kept
        in ``attempts``, so a resume never erases a failure. Metrics of an incomplete
        run are never written."""
        metrics = run.metrics if run.complete else {}
        secrets = self.secrets
        labels = run.labels if run.complete else {}
        row = {
            "group_id": run.group_id, "case_id": run.case_id, "case_path": run.case_path,
            "case_sha256": run.case_sha256, "system": run.system, "status": run.status,
            "reason": None if run.reason is None else valid_text(redact(run.reason, secrets)),
            "system_config": self._json(run.system_config, secrets),
            "simulator_config": self._json(run.simulator_config, secrets),
            "evaluator_config": self._json(run.evaluator_config, secrets),
            "transcript": self._json(run.transcript, secrets),
            "scorecard": self._json(run.scorecard, secrets) if run.complete else None,
            "extraction": self._json(run.extraction, secrets) if run.complete else None,
            "steps": run.steps, "num_steps": run.num_steps,
            "outside_soft_range": None if run.outside_soft_range is None else int(run.outside_soft_range),
            "started_at": run.started_at, "finished_at": run.finished_at, "seconds": run.seconds,
            "prompt_tokens": run.prompt_tokens, "completion_tokens": run.completion_tokens,
            "retries": run.retries, "repeat": run.repeat, "seeds": self._json(run.seeds, secrets),
        }
        try:
            with self.transaction() as db:
                run.attempts = [*(run.attempts or []), *self._earlier(db, run)]
                row["requests"] = self._json(run.requests, secrets)
                row["attempts"] = self._json(run.attempts or None, secrets)
                columns = ", ".join(row)
                marks = ", ".join("?" for _ in row)
                db.execute(
                    "DELETE FROM runs WHERE group_id = ? AND case_id = ? AND system = ? AND repeat = ?",
                    (run.group_id, run.case_id, run.system, run.repeat),
                )
                run_id = db.execute(f"INSERT INTO runs ({columns}) VALUES ({marks})", list(row.values())).lastrowid
                assert run_id is not None  # an INSERT always sets it
                _insert_metrics(db, run_id, {**metrics, **(range_rows(run.ranges) if run.complete else {})}, labels)
        except sqlite3.OperationalError as exc:  # disk full, read-only, locked for too long
            raise self.unwritable(exc) from exc
        run.id = run_id
        return run_id

    # claims

    def claim(self, group_id: str, case_id: str, system: str, owner: str, *, lease: float, repeat: int = 0,
              now: float | None = None, gone: Callable[[str], bool] = lambda owner: False) -> bool:
        """Take the lease on one run (one repeat of a case x system) for ``lease`` seconds:
        False when another owner holds a lease that has not expired (and is not ``gone``: a
        process known to be dead), or the run is already complete."""
        now = time.time() if now is None else now
        where = "group_id = ? AND case_id = ? AND system = ? AND repeat = ?"
        try:
            with self.transaction() as db:
                key = (group_id, case_id, system, repeat)
                done = db.execute(f"SELECT 1 FROM runs WHERE {where} AND status = 'complete'", key).fetchone()
                if done:
                    return False
                db.execute(f"DELETE FROM claims WHERE {where} AND (expires_at < ? OR owner = ?)", (*key, now, owner))
                holder = db.execute(f"SELECT owner FROM claims WHERE {where}", key).fetchone()
                if holder is not None and gone(holder[0]):
                    db.execute(f"DELETE FROM claims WHERE {where}", key)
                taken = db.execute(
                    "INSERT OR IGNORE INTO claims (group_id, case_id, system, repeat, owner, expires_at) "
                    "VALUES (?, ?, ?, ?, ?, ?)", (*key, owner, now + lease)
                )
                return taken.rowcount == 1
        except sqlite3.OperationalError as exc:
            raise self.unwritable(exc) from exc

    def renew_claims(self, owner: str, *, lease: float) -> None:
        """Keep ``owner``'s leases alive for another ``lease`` seconds."""
        with self.transaction() as db:
            db.execute("UPDATE claims SET expires_at = ? WHERE owner = ?", (time.time() + lease, owner))

    def release(self, group_id: str, case_id: str, system: str, owner: str, *, repeat: int = 0) -> None:
        with self.transaction() as db:
            db.execute("DELETE FROM claims WHERE group_id = ? AND case_id = ? AND system = ? AND repeat = ? "
                       "AND owner = ?", (group_id, case_id, system, repeat, owner))

    @staticmethod
    def _earlier(db: sqlite3.Connection, run: RunRecord) -> list[JSONObject]:
        """The stored run this one replaces, as attempts (its own earlier ones first)."""
        cursor = db.execute(
            f"SELECT {', '.join(_ATTEMPT_COLUMNS)} FROM runs "
            "WHERE group_id = ? AND case_id = ? AND system = ? AND repeat = ?",
            (run.group_id, run.case_id, run.system, run.repeat),
        )
        found = cursor.fetchone()
        if found is None:
            return []
        earlier = dict(zip(_ATTEMPT_COLUMNS, found, strict=True))
        for key in ("transcript", "requests", "attempts"):
            earlier[key] = None if earlier[key] is None else json.loads(earlier[key])
        older = earlier.pop("attempts") or []
        return [*older, {k: v for k, v in earlier.items() if v is not None}]

    # reading

    def groups(self) -> list[RunGroup]:
        """Every run group, the one last played first (its latest run, or its creation), with its
        counts of complete and incomplete runs: a group played into again (a resume, a practice
        session) is the latest one."""
        rows = self._query(
            """SELECT g.id, g.created_at, g.seed, g.config,
                      COALESCE(SUM(r.status = 'complete'), 0) AS complete,
                      COALESCE(SUM(r.status = 'incomplete'), 0) AS incomplete
               FROM run_groups g LEFT JOIN runs r ON r.group_id = g.id
               GROUP BY g.id ORDER BY MAX(g.created_at, COALESCE(MAX(r.finished_at), '')) DESC, g.id DESC"""
        )
        return [self._group(row) for row in rows]

    def group(self, group_id: str) -> RunGroup:
        rows = self._query(
            """SELECT g.id, g.created_at, g.seed, g.config,
                      COALESCE(SUM(r.status = 'complete'), 0) AS complete,
                      COALESCE(SUM(r.status = 'incomplete'), 0) AS incomplete
               FROM run_groups g LEFT JOIN runs r ON r.group_id = g.id
               WHERE g.id = ? GROUP BY g.id""",
            (group_id,),
        )
        if not rows:
            known = ", ".join(g.id for g in self.groups()[:5]) or "none yet"
            raise MedbenchError(f"no run group '{group_id}' in {self.path} (latest: {known})")
        return self._group(rows[0])

    def latest_group(self) -> RunGroup | None:
        groups = self.groups()
        return groups[0] if groups else None

    def _group(self, row: sqlite3.Row) -> RunGroup:
        config = self._decode(row["config"], f"run group {row['id']}, config")
        if not isinstance(config, dict) or not isinstance(row["seed"], int):
            raise self._damaged(f"run group {row['id']}", "its configuration or seed is not what medbench wrote")
        return RunGroup(
            id=row["id"], created_at=row["created_at"], seed=row["seed"], config=config,
            complete=row["complete"], incomplete=row["incomplete"],
        )

    def runs(
        self, group_id: str, *, system: str | None = None, status: str | None = None, full: bool = False,
        configs: bool = True,
    ) -> list[RunRecord]:
        """The runs of a group (ordered by case, then system), with their metrics. ``configs=False``
        leaves each run's system, simulator and evaluator configurations and seeds empty: a report
        of thousands of runs needs none of them, and they are most of what a run holds."""
        where, params = ["group_id = ?"], [group_id]
        if system is not None:
            where.append("system = ?")
            params.append(system)
        if status is not None:
            where.append("status = ?")
            params.append(status)
        return self._runs(" AND ".join(where), params, full=full, order="case_id, system, repeat", configs=configs)

    def run_index(self, group_id: str) -> list[tuple[str, str, str]]:
        """(case id, system, case path) of a group's runs, each once, in the order of :meth:`runs`
        (of one case and system, the path of its last repeat last): what a report knows of the runs
        before it reads them a system at a time."""
        rows = self._query(
            "SELECT case_id, system, case_path FROM runs WHERE group_id = ? GROUP BY case_id, system, case_path "
            "ORDER BY case_id, system, MAX(repeat)", [group_id],
        )
        return [(row["case_id"], row["system"], row["case_path"]) for row in rows]

    def run(self, run_id: int) -> RunRecord:
        """One run with everything: transcript, scorecard, extraction."""
        found = self._runs("id = ?", [run_id], full=True)
        if not found:
            raise MedbenchError(f"no run {run_id} in {self.path}")
        return found[0]

    def find_run(self, group_id: str, case_id: str, system: str, repeat: int = 0) -> RunRecord | None:
        found = self._runs("group_id = ? AND case_id = ? AND system = ? AND repeat = ?",
                           [group_id, case_id, system, repeat], full=True)
        return found[0] if found else None

    def documents(self, run_ids: list[int], names: tuple[str, ...]) -> Iterator[tuple[int, JSONObject]]:
        """The stored JSON documents ``names`` (of transcript, scorecard, extraction, requests,
        attempts) of the runs ``run_ids``, decoded a few runs at a time: a report of thousands
        of runs reads them all without holding them all."""
        unknown = set(names) - set(_JSON_COLUMNS)
        if unknown:
            raise ValueError(f"no stored documents {sorted(unknown)}")
        for start in range(0, len(run_ids), 100):
            chunk = run_ids[start : start + 100]
            rows = self._query(
                f"SELECT id, {', '.join(names)} FROM runs WHERE id IN ({', '.join('?' * len(chunk))}) ORDER BY id",
                chunk,
            )
            for row in rows:
                yield row["id"], {name: self._decode(row[name], f"run {row['id']}, {name}") for name in names}

    def document_parts(self, run_ids: list[int], name: str, paths: tuple[str, str, *tuple[str, ...]]
                       ) -> Iterator[tuple[int, list[JSONValue]]]:
        """Parts of the stored JSON document ``name`` of the runs ``run_ids``: the values at the
        JSON ``paths`` ("$.harm", two or more; None where absent), picked out by SQLite, so that a
        caller needing a few fields of thousands of scorecards never builds the rest in Python.
        A document SQLite cannot read (NaN, as medbench may write it, or damage) is decoded here.
        Two or more paths, because then SQLite writes the parts as they are stored (a number's own
        digits); one value alone it would hand back converted, a float to 15 digits."""
        if name not in _JSON_COLUMNS:
            raise ValueError(f"no stored document {name!r}")
        marks = ", ".join("?" * len(paths))
        for start in range(0, len(run_ids), METRICS_CHUNK):
            chunk = run_ids[start : start + METRICS_CHUNK]
            rows = self._query(
                f"SELECT id, CASE WHEN json_valid({name}) THEN json_extract({name}, {marks}) END AS parts, "
                f"CASE WHEN {name} IS NOT NULL AND NOT json_valid({name}) THEN {name} END AS unread "
                f"FROM runs WHERE id IN ({', '.join('?' * len(chunk))}) ORDER BY id",
                [*paths, *chunk],
            )
            for row in rows:
                if row["unread"] is not None:
                    yield row["id"], [_json_part(self._decode(row["unread"], f"run {row['id']}, {name}"), path)
                                      for path in paths]
                else:
                    yield row["id"], json.loads(row["parts"]) if row["parts"] is not None else [None] * len(paths)

    def case_runs(self, case_id: str, *, full: bool = False, system: str | None = None) -> list[RunRecord]:
        """Every run of one case across groups (by ``system``, else by every one), oldest first."""
        if system is not None:
            return self._runs("case_id = ? AND system = ?", [case_id, system], full=full, order="started_at, id")
        return self._runs("case_id = ?", [case_id], full=full, order="started_at, id")

    def _runs(self, where: str, params: Sequence[object], *, full: bool, order: str = "id",
              configs: bool = True) -> list[RunRecord]:
        columns = [c for c in _RUN_COLUMNS if configs or c not in _CONFIG_COLUMNS]
        columns += list(_JSON_COLUMNS) if full else []
        rows = self._query(f"SELECT {', '.join(columns)} FROM runs WHERE {where} ORDER BY {order}", params)
        records = []
        shared: dict[str, str] = {}
        metrics: dict[int, tuple[dict[str, float], dict[str, str]]] = {}
        for at, row in enumerate(rows):
            if at % METRICS_CHUNK == 0:  # a chunk's metrics at a time: never every run's rows at once
                metrics = self._metrics([r["id"] for r in rows[at : at + METRICS_CHUNK]])
            values = dict(row)
            for key in _SHARED_COLUMNS:
                if isinstance(values[key], str):
                    values[key] = shared.setdefault(values[key], values[key])
            for key in (c for c in _CONFIG_COLUMNS + (_JSON_COLUMNS if full else ()) if c in values):
                values[key] = self._decode(values[key], f"run {row['id']}, {key}")
            for key in _NUMBER_COLUMNS:
                if values[key] is not None and not isinstance(values[key], (int, float)):
                    raise self._damaged(f"run {row['id']}, {key}", f"{str(values[key])[:40]!r} is not a number")
            values["seeds"] = values.get("seeds") or {}
            if values["outside_soft_range"] is not None:
                values["outside_soft_range"] = bool(values["outside_soft_range"])
            numbers, labels = metrics.get(row["id"], ({}, {}))
            numbers, ranges = split_ranges(numbers)
            records.append(RunRecord(**values, metrics=numbers, labels=labels, ranges=ranges))
        return records

    def _metrics(self, run_ids: list[int]) -> dict[int, tuple[dict[str, float], dict[str, str]]]:
        """The metrics and labels of a few runs (at most METRICS_CHUNK: one query)."""
        found: dict[int, tuple[dict[str, float], dict[str, str]]] = {}
        rows = self._query(
            f"SELECT run_id, name, value, label FROM metrics WHERE run_id IN ({', '.join('?' * len(run_ids))})",
            run_ids,
        )
        for run_id, name, value, label in rows:
            if value is not None and not isinstance(value, (int, float)):
                raise self._damaged(f"run {run_id}, metric {name}", f"{str(value)[:40]!r} is not a number")
            name = sys.intern(name)  # one string for every run's "diagnosis_accuracy"
            entry = found.get(run_id)
            if entry is None:  # not setdefault: two new dicts a row, thrown away for all but the first
                entry = found[run_id] = ({}, {})
            numbers, labels = entry
            if value is not None:
                numbers[name] = value
            if label is not None:
                labels[name] = label
        return found

    def integrity_problems(self) -> list[str]:
        """``PRAGMA integrity_check`` and ``foreign_key_check``: empty when all is well."""
        problems = [row[0] for row in self._query("PRAGMA integrity_check") if row[0] != "ok"]
        problems += [f"dangling row in {row[0]}" for row in self._query("PRAGMA foreign_key_check")]
        return problems

    # response cache (see cache.py)

    def cached_response(self, key: str) -> str | None:
        rows = self._query("SELECT response FROM response_cache WHERE key = ?", (key,))
        return rows[0][0] if rows else None

    def cache_response(self, key: str, response: JSONObject) -> None:
        with self.transaction() as db:
            db.execute(
                "INSERT OR REPLACE INTO response_cache (key, response, created_at) VALUES (?, ?, ?)",
                (key, self._json(response), utc_now()),
            )

    # exports

    def export_jsonl(self, group_id: str, out: IO[str]) -> int:
        """One JSON object per run (everything stored). Returns the number of runs."""
        runs = self.runs(group_id, full=True)
        for run in runs:
            out.write(json.dumps({**run.to_json(), "repeat": run.repeat_number}, ensure_ascii=False,
                                 separators=(",", ":")) + "\n")
        return len(runs)

    def export_csv(self, group_id: str, out: IO[str]) -> int:
        """One row per run: identity, status, timings, usage, then one column per metric."""
        runs = self.runs(group_id)
        names = sorted({name for run in runs for name in (*run.metrics, *run.labels)})
        head = [
            "group_id", "case_id", "system", "repeat", "status", "reason", "case_sha256", "steps", "num_steps",
            "outside_soft_range", "seconds", "prompt_tokens", "completion_tokens", "retries",
        ]
        writer = csv.writer(out, lineterminator="\n")
        writer.writerow(head + names)
        for run in runs:
            values = {**run.to_json(), "repeat": run.repeat_number}
            cells = ["" if values[key] is None else values[key] for key in head]
            cells += [run.metrics.get(name, run.labels.get(name, "")) for name in names]
            writer.writerow(cells)
        return len(runs)

    def export_text(self, group_id: str, fmt: str) -> str:
        """The whole group as ``jsonl`` or ``csv`` text."""
        buffer = io.StringIO()
        {"jsonl": self.export_jsonl, "csv": self.export_csv}[fmt](group_id, buffer)
        return redact(buffer.getvalue())


def migrate(db: sqlite3.Connection) -> int:
    """Bring the schema to :data:`SCHEMA_VERSION`, one step per transaction."""
    version = db.execute("PRAGMA user_version").fetchone()[0]
    if version > SCHEMA_VERSION:
        raise MedbenchError(
            f"the run store has schema version {version}, newer than this medbench knows "
            f"({SCHEMA_VERSION}): upgrade medbench or pass another --store"
        )
    for number in range(version + 1, SCHEMA_VERSION + 1):
        db.execute("BEGIN IMMEDIATE")
        try:
            if db.execute("PRAGMA user_version").fetchone()[0] < number:  # another process may have done it
                MIGRATIONS[number - 1](db)
                db.execute(f"PRAGMA user_version = {number}")
        except BaseException:
            db.execute("ROLLBACK")
            raise
        db.execute("COMMIT")
    return SCHEMA_VERSION

