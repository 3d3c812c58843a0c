"""Binding ids, the keymap from the settings file, and the binding reference of the help screen.

Every binding the application declares carries an id (``section.action``); the settings
file may give any id other keys (``tui.keymap``). The help screen is generated from the
same declarations, so it always says what the keys really are.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass

from textual.binding import Binding


@dataclass(frozen=True)
class BindingRow:
    section: str
    keys: str
    description: str
    binding_id: str


def declared_bindings(owner: type) -> list[Binding]:
    """The bindings a class declares itself (not those it inherits), one per action."""
    return [
        b if isinstance(b, Binding) else Binding(*b) for b in owner.__dict__.get("BINDINGS", [])
    ]


def binding_ids(sections: Iterable[tuple[str, type]]) -> set[str]:
    return {b.id for _, owner in sections for b in declared_bindings(owner) if b.id}


def unknown_binding_ids(keymap: Mapping[str, str], sections: Iterable[tuple[str, type]]) -> list[str]:
    """Ids in a keymap that no binding has (a typo in the settings file)."""
    known = binding_ids(sections)
    return sorted(binding_id for binding_id in keymap if binding_id not in known)


def binding_reference(
    sections: Iterable[tuple[str, type]],
    keymap: Mapping[str, str],
    key_display: Callable[[Binding], str],
) -> list[BindingRow]:
    """One row per binding of every section, with the keys the keymap gives it."""
    rows: list[BindingRow] = []
    for section, owner in sections:
        for binding in declared_bindings(owner):
            keys = keymap.get(binding.id, binding.key) if binding.id else binding.key
            display = binding.key_display if keys == binding.key else None
            shown = display or ", ".join(
                key_display(binding.with_key(key.strip())) for key in keys.split(",")
            )
            rows.append(BindingRow(section, shown, binding.description or binding.action, binding.id or ""))
    return rows
