"""Answer items against reference items: candidates, then one greedy assignment.

An entity's candidates are the reference items its text names (phrase search, score
100, or 95 through a corrected typo or a general concept: ``concepts.py``), else the
items its whole text resembles (``constants.ITEM_SCORER`` >= ``ITEM_THRESHOLD``), and,
for diagnoses, the items whose ICD-10 code (or one of its ``accept_codes``) is the
entity's code: a shared 3-character category alone matches nothing. Then,
per list, the pairs are taken best score first (ties: the answer with fewer
candidates, then the reference order, the primary diagnosis first), so each reference
item is matched at most once. An entity whose only candidates were all taken by other
entities repeats an answer already credited: it is dropped, neither matched nor extra. A treatment that names only a
group is ``different`` for a required item of that group not otherwise covered.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Literal

from rapidfuzz import process

from medbench_tui.core.scoring import actions
from medbench_tui.core.scoring.actions import ACTION_RULES, first_rule, read_action, rules_out
from medbench_tui.core.scoring.assertion import CONDITIONAL_SAFETY_NET, withholds
from medbench_tui.core.scoring.concepts import (
    CREDIT_CLASSES,
    EXPLAINED_DECLINE,
    FOLLOW_UP,
    SAFETY_NET,
    WITHHOLDING,
    maintenance_rate,
    resumes_text,
    resuscitation_item,
)
from medbench_tui.core.scoring.constants import (
    ITEM_SCORER,
    ITEM_THRESHOLD,
    MATCH_SCORE_CONCEPT,
    MATCH_SCORE_ICD_EXACT,
)
from medbench_tui.core.scoring.delay import WAITED_ACTION
from medbench_tui.core.scoring.document import document
from medbench_tui.core.scoring.extraction_model import (
    Entity,
    EntityKind,
    Extraction,
    agreement,
)
from medbench_tui.core.scoring.reference import DECLINED_ACTION, Group, Ref, ReferenceTable, done_today
from medbench_tui.core.text import normalise
from medbench_tui.core.vocabulary import Term, read_vocabulary
from medbench_tui.core.vocabulary.reading import regular_frequency

Status = Literal[
    "matched", "missing", "extra", "different", "unexpected", "contraindicated", "not_indicated", "acceptable"
]

GROUP_RULE = "group"
"""How a drug of a required item's group (not the item's drug) is paired with it."""


@dataclass(frozen=True)
class Candidate:
    ref: Ref
    score: float
    via: str  # "name", "typo", a concept ("safety-netting"), "similar name", "ICD-10 exact", "ICD-10 category"


@dataclass
class Pairing:
    """One row of a scorecard list: a reference item, an answer, or both."""

    ref: Ref | None
    entity: Entity | None
    status: Status
    via: str | None = None
    note: str | None = None


@dataclass
class ListResult:
    """The rows of one scorecard list: reference order first, then the unmatched answers."""

    rows: list[Pairing] = field(default_factory=list)

    def given(self) -> list[Pairing]:
        return [p for p in self.rows if p.entity is not None]


@dataclass
class Matching:
    diagnoses: ListResult
    differential: ListResult
    workup: ListResult
    treatment: ListResult
    candidates: dict[int, list[Candidate]]  # id(entity) -> its candidates

    def candidates_of(self, entity: Entity) -> list[Candidate]:
        return self.candidates.get(id(entity), [])


def _pool(table: ReferenceTable, kind: EntityKind) -> list[Ref]:
    if kind == "diagnosis":
        return [*table.diagnoses, *table.differential]
    if kind == "differential":
        return [*table.differential, *table.diagnoses]
    return table.workup if kind == "workup" else table.treatment


def _by_text(entity: Entity, table: ReferenceTable, pool: list[Ref]) -> tuple[list[Candidate], list[Group]]:
    return table.remember(("by_text", entity.kind, entity.text, entity.section),
                          lambda: _search_text(entity.text, table, pool, entity.section))


SAME_TEST = "another name of its test"


def _same_test(named: tuple[Term, ...], table: ReferenceTable, pool: list[Ref]) -> list[Candidate]:
    """A test listed as a work-up entry by another of its names in ``tests.yaml`` ("Magnesium" in a table of tests
    for "Serum magnesium"): the one work-up item whose name or alias names that same test (g64). Only an entry
    the extractor already read as a test of a list; a word in running text is matched by the item's own names."""
    tests = [t for t in named if t.kind == "test"]
    if not tests or pool is not table.workup:
        return []
    vocabulary = read_vocabulary()
    refs = [r for r in pool if any(t in tests for p in r.phrases for t in vocabulary.lookup(p.text))]
    return [Candidate(refs[0], 100.0, SAME_TEST)] if len(refs) == 1 else []


def _search_text(text: str, table: ReferenceTable, pool: list[Ref],
                 section: str | None = None) -> tuple[list[Candidate], list[Group]]:
    doc = document(text, section)  # read as in the section it stands in ("Imp: necrotising OE")
    mentions = table.find_items(doc)
    wanted = {id(r) for r in pool}
    best: dict[int, Candidate] = {}
    groups: list[Group] = []
    withheld = [m.hit for m in mentions if m.via in (WITHHOLDING, EXPLAINED_DECLINE)]
    for m in mentions:
        if m.via is None and any(h.first <= m.hit.first and m.hit.last <= h.last for h in withheld):
            continue  # the treatment an instruction withholds ("hold off on pain relief") is not given
        if m.group is not None and m.group not in groups:
            groups.append(m.group)
        if m.ref is not None and id(m.ref) in wanted:
            via = m.via or m.rule or (
                "alternative" if table.is_alternative(m) else "name" if m.score >= 100 else "typo")
            if id(m.ref) not in best or best[id(m.ref)].score < m.score:
                best[id(m.ref)] = Candidate(m.ref, m.score, via)
    if best or groups:
        return list(best.values()), groups
    named = read_vocabulary().lookup(text)
    if named:  # a clinical name written exactly ("NSTEMI") is no misspelling of another ("STEMI")
        return _same_test(named, table, pool), []
    text = normalise(text)
    if not text:
        return [], []
    choices = {(i, j): " ".join(p.words) for i, r in enumerate(pool) for j, p in enumerate(r.phrases)}
    hit = process.extractOne(text, choices, scorer=ITEM_SCORER, processor=None, score_cutoff=ITEM_THRESHOLD)
    if hit is None:
        return [], []
    (i, j), score = hit[2], hit[1]
    if pool[i].klass in DIAGNOSIS_CLASSES and _numbers(text) and _numbers(choices[(i, j)]) \
            and _numbers(text) != _numbers(choices[(i, j)]):
        return [], []  # a name with another number is another stage, grade or type ("CKD 3" is no stage 4)
    return [Candidate(pool[i], float(score), "similar name")], []


DIAGNOSIS_CLASSES = frozenset({"primary", "secondary", "differential"})


def _numbers(words: str) -> frozenset[str]:
    """The numbers among a normalised name's words."""
    return frozenset(w for w in words.split() if w.isdigit())


def _by_code(entity: Entity, pool: list[Ref]) -> list[Candidate]:
    if not entity.icd10:
        return []
    out = []
    for ref in pool:
        if ref.icd10:
            level = agreement(entity.icd10, ref.icd10)
            if level == "exact" or any(agreement(entity.icd10, code) == "exact" for code in ref.accept_codes):
                out.append(Candidate(ref, MATCH_SCORE_ICD_EXACT, "ICD-10 exact"))
    return out


def _code_beside_name(coded: list[Candidate], named: list[Candidate]) -> list[Candidate]:
    """A code two items share decides nothing between them: when the entity's words name one of them, its code
    gives no other ("Low-flow priapism (N48.3)" is not the high-flow differential, coded N48.3 too)."""
    named_codes = {c.ref.icd10 for c in named if c.ref.icd10}
    named_ids = {id(c.ref) for c in named}
    return [c for c in coded if id(c.ref) in named_ids or c.ref.icd10 not in named_codes]


CREDIT = frozenset({"required", "acceptable", "optional"})
CONCEPT_MATCHES = frozenset({SAFETY_NET, FOLLOW_UP})
"""Matches through a concept that weighs its own time (a safety-net, a follow-up interval)."""


def _by_action(entity: Entity, pool: list[Ref], table: ReferenceTable) -> list[Candidate]:
    """The items the entity names as a clinical action in other words than theirs
    (``actions.ACTION_RULES``): the same team, the item's drug by its route, a drug of its class.
    Read once per case and text, like :func:`_by_text`."""
    declined = entity.status == "negated"
    return table.remember(("by_action", entity.kind, entity.text, declined),
                          lambda: _read_action(entity.text, declined, pool, table))


def _read_action(text: str, declined: bool, pool: list[Ref], table: ReferenceTable) -> list[Candidate]:
    answer = read_action(text)
    if resumes_text(text):
        answer = replace(answer, resumes=True)  # "restart levetiracetam 500 mg BD": the patient's own regimen
    if regular_frequency(text):
        answer = replace(answer, regular=True)  # "levetiracetam 500 mg BD": a maintenance regimen
    stop = not declined and withholds(text)  # "Stop the ibuprofen (Nurofen)": its drug is not given
    out = []
    for ref in pool:
        if table.withholds(ref):
            continue  # a stop is met by a withholding of its drug, not by the drug named
        if stop and ref.klass not in CREDIT:
            continue  # nor does a stop give a harmful item its drug
        rule = first_rule(answer, ref.readings, ref.klass in CREDIT, declined=declined and table.declinable(ref))
        if rule is not None:
            out.append(Candidate(ref, rule.score, rule.name))
    return out


def candidates(entity: Entity, table: ReferenceTable) -> tuple[list[Candidate], list[Group]]:
    pool = _pool(table, entity.kind)
    named, groups = _by_text(entity, table, pool)
    acting = entity.kind in ("workup", "treatment")
    coded = _code_beside_name(_by_code(entity, pool), named) if entity.kind in ("diagnosis", "differential") else []
    read = _by_action(entity, pool, table) if acting else []
    if acting and entity.status == "negated" and not named and " " not in entity.text.strip():
        wanted = {id(r) for r in pool}  # "do not aspirate": the harmful items that action word declines
        read = [*read, *(Candidate(ref, MATCH_SCORE_CONCEPT, DECLINED_ACTION)
                         for ref in table.declined_by_word(entity.text) if id(ref) in wanted)]
    merged: dict[int, Candidate] = {}
    for c in (*named, *coded, *read):
        if id(c.ref) not in merged or merged[id(c.ref)].score < c.score:
            merged[id(c.ref)] = c
    found = list(merged.values())
    if acting:
        answer = read_action(entity.text)
        found = [c for c in found
                 if c.via in CONCEPT_MATCHES or rules_out(answer, c.ref.reading, c.ref.klass in CREDIT_CLASSES) is None]
        # a safety net read as its item asks for today's attendance only on its condition ("go to A&E or call 999
        # if you develop a fever"): it gives the safety-netting, not the same-day assessment itself
        if entity.reason == CONDITIONAL_SAFETY_NET.rule:
            found = [c for c in found if not done_today(c.ref)]
        if maintenance_rate(entity.text):  # "1 L over 8 h" is no resuscitation
            found = [c for c in found if not resuscitation_item(c.ref.name)]
        if any(c.via == WAITED_ACTION for c in found):  # "refer to the surgeons if the contrast is abnormal" with
            found = [c for c in found if c.via == WAITED_ACTION]  # an observe-first item: the wait, no referral
    return sorted(found, key=lambda c: -c.score), groups


def _assign(
    entities: list[Entity], cands: list[list[Candidate]], allowed: list[Ref]
) -> tuple[dict[int, Candidate], set[int]]:
    """Greedy best-score assignment over ``allowed`` refs: entity index -> candidate;
    and the entities that had candidates but lost them all (repetitions). Ties go to
    the entity with fewer candidates among ``allowed``, then by reference order and answer
    text, so that the order of the answers does not change which items are matched."""
    allowed_ids = {id(r) for r in allowed}
    order = {id(r): i for i, r in enumerate(allowed)}
    texts = [normalise(e.text) for e in entities]
    # the alternatives that count are those among ``allowed``: a diagnosis whose code is also a
    # differential's has no other diagnosis to go to
    allowed_cands = [[c for c in cs if id(c.ref) in allowed_ids] for cs in cands]
    pairs = [(-c.score, len(cs), order[id(c.ref)], texts[e], e, c) for e, cs in enumerate(allowed_cands) for c in cs]
    pairs.sort(key=lambda p: p[:5])
    taken: set[int] = set()
    assigned: dict[int, Candidate] = {}
    for *_, e, c in pairs:
        if e in assigned or id(c.ref) in taken:
            continue
        assigned[e] = c
        taken.add(id(c.ref))
    repeated = {e for e, cs in enumerate(allowed_cands) if e not in assigned and cs}
    return assigned, repeated


def match(extraction: Extraction, table: ReferenceTable) -> Matching:
    all_candidates: dict[int, list[Candidate]] = {}
    groups_of: dict[int, list[Group]] = {}
    for entity in extraction.entities:
        if entity.scored:
            cs, gs = candidates(entity, table)
            all_candidates[id(entity)] = cs
            groups_of[id(entity)] = gs

    def run(kind: EntityKind, refs: list[Ref]) -> tuple[list[Entity], dict[int, Candidate], set[int]]:
        entities = extraction.scored(kind)
        cands = [all_candidates[id(e)] for e in entities]
        assigned, repeated = _assign(entities, cands, refs)
        undone = {(e, id(c.ref)) for e, c in assigned.items()
                  if c.ref.replaced is not None and c.via in RULE_NAMES and _replaced_given(c.ref, entities, assigned)}
        if undone:  # "IV pip-taz now; oral co-amoxiclav at 48 h" is no oral antibiotics instead of IV: the oral drug
            for e, entity in enumerate(entities):  # goes to its next candidate, if any
                cands[e] = all_candidates[id(entity)] = [c for c in cands[e] if (e, id(c.ref)) not in undone]
            assigned, repeated = _assign(entities, cands, refs)
        return entities, assigned, repeated

    diagnoses = _diagnoses(*run("diagnosis", table.diagnoses), table, all_candidates)
    differential = _differential(*run("differential", [*table.differential, *table.diagnoses]), table)
    workup = _actions(*run("workup", table.workup), table.workup, {})
    treatment = _actions(*run("treatment", table.treatment), table.treatment, groups_of)
    return Matching(diagnoses, differential, workup, treatment, all_candidates)


RULE_NAMES = frozenset(r.name for r in ACTION_RULES)


def _replaced_given(ref: Ref, entities: list[Entity], assigned: dict[int, Candidate]) -> bool:
    """The answer also gives what the harmful item's action replaces (``Ref.replaced``: "Oral antibiotics instead
    of IV" and IV pip-taz is given): a drug of its drugs or classes by that route, as its words say or as the
    credited item it met says ("pip-taz" for "IV broad-spectrum antibiotics")."""
    wanted = ref.replaced
    if wanted is None:
        return False
    vocabulary = read_vocabulary()
    cover = not (wanted.drugs & ref.reading.drugs or wanted.classes & ref.reading.classes)
    for e, entity in enumerate(entities):
        met = assigned.get(e)
        if met is not None and (met.ref is ref or met.ref.klass not in CREDIT) and not (cover and met.ref is ref):
            continue  # the harmful item's own clause may name its cover ("naproxen with omeprazole")
        said = read_action(entity.text)
        item = met.ref.reading if met is not None and met.ref is not ref else said
        drugs, classes = said.drugs | item.drugs, said.classes | item.classes
        routes = said.routes or item.routes
        same = bool(drugs & wanted.drugs or classes & wanted.classes) or any(
            cls in vocabulary.broader(drug) for drug in drugs for cls in wanted.classes)
        if cover and same:  # "without glucocorticoid cover" and the answer gives hydrocortisone too (g73)
            return True
        if not (same and routes):
            continue
        given = replace(said, routes=routes, windows=())
        if wanted.routes:  # by the route it replaces ("IV")
            if actions.contradiction(given, replace(wanted, windows=())) is None:
                return True
        elif actions.contradiction(given, replace(ref.reading, windows=())) is not None:
            return True  # by a route other than its own ("instead of parenteral": IV or IM)
    return False


def _rows_for_refs(refs: list[Ref], entities: list[Entity], assigned: dict[int, Candidate],
                   status_of: Callable[[Ref], Status]) -> list[Pairing]:
    by_ref = {id(c.ref): (entities[e], c) for e, c in assigned.items()}
    rows = []
    for ref in refs:
        if id(ref) in by_ref:
            entity, c = by_ref[id(ref)]
            rows.append(Pairing(ref, entity, status_of(ref), c.via))
        elif ref.klass in ("required", "primary", "secondary", "differential"):
            rows.append(Pairing(ref, None, "missing"))
    return rows


def _diagnoses(entities: list[Entity], assigned: dict[int, Candidate], repeated: set[int], table: ReferenceTable,
               all_candidates: dict[int, list[Candidate]]) -> ListResult:
    rows = _rows_for_refs(table.diagnoses, entities, assigned, lambda ref: "matched")
    for e, entity in enumerate(entities):
        if e in assigned or e in repeated:
            continue
        differential = next((c.ref for c in all_candidates[id(entity)] if c.ref.kind == "differential"), None)
        note = f"a reference differential ({differential.name}), not the diagnosis" if differential else None
        rows.append(Pairing(None, entity, "extra", note=note))
    return ListResult(rows)


def _differential(entities: list[Entity], assigned: dict[int, Candidate], repeated: set[int],
                  table: ReferenceTable) -> ListResult:
    by_ref = {id(c.ref): (entities[e], c) for e, c in assigned.items()}
    rows = _rows_for_refs(
        table.differential,
        entities,
        {e: c for e, c in assigned.items() if c.ref.kind == "differential"},
        lambda ref: "matched",
    )
    for ref in table.diagnoses:
        if id(ref) in by_ref:
            entity, c = by_ref[id(ref)]
            rows.append(Pairing(ref, entity, "acceptable", c.via, note=f"the {ref.kind} diagnosis, also listed"))
    for e, entity in enumerate(entities):
        if e not in assigned and e not in repeated:
            rows.append(Pairing(None, entity, "extra"))
    return ListResult(rows)


ACTION_STATUS: dict[str, Status] = {
    "required": "matched",
    "acceptable": "acceptable",
    "optional": "acceptable",
    "unexpected": "unexpected",
    "contraindicated": "contraindicated",
    "not_indicated": "not_indicated",
}


def _actions(entities: list[Entity], assigned: dict[int, Candidate], repeated: set[int], refs: list[Ref],
             groups_of: dict[int, list[Group]]) -> ListResult:
    rows = _rows_for_refs(refs, entities, assigned, lambda ref: ACTION_STATUS[ref.klass])
    covered = {id(c.ref) for c in assigned.values()}
    for e, entity in enumerate(entities):
        if e in assigned or e in repeated:
            continue
        groups = groups_of.get(id(entity), [])
        target = next((r for g in groups for r in g.refs if r.klass == "required" and id(r) not in covered), None)
        if target is not None:
            covered.add(id(target))
            rows = [p for p in rows if not (p.ref is target and p.status == "missing")]
            rows.append(
                Pairing(target, entity, "different", GROUP_RULE,
                        note=f"same group ({target.group}) as the required item")
            )
            continue
        if any(r.klass == "required" for g in groups for r in g.refs):
            continue  # "antibiotics" beside the amoxicillin already given: a repetition
        rows.append(Pairing(None, entity, "extra"))
    order = {id(r): i for i, r in enumerate(refs)}
    rows.sort(key=lambda p: (p.ref is None, order.get(id(p.ref), 0) if p.ref is not None else 0))
    return ListResult(rows)
