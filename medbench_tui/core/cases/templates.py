"""Where case files come from and where they go: the new-case template, variants, the trash."""

from __future__ import annotations

import re
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING

from medbench_tui.core.cases.model import CASE_ID_PATTERN
from medbench_tui.core.errors import MedbenchError
from medbench_tui.core.paths import case_template_file, schema_file, trash_dir

if TYPE_CHECKING:
    from ruamel.yaml.comments import CommentedMap

ID_PLACEHOLDER = "__CASE_ID__"
SCHEMA_PLACEHOLDER = "__SCHEMA__"
BANK_SCHEMA_NAME = "case.schema.json"  # the schema beside a bank's cases (modeline `$schema=case.schema.json`)
_VARIANT_SUFFIX = re.compile(r"-v(\d+)$")


def check_new_case_id(case_id: str, folder: Path, taken: Iterable[str] = ()) -> str | None:
    """What is wrong with ``case_id`` as the id of a new case in ``folder`` (None: nothing)."""
    if not case_id:
        return "Give the new case an id, e.g. im-cap-002."
    if not re.fullmatch(CASE_ID_PATTERN, case_id):
        return (
            f"{case_id!r} is not a case id: use lowercase letters and digits, "
            "with single '-' between words (e.g. im-cap-002)."
        )
    if case_id in set(taken) or (Path(folder) / f"{case_id}.yaml").exists():
        return f"{case_id} is already a case in this bank: choose another id."
    return None


def schema_reference(folder: Path | None) -> str:
    """What a case's ``yaml-language-server`` modeline points at, so editors validate it.

    A bank that carries the schema beside its cases (the bundled bank does: in the repo
    it is a link to the package's copy, in a wheel a copy) is pointed at relatively, which
    works wherever the bank is; any other folder gets the schema of the medbench
    installed here, as an absolute file URI.
    """
    if folder is not None and (Path(folder) / BANK_SCHEMA_NAME).is_file():
        return BANK_SCHEMA_NAME
    return schema_file().resolve().as_uri()


def new_case_text(case_id: str, folder: Path | None = None) -> str:
    """The template with its id filled in: valid except the fields the author must fill.

    The id takes the place of the placeholder and the spaces after it, so the comment on
    its line stays in the column of the others. ``folder`` (where the case will live)
    decides the schema modeline (:func:`schema_reference`).
    """
    template = case_template_file().read_text(encoding="utf-8").replace(SCHEMA_PLACEHOLDER, schema_reference(folder))

    def fill(match: re.Match[str]) -> str:
        width = len(match.group(0))
        return case_id + " " * max(width - len(case_id), 1 if match.group(1) else 0)

    return re.sub(re.escape(ID_PLACEHOLDER) + "( *)", fill, template)


def _new_file(folder: Path, case_id: str, taken: Iterable[str] = ()) -> Path:
    problem = check_new_case_id(case_id, folder, taken)
    if problem:
        raise MedbenchError(problem)
    return Path(folder) / f"{case_id}.yaml"


def create_case(folder: Path, case_id: str, taken: Iterable[str] = ()) -> Path:
    """Write ``<folder>/<case_id>.yaml`` from the template and return its path."""
    from medbench_tui.core.cases.yamlio import save_case_text

    path = _new_file(folder, case_id, taken)
    save_case_text(path, new_case_text(case_id, folder))
    return path


def variant_text(source_text: str, case_id: str) -> str:
    """A copy of a case as a new draft variant: new id, ``parent_id`` set, comments kept.

    The parent is the source's own parent when it has one, so all variants of a case
    share one parent.
    """
    from ruamel.yaml.comments import CommentedMap

    from medbench_tui.core.cases.yamlio import CaseDocument

    document = CaseDocument.from_text(source_text)
    data = document.data
    if not isinstance(data, CommentedMap) or not isinstance(data.get("id"), str):
        raise MedbenchError("Only a case with an id can have variants: fix the case first.")
    parent: str = data["parent_id"] if isinstance(data.get("parent_id"), str) else data["id"]
    data["id"] = case_id
    _set_after(data, "parent_id", parent, after="id")
    _set_after(data, "status", "draft", after="title")
    return document.dump()


def _set_after(data: CommentedMap, key: str, value: str, *, after: str) -> None:
    """Set ``key``, placing it after ``after`` when the mapping does not have it yet."""
    if key in data:
        data[key] = value
        return
    keys = list(data)
    position = keys.index(after) + 1 if after in keys else len(keys)
    data.insert(position, key, value)


def create_variant(source: Path, case_id: str, taken: Iterable[str] = ()) -> Path:
    """Write a variant of the case in ``source`` beside it and return its path."""
    from medbench_tui.core.cases.yamlio import read_case_text, save_case_text

    source = Path(source)
    path = _new_file(source.parent, case_id, taken)
    try:
        text = read_case_text(source)
    except (OSError, UnicodeDecodeError) as exc:
        raise MedbenchError(f"{source}: cannot read the case: {exc}") from exc
    save_case_text(path, variant_text(text, case_id))
    return path


def suggest_variant_id(source_id: str, taken: Iterable[str]) -> str:
    """The next free ``<base>-vN`` id for a variant of ``source_id``."""
    taken = set(taken)
    match = _VARIANT_SUFFIX.search(source_id)
    base = source_id[: match.start()] if match else source_id
    number = int(match.group(1)) + 1 if match else 2
    while f"{base}-v{number}" in taken:
        number += 1
    return f"{base}-v{number}"


def trash_case(path: Path) -> Path:
    """Move a case file to the trash folder beside it (never overwriting); return where it went."""
    path = Path(path)
    folder = trash_dir(path.parent)
    folder.mkdir(parents=True, exist_ok=True)
    target = folder / path.name
    number = 1
    while target.exists():
        number += 1
        target = folder / f"{path.stem}.{number}{path.suffix}"
    path.replace(target)
    return target
