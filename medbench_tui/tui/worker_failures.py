"""One way for every worker failure to reach the author: a notification, never a crash.

``Worker.StateChanged`` does not bubble, so each node that runs workers mixes this in;
the app formats the notification (:meth:`MedbenchApp.report_worker_failure`).
"""

from __future__ import annotations

from textual.worker import Worker, WorkerState


class ReportsWorkerFailures:
    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        if event.state == WorkerState.ERROR:
            self.app.report_worker_failure(event.worker)  # type: ignore[attr-defined]
