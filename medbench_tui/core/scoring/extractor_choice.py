"""Choosing an extractor by name: ``text`` (deterministic; ``rules`` is the same) or
``llm`` (the ``evaluator.llm`` endpoint of the bank's ``medbench.yaml``)."""

from __future__ import annotations

from typing import Any

from medbench_tui.core.errors import UsageError
from medbench_tui.core.scoring.extraction_model import Extractor

EXTRACTOR_NAMES = ("text", "llm")
ALIASES = {"rules": "text"}


def make_extractor(choice: str | None = None, evaluator: Any = None) -> Extractor:
    """The extractor called ``choice``, else the one the bank's evaluator names, else
    the text extractor. ``evaluator`` is a ``bankconfig.EvaluatorConfig`` (or None)."""
    from medbench_tui.core.scoring.llm_extractor import LlmExtractor
    from medbench_tui.core.scoring.text_extractor import TextExtractor

    name = choice or (evaluator.extractor if evaluator is not None else "text")
    name = ALIASES.get(name, name)
    if name == "text":
        return TextExtractor()
    if name == "llm":
        endpoint = getattr(evaluator, "llm", None)
        if endpoint is None:
            raise UsageError(
                "the llm extractor needs an endpoint: add `evaluator: {extractor: llm, llm: {base_url: ..., "
                "model: ...}}` to the bank's medbench.yaml"
            )
        return LlmExtractor.from_endpoint(endpoint)
    raise UsageError(f"unknown extractor {name!r}: use one of {', '.join(EXTRACTOR_NAMES)}")
