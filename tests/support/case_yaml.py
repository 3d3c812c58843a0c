"""Case files as the tests read them (ruamel's pure-Python safe loader, YAML 1.2), each file
parsed once a process: that reader takes some 60 ms a case, and several modules read every
bundled case while they are collected, in every xdist worker."""

from __future__ import annotations

import copy
from functools import cache
from pathlib import Path
from typing import Any

from ruamel.yaml import YAML


@cache
def _parsed(path: Path) -> Any:
    return YAML(typ="safe", pure=True).load(path.read_text(encoding="utf-8"))


def case_yaml(path: Path) -> Any:
    """The file's YAML data, a copy of its own for each caller (callers may change theirs)."""
    return copy.deepcopy(_parsed(path.resolve()))
