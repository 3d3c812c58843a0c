"""Case files as the tests read them: the product's own reader (libyaml's C composer, YAML 1.2 values), each file
parsed once a process, so that a test's data is what validation reads; copies with an item added are written by
libyaml's C emitter (ruamel's pure-Python reader and writer took some 60 ms and 45 ms a case)."""

from __future__ import annotations

import copy
import json
import shutil
from functools import cache
from pathlib import Path

import yaml

from medbench_tui.core.cases.model import Case
from medbench_tui.core.cases.yamlio import parse_case_text, read_case_text
from medbench_tui.core.jsondata import JSONValue
from medbench_tui.core.validate import load_valid_case


@cache
def _parsed(path: Path) -> JSONValue:
    parsed = parse_case_text(read_case_text(path))
    assert parsed.ok, parsed.diagnostics
    return parsed.data


def case_yaml(path: Path) -> dict[str, JSONValue]:
    """The file's YAML data, a copy of its own for each caller (callers may change theirs)."""
    data = copy.deepcopy(_parsed(path.resolve()))
    assert isinstance(data, dict)
    return data


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


_WITH_ITEM: dict[tuple[Path, str, str], Case] = {}
"""The cases made by :func:`valid_case_with_item`, once per process: a battery asks many wordings of one item."""


def valid_case_with_item(tmp_path: Path, source: Path, before: str, item: str) -> Case:
    """The case :func:`with_item` writes, loaded as the validator loads it (a case it refuses raises each time); each
    caller gets a copy of its own of the case made once a process."""
    key = (source.resolve(), before, item)
    made = _WITH_ITEM.get(key)
    if made is None:
        made = _WITH_ITEM[key] = load_valid_case(with_item(tmp_path, source, before, item))
    return made.model_copy(deep=True)


_MADE: dict[tuple[Path, str | None, str], Case] = {}
"""The cases made by :func:`case_with`, once per process: the class batteries ask many wordings of one item, and
writing, reading and validating the copy again for each was most of their time."""


def case_with(tmp_path: Path, source: Path, section: str | None = None, item: dict | None = None) -> Case:
    """A copy of a case, with one more item (a mapping) at the end of ``section`` when given, and without its own
    checks (they name the case as it was), loaded as the validator loads it; its attachments go beside it. Each
    caller gets a copy of its own of the case made once a process."""
    key = (source.resolve(), section, json.dumps(item, sort_keys=True))
    made = _MADE.get(key)
    if made is None:
        data = case_yaml(source)
        if section is not None:
            data[section].append(item)
        made = _MADE[key] = load_data(tmp_path, source, data)
    return made.model_copy(deep=True)


def load_data(tmp_path: Path, source: Path, data: dict[str, JSONValue]) -> Case:
    """The case ``data`` (changed from ``source``'s) without its own checks, written in ``tmp_path`` and loaded as
    the validator loads it; the attachments of ``source`` go beside it."""
    data.pop("checks", None)
    for key in [k for k, v in data.items() if v is None]:  # an unset field is left out, not written empty
        data.pop(key)
    own = source.parent / "attachments" / source.stem
    if own.is_dir():
        shutil.copytree(own, tmp_path / "attachments" / source.stem, dirs_exist_ok=True)
    out = tmp_path / source.name
    out.write_text(yaml.dump(data, Dumper=yaml.CSafeDumper, sort_keys=False, allow_unicode=True), encoding="utf-8")
    return load_valid_case(out)
