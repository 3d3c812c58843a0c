"""Systems under test (the doctor): configured ``openai-chat`` models, and the built-ins
``checklist`` (floor baseline), ``replay:PATH`` (re-score recorded transcripts) and
``human`` (the person at the keyboard)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from medbench_tui.core.systems.base import DoctorSystem, DrivenSystem

if TYPE_CHECKING:
    from medbench_tui.core.cases.bank import Bank

__all__ = ["DoctorSystem", "DrivenSystem", "resolve_system"]


def resolve_system(spec: str, *, bank: Bank) -> DoctorSystem:
    """A system configured in the bank's medbench.yaml (read once, with the bank) or a
    built-in: ``checklist``, ``human``, ``replay:PATH`` (PATH relative to the current
    folder, else to the bank)."""
    from medbench_tui.core.cases.bankconfig import (
        ChecklistSystemConfig,
        OpenAIChatSystemConfig,
        ReplaySystemConfig,
    )
    from medbench_tui.core.errors import UsageError
    from medbench_tui.core.systems.checklist import ChecklistSystem
    from medbench_tui.core.systems.human import HumanSystem
    from medbench_tui.core.systems.openai_chat import OpenAIChatSystem
    from medbench_tui.core.systems.replay import ReplaySystem

    if spec == "checklist":
        return ChecklistSystem()
    if spec == "human":
        return HumanSystem()
    if spec.startswith("replay:"):
        return ReplaySystem(_replay_path(spec.removeprefix("replay:"), bank.root), name=spec)
    config = bank.config
    configured = config.systems.get(spec)
    if configured is None:
        names = ", ".join(config.systems) or "none"
        raise UsageError(
            f"unknown system {spec!r}: configured in {config.where()}: {names}; "
            "built-in: checklist, human, replay:PATH"
        )
    if isinstance(configured, OpenAIChatSystemConfig):
        return OpenAIChatSystem(spec, configured)
    if isinstance(configured, ChecklistSystemConfig):
        return ChecklistSystem(spec)
    assert isinstance(configured, ReplaySystemConfig)
    return ReplaySystem(_replay_path(configured.path, bank.root, configured=True), name=spec)


def _replay_path(given: str, bank: Path, *, configured: bool = False) -> Path:
    """A ``replay:PATH`` typed by the user is relative to the current folder, else to the
    bank; a ``path`` in medbench.yaml is relative to the bank only (wherever the command runs)."""
    from medbench_tui.core.errors import UsageError

    path = Path(given).expanduser()
    candidates = [Path(bank) / path] if configured else [path, Path(bank) / path]
    for candidate in candidates:
        if candidate.exists():
            return candidate
    raise UsageError(f"replay: {given} is neither a transcript file nor a folder of transcripts"
                     + (f" (in the bank {bank})" if configured else ""))
