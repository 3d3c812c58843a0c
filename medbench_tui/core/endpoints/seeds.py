"""The seeds of one run, recorded so a repeated run can be told apart and played again.

Each run has a run seed, derived from the group's seed, the case, the system and the
repeat number. It seeds the retry jitter. An endpoint that samples (the system under test,
an ``llm`` patient simulator) is sent ``seed``: its configured seed plus the repeat number,
or, when it has none, the run seed if the group repeats its runs (a single run sends no
seed that nobody asked for). The grounded simulator does not sample.

The runner works out a run's seeds before it plays it and passes them down: to the
:class:`~medbench_tui.core.consultation.loop.Consultation` (where the system and the patient find
them) or, for a rubric question, to the one request. An endpoint's settings turn them into the
``seed`` sent (``EndpointConfig.sampling(role, seeds)``); without them (outside a batch run) an
endpoint sends its configured seed. They live with the endpoints, whose requests carry them.
"""

from __future__ import annotations

import zlib
from dataclasses import dataclass

from medbench_tui.core.jsondata import JSONObject

SEED_BITS = 0x7FFFFFFF


@dataclass(frozen=True)
class RunSeeds:
    run: int
    repeat: int
    repeated: bool
    """The group plays each case x system more than once."""

    def endpoint(self, configured: int | None) -> int | None:
        """The ``seed`` sent to an endpoint configured with ``configured``."""
        if configured is not None:
            return configured + self.repeat
        return self.run if self.repeated else None

    def recorded(self, system_config: JSONObject, simulator_config: JSONObject) -> dict[str, int | None]:
        """What the run store keeps: each seed used, None where nothing was seeded."""
        return {
            "run": self.run,
            "retry_jitter": self.run,
            "system": self.endpoint(system_config.get("seed")) if "base_url" in system_config else None,
            "simulator": self.endpoint(simulator_config.get("seed")) if "base_url" in simulator_config else None,
        }


def run_seeds(group_seed: int, case_id: str, system: str, repeat: int, *, repeats: int) -> RunSeeds:
    derived = zlib.crc32(f"{group_seed}:{case_id}:{system}:{repeat}".encode()) & SEED_BITS
    return RunSeeds(derived, repeat, repeats > 1)
