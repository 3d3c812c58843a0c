"""Patient simulators: ``grounded`` (the default, offline) and ``llm`` (a model, guarded).

Every simulator sees only the :class:`PatientRecord`; the consultation hands each
reply call a :class:`LeakGuard` built from the whole case, for checking only.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from medbench_tui.core.cases.model import PatientRecord
from medbench_tui.core.simulators.base import PatientReply, PatientSimulator, TextSink
from medbench_tui.core.simulators.grounded import GroundedSimulator
from medbench_tui.core.simulators.guard import LeakGuard

if TYPE_CHECKING:
    from medbench_tui.core.cases.bank import Bank
    from medbench_tui.core.cases.bankconfig import GroundedSimulatorConfig, LlmSimulatorConfig

DEFAULT_SIMULATOR = "grounded"

__all__ = [
    "DEFAULT_SIMULATOR",
    "GroundedSimulator",
    "LeakGuard",
    "PatientReply",
    "PatientSimulator",
    "TextSink",
    "make_simulator",
]


def make_simulator(
    name_or_config: str | GroundedSimulatorConfig | LlmSimulatorConfig | None,
    record: PatientRecord,
    *,
    bank: Bank | None = None,
) -> PatientSimulator:
    """A fresh simulator for one consultation: ``"grounded"``, a name configured in the
    bank's medbench.yaml, or a simulator configuration object."""
    from medbench_tui.core.cases.bankconfig import GroundedSimulatorConfig, LlmSimulatorConfig
    from medbench_tui.core.errors import UsageError

    config = name_or_config
    name = "grounded"
    if name_or_config is None or name_or_config == DEFAULT_SIMULATOR:
        return GroundedSimulator(record)
    if isinstance(name_or_config, str):
        name = name_or_config
        configured = bank.config.simulators if bank is not None else {}
        if name not in configured:
            choices = ", ".join([DEFAULT_SIMULATOR, *configured])
            raise UsageError(f"unknown simulator {name!r}: choose one of {choices} (simulators: in medbench.yaml)")
        config = configured[name]
    if isinstance(config, GroundedSimulatorConfig):
        return GroundedSimulator(record)
    if isinstance(config, LlmSimulatorConfig):
        from medbench_tui.core.simulators.llm import LlmSimulator

        return LlmSimulator(record, config, name=name if name != "grounded" else "llm")
    raise UsageError(f"not a simulator configuration: {name_or_config!r}")
