"""Before a batch starts: does every model endpoint its runs need answer?

A server that cannot be reached mid-run is retried for ``runner.unreachable_seconds`` (a
restart must not fail a whole group); one that cannot be reached when the batch starts is
said at once instead, with what to check, and nothing is played. Each endpoint (a system,
the patient simulator, the evaluator) is asked ``GET {base_url}/models`` once, all at the
same time. A refused key or a missing key variable stops the start too (every request would
be refused); a server error or a rate limit does not (the runs retry those).
"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING

from medbench_tui.core.endpoints.errors import TIMED_OUT, UNREACHABLE, EndpointError
from medbench_tui.core.errors import MedbenchError

if TYPE_CHECKING:
    from medbench_tui.core.cases.bankconfig import EndpointConfig
    from medbench_tui.core.runs.runner import RunPlan

PROBE_SECONDS = 5.0
"""How long an endpoint may take to answer the probe."""


def _stops_a_start(error: EndpointError) -> bool:
    return error.code in (UNREACHABLE, TIMED_OUT) or not error.retryable


async def _probe(endpoint: EndpointConfig, timeout: float) -> EndpointError | None:
    from medbench_tui.core.endpoints.client import ChatClient

    try:
        client = ChatClient.for_endpoint(endpoint)
    except EndpointError as exc:  # the key variable is not set
        return exc
    try:
        return await client.probe(timeout)
    finally:
        await client.aclose()


async def endpoint_problems(plan: RunPlan, timeout: float = PROBE_SECONDS) -> list[str]:
    """One line per endpoint of ``plan`` that cannot be used now: who uses it and why."""
    users: dict[tuple[str, str | None], list[str]] = {}
    configs: dict[tuple[str, str | None], EndpointConfig] = {}
    for who, endpoint in plan.endpoints():
        key = (endpoint.base_url, endpoint.api_key_env)
        users.setdefault(key, []).append(who)
        configs.setdefault(key, endpoint)
    found = await asyncio.gather(*(_probe(config, timeout) for config in configs.values()))
    return [
        f"{' and '.join(users[key])}: {error}"
        for key, error in zip(configs, found, strict=True)
        if error is not None and _stops_a_start(error)
    ]


def check_endpoints(plan: RunPlan, timeout: float = PROBE_SECONDS) -> None:
    """Raise a :class:`MedbenchError` naming every endpoint of ``plan`` that cannot be used."""
    if not plan.endpoints():
        return
    problems = asyncio.run(endpoint_problems(plan, timeout))
    if problems:
        where = plan.bank.config.where()
        raise MedbenchError(
            "not started: an endpoint the runs need cannot be used:\n  " + "\n  ".join(problems)
            + f"\n  (start the server, or correct base_url or api_key_env in {where}; "
            "'medbench systems' checks every endpoint)"
        )
