"""Typed seams: no ``Any`` where a type is known. Every use of ``typing.Any`` in medbench_tui (an
annotation, a subscript such as ``dict[str, Any]``, an alias) is found by parsing the code, and is
either a keyword pass-through to a base class or in a module of the short allow-list below, with
its reason. A decoded JSON or YAML value is ``JSONValue``/``JSONObject`` (medbench_tui/core/jsondata.py)."""

from __future__ import annotations

import ast
from pathlib import Path

import medbench_tui

ALLOWED: dict[str, str] = {
    "medbench_tui.core.jsondata": "JSONValue is Any, once: readers index into documents whose shape they know",
    "medbench_tui.core.icd10.data": "a cache of differently typed tables, and pickled state rebuilt in __setstate__",
    "medbench_tui.core.icd10.titles": "pickled state rebuilt in __setstate__",
    "medbench_tui.core.reports.statistics": "vectorised NumPy statistics: NumPy's stubs type np.mean as floating[Any]",
    "medbench_tui.core.reports.costs": "a vectorised NumPy statistic handed to the bootstrap",
    "medbench_tui.core.scoring.document": "a memo of searches' results, each read back by the search that stored it",
    "medbench_tui.core.scoring.reference": "a memo of lookups' results, each read back by the lookup that stored it",
}
"""Modules that may name ``Any``, and why. Keep it short: type the value instead where it is known."""


def _names_any(node: ast.AST) -> bool:
    return (isinstance(node, ast.Name) and node.id == "Any") or (
        isinstance(node, ast.Attribute) and node.attr == "Any" and isinstance(node.value, ast.Name)
        and node.value.id in ("typing", "t")
    )


def _passed_to_base_class(function: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    """Whether ``**kwargs: Any`` of ``function`` goes straight to ``super().__init__`` (a
    Textual widget's ``name``, ``id``, ``classes``...): its type is the base class's business."""
    kwarg = function.args.kwarg
    if kwarg is None:
        return False
    for node in ast.walk(function):
        if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "__init__"
                and isinstance(node.func.value, ast.Call) and isinstance(node.func.value.func, ast.Name)
                and node.func.value.func.id == "super"
                and any(k.arg is None and isinstance(k.value, ast.Name) and k.value.id == kwarg.arg
                        for k in node.keywords)):
            return True
    return False


def uses_of_any(source: str) -> list[int]:
    """The lines of ``source`` that name ``Any`` outside a pass-through ``**kwargs: Any``."""
    tree = ast.parse(source)
    exempt: set[int] = set()
    for function in ast.walk(tree):
        if isinstance(function, (ast.FunctionDef, ast.AsyncFunctionDef)) and _passed_to_base_class(function):
            annotation = function.args.kwarg.annotation if function.args.kwarg else None
            if annotation is not None and _names_any(annotation):
                exempt.add(id(annotation))
    return sorted(node.lineno for node in ast.walk(tree) if _names_any(node) and id(node) not in exempt)


def _modules() -> dict[str, Path]:
    root = Path(medbench_tui.__file__).parent
    return {".".join(p.relative_to(root.parent).with_suffix("").parts).removesuffix(".__init__"): p
            for p in sorted(root.rglob("*.py"))}


def test_any_only_where_the_allow_list_says_why():
    found = []
    for module, path in _modules().items():
        if module in ALLOWED:
            continue
        found += [f"{path}:{line}" for line in uses_of_any(path.read_text(encoding="utf-8"))]
    assert not found, ("Any where a type is known (type it; a JSON value is JSONValue/JSONObject "
                       "from medbench_tui.core.jsondata):\n" + "\n".join(found))


def test_the_allow_list_holds_no_stale_entry():
    modules = _modules()
    stale = [m for m in ALLOWED if m not in modules or not uses_of_any(modules[m].read_text(encoding="utf-8"))]
    assert not stale, f"allowed to name Any but no longer does (remove them): {stale}"


def test_the_check_finds_annotations_and_subscripts():
    source = (
        "from typing import Any\n"
        "import typing\n"
        "def f(x: Any) -> list[Any]: ...\n"
        "y: dict[str, typing.Any] = {}\n"
        "Alias = tuple[Any, ...]\n"
        "text = 'Any word in a string is not a use'\n"
    )
    assert uses_of_any(source) == [3, 3, 4, 5]


def test_a_keyword_pass_through_to_the_base_class_is_exempt_and_only_that():
    source = (
        "from typing import Any\n"
        "class W(Base):\n"
        "    def __init__(self, **kwargs: Any) -> None:\n"
        "        super().__init__(**kwargs)\n"
        "def g(**options: Any) -> None:\n"
        "    h(**options)\n"
    )
    assert uses_of_any(source) == [5]
