"""Reading values out of parsed (not yet valid) case data without tripping on wrong types."""

from __future__ import annotations

from medbench_tui.core.jsondata import JSONObject, JSONValue
from medbench_tui.core.yamldoc import YamlPath


def dotted(path: YamlPath) -> str:
    return ".".join(str(part) for part in path)


def entries_at(container: object, key: str) -> list[tuple[int, JSONObject]]:
    """The mapping entries of the list under ``key`` (wrongly typed ones are schema errors)."""
    value = container.get(key) if isinstance(container, dict) else None
    if not isinstance(value, list):
        return []
    return [(i, item) for i, item in enumerate(value) if isinstance(item, dict)]


def text_at(container: JSONValue, key: str) -> str | None:
    value = container.get(key) if isinstance(container, dict) else None
    return value if isinstance(value, str) else None


def texts_at(container: JSONValue, key: str) -> list[tuple[int, str]]:
    value = container.get(key) if isinstance(container, dict) else None
    if not isinstance(value, list):
        return []
    return [(i, item) for i, item in enumerate(value) if isinstance(item, str)]


def number_at(container: JSONValue, key: str) -> float | None:
    value = container.get(key) if isinstance(container, dict) else None
    return value if isinstance(value, (int, float)) and not isinstance(value, bool) else None

