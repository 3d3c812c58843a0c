"""When and how long to wait before sending a request to an endpoint again.

Retried: what :class:`~medbench_tui.core.endpoints.client.EndpointError` marks
``retryable`` (429 rate limits, 5xx, timeouts, dropped connections, garbled replies).
Never retried: 400/401/403/404, an exhausted quota, a request longer than the
context and images sent to a model that takes none (whatever their status: llama.cpp
answers those with 500); retrying cannot fix them, so the run ends incomplete with the
reason. An unreachable server (connection refused or dropped) is retried for a time
budget (``unreachable_seconds``) rather than a number of attempts: a server that
restarts should not fail a whole run group. Waits grow exponentially with "equal jitter"
(half fixed, half random) so runs that hit one rate limit do not return in lockstep,
and are never shorter than the server's ``Retry-After``.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, TypeVar

from medbench_tui.core.endpoints.errors import UNREACHABLE, EndpointError

if TYPE_CHECKING:
    from medbench_tui.core.settings import RunnerSettings

T = TypeVar("T")


@dataclass(frozen=True)
class RetryPolicy:
    attempts: int = 6
    """Tries in all, the first included."""
    base_delay: float = 0.5
    max_delay: float = 30.0
    max_retry_after: float = 300.0
    """A server asking for a longer pause than this ends the run instead."""
    unreachable_seconds: float = 120.0
    """How long to keep retrying a server that cannot be reached (waits summed)."""

    def __post_init__(self) -> None:
        if self.attempts < 1:
            raise ValueError("a retry policy needs at least one attempt")

    @classmethod
    def from_settings(cls, runner: RunnerSettings) -> RetryPolicy:
        """From the ``runner:`` settings, for the CLI and the TUI alike."""
        return cls(attempts=runner.retry_attempts, max_retry_after=runner.max_retry_after,
                   unreachable_seconds=runner.unreachable_seconds)

    def delay(self, retry: int, retry_after: float | None, rng: random.Random) -> float:
        """Seconds to wait before retry number ``retry`` (1 = the first retry)."""
        backoff = min(self.max_delay, self.base_delay * 2 ** (retry - 1))
        wait = backoff / 2 + rng.uniform(0, backoff / 2)
        return max(wait, retry_after or 0.0)


def as_endpoint_error(exc: BaseException) -> EndpointError | None:
    """The endpoint failure an exception stands for, or None when it is not one (a bug,
    which must surface rather than be retried)."""
    if isinstance(exc, EndpointError):
        return exc
    if isinstance(exc, (TimeoutError, asyncio.TimeoutError)):
        return EndpointError("the endpoint did not answer in time", retryable=True)
    if isinstance(exc, ConnectionError):
        return EndpointError(f"the connection to the endpoint failed: {exc}", retryable=True)
    return None


async def call_with_retry(
    call: Callable[[], Awaitable[T]],
    *,
    policy: RetryPolicy,
    rng: random.Random,
    on_retry: Callable[[int, float, EndpointError], None] | None = None,
    sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
) -> T:
    """Await ``call()`` until it succeeds. A failure retrying cannot fix, or the last
    one, is raised as an :class:`EndpointError` (not retryable any more) whose message
    counts the attempts. Exceptions that are not endpoint failures pass through."""
    attempt, waited = 0, 0.0
    while True:
        attempt += 1
        try:
            return await call()
        except Exception as exc:
            error = as_endpoint_error(exc)
            if error is None:
                raise
            too_long = error.retry_after is not None and error.retry_after > policy.max_retry_after
            delay = policy.delay(attempt, error.retry_after, rng)
            if error.code == UNREACHABLE:
                spent = waited + delay > policy.unreachable_seconds
            else:
                spent = attempt >= policy.attempts
            if not error.retryable or spent or too_long:
                raise _gave_up(error, attempt, too_long, waited) from exc
            if on_retry is not None:
                on_retry(attempt, delay, error)
            await sleep(delay)
            waited += delay


def _gave_up(error: EndpointError, attempts: int, too_long: bool, waited: float) -> EndpointError:
    message = str(error)
    if too_long:
        message += f" (asked to wait {error.retry_after:.0f} s, more than the runner waits)"
    elif attempts > 1:
        message += f" (gave up after {attempts} attempts over {waited:.0f} s)"
    return EndpointError(message, retryable=False, status=error.status, retry_after=error.retry_after,
                         code=error.code)
