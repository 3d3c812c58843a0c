"""One way for every worker failure to reach the author: a notification, never a crash.

``Worker.StateChanged`` does not bubble, so each node that runs workers mixes this in;
the app formats the notification (:meth:`MedbenchApp.report_worker_failure`).
"""

from __future__ import annotations

from textual.message_pump import MessagePump
from textual.worker import Worker, WorkerState

from medbench_tui.tui.typed_app import medbench_app


class ReportsWorkerFailures(MessagePump):
    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        if event.state == WorkerState.ERROR:
            medbench_app(self).report_worker_failure(event.worker)
