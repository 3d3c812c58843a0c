"""Case files as the tests read them (ruamel's pure-Python safe loader, YAML 1.2), each file
parsed once a process: that reader takes some 60 ms a case, and several modules read every
bundled case while they are collected, in every xdist worker. Under xdist the workers of one run
also share what they parsed (``SHARED``, set by the conftest): the first worker to read a file
parses it and stores the result, the others wait for it and load it (some 5 s of CPU a worker)."""

from __future__ import annotations

import contextlib
import copy
import hashlib
import os
import pickle
import shutil
from functools import cache
from pathlib import Path
from typing import Any

from ruamel.yaml import YAML

from medbench_tui.core.cases.model import Case
from medbench_tui.core.validate import load_valid_case

SHARED: Path | None = None
"""A folder the xdist workers of this run share (in the run's temporary folder), or None."""


@cache
def _parsed(path: Path) -> Any:
    text = path.read_text(encoding="utf-8")
    if SHARED is None:
        return YAML(typ="safe", pure=True).load(text)
    try:
        import fcntl
    except ImportError:  # no file locks here: each worker parses for itself
        return YAML(typ="safe", pure=True).load(text)
    SHARED.mkdir(parents=True, exist_ok=True)
    stored = SHARED / (hashlib.sha256(text.encode("utf-8")).hexdigest() + ".pickle")  # keyed by the content
    with (SHARED / (stored.stem + ".lock")).open("a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # one worker parses; the others wait for what it stored
        if stored.exists():
            with contextlib.suppress(Exception):
                return pickle.loads(stored.read_bytes())
        data = YAML(typ="safe", pure=True).load(text)
        writing = stored.with_suffix(f".{os.getpid()}")
        writing.write_bytes(pickle.dumps(data))
        os.replace(writing, stored)
        return data


def case_yaml(path: Path) -> Any:
    """The file's YAML data, a copy of its own for each caller (callers may change theirs)."""
    return copy.deepcopy(_parsed(path.resolve()))


def with_item(tmp_path: Path, source: Path, before: str, item: str) -> Path:
    """A copy of a case with one more treatment item (``item``, YAML lines), put before the item ``before``:
    a class of wording tested against an item no bundled case has. The case's attachments go beside the copy: a
    case with attachments (an ECG) is valid only beside them."""
    own = source.parent / "attachments" / source.stem
    if own.is_dir():
        shutil.copytree(own, tmp_path / "attachments" / source.stem, dirs_exist_ok=True)
    text = source.read_text()
    assert f"  - item: {before}\n" in text
    case_file = tmp_path / source.name
    case_file.write_text(text.replace(f"  - item: {before}\n", f"{item}  - item: {before}\n", 1))
    return case_file


def case_with(tmp_path: Path, source: Path, section: str | None = None, item: dict | None = None) -> Case:
    """A copy of a case, with one more item (a mapping) at the end of ``section`` when given, and without its own
    checks (they name the case as it was), loaded as the validator loads it; its attachments go beside it."""
    data = case_yaml(source)
    if section is not None:
        data[section].append(item)
    data.pop("checks", None)
    for key in [k for k, v in data.items() if v is None]:  # an unset field is left out, not written empty
        data.pop(key)
    own = source.parent / "attachments" / source.stem
    if own.is_dir():
        shutil.copytree(own, tmp_path / "attachments" / source.stem, dirs_exist_ok=True)
    out = tmp_path / source.name
    with out.open("w") as handle:
        YAML().dump(data, handle)
    return load_valid_case(out)
