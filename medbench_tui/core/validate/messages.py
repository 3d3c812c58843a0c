"""Pydantic's findings in a physician's words: what was expected, where, and what to write."""

from __future__ import annotations

import types
import typing
from functools import cache
from typing import Literal

from pydantic import BaseModel
from pydantic.fields import FieldInfo

from medbench_tui.core.cases.model import Case
from medbench_tui.core.jsondata import JSONValue
from medbench_tui.core.validate.values import dotted
from medbench_tui.core.yamldoc import YamlPath

# rapidfuzz `fuzz.ratio` (0-100) a misspelt key or id must reach to be suggested.
SUGGESTION_CUTOFF = 70.0


def closest(word: str, choices: list[str]) -> str | None:
    from rapidfuzz import fuzz, process, utils

    found = process.extractOne(word, choices, scorer=fuzz.ratio, processor=utils.default_process,
                               score_cutoff=SUGGESTION_CUTOFF)
    return found[0] if found else None


def did_you_mean(word: JSONValue, choices: list[str]) -> str:
    suggestion = closest(word, choices) if isinstance(word, str) else None
    return f" Did you mean `{suggestion}`?" if suggestion else ""


def capital(text: str) -> str:
    return text[:1].upper() + text[1:]


def show(value: JSONValue, limit: int = 60) -> str:
    try:
        text = str(value)
    except ValueError:  # an integer too long to write in decimal (`id: 0xfff...`)
        text = hex(value)
    return text if len(text) <= limit else text[: limit - 1] + "…"



NUMBER_HINTS = {
    "num_steps": ": the reference number of turn pairs",
    "max_turns": ": the most doctor turns a run may take",
    "weight": " (importance: use 1 for ordinary, more for important)",
    "penalty": " (or delete it to use the bank's default penalty)",
    "after_turn": ": turns are counted from 1",
}


# --- pydantic errors in a physician's words --------------------------------------------

EXPECTED = {
    "string_type": "text", "int_type": "a whole number", "int_from_float": "a whole number",
    "int_parsing": "a whole number", "float_type": "a number", "float_parsing": "a number",
    "bool_type": "true or false", "bool_parsing": "true or false", "list_type": "a list",
    "dict_type": "a mapping (`key: value` lines)", "model_type": "a mapping (`key: value` lines)",
    "model_attributes_type": "a mapping (`key: value` lines)", "none_required": "empty",
}


def describe(value: JSONValue) -> str:
    if value is None:
        return "empty"
    if isinstance(value, bool):
        return f"`{str(value).lower()}` (true/false)"
    if isinstance(value, (int, float)):
        return f"the number {show(value)}"
    if isinstance(value, str):
        return f"the text `{show(value)}`"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "a mapping"
    return f"{type(value).__name__} `{show(value)}`"


def type_hint(expected: str, value: JSONValue) -> str:
    if expected.startswith("text") and value is not None and not isinstance(value, (list, dict)):
        written = str(value).lower() if isinstance(value, bool) else show(value)
        return f" Put it in quotes: `'{written}'`."
    if expected.startswith("text") and value is None:
        return " Fill it in (or delete the key)."
    if expected == "a list" and isinstance(value, str):
        return f" Write it as a list: `[{show(value)}]`, or one `- item` per line."
    if "number" in expected and isinstance(value, str):
        return " Write the number without quotes."
    return ""


def place_name(data: JSONValue, path: YamlPath) -> str:
    """A physician's name for the mapping at ``path``: the case, `workup` entry `Chest X-ray`."""
    if not path:
        return "the case"
    if isinstance(path[-1], int) and len(path) >= 2:
        node = data
        for part in path:
            if isinstance(node, dict):
                node = node[part]
            else:
                node = node[part] if isinstance(node, list) and isinstance(part, int) else None
        label = next((node[k] for k in ("id", "item", "name")
                      if isinstance(node, dict) and isinstance(node.get(k), str)), None)
        owner = dotted(path[:-1])
        return f"`{owner}` entry `{show(label, 40)}`" if label else f"`{owner}` entry {path[-1] + 1}"
    return f"`{dotted(path)}`"


def _strip_optional(annotation: object) -> object:
    if typing.get_origin(annotation) in (typing.Union, types.UnionType):
        members = [a for a in typing.get_args(annotation) if a is not type(None)]
        return members[0] if len(members) == 1 else annotation
    return annotation


def annotation_at(path: YamlPath, root: type[BaseModel] = Case) -> object:
    """The type the case format expects at ``path`` of a ``root`` file (None when unknown)."""
    annotation: object = root
    for part in path:
        annotation = _strip_optional(annotation)
        if isinstance(part, int):
            if typing.get_origin(annotation) is not list:
                return None
            annotation = typing.get_args(annotation)[0]
        elif isinstance(annotation, type) and issubclass(annotation, BaseModel):
            fields = _fields(annotation)
            if part not in fields:
                return None
            annotation = fields[part].annotation
        else:
            return None
    return _strip_optional(annotation)


@cache
def _fields(model: type[BaseModel]) -> dict[str, FieldInfo]:
    return {(info.alias or name): info for name, info in model.model_fields.items()}


def keys_at(path: YamlPath, root: type[BaseModel] = Case) -> list[str]:
    model = annotation_at(path, root)
    return list(_fields(model)) if isinstance(model, type) and issubclass(model, BaseModel) else []


def allowed_hint(annotation: object) -> str:
    if typing.get_origin(annotation) is Literal:
        return f" (one of: {', '.join(str(a) for a in typing.get_args(annotation))})"
    return ""

