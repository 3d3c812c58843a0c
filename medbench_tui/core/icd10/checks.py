"""The ICD-10 checks of a case file's codes, and how close a given code is to the
reference (for scoring)."""

from __future__ import annotations

import re

from medbench_tui.core.icd10.codes import (
    WHO_SHAPE,
    best_children,
    cm_change,
    is_asterisk,
    is_external_cause,
    is_placeholder,
    is_supplementary,
    lookup,
    normalise_code,
    rollup,
)
from medbench_tui.core.icd10.data import ICD_SHAPE, Tables, cached, cm_title, tables
from medbench_tui.core.icd10.model import Agreement, CodeFinding, CodeInfo, Role
from medbench_tui.core.icd10.text import QUALIFIERS, content, overlap, similar_words
from medbench_tui.core.icd10.titles import entry_words, find, index, query_variants

TITLE_MATCH_THRESHOLD = 50.0
"""A diagnosis name whose similarity to the WHO title of its code is below this
(0-100) gets the warning icd10.title_mismatch ("is this the right code?").

The similarity is the best rarity-weighted word overlap (text.overlap: the share of the
lighter side held by the other; words equal up to an ending or a typo by rapidfuzz)
between the name, or the name with its synonyms put in WHO's words, and the WHO title
of the code, of its category, or a synonym in synonyms.yaml that points into the same
category. So "Community-acquired pneumonia" matches J18.9 "Pneumonia, unspecified"
(100), "Heart attack" matches I21.9 through the synonym table, and "Acute bronchitis"
against J18.9 scores 0. A name and title that both carry numbers, none shared
("type 1" against "Type 2 diabetes mellitus"), never match."""

ROLES = ("primary", "secondary", "differential")
MEMO_LIMIT = 20_000  # remembered (code, role, name) checks before the memo starts again
_NUMBER = re.compile(r"[0-9]+")
_NONESSENTIAL = re.compile(r"\([^)]*\)")
"""WHO's brackets in a title: nonessential modifiers, which neither add to nor oppose the title."""
CONTEXT_LINKS = (" in ", " with ", " due to ", " following ", " associated with ", " complicating ")
"""The links after which a WHO title says the setting of its condition, not the condition: M09.2 'Juvenile
arthritis in ulcerative colitis' is an arthritis, E10.1 'Type 1 diabetes mellitus with ketoacidosis' a diabetes."""


def check_case_code(code: str, *, role: Role, name: str | None = None) -> list[CodeFinding]:
    """Every ICD finding for one code of a case (see the module map in the plan):
    icd10.malformed, icd10.not_a_code, icd10.not_who, icd10.unspecific,
    icd10.asterisk_alone, icd10.supplementary, icd10.external_cause,
    icd10.placeholder, icd10.title_mismatch."""
    if role not in ROLES:
        raise ValueError(f"role must be one of {ROLES}, not {role!r}")
    memo: dict[tuple[str, str, str], tuple[CodeFinding, ...]] = cached("checks", dict)
    key = (code, role, (name or "").strip())
    if key not in memo:
        if len(memo) > MEMO_LIMIT:  # an editor re-checks at every keystroke
            memo.clear()
        memo[key] = tuple(_check(code, role, key[2], tables()))
    return list(memo[key])


def _check(code: str, role: str, name: str, t: Tables) -> list[CodeFinding]:
    info = lookup(code)
    if not info.valid:
        return [_invalid(info, name, t)]
    normal, item = info.code, t.items[info.code]
    findings = []
    if is_placeholder(normal):
        if item.unassigned:
            findings.append(CodeFinding("warning", "icd10.placeholder",
                f"{normal} is a WHO placeholder (U00-U49) with no meaning assigned in ICD-10 2019: "
                "use the code of the condition itself."))
        else:
            findings.append(CodeFinding("info", "icd10.placeholder",
                f"{normal} '{item.title}' is in WHO's provisional range U00-U49 (emergency use); "
                "keep it if it is the code you mean, and check it after WHO updates."))
    if role == "primary":
        findings += _primary_rules(normal, item.title)
    if item.children:
        example = best_children(normal, name, t)[0]
        findings.append(CodeFinding("warning", "icd10.unspecific",
            f"{normal} '{item.title}' has 4-character subcategories in WHO ICD-10 2019: code at "
            f"that level, for example {example} '{t.items[example].title}'."))
    if name and not (is_placeholder(normal) and item.unassigned):
        mismatch = _title_mismatch(normal, item.title, name, t)
        if mismatch:
            findings.append(mismatch)
    return findings


def _primary_rules(code: str, code_title: str) -> list[CodeFinding]:
    named = f"{code} '{code_title}'"
    secondary = f"and list {code} as a secondary diagnosis."
    if is_asterisk(code):
        return [CodeFinding("error", "icd10.asterisk_alone",
            f"{named} is an asterisk (manifestation) code, which WHO does not allow alone as the "
            f"main diagnosis: make the underlying disease's (dagger) code the primary diagnosis {secondary}")]
    if is_supplementary(code):
        return [CodeFinding("error", "icd10.supplementary",
            f"{named} is a supplementary code (an agent or circumstance), not a diagnosis: make "
            f"the condition itself the primary diagnosis {secondary}")]
    if is_external_cause(code):
        return [CodeFinding("error", "icd10.external_cause",
            f"{named} is an external cause (chapter XX), which WHO uses only beside the injury or "
            f"condition it caused: make that (for an injury, S00-T98) the primary diagnosis {secondary}")]
    return []


def _listing(codes: list[str], t: Tables, limit: int = 4) -> str:
    return ", ".join(f"{c} '{t.items[c].title}'" for c in codes[:limit])


def _invalid(info: CodeInfo, name: str, t: Tables) -> CodeFinding:
    code = info.code
    if info.kind in ("chapter", "block"):
        inside = [hit for hit, _ in find(name, 20) if _in_range(hit, info, t)] if name else []
        example = f", for example {_listing(inside, t, 1)}" if inside else ""
        return CodeFinding("error", "icd10.not_a_code",
            f"{code} is a WHO {info.kind} ('{info.title}'), not a code: use a category or "
            f"subcategory inside it{example}.")
    if not ICD_SHAPE.match(code):
        if not info.query.strip():
            message = "No ICD-10 code given: add the WHO ICD-10 2019 code of the diagnosis (for example J18.9)."
        else:
            message = info.notes[0]
            if info.suggestions:
                fixed = info.suggestions[0].code
                message += (f" Did you mean {fixed}?" if normalise_code(info.query.replace(",", ".")) == fixed
                            else f" WHO codes for it: {_listing([s.code for s in info.suggestions], t, 3)}.")
        return CodeFinding("error", "icd10.malformed", message)
    return CodeFinding("error", "icd10.not_who", _not_who_message(info, name, t))


def _in_range(code: str, info: CodeInfo, t: Tables) -> bool:
    if info.kind == "chapter":
        return t.chapter_of(code) == info.code
    first, last = info.code.split("-")
    return first <= code[:3] <= last


def _not_who_message(info: CodeInfo, name: str, t: Tables) -> str:
    code = info.code
    suggested = [s.code for s in info.suggestions]
    if not info.cm_only:
        shape = "" if WHO_SHAPE.match(code) else " (it has the shape of an ICD-10-CM code)"
        if name:
            words, weight = t.folder.words(name), index().weight
            suggested.sort(key=lambda c: -overlap(words, t.folder.words(t.items[c].title), weight))
        return (f"{code} is not a WHO ICD-10 2019 code{shape}. Nearest WHO codes: "
                f"{_listing(suggested, t)}. Use the one that fits.")
    cm = cm_title(code)
    start = f"{code} is an ICD-10-CM code ('{cm}'), not WHO ICD-10 2019"
    change, target = cm_change(code, t), rollup(code, t)
    use = f" Use {_listing(suggested, t, 1)}." if change and change.instead else " Check which WHO code fits."
    if target is None:
        start += f", and WHO has no {code[:3]}."
        if change:
            return f"{start} {change.note}{use}"
        if suggested:
            return f"{start} Closest WHO titles: {_listing(suggested, t, 3)}. Use the one that fits."
        return f"{start} Find the WHO code of the diagnosis with `medbench icd search`."
    target_title = t.items[target].title
    if change:
        return (f"{start}; its WHO roll-up {target} is '{target_title}', which means something else. "
                f"{change.note}{use}")
    if t.items[target].children:
        return (f"{start}; WHO has {target} '{target_title}', coded at 4 characters. Use the subcategory "
                f"that fits, for example {_listing(suggested, t, 1)}.")
    return f"{start}; WHO has {target} '{target_title}'. Use {target}."


SUGGESTION_MARGIN = 15.0
"""A code is suggested in place of the given one only if the name fits its WHO title (see
name_similarity) at least TITLE_MATCH_THRESHOLD and this much better than the given code's."""

SUBSTANCE_WEIGHT = 5.0
"""How rare (titles.Index.weight) a word must be to say what a condition is: "hyperkalaemia"
(11.2), "pneumonia" (5.9) do; "acute" (3.8), "body" (3.8), "disease" (3.2) do not."""

SUGGESTIONS_SEARCHED = 12  # WHO search hits looked at for a suggestion


def _title_mismatch(code: str, code_title: str, name: str, t: Tables) -> CodeFinding | None:
    similarity = name_similarity(name, code)
    if similarity >= TITLE_MATCH_THRESHOLD:
        return None
    others = suggestions(name, code, similarity)
    if others:
        better = f" WHO codes that fit '{name}' better: {_listing(others, t, 2)}."
    else:
        better = (" No WHO code fits the name clearly better: if WHO codes this only under a broader "
                  "title, keep it; otherwise find the code with `medbench icd search`.")
    change = cm_change(code, t)
    cm = cm_title(code) if change else None
    cm_hint = f" (In ICD-10-CM {code} means '{cm}': {change.note})" if change and cm else ""
    return CodeFinding("warning", "icd10.title_mismatch",
        f"{code} is '{code_title}' in WHO ICD-10 2019, which shares little with '{name}' (its words "
        f"fit {similarity:.0f} of 100; {TITLE_MATCH_THRESHOLD:.0f} passes): is this the right code?"
        f"{better}{cm_hint}")


def suggestions(name: str, code: str, fit: float | None = None, limit: int = 2) -> list[str]:
    """Codes to suggest for ``name`` in place of ``code``: from the WHO search, only those whose
    title the name fits (name_similarity) clearly better than the given code's, and from another
    chapter only those that share a word of substance with the name (R79.8 for "spurious
    hyperkalaemia" is never told "ABO incompatibility reaction"). None is better than an absurd one."""
    t, idx = tables(), index()
    fit = name_similarity(name, code) if fit is None else fit
    chapter = t.chapter_of(code)
    substance = {w for w in content(t.folder.words(name))
                 if w.isalpha() and w not in QUALIFIERS and idx.weight(w) >= SUBSTANCE_WEIGHT}
    found: list[str] = []
    for hit, _ in find(name, SUGGESTIONS_SEARCHED):
        if hit[:3] == code[:3] or t.items[hit].children or any(hit[:3] == f[:3] for f in found):
            continue  # the same category, or one not codable as it stands
        if name_similarity(name, hit) < max(TITLE_MATCH_THRESHOLD, fit + SUGGESTION_MARGIN):
            continue
        if t.chapter_of(hit) != chapter and not substance & set(t.folder.words(t.items[hit].title)):
            continue
        title = t.items[hit].title
        if _only_in_context(substance, title, t) or _misses_the_head(name, substance, title, t) \
                or _another_condition_before_its_colon(name, title, t):
            continue  # "Alcoholic ketoacidosis" is no diabetes "with ketoacidosis", nor an alcoholic cirrhosis
        found.append(hit)
        if len(found) == limit:
            break
    return found


def _only_in_context(substance: set[str], title: str, t: Tables) -> bool:
    """None of the name's words of substance is in the condition a title names before a link of setting
    (CONTEXT_LINKS): the title names another condition, whatever its setting or index entries share."""
    lowered = f" {_NONESSENTIAL.sub(' ', title).casefold()} "
    cut = min((at for link in CONTEXT_LINKS if (at := lowered.find(link)) > 0), default=-1)
    if cut < 0 or not substance:
        return False
    head = set(t.folder.words(lowered[:cut]))
    return not any(similar_words(w, h) for w in substance for h in head)


def _another_condition_before_its_colon(name: str, title: str, t: Tables) -> bool:
    """A WHO title written 'Condition: site' ("Malignant neoplasm: Tonsillar fossa") says what the condition is
    before its colon: a name that shares none of those words names another condition at the same site ("Infection
    of the tonsillar fossae after tonsillectomy" is no neoplasm)."""
    head, colon, _ = title.partition(":")
    if not colon:
        return False
    words = set(t.folder.words(name))
    return not any(similar_words(w, h) for w in words for h in t.folder.words(head))


def _misses_the_head(name: str, substance: set[str], title: str, t: Tables) -> bool:
    """The title shares a word of substance with the name but not its head, the last such word outside brackets,
    which says what the condition is: K70.3 'Alcoholic cirrhosis of liver' shares 'alcoholic' with "Alcoholic
    ketoacidosis"; nor is the title's own head among the name's words (B44.2 'Tonsillar aspergillosis' for an
    infection of the tonsillar fossae). A title that shares none (a synonym's code) is left to the similarity."""
    words = set(t.folder.words(title))
    shared = {w for w in substance if any(similar_words(w, h) for h in words)}
    head = next((w for w in reversed(t.folder.words(_NONESSENTIAL.sub(" ", name))) if w in substance), None)
    if not shared:
        return False
    if head is not None and head not in shared:
        return True
    weight = index().weight  # and the title's own head must be the name's: "Tonsillar aspergillosis" is no infection
    title_head = next((w for w in reversed(t.folder.words(_NONESSENTIAL.sub(" ", title)))
                       if w.isalpha() and w not in QUALIFIERS and weight(w) >= SUBSTANCE_WEIGHT), None)
    return title_head is not None and not any(similar_words(title_head, w) for w in t.folder.words(name))


# Words that say which of two opposite kinds a condition is: a name with one and a title with the
# other ("Acute kidney injury" against N18.9 "Chronic kidney disease") never match, as numbers.
OPPOSITES: tuple[tuple[str, str], ...] = (
    ("acute", "chronic"), ("benign", "malignant"), ("congenital", "acquired"), ("upper", "lower"),
)


def _opposed(name_words: set[str], title: str, title_words: set[str]) -> bool:
    """The name says one kind and the title the other, unless the title also takes the kind unsaid
    (K27.4 'chronic or unspecified' takes an acute bleed). A word WHO puts in brackets is a
    nonessential modifier (K51.0 'Ulcerative (chronic) pancolitis' takes an acute severe colitis), so
    the caller leaves those out of ``title_words``."""
    return any(a in name_words and b not in name_words and b in title_words and a not in title_words
               and f"{b} or unspecified" not in title.casefold()
               for one, other in OPPOSITES for a, b in ((one, other), (other, one)))


def name_similarity(name: str, code: str, *, category: bool = True) -> float:
    """0-100: how well a diagnosis name fits the WHO title of a code (see
    TITLE_MATCH_THRESHOLD); without ``category``, the code's own title and terms only."""
    t, idx = tables(), index()
    code = normalise_code(code)
    if code not in t.items:
        return 0.0
    titles = [t.items[code].title]
    parent = t.items.get(code[:3])
    if category and len(code) > 3 and parent and not parent.title.startswith("Other"):
        titles.append(parent.title)  # "Ectopic pregnancy" for O00.1 "Tubal pregnancy"
    numbers = set(_NUMBER.findall(name))
    title_numbers = set(_NUMBER.findall(" ".join(titles)))
    if numbers and title_numbers and not numbers & title_numbers:
        return 0.0
    own = t.items[code].title
    if _opposed(set(t.folder.words(name)), own, set(t.folder.words(_NONESSENTIAL.sub(" ", own)))):
        return 0.0
    aliases = idx.aliases.get(code[:3], []) if category else []  # a synonym row points to a category
    targets = [content(t.folder.words(text)) for text in titles] + aliases + entry_words(code)
    best = 0.0
    variants = query_variants(name)
    readings = [tuple(slot[choice] for slot in variant) for variant in variants for choice in (0, -1)]
    for target in targets:
        # every word read the way this title says it ("penile fracture" against "fracture of
        # ... penis"), besides the all-first and all-last readings; only when every word is there,
        # so one rare alternative ("broken" of "broken ankle") does not carry a name it does not fit
        held = set(target)
        own_words = [tuple(next(w for w in slot if w in held) for slot in variant)
                     for variant in variants if all(held.intersection(slot) for slot in variant)]
        for reading in dict.fromkeys([*readings, *own_words]):
            words = content(reading) or reading
            best = max(best, overlap(words, target, idx.weight))
            if best >= 100:
                return best
    return best


def agreement(given: str | None, reference: str) -> Agreement:
    """How a system's code relates to the reference code: the same code, the same
    3-character category, the same WHO chapter, or none; "missing" without a code."""
    if given is None or not ICD_SHAPE.match(normalise_code(given)):
        return "missing"
    given, reference = normalise_code(given), normalise_code(reference)
    if given == reference:
        return "exact"
    if ICD_SHAPE.match(reference) and given[:3] == reference[:3]:
        return "category"
    chapter = tables().chapter_of(given)
    if chapter is not None and chapter == tables().chapter_of(reference):
        return "chapter"
    return "wrong"
