"""Choosing an extractor by name: ``text`` (deterministic; ``rules`` is the same) or
``llm`` (the ``evaluator.llm`` endpoint of the bank's ``medbench.yaml``)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from medbench_tui.core.errors import UsageError
from medbench_tui.core.scoring.extraction_model import Extractor

if TYPE_CHECKING:
    from medbench_tui.core.cases.bankconfig import EvaluatorConfig

EXTRACTOR_NAMES = ("text", "llm")
ALIASES = {"rules": "text"}


def extractor_problem(choice: str | None = None, evaluator: EvaluatorConfig | None = None) -> str | None:
    """Why the extractor called ``choice`` (else the evaluator's) cannot be built from the
    configuration, or None."""
    name = choice or (evaluator.extractor if evaluator is not None else "text")
    name = ALIASES.get(name, name)
    if name not in EXTRACTOR_NAMES:
        return f"unknown extractor {name!r}: use one of {', '.join(EXTRACTOR_NAMES)}"
    if name == "llm" and getattr(evaluator, "llm", None) is None:
        return (
            "the llm extractor needs an endpoint: add `evaluator: {extractor: llm, llm: {base_url: ..., "
            "model: ...}}` to the bank's medbench.yaml"
        )
    return None


def make_extractor(choice: str | None = None, evaluator: EvaluatorConfig | None = None) -> Extractor:
    """The extractor called ``choice``, else the one the bank's evaluator names, else
    the text extractor. ``evaluator`` is a ``bankconfig.EvaluatorConfig`` (or None)."""
    from medbench_tui.core.scoring.llm_extractor import LlmExtractor
    from medbench_tui.core.scoring.text_extractor import TextExtractor

    problem = extractor_problem(choice, evaluator)
    if problem:
        raise UsageError(problem)
    name = choice or (evaluator.extractor if evaluator is not None else "text")
    if ALIASES.get(name, name) == "text":
        return TextExtractor()
    assert evaluator is not None and evaluator.llm is not None  # extractor_problem refused the llm without one
    return LlmExtractor.from_endpoint(evaluator.llm)
