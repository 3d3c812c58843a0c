"""What Compare plays in its batch process: plan the cases, open the run group, add the
player's played runs, play the rest. Plain values in, so that it crosses into the child
process (:class:`medbench_tui.core.runs.background.BatchProcess`); no Textual here."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path

from medbench_tui.core.runs.background import BackgroundRun
from medbench_tui.core.runs.runner import GroupResult, ProgressEvent
from medbench_tui.core.settings import RunnerSettings


@dataclass(frozen=True)
class ComparisonStarted:
    """The group is open and its runs are about to play."""

    group_id: str
    runs: int
    note: str
    """What was added beside the runs (the player's played runs), or empty."""


ComparisonNews = ComparisonStarted | ProgressEvent


@dataclass(frozen=True)
class ComparisonJob:
    bank_root: Path
    run_store: Path
    machines: list[str]
    """The system specs the runner plays (the player's runs are copied, not played)."""
    files: list[Path] | None
    """The chosen case files; None: every case of the bank."""
    simulator: str
    player: str
    with_player: bool
    group_id: str
    """Chosen by the screen, which shows the group while the child plays it."""
    runner: RunnerSettings

    def __call__(self, batch: BackgroundRun, tell: Callable[[ComparisonNews], None]) -> GroupResult:
        from medbench_tui.core.cases.bank import Bank
        from medbench_tui.core.comparison.plan import comparison_config, plan_cases, retry_policy
        from medbench_tui.core.practice.session import latest_played_runs
        from medbench_tui.core.runs.preflight import check_endpoints
        from medbench_tui.core.runs.runner import Runner
        from medbench_tui.core.runs.store import RunStore

        plan = plan_cases(Bank(self.bank_root, self.run_store), self.machines, self.files, self.simulator)
        check_endpoints(plan)  # an endpoint that cannot be reached is said now, not after minutes of retries
        store = RunStore(self.run_store)
        config = comparison_config(plan, self.player, self.with_player)
        group = store.create_group(config, plan.seed, group_id=self.group_id)
        note = ""
        if self.with_player:
            played = latest_played_runs(store, [c.id for c in plan.cases], self.player)
            for run in played.values():
                store.record(replace(run, group_id=group.id, id=None))
            note = f"Your played runs: {len(played)} of {len(plan.cases)} cases."
        tell(ComparisonStarted(group.id, len(plan.cases) * len(plan.systems), note))
        runner = Runner(
            store, plan, group=group, concurrency=self.runner.concurrency,
            endpoint_concurrency=self.runner.endpoint_concurrency, retry=retry_policy(self.runner),
            on_event=tell,
        )
        return batch.play(runner)
