"""Drug and treatment classes, for the ``group`` of a treatment item.

A treatment the doctor gives scores ``different`` (not ``matching``, not ``extra``)
when it belongs to the ``group`` of a required item without being that item: the
group's own name ("antibiotics", "an NSAID") or a member ("doxycycline" for ``group:
antibiotic``), as the shipped vocabulary's ``groups`` list them (``groups.yaml``; a bank's
additions to them are not read yet). A group that is not listed is recognised by its own
name only. Names are written naturally; they are normalised like
everything else.
"""

from __future__ import annotations

from medbench_tui.core.vocabulary import read_vocabulary

_GROUPS = read_vocabulary().groups
GROUP_NAMES: dict[str, tuple[str, ...]] = {group.name: group.also for group in _GROUPS}
"""Class name -> its other names (the ``groups`` of ``groups.yaml``)."""
GROUP_MEMBERS: dict[str, tuple[str, ...]] = {group.name: group.members for group in _GROUPS if group.members}
"""Class name -> the treatments of the class."""


def group_phrases(group: str, *, members: bool = True) -> tuple[str, ...]:
    """The names that stand for ``group``: itself, and its class's names (and members,
    unless ``members`` is false) when the class is known (looked up by normalised name)."""
    from medbench_tui.core.text import compact

    wanted = compact(group)
    for key, names in GROUP_NAMES.items():
        if wanted in {compact(n) for n in (key, *names)}:
            return (group, key, *names, *(GROUP_MEMBERS.get(key, ()) if members else ()))
    return (group,)
