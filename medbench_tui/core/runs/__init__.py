"""Batch runs: the run store, the runner, retries and the response cache.

``store`` is the reader API the CLI and the TUI share (groups, runs, one run, a case
across groups, exports); ``runner`` plays systems over cases into the store and reports
progress as events.
"""

from medbench_tui.core.runs.runner import (
    GroupFinished,
    GroupResult,
    GroupStarted,
    ProgressEvent,
    RequestRetried,
    RunFinished,
    Runner,
    RunPlan,
    RunStarted,
    plan_resume,
    plan_run,
)
from medbench_tui.core.runs.store import (
    COMPLETE,
    INCOMPLETE,
    SCHEMA_VERSION,
    RunGroup,
    RunRecord,
    RunStore,
)

__all__ = [
    "COMPLETE",
    "INCOMPLETE",
    "SCHEMA_VERSION",
    "GroupFinished",
    "GroupResult",
    "GroupStarted",
    "ProgressEvent",
    "RequestRetried",
    "RunFinished",
    "RunGroup",
    "RunPlan",
    "RunRecord",
    "RunStarted",
    "RunStore",
    "Runner",
    "plan_resume",
    "plan_run",
]
