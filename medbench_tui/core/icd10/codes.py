"""Look-up of one code: is it WHO ICD-10 2019, what is it, and if not, what to use.

The WHO coding rules that decide whether a valid code may stand where it stands
(asterisk, supplementary, external cause, placeholder) live here too, so the look-up
notes and the case checks say the same thing.
"""

from __future__ import annotations

import re

from medbench_tui.core.icd10.data import (
    CODE_KINDS,
    ICD_SHAPE,
    Tables,
    WhoItem,
    cm_change,
    cm_title,
    instead_codes,
    tables,
)
from medbench_tui.core.icd10.model import CodeInfo, SearchHit, Suggestion
from medbench_tui.core.icd10.text import overlap
from medbench_tui.core.icd10.titles import find, index, ranked

WHO_SHAPE = re.compile(r"^[A-Z][0-9]{2}(\.[0-9])?$")
_UNDOTTED = re.compile(r"^[A-Z][0-9][0-9A-Z][0-9A-Z]{1,4}$")
_BLOCK = re.compile(r"^[A-Z][0-9]{2}-[A-Z][0-9]{2}$")
_MARKS = "†‡*+"  # dagger and asterisk marks, "+" being the dagger of plain keyboards

ROLLUP_MEANING_THRESHOLD = 35.0
"""Word overlap (0-100, see text.overlap) below which an ICD-10-CM title and the WHO
title of its roll-up are called far apart, and the look-up asks to check the meaning
(only when the WHO title is itself specific, not an "other"/"unspecified" residue).
The known cases of a changed meaning are listed in icd10/cm_rollup_changes.yaml."""

NEAREST_TITLE_SCORE = 45.0
"""Title hits for a CM code WHO has no category for are suggested from this score on."""
CODE_SHAPED_TEXT_SCORE = 60.0
"""A query shaped like a code WHO does not have ("b12") also gets title hits this good."""

# The 83 asterisk (manifestation) categories of WHO ICD-10 2019. The WHO data gives no
# dagger/asterisk marks; most of these say "in diseases classified elsewhere" (F54 says
# it too but is no asterisk category), F00, G46, M07 and P75 do not.
ASTERISK_CATEGORIES = frozenset("""
    D63 D77 E35 E90 F00 F02 G01 G02 G05 G07 G13 G22 G26 G32 G46 G53 G55 G59 G63 G73
    G94 G99 H03 H06 H13 H19 H22 H28 H32 H36 H42 H45 H48 H58 H62 H67 H75 H82 H94 I32
    I39 I41 I43 I52 I68 I79 I98 J17 J91 J99 K23 K67 K77 K87 K93 L14 L45 L54 L62 L86
    L99 M01 M03 M07 M09 M14 M36 M49 M63 M68 M73 M82 M90 N08 N16 N22 N29 N33 N37 N51
    N74 N77 P75""".split())
SUPPLEMENTARY = (("B95", "B98"), ("U82", "U85"), ("Z37", "Z37"), ("Y90", "Y98"))
EXTERNAL_CAUSES = ("V01", "Y98")       # chapter XX
PLACEHOLDERS = ("U00", "U49")          # WHO's provisional and emergency-use codes
PLACE_OF_OCCURRENCE = ("W00", "Y34")   # optional 4th character, not in the WHO data


def _within(code: str, span: tuple[str, str]) -> bool:
    return span[0] <= code[:3] <= span[1]


def is_asterisk(code: str) -> bool:
    return code[:3] in ASTERISK_CATEGORIES


def is_supplementary(code: str) -> bool:
    return any(_within(code, span) for span in SUPPLEMENTARY)


def is_external_cause(code: str) -> bool:
    return _within(code, EXTERNAL_CAUSES)


def is_placeholder(code: str) -> bool:
    return _within(code, PLACEHOLDERS)


def normalise_code(text: str) -> str:
    """"j189 " -> "J18.9"; dagger/asterisk marks and spaces dropped; "J18.-" -> "J18"."""
    code = "".join(str(text).split()).upper().replace("–", "-").replace("—", "-")
    code = code.rstrip(_MARKS)
    if code.endswith(".-"):
        code = code[:-2]
    code = code.rstrip(".")
    if _UNDOTTED.match(code):
        code = f"{code[:3]}.{code[3:]}"
    return code


def title(code: str) -> str | None:
    """The WHO title of a code, block or chapter; None if WHO has no such item."""
    item = tables().items.get(normalise_code(code))
    return item.title if item else None


def lookup(code: str) -> CodeInfo:
    t = tables()
    normal = normalise_code(code)
    item = t.items.get(normal)
    if item is not None:
        return _who_info(code, normal, item, t)
    if ICD_SHAPE.match(normal):
        return _unknown_info(code, normal, t)
    return _malformed_info(code, normal, t)


def search(text: str, limit: int = 10) -> list[SearchHit]:
    """WHO codes for a phrase (synonyms, abbreviations, UK/US spelling, typos), best
    first. A code-shaped query ("J18", "j18.9") returns that code first, then its
    subcategories; an ICD-10-CM code returns its WHO suggestions."""
    text = text.strip()
    if not text or limit < 1:
        return []
    t = tables()
    normal = normalise_code(text)
    item = t.items.get(normal)
    scored: list[tuple[str, float, str | None]] = []
    if item is not None and (item.kind in CODE_KINDS or _BLOCK.match(normal)):
        if item.kind in CODE_KINDS:
            scored.append((normal, 100.0, None))
        scored += [(code, 90.0, None) for code in _codes_under(item, t)]
    elif ICD_SHAPE.match(normal):
        info = _unknown_info(text, normal, t)
        scored += [(s.code, 90.0 if info.cm_only else 50.0, None) for s in info.suggestions]
        if not info.cm_only:  # "b12" is a code shape and a vitamin
            scored += [found for found in ranked(text, limit) if found[1] >= CODE_SHAPED_TEXT_SCORE]
    else:
        scored = ranked(text, limit)
    seen: dict[str, tuple[float, str | None]] = {}
    for code, score, note in scored:
        seen.setdefault(code, (score, note))
    order = sorted(seen.items(), key=lambda item: -item[1][0])  # stable: keeps ranked()'s order
    return [SearchHit(code, t.items[code].title, score, note) for code, (score, note) in order[:limit]]


# --- WHO items --------------------------------------------------------------------------

def _who_info(query: str, code: str, item: WhoItem, t: Tables) -> CodeInfo:
    info = CodeInfo(
        query=query,
        code=code,
        valid=item.kind in CODE_KINDS,
        title=item.title,
        kind=item.kind,
        parent=item.parent,
        children=list(item.children),
        is_leaf=not item.children,
    )
    info.notes = who_notes(item, t)
    return info


def who_notes(item: WhoItem, t: Tables) -> list[str]:
    """Plain-language facts a coder needs about a WHO item."""
    code = item.code
    inside = "not a code: use a category or subcategory inside it."
    if item.kind == "chapter":
        first, last = next((f, e) for c, f, e in t.chapters if c == code)
        return [f"{code} is a chapter of WHO ICD-10 ({first}-{last}), {inside}"]
    if item.kind == "block":
        return [f"{code} is a block (a range of categories), {inside}"]
    notes = []
    if item.children:
        notes.append(f"WHO codes {code} at 4 characters ({item.children[0]}-{item.children[-1]}); "
                     "pick the subcategory that fits.")
    if is_asterisk(code):
        notes.append(f"{code[:3]} is an asterisk (manifestation) category: use it beside the dagger "
                     "code of the underlying disease, never alone.")
    if is_supplementary(code):
        notes.append(f"{code} is a supplementary code: it adds an agent or circumstance to another "
                     "code and is not a diagnosis by itself.")
    elif is_external_cause(code):
        notes.append(f"{code} is an external cause (chapter XX): it goes beside the code of the "
                     "injury or condition it caused, not alone.")
    if is_placeholder(code):
        notes.append(f"{code} is a WHO placeholder (U00-U49) with no meaning assigned in ICD-10 2019."
                     if item.unassigned else
                     f"{code} is in WHO's provisional range U00-U49 (emergency use); it may change "
                     "between updates.")
    change = cm_change(code, t)
    cm = cm_title(code) if change else None
    if change and cm:
        notes.append(f"In ICD-10-CM, {code} means '{cm}', not '{item.title}': {change.note}")
    return notes


def _codes_under(item: WhoItem, t: Tables) -> list[str]:
    """Subcategories of a category, or the categories of a block."""
    if item.kind in CODE_KINDS:
        return list(item.children)
    found: list[str] = []
    for child in item.children:
        child_item = t.items[child]
        found += [child] if child_item.kind in CODE_KINDS else _codes_under(child_item, t)
    return found


# --- codes WHO does not have -------------------------------------------------------------

def rollup(code: str, t: Tables) -> str | None:
    """The WHO code a CM code is cut down to: 4 characters if WHO has them, else 3."""
    for candidate in (code[:5], code[:3]):
        if len(candidate) in (3, 5) and t.is_code(candidate):
            return candidate
    return None


def best_children(code: str, text: str, t: Tables) -> list[str]:
    """The subcategories of `code` ordered by how well their titles match `text`; ties
    go to the one that claims least: .9, then one titled "unspecified"."""
    idx = index()
    words = t.folder.words(text)

    def rank(child: str) -> tuple[float, bool, bool, int]:
        child_title = t.items[child].title
        return (
            -overlap(words, t.folder.words(child_title), idx.weight) if words else 0.0,
            not child.endswith(".9"),
            "unspecified" not in child_title,
            t.order[child],
        )

    return sorted(t.items[code].children, key=rank)


def _is_residual(title_text: str) -> bool:
    lowered = title_text.lower()
    return any(word in lowered for word in ("other", "unspecified", "not elsewhere classified"))


def _unknown_info(query: str, code: str, t: Tables) -> CodeInfo:
    info = CodeInfo(query=query, code=code, valid=False)
    cm = cm_title(code)
    change = cm_change(code, t)
    if cm is None:
        if change is not None:  # a code WHO retired (I84)
            info.notes += [f"{code} is not a WHO ICD-10 2019 code.", change.note]
            info.suggestions = _suggest(instead_codes(change, code, t), t)
        else:
            _not_known(info, code, t)
        return info
    info.cm_only = True
    info.notes.append(f"{code} is an ICD-10-CM (US) code, '{cm}', not a WHO ICD-10 2019 code.")
    target = rollup(code, t)
    codes = instead_codes(change, code, t) if change else []
    if target is None:
        nearest = [] if codes else [found for found, score in find(cm, 4) if score >= NEAREST_TITLE_SCORE]
        info.notes.append(f"WHO ICD-10 2019 has no {code[:3]}"
                          + ("; the nearest WHO titles are suggested." if nearest else "."))
        codes += nearest
    else:
        target_title = t.items[target].title
        info.notes.append(f"It rolls up to WHO {target} '{target_title}'.")
        if not change and not _is_residual(target_title) and overlap(
            t.folder.words(cm), t.folder.words(target_title), index().weight
        ) < ROLLUP_MEANING_THRESHOLD:
            info.notes.append(f"Check the meaning: the WHO title of {target} is worded very "
                              "differently from the CM title.")
        if not (change and change.instead):  # else the roll-up is what the CM code does not mean
            children = t.items[target].children
            codes += [*best_children(target, cm, t)[:3], target] if children else [target]
    if change:
        info.notes.append(change.note)
    if len(code) == 8 and code[-1].isalpha():
        info.notes.append(_seventh_character_note(code, None if change and change.instead else target))
    info.suggestions = _suggest(codes, t)
    return info


def _not_known(info: CodeInfo, code: str, t: Tables) -> None:
    """A code neither WHO 2019 nor the CM list has: the WHO codes next to it."""
    info.suggestions = _suggest(_nearest(code, t), t)
    if not WHO_SHAPE.match(code):
        info.notes.append(
            f"{code} has the shape of an ICD-10-CM code (WHO codes have one digit after "
            "the dot), but neither WHO ICD-10 2019 nor the ICD-10-CM list used here has it."
        )
    elif _within(code, PLACE_OF_OCCURRENCE) and t.is_code(code[:3]):
        info.notes.append(
            f"WHO lets {code[:3]} take an optional place-of-occurrence 4th character, which "
            f"the WHO title list used here does not hold; code {code[:3]}."
        )
    else:
        info.notes.append(f"{code} is not a WHO ICD-10 2019 code.")


def _seventh_character_note(code: str, target: str | None) -> str:
    if code[-1] == "S" and code[0] in "ST":
        return ("The 7th character S marks a sequela (late effect): WHO codes the late effects "
                "of injuries and poisonings in T90-T98.")
    return (f"The 7th character {code[-1]} (encounter or episode) has no WHO equivalent"
            + (f"; WHO codes the condition itself, {target}." if target else "."))


def _nearest(code: str, t: Tables) -> list[str]:
    """WHO codes next to a code WHO does not have: its first four characters, else the
    category's subcategories, else the categories either side of it."""
    if len(code) > 5 and t.is_code(code[:5]):
        return [code[:5]]
    head = code[:3]
    if t.is_code(head):
        children = t.items[head].children
        return list(children) if children else [head]
    categories = [c for c in t.codes if len(c) == 3]
    before = [c for c in categories if c < head]
    after = [c for c in categories if c > head]
    return before[-1:] + after[:1]


def _suggest(codes: list[str], t: Tables) -> list[Suggestion]:
    return [Suggestion(code, t.items[code].title) for code in dict.fromkeys(codes)]


def _malformed_info(query: str, code: str, t: Tables) -> CodeInfo:
    info = CodeInfo(query=query, code=query.strip(), valid=False)
    info.notes.append(
        f"'{query.strip()}' is not an ICD-10 code: a WHO code is a letter and two digits, "
        "and for a subcategory a dot and one more digit (for example J18.9)."
    )
    fixed = normalise_code(code.replace(",", "."))
    if fixed != code and t.is_code(fixed):
        info.suggestions = _suggest([fixed], t)
    elif sum(c.isalpha() for c in query) >= 3:
        info.suggestions = _suggest([found for found, _ in find(query, 5)], t)
    return info
