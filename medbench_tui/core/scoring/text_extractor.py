"""The deterministic extractor of free-text finals (:class:`TextExtractor`).

Two passes over ``final.text`` (and ``final.advice``):

1. Reference-directed search: every name and alias of every reference item (and
   every treatment group) is looked for in the whole text (``reference.py``), and each
   mention is given a kind by where it stands and the words around it (``cues.py``):

   * a workup or treatment item counts as given wherever it appears ("I'd start
     amoxicillin" in prose is a treatment; "the CXR showed consolidation" says the CXR
     is part of the work-up), unless negated ("no need for a CT") or background
     ("previous colonoscopy", "currently on ramipril", "NSAID-induced", "penicillin
     allergy"), warned against ("IV adrenaline bolus is dangerous") or what a discharge plan
     refers for ("home with an outpatient referral for elective cholecystectomy"); everything
     under an "Avoid:" heading is negated; in an answer that has a plan section, a drug named
     under its Diagnosis or Differential heading describes the patient ("six senna a day", "an
     uncle on insulin") and is no plan, as is one under a heading of the history or findings
     ("Clinical summary", "Supporting features") or in what a diagnosis entry says for or against
     it after its dash or table cell ("| Cellulitis | Failed two antibiotics |"); a blood test's
     analyte in a urine result ("urine dip: ketones 4+") is no blood test; a drug given by the
     other injection route than its item names ("adrenaline 1:1000 1 mL IV") is not that item;
   * a diagnosis (primary, secondary or a reference differential) named in a
     Differential section is a differential; in a Diagnosis/Impression/Assessment or
     ICD-10 section it is a final diagnosis (unless negated, or moved to the
     differential by a strong cue such as "consider" or "rule out"); anywhere else it
     is a differential when hedged or queried ("possible X", "?X", "X less likely",
     "rule out X"), and a final diagnosis only when the text has no Diagnosis section
     at all ("This is community-acquired pneumonia.") or when it is the cause the answer
     commits to ("probably tipped over by a viral gastroenteritis"); "not X" or "no
     evidence of X" is never a diagnosis;
   * a safety-net instruction or a timed review in the doctor's own words ("come back
     urgently if breathless", "review in 1 week") is the reference item that names
     that concept (``concepts.py``), wherever it stands, Advice included.

   One place gives one entity per reference item: a drug that is both an item's alias
   and a member of a group ("sertraline": the SSRI item, the antidepressant group) is
   the item only.

2. The list items under Diagnosis, Differential, Workup and Treatment headings that
   name no reference item ("Refer to gastroenterology", "CT head") become answer items
   too, so that unlisted and wrong answers are scored. An item is cut into pieces at
   commas, arrows, "and", "or", "then"; a label before a colon, an explanation after a
   dash or in parentheses, and what follows a qualifier ("for", "if", "given"...) after
   a named item ("paracetamol for fever and pain") or an unlisted drug ("zinc 50 mg
   daily for the low zinc") are left out. A piece that names a
   reference item gives nothing more (in "CT head" under a case whose "CT" is an
   alias, "head" qualifies the CT); a piece in the reach of a negation ("avoid nitrates
   and opiates"), of doses, routes, frequencies and verbs only, or of more than
   ``LEFTOVER_MAX_WORDS`` words (prose) is no item either. A piece with no word of its
   own (a number, a dose: the "7" of "EBUS-TBNA of stations 4R and 7") or of body
   sites only ("MRI brain and spine") continues the piece before it. A safety-net
   instruction is advice, never an item: in a list item, the clause from a safety-net
   expression on (or from the "if" or the "advise ... to" that leads into it: "If
   pain, photophobia or reduced vision, return at once") gives no piece. A Diagnosis
   item is one diagnosis, uncut, when it names no reference diagnosis. In a mixed Treatment/Plan
   section a piece that reads like a test (:data:`INVESTIGATION_WORDS`) is workup.
   Prose outside list sections gives only reference mentions.

ICD-10 codes are read where they are plainly codes: in parentheses or brackets, after
"ICD", in an ICD-10 section, or (with a dot) in a Diagnosis or Differential section.
A code belongs to the nearest diagnosis of its item (or line); a code alone is a
diagnosis of its own (it matches by ICD-10 agreement).
"""

from __future__ import annotations

import re
from bisect import bisect_left
from dataclasses import dataclass, field

from medbench_tui.core.batch_caches import batch_cache
from medbench_tui.core.cases.model import Case
from medbench_tui.core.scoring import assertion, concepts, cues, home
from medbench_tui.core.scoring.actions import SAME_TEAM, read_action
from medbench_tui.core.scoring.composite import COMPOSITE_PLAN
from medbench_tui.core.scoring.constants import LEFTOVER_MAX_WORDS
from medbench_tui.core.scoring.document import Document, Hit, document
from medbench_tui.core.scoring.extraction_model import (
    ICD_CODE_RE,
    Entity,
    EntityKind,
    Extraction,
    Span,
    SpanField,
    mention_kind,
    merge,
    normalise_icd,
    structured_entities,
)
from medbench_tui.core.scoring.lines import BULLET_START_RE
from medbench_tui.core.scoring.reference import (
    EXAM_FINDING,
    EXAM_PARTS,
    HARMFUL_CLASSES,
    SAID_AS_PHRASE,
    SHORT_NAME,
    Mention,
    Ref,
    ReferenceTable,
    done_today,
    names_a_condition,
    names_a_rule,
    reference_table,
)
from medbench_tui.core.scoring.sections import Item, Layout, Section, SectionKind, heading_key, parse, without_brackets
from medbench_tui.core.text import Token, tokenize
from medbench_tui.core.transcript import FinalResponse
from medbench_tui.core.vocabulary import read_vocabulary
from medbench_tui.core.vocabulary.reading import OWN_CONDITION_RE, states_own_condition

_WORDS = read_vocabulary()
"""The shipped vocabulary: every word list of this module is a named phrase list of ``reading.yaml``."""
INVESTIGATION_WORDS = cues.word_list("unlisted_test_words")
INVESTIGATION_ENDINGS = _WORDS.phrases("unlisted_test_endings")
NOISE_WORDS = cues.word_list("unlisted_noise")
QUALIFIERS = cues.word_list("unlisted_qualifiers")
WITHHOLDING = cues.word_list("unlisted_withholding")
READINESS = cues.word_list("unlisted_readiness")
ADVICE_LEADS = cues.word_list("advice_leads")
"""Words that lead into a safety-net instruction in its clause ("advise to return if...")."""
ADVICE_OPENING_LEADS = cues.word_list("advice_opening_leads")
"""Words that do so only where they open their clause ("should it worsen")."""
BODY_SITES = cues.word_list("unlisted_body_sites")
ALTERNATIVE_LINKS = cues.word_list("unlisted_alternative_links")
STATEMENT_WORDS = cues.word_list("unlisted_statement_words")
STATEMENT_SUBJECTS = cues.word_list("unlisted_statement_subjects")
STATEMENT_VERBS = cues.cue_list("unlisted_statement_verbs")
GIVING_PARTICIPLES = cues.word_list("negation_passive_verbs")
RECORD_LABELS = cues.word_list("unlisted_record_labels")
RECORD_VERBS = cues.word_list("unlisted_record_verbs")
RECORD_WORDS = cues.word_list("unlisted_record_words")
"""Words of a piece that only names body sites: it extends the item before it ("CT
chest, abdomen and pelvis", "MRI brain and spine")."""
FRAGMENT_SEP_RE = re.compile(
    r",|\+|\u2192|->|=>|" + "|".join(rf"\b{re.escape(w)}\b" for w in _WORDS.phrases("unlisted_piece_links")),
    re.IGNORECASE,
)
EXPLANATION_RE = re.compile(r"\s[-\u2013\u2014]\s|\s\u2013|\u2014|\s\|")
"""A dash, or a table's next cell, opens the explanation of a diagnosis item."""
WORD_RE = re.compile(r"[A-Za-z]+")
RAW_WORD_RE = re.compile(r"[a-z0-9]+")
PAREN_RE = re.compile(r"\([^()]*\)|\[[^\[\]]*\]")
LABEL_COLON_RE = re.compile(r"[*_]*\s*:[*_]*[ \t]*[*_]*")
"""The colon of a label whose content goes on, on its line ("**Cardiology review:** 6 weeks"); grammar of the text."""
ICD_LABEL_RE = re.compile(r"icd[\s-]*(?:10)?[\s:-]*(?:codes?)?[\s:-]*$", re.IGNORECASE)


class TextExtractor:
    """Reads structured fields as they are and free text with a section parser and a
    reference-directed search (see the module documentation for every rule)."""

    name = "text"

    def extract(self, case: Case, final: FinalResponse) -> Extraction:
        return self.read(reference_table(case), final)

    def read(self, table: ReferenceTable, final: FinalResponse) -> Extraction:
        """The extraction against the case's table, already looked up (``score`` looks it up once)."""
        entities = structured_entities(final, table)
        found: list[Entity] = []
        if final.text:
            found += extract_text(final.text, table)
        if final.advice:
            found += extract_text(final.advice, table, field="advice")
        return Extraction(extractor=self.name, entities=merge(entities, found))


def extract_text(text: str, table: ReferenceTable, *, field: SpanField = "text") -> list[Entity]:
    doc = document(text)
    layout = Layout([Section("advice", 0, len(text), "advice")], []) if field == "advice" else parse(text)
    has_diagnosis_section = layout.has("diagnosis")
    mentions = table.find(doc)
    short = table.short_name_mentions(doc, mentions)
    if short:
        mentions = sorted([*mentions, *short], key=lambda m: m.hit.first)
    item_hits = {m.hit for m in mentions if m.ref is not None}
    ruled = [m.hit for m in mentions if m.ref is not None and m.rule is not None]  # a group's drug read with its route
    home_plans = [m.hit for m in mentions if m.via in (home.HOME_MANAGEMENT, home.ROUTINE_MANAGEMENT, COMPOSITE_PLAN)]
    covered: dict[Item, list[tuple[int, int]]] = {}
    named_words: dict[Item, set[str]] = {}  # the words of the treatment items each list item names
    named_diagnosis: set[Item] = set()
    reading = _Reading(has_diagnosis_section, layout.has("treatment"))
    reading.commits = not has_diagnosis_section and any(  # a commitment to a complication ("COPD exac + likely
        # T2RF") says nothing of which condition is the main one: the first named still is
        m.ref is not None and m.ref.is_diagnosis and m.ref.kind != "secondary" and _committed(doc, m.hit.first)
        for m in mentions
    )
    entities: list[Entity] = []
    declined: list[tuple[Ref, int, Hit, str]] = []  # items declined so far: item, entry start, mention, cue
    named_before: tuple[Ref, int] | None = None  # the last condition mention: its item and end
    for m in mentions:
        start, end = doc.span(m.hit)
        short_named = m.via == SHORT_NAME  # its words stay the answer's own unless it is read (_short_named)
        if m.ref is not None and mention_kind(m) not in ("workup", "treatment") and not short_named:
            before = named_before
            if before is not None and before[0] is m.ref and GLOSS_RE.fullmatch(text[before[1] : start]):
                continue  # "a chest infection (pneumonia)": one condition, said twice
            named_before = (m.ref, end)
        item = layout.item_at(start)
        for over in () if short_named else layout.items_over(start, end):
            covered.setdefault(over, []).append((start, end))
            if m.ref is not None and m.ref.kind == "treatment":
                named_words.setdefault(over, set()).update(_norms(tokenize(f"{m.ref.name} {text[start:end]}")))
        if m.ref is None and (m.group is None or m.hit in item_hits or any(
                h.first <= m.hit.first and m.hit.last <= h.last for h in (*home_plans, *ruled))):
            continue  # a critical-condition phrase (read by the conditions check), or a group beside its item
        holder = layout.section_at(start)
        section = holder.kind
        describes = section == "other" and _history_heading(holder.heading)  # "**Supporting features:** ..."
        explained = item is not None and _in_explanation(text, item, start)
        if explained:
            section = "other"  # "PE - worth considering in a smoker": the smoker is no entry
            describes = True  # "| Cellulitis | Failed two antibiotics |": the case for or against it
        reading.section_start = holder.start
        kind, said = _classify(m, doc, section, reading, item, table, describes, explained)
        if kind is None:
            continue
        if kind in ("workup", "treatment") and m.ref is not None:
            if said.status == "negated":
                declined.append((m.ref, _entry_start(text, start), m.hit, said.cue or "negated"))
            elif said.recommended and declined and (
                    cue := _declined_in_reason(doc, m, declined, _entry_start(text, start))):
                said = assertion.Assertion("negated", cue, f'negated: named again in why it is declined ("{cue}")')
        for over in layout.items_over(start, end) if short_named else ():
            covered.setdefault(over, []).append((start, end))
        if item is not None and kind in ("diagnosis", "differential"):
            named_diagnosis.add(item)
        said_as = m.phrase.text if m.via in SAID_AS_PHRASE else doc.said(m.hit)  # "?Ca": the organ's cancer
        if _read_in_context(m, said_as, table):
            said_as = m.phrase.text  # "Renal + ITU now": the renal team, now, named by its item
        if m.via == concepts.PANEL_RESULT and (signs := concepts.signs_after(doc, m.hit.last)):
            said_as, end = said_as + signs, end + len(signs)  # "urine blood +++": the signs are the result
        if m.via == concepts.SAFETY_NET:
            said_as = concepts.said_under_heading(doc, m.hit)  # "Red flags: go to the eye clinic if worse"
        if kind == "treatment" and m.ref is None and m.group is not None and (dose := _dose_after(doc, m.hit)):
            said_as = f"{said_as} {dose}"  # "continue atorvastatin 20 mg": a drug of the group at its own dose
        if kind in ("workup", "treatment") and (later := _contact_time_after(doc, m.hit, said_as, item_hits)):
            said_as = f"{said_as}, {later}"  # "refer to ophthalmology, to be seen in 2 weeks": the referral's time
        entities.append(Entity(
            kind=kind, text=said_as, evidence=Span(start=start, end=end, text=text[start:end], field=field),
            source="text", negated=None if said.recommended else (said.cue or said.status), section=section,
            status=said.status, reason=_reason(said, section, m),
        ))
        if kind == "diagnosis" and m.via is None:
            for at, named in _qualified_secondaries(doc, m, table):
                _final(reading, named, item)
                entities.append(Entity(
                    kind=kind, text=text[at:end], evidence=Span(start=at, end=end, text=text[at:end], field=field),
                    source="text", negated=None if said.recommended else (said.cue or said.status), section=section,
                    status=said.status, reason=f"{_reason(said, section, m)}; {QUALIFIED}",
                ))
    for m in table.contradicted_mentions(doc):
        start, end = doc.span(m.hit)
        for over in layout.items_over(start, end):
            covered.setdefault(over, []).append((start, end))
    codes = _codes(text, layout)
    advice = _advice_starts(doc)
    for item in layout.items:
        coded = [(a, b) for a, b, _ in codes if item.start <= a < item.end]
        end = min((a for a in advice if item.start <= a < item.end), default=item.end)
        entities += _leftovers(doc, item, end, covered.get(item, []), coded, item in named_diagnosis, field, table,
                               frozenset(named_words.get(item, ())))
    entities.sort(key=_position)
    _attach_codes(text, layout, codes, entities, field)
    entities.sort(key=_position)
    return entities


def _entry_start(text: str, at: int) -> int:
    """Where the list entry or table row that holds ``at`` starts: the line that opens on a list marker or a
    table bar, found back over the entry's wrapped lines (no blank line or heading between); -1 in prose."""
    line_start = text.rfind("\n", 0, at) + 1
    while True:
        line = text[line_start : text.find("\n", line_start) if "\n" in text[line_start:] else len(text)]
        if BULLET_START_RE.match(line) or line.lstrip().startswith("|"):
            return line_start
        if line_start == 0 or not line.strip() or line.lstrip().startswith("#"):
            return -1
        previous = text.rfind("\n", 0, line_start - 1) + 1
        if not text[previous : line_start - 1].strip() or text[previous:].lstrip().startswith(("#", "|")):
            return -1
        line_start = previous


def _declined_in_reason(doc: Document, m: Mention, declined: list[tuple[Ref, int, Hit, str]], entry: int) -> str:
    """The cue of an earlier mention of the same item declined in the same list entry or table row (in prose, the
    same sentence) when this mention says why and starts nothing of its own ("**Sodium valproate: not offered.**
    She can become pregnant; valproate carries a 10% risk ...", "I would avoid NSAIDs because NSAIDs worsen renal
    function"): no action verb before it in its clause or in its own words ("so I'll ring the regional surgical
    centre"), and no number in or dose after it ("not starting warfarin now
    ...; start warfarin at day 3", "avoid NSAIDs ... ibuprofen 400 mg tds", "(no allergy to honey): honey 10 mL
    every 10 minutes" are plans of their own). "" otherwise."""
    for ref, at, hit, cue in reversed(declined):
        if ref is not m.ref:
            continue
        if at != entry or (at < 0 and doc.sentence_break_within(hit.first, m.hit.first)):
            return ""
        clause = doc.clause[m.hit.first]
        k = m.hit.first - 1
        while k >= 0 and doc.clause[k] == clause:
            if doc.lows[k] in cues.ACTION_VERBS:
                return ""
            k -= 1
        own = doc.quote(m.hit)
        acted = _dose_after(doc, m.hit) or any(c.isdigit() for c in own) or read_action(own).acts
        return "" if acted else cue
    return ""


def _contact_time_after(doc: Document, hit: Hit, said: str, item_hits: set[Hit]) -> str:
    """The time of a team contact said in the next comma piece of its clause ("refer to ophthalmology, to be seen
    in 2 weeks", "refer to ENT, routine", "cardiology review - 6/52"), when the contact's own words give none: a
    piece that gives a time and nothing else (no drug, class, team, item or action of its own; "review in 48
    hours" is another action), or in the content of the label the contact is ("cardiology review: 6 weeks"; g81).
    "" otherwise."""
    own = read_action(said)
    if not own.teams or own.windows:
        return ""
    piece = doc.piece_of(hit.last)
    clause = doc.clause_of(hit.last)
    after = [p for p in doc.pieces_of_clause(clause) if p.first > piece.last]
    if not after and piece.last == clause.last and clause.last + 1 < len(doc.tokens) and LABEL_COLON_RE.fullmatch(
            doc.text[doc.tokens[clause.last].end : doc.tokens[clause.last + 1].start]):
        after = [doc.piece_of(clause.last + 1)]  # "haematology review: 6 weeks": the content of the contact's
        # label, when it is a time alone, is its time (g81)
    if not after or any(after[0].first <= h.first <= after[0].last for h in item_hits):
        return ""  # an item named in the piece is its own; one run on from the contact's words ("review - 2/52": a
        # follow-up review) gives the contact that time too (g79)
    words = doc.quote(after[0])
    reading = read_action(words)
    if reading.acts or reading.drugs or reading.classes or reading.teams:
        return ""
    if not reading.windows and not read_action(f"{said}, {words}").windows:
        return ""  # a bare amount of time is the contact's only beside it ("cardiology review - 6 weeks"; g79)
    return words


def _read_in_context(m: Mention, said: str, table: ReferenceTable) -> bool:
    """A team's contact that the words around it make the item's (``ReferenceTable._action_mentions``: the
    time of its piece, a team it is joined to: "Renal + ITU now"), whose own words read again alone would name
    no item: its entity is named by the item's phrase, so that matching finds the item the mention found. A
    drug names itself: its words alone are read again (the route of a piece beside it is only ever a
    contradiction)."""
    return (m.rule == SAME_TEAM and m.ref is not None and m.via is None
            and not any(found.ref is m.ref for found in table.find_items(document(said))))
QUALIFIED = "a secondary diagnosis named with a qualifier before it"
QUALIFIER_MAX_WORDS = 4
"""The most words before a secondary diagnosis's name in another's mention ("pre-renal", "flare of")."""
MIMIC_QUALIFIERS = cues.word_list("diagnosis_mimic_qualifiers")


def _qualified_secondaries(doc: Document, m: Mention, table: ReferenceTable) -> list[tuple[int, Ref]]:
    """A secondary diagnosis whose name ends the mention of another diagnosis, a qualifier before it ("pre-renal
    acute kidney injury" of the prerenal differential names acute kidney injury; "septic AKI", "exacerbation of
    COPD"): the condition is named, whatever its kind or cause (where its words start, and the item). Not after
    a qualifier that says it is not the condition (``diagnosis_mimic_qualifiers``: "spurious hyperkalaemia")."""
    if not table.secondary:
        return []  # no secondary diagnosis to name: the usual case, and each tail would be a search of its own
    text = doc.text
    start, end = doc.span(m.hit)
    for k in range(m.hit.first + 1, min(m.hit.last, m.hit.first + QUALIFIER_MAX_WORDS) + 1):
        at = doc.tokens[k].start
        if at == doc.tokens[k - 1].start:
            continue  # inside an expanded abbreviation
        if MIMIC_QUALIFIERS & set(WORD_RE.findall(text[start:at].lower())):
            return []
        named = next((ref for ref in _whole_secondaries(text[at:end], table) if ref is not m.ref), None)
        if named is not None:
            return [(at, named)]
    return []


def _whole_secondaries(tail: str, table: ReferenceTable) -> list[Ref]:
    """The secondary diagnoses the text ``tail``, searched as a document of its own, names with all its words, in
    the order of their mentions: kept by the case's table per text (the same diagnosis is named, with its qualifier,
    answer after answer)."""
    def search() -> list[Ref]:
        doc = document(tail)
        return [named.ref for named in table.find_items(doc)
                if named.ref is not None and named.ref.kind == "secondary"
                and named.hit.first == 0 and doc.span(named.hit)[1] == len(tail)]
    return table.remember(("whole secondaries", tail), search)


def _position(entity: Entity) -> int:
    return entity.evidence.start if isinstance(entity.evidence, Span) else 0


def _in_explanation(text: str, item: Item, at: int) -> bool:
    """``at`` lies after a dash that starts an explanation in a list item."""
    if item.kind not in ("diagnosis", "differential"):
        return False
    dash = _explanation(text, item.start, item.end)
    return dash is not None and at >= dash.end()


@batch_cache(maxsize=256)
def _explanation(text: str, start: int, end: int) -> re.Match[str] | None:
    """The first dash in ``text[start:end]`` that opens an explanation: not one inside brackets
    ("type 1 (ketones 0.4 - antibodies later), thyrotoxicosis" explains nothing after the bracket).
    Read once per item (every mention in it asks), counting brackets as it goes."""
    depth = {"(": 0, "[": 0}
    counted = start
    for dash in EXPLANATION_RE.finditer(text, start, end):
        between = text[counted : dash.start()]
        depth["("] += between.count("(") - between.count(")")
        depth["["] += between.count("[") - between.count("]")
        counted = dash.start()
        if depth["("] <= 0 and depth["["] <= 0:
            return dash
    return None


@dataclass
class _Reading:
    """What the reading of one text has settled so far: which diagnoses are final."""

    has_diagnosis_section: bool
    has_plan_section: bool = False
    finals: set[int] = field(default_factory=set)  # id() of the refs named as final diagnoses
    final_items: set[Item] = field(default_factory=set)  # list items that already name a final diagnosis
    any_final: bool = False
    commits: bool = False  # the text says what it commits to ("most likely X"): no first-named rule
    section_start: int = 0  # where the section of the mention being read starts
    committed: dict[int, int] = field(default_factory=dict)
    """By a diagnosis section's start, the clause in which its prose first stated a diagnosis (not a comorbidity
    of the secondaries): a condition hedged in a later clause of it is offered as an alternative."""


GLOSS_RE = re.compile(r"\s*\(\s*")
"""Between a condition and the same condition in brackets after it (its other name)."""
SUBORDINATE = cues.word_list("group_time_words")
"""A treatment group after these words is a time, not an item ("before starting antibiotics")."""
NOT_SAID = assertion.Assertion("question", "?", "question: asked, not stated")
IN_DIAGNOSIS = assertion.Assertion("historical", "diagnosis section", "history: named in the diagnosis, not a plan")
"""In an answer with a plan section, a drug under its Diagnosis or Differential heading describes the patient ("six
senna a day", "NSAID use", "an uncle on insulin"): the plan is in the plan section."""
REDUCTION_WORDS = cues.word_list("reduction_words")
"""Words of a reduction of a treatment ("wean", "withdraw", "reduce"): before a drug in an answer they give it no
more, and they agree with an item that is itself that reduction ("Reduce prednisolone to the lowest effective
dose")."""

STOPPING_CUES = REDUCTION_WORDS | concepts.SWITCH_WORDS
"""The cues of a reduction or a switch: what they negate they stop, as an item of stopping or reducing it asks."""


def _reduces(m: Mention) -> bool:
    """The mention's item, by its name or the phrase that found it, is a reduction or withholding of a treatment."""
    words = set(_norms(tokenize(f"{m.ref.name if m.ref is not None else ''} {m.phrase.text}")))
    return bool(words & (REDUCTION_WORDS | concepts.WITHHOLD_WORDS))


DESCRIBED = assertion.Assertion(
    "historical", "history", "history: named where the answer describes the patient, not a plan")
"""In an answer with a plan section, a treatment under a heading of the patient's history or findings ("Clinical
summary", "Supporting features": ``heading_history``), or in what a diagnosis entry says for or against it
("| Cellulitis | Failed two antibiotics |", "- MOH - co-codamol most days may contribute"), is what the patient had:
the plan is in the plan section."""
HISTORY_HEADINGS = frozenset(heading_key(h) for h in _WORDS.phrases("heading_history"))


def _history_heading(heading: str | None) -> bool:
    """The heading names the patient's history or findings (``heading_history``, compared as headings are); a part
    in brackets only qualifies it ("History (from partner and ambulance crew)")."""
    return heading is not None and (heading_key(heading) in HISTORY_HEADINGS
                                    or heading_key(without_brackets(heading)) in HISTORY_HEADINGS)


STOPPED_LATER = assertion.Assertion(
    "historical", "stopped later", "history: the drug the patient takes, which the plan stops")
"""A drug named in a line of prose outside a plan heading, with no verb and no dose of its own ("Ibuprofen x3d.", "on
naproxen for a week"), that the answer stops later, unconditionally, by the same words ("STOP ibuprofen"): what the
patient has been taking, not a recommendation ("- Naproxen 500 mg BD" in a list, or with a dose, is a plan)."""


def _stopped_later(doc: Document, first: int, last: int) -> bool:
    """The drug at ``first..last``, in a prose line with no action verb before it in its clause, no dose after it,
    and not itself withheld, is named again later by the same words under a withholding that is no contingency
    ("stop ibuprofen if dyspepsia")."""
    low = doc.lows
    line_start = doc.text.rfind("\n", 0, doc.tokens[first].start) + 1
    if (BULLET_START_RE.match(doc.text, line_start) is not None or _dose_after(doc, Hit(first, last)) is not None
            or concepts.withheld(doc, first) is not None
            or any(low[k] in cues.ACTION_VERBS for k in range(first) if doc.clause[k] == doc.clause[first])):
        return False
    words = low[first : last + 1]
    return any(low[k : k + len(words)] == words and concepts.withheld(doc, k) is not None
               and assertion.condition_of(doc, k, k + len(words) - 1) is None
               for k in range(last + 1, len(low) - len(words) + 1))


CAUSED = assertion.Assertion("historical", "cause", "history: the cause the diagnosis names, not a plan")
"""A drug the diagnosis names as its cause ("NMS 2' haloperidol (rapid titration + 2x IM)", "AKI following IV
contrast"): what was given, not a plan, with or without a plan section."""
CAUSE_LEADS = cues.cue_list("diagnosis_cause_leads")


def _caused_by(doc: Document, first: int) -> bool:
    """A cause word (``diagnosis_cause``, ``diagnosis_cause_leads``) within ``CAUSE_REACH`` words before the
    treatment in its clause, and no action verb before it in the clause ("give dantrolene after cooling" is a plan)."""
    low = doc.lows
    for k in range(max(0, first - CAUSE_REACH), first):
        if doc.clause[k] != doc.clause[first]:
            continue
        cue = CAUSE.ending_at(low, k) or CAUSE_LEADS.ending_at(low, k)
        if cue is None:
            continue
        start = k
        while start > 0 and doc.clause[start - 1] == doc.clause[first]:
            start -= 1
        return not any(low[j] in cues.ACTION_VERBS for j in range(start, k))
    return False


ONE_DOSE = cues.cue_list("withhold_one_dose")
ONE_DOSE_VERBS = cues.word_list("withhold_one_dose_verbs")
CONTRASTS = cues.word_list("withhold_contrasts")


def _partial_hold(doc: Document, hit: Hit, written: list[Hit], table: ReferenceTable,
                  item_name: str = "") -> assertion.Assertion | None:
    """A hold that is no stop of the drug: a hold verb (``withhold_one_dose_verbs``, not "stop": "stop it tonight"
    stops it) with the time of one dose ("hold the regular haloperidol tonight"; ``withhold_one_dose`` right
    after the drug: "hold ... from today" is a stop from today), or the same drug going on in another form after a
    contrast in the same sentence ("..., but keep PRN IM haloperidol"; ``withhold_contrasts``: not withheld, and
    given now, not negated, history or a later event). An item that itself holds with such a verb ("Hold
    enoxaparin thromboprophylaxis", "Omit tonight's dose") is met by a hold of one dose (g52)."""
    low = doc.lows
    item_holds = any(w in ONE_DOSE_VERBS for w in item_name.lower().replace("'", " ").split())
    if not item_holds and any(low[k] in ONE_DOSE_VERBS for k in range(max(0, hit.first - 1), hit.last + 1)):
        k = hit.last + 1
        cue = ONE_DOSE.starting_at(low, k) if k < len(low) and doc.clause[k] == doc.clause[hit.last] else None
        if cue is not None:
            return assertion.Assertion("conditional", " ".join(cue), f'conditional: "{" ".join(cue)}" holds '
                                       "one dose, no stop of the drug")
    text = doc.text
    for other in sorted(written, key=lambda h: h.first):
        if other.first <= hit.last:
            continue
        between = text[doc.tokens[hit.last].end : doc.tokens[other.first].start]
        if any(stop in between for stop in ".;\n"):
            break
        if not any(low[k] in CONTRASTS for k in range(hit.last + 1, other.first)):
            continue
        if (concepts.withheld(doc, other.first) is None
                and assertion.action(doc, other.first, other.last, "treatment", table.record, False).recommended):
            return assertion.Assertion("negated", "kept", f'negated: the same drug is kept ("{doc.said(other)}"), '
                                       "no stop")
    return None


REFERRED_FROM_HOME = assertion.Assertion(
    "negated", "discharge plan", "negated: what a discharge plan refers for later, not a plan now"
)
""""Discharge today with an outpatient referral for elective cholecystectomy": the plan is the discharge and the
referral; the operation is part of that item (scoring.md: a word inside another item)."""
REFERRAL_WORDS = cues.word_list("discharge_referral_words")
SENDING_HOME = cues.word_list("discharge_sending_home")


SEEN_ON = assertion.Assertion("affirmed", None, "a result: a finding was looked for on it")
"""scoring.md "Results": a result the answer reports counts as the test done, a finding it did not show too."""


def _referred_from_home(doc: Document, first: int) -> bool:
    """The mention is what a referral is for (a referral word before it, with no comma or "and" between), and a
    word that sends the patient home comes before that in its clause ("... and co-amoxiclav" is given)."""
    referral = False
    k = first - 1
    while k >= 0 and doc.clause[k] == doc.clause[first]:
        if not referral and (doc.lows[k] in cues.LINKS or doc.comma_before[k + 1]):
            return False
        if doc.lows[k] in REFERRAL_WORDS:
            referral = True
        elif referral and doc.lows[k] in SENDING_HOME:
            return True
        k -= 1
    return False


FINDING_VIAS = frozenset({concepts.ECG_READ, EXAM_FINDING})
"""Concept mentions that are a finding of a test or an examination: a bare negation denies the finding, and the test
was done ("no ST elevation", "abdomen: no tenderness")."""
BARE_NEGATIONS = cues.word_list("bare_negations")
CONDITIONS_APPLY = frozenset({concepts.DISCHARGE_PLAN, concepts.BOLUS, concepts.SWITCHING,
                              concepts.QUALIFIED_DISCHARGE, concepts.MILESTONE_DISCHARGE, concepts.ELIDED_REPEAT,
                              concepts.DONE_BY_RESULT, concepts.COUNSELLED, concepts.FLUID_CONTEXT,
                              EXAM_PARTS})
"""Concept mentions that the answer's conditions apply to, as to a mention by name ("home with X if ...")."""
SERVICE_WORDS = cues.word_list("diagnosis_service_words")
"""After a condition's name these make it a service ("the diabetes nurse"), not a diagnosis."""
MEASUREMENT_WORDS = cues.word_list("treatment_measurement_words")
"""After a treatment's name these make it a measurement ("his oxygen levels"), not an intervention."""
ATTRIBUTED = cues.cue_list("diagnosis_attributed")
"""A diagnosis said to be someone else's idea ("I understand why you think it's a cyst")."""
REJECTED = "differential: named and rejected"
ALTERNATIVE = "differential: named as an alternative"


def rejected_by(cue: str) -> str:
    """The reason of a diagnosis named and rejected by ``cue`` ("no PE"): the doubt rules read the cue back."""
    return f'{REJECTED} ("{cue}")'


RESERVING = frozenset(t for t in cues.word_list("condition_triggers") - cues.word_list("open_conditions")
                   if not t.startswith("if "))
"""Triggers that restrict an action to a condition ("only if", "reserved for"): the action is kept for it."""


def _reserved(doc: Document, first: int, last: int, ref: Ref | None) -> bool:
    """Under an Avoid heading, an entry that keeps an item stating its own condition for a condition ("**Pacing**:
    only if Fab is unavailable or fails" for "Temporary cardiac pacing if antidote unavailable or ineffective"; issue
    32) is no decline: the action is conditional, read as any other condition is. An item with no condition of its
    own stays declined there ("prosthesis is reserved for refractory priapism beyond 48 hours": not now)."""
    if ref is None or not states_own_condition(ref.name):
        return False
    condition = assertion.condition_of(doc, first, last)
    return condition is not None and condition.trigger in RESERVING


def _classify(
    m: Mention, doc: Document, section: str, reading: _Reading, item: Item | None, table: ReferenceTable,
    describes: bool = False,
    explained: bool = False,
) -> tuple[EntityKind | None, assertion.Assertion]:
    """The kind of a mention and what it asserts (see the module documentation); ``describes``: the mention stands
    where the answer describes the patient (under a heading of the history or findings, or in what a diagnosis
    entry says for or against it after its dash or table cell); ``explained``: it stands in the explanation after
    a dash of a diagnosis item."""
    named = mention_kind(m)
    first, last = m.hit.first, m.hit.last
    if named in ("workup", "treatment"):
        if section == "avoid" and not cues.avoid_alternative(doc, last) and not _reserved(doc, first, last, m.ref):
            return named, assertion.Assertion("negated", cues.AVOID_HEADING, f"negated: {cues.AVOID_HEADING}")
        if m.via == concepts.EXPLAINED_DECLINE:
            return named, assertion.AFFIRMED  # the declining is the explanation
        if m.ref is None and any(w in SUBORDINATE for w in doc.lows[max(0, first - 3) : first]):
            return None, assertion.AFFIRMED
        if named == "treatment" and (
            _measured(doc, last) or (concepts.a_result(doc, last) and concepts.names_analyte(doc, first, last))
            or concepts.followed(doc, first, last)
            or _inside_a_test(doc, first, table)
        ):
            return None, assertion.AFFIRMED
        if names_a_rule(doc, last):
            return None, assertion.AFFIRMED  # "Canadian CT Head Rule negative": a rule's name, not the test
        if named == "workup" and section == "differential" and names_a_condition(doc, last):
            return None, assertion.AFFIRMED  # "B12 def", "STEC-HUS" as a differential: the condition, not the test
        if named == "workup" and (concepts.finding_seen_on(doc, first) or (
                not m.ordered and concepts.finding_within(doc, first, last))):
            return named, SEEN_ON  # "no retained products on ultrasound": the ultrasound's result
        if named == "workup" and m.ref is not None and _in_another_specimen(doc, first, m):
            return None, assertion.AFFIRMED
        if named == "workup" and m.via is None and concepts.treatments_analyte(doc, first, last):
            return None, assertion.AFFIRMED  # "50% glucose", "to correct the low calcium": the treatment's, no test
        if named == "treatment" and section in ("diagnosis", "icd", "differential") and reading.has_plan_section:
            return named, IN_DIAGNOSIS
        if named == "treatment" and section in ("diagnosis", "icd", "differential") and _caused_by(doc, first):
            return named, CAUSED
        if named == "treatment" and describes and reading.has_plan_section:
            return named, DESCRIBED
        if named == "treatment" and section != "treatment" and _stopped_later(doc, first, last):
            return named, STOPPED_LATER
        if named == "treatment" and _referred_from_home(doc, first):
            return named, REFERRED_FROM_HOME
        own_condition = m.ref is not None and bool(
            states_own_condition(m.ref.name) or OWN_CONDITION_RE.search(m.phrase.text))
        today = done_today(m.ref)  # "call 999 if she gets breathless" is no attendance now
        own = (m.via is not None and m.via not in CONDITIONS_APPLY and not (today and m.via == concepts.SAFETY_NET)
               ) or own_condition or (not today and (table.is_safety_net(m.phrase) or table.is_safety_net_item(m.ref))
                                      )  # a safety-net instruction is conditional by nature
        item_name = m.ref.name if m.ref is not None else ""
        said = assertion.action(doc, first, last, named, table.record, own, item_name)
        if (said.recommended and m.via == concepts.SAFETY_NET and not today
                and assertion.action(doc, first, last, named, table.record, False, "").status == "conditional"):
            said = assertion.CONDITIONAL_SAFETY_NET  # "if you get a fever, go to A&E": the safety net, no attendance
        if said.status == "conditional" and named == "treatment" and _routine_escalation(doc, first, m.ref):
            said = assertion.Assertion("affirmed", said.cue, ROUTINE_ESCALATION)
        if said.status == "negated" and (m.via in FINDING_VIAS and said.cue in BARE_NEGATIONS
                                         or table.names_exam_finding(doc, m, said.cue in BARE_NEGATIONS)):
            said = assertion.AFFIRMED  # "no ST elevation", "no hyperK changes": the finding is denied, the test done
        agrees = (said.cue in assertion.WITHHOLDING_VERDICTS or said.cue in concepts.WITHHOLD_WORDS) and \
            assertion.withholds(m.phrase.text)
        agrees = agrees or (said.cue in STOPPING_CUES and _reduces(m))  # "wean pred -> <=10 mg": the reduction;
        # "switch her from the combined pill to a POP": the stop of the pill
        if said.status == "negated" and agrees:  # "no NSAIDs - ibuprofen stopped": the verdict agrees with the
            said = assertion.AFFIRMED  # instruction, as "stop bendroflumethiazide and stop amlodipine" does
        if said.recommended and named == "treatment" and m.ref is not None and table.withholds(m.ref):
            said = _partial_hold(doc, m.hit, table.withheld_written(doc, m.ref), table, m.ref.name) or said
        return named, said
    if (section == "avoid" or assertion.asked(doc, first) or _service(doc, last) or _attributed(doc, first)
            or _quoted(doc, first, last)):
        return None, NOT_SAID
    ref = m.ref
    if m.via == SHORT_NAME:
        return _short_named(doc, first, last, section)
    if section == "differential":
        return "differential", assertion.AFFIRMED
    hard = cues.hard_negation(doc, first, last)
    if hard is not None:
        return "differential", assertion.Assertion("affirmed", hard, rejected_by(hard))
    if _hedged_away(doc, first, last):
        return "differential", assertion.Assertion("affirmed", "less likely", "differential: judged less likely")
    if ref is not None and id(ref) in reading.finals:
        return "diagnosis", assertion.AFFIRMED
    if _working(doc, last):
        return _final(reading, ref, item), assertion.Assertion("affirmed", None, "final: the working diagnosis")
    bracketed = section in ("diagnosis", "icd") and _opens_bracket(doc, first)
    leads = item is not None and (bracketed or _leads(doc, item, first))
    strong = cues.differential_cue(doc, first, last, strong_only=True, before_only=leads, in_bracket=bracketed)
    weak = cues.differential_cue(doc, first, last, before_only=leads, in_bracket=bracketed) or cues.negation(
        doc, first, last, of_condition=True)
    if explained and strong is None and weak is None and _committed(doc, first):
        # "papilloedema - likely IIH": the finding a diagnosis line opens with, explained by the condition the
        # answer commits to after its dash
        return _final(reading, ref, item), assertion.Assertion("affirmed", None, "final: what its line's finding is")
    hedged_comorbidity = ref is not None and ref.kind == "secondary" and strong is None
    if section in ("diagnosis", "icd"):
        if hedged_comorbidity:
            return _final(reading, ref, item), assertion.AFFIRMED
        if strong is not None or (weak is not None and item is not None and (item in reading.final_items or not leads)):
            return "differential", assertion.Assertion("affirmed", strong or weak, f'differential: "{strong or weak}"')
        hedge = weak if not leads else cues.differential_cue(doc, first, last, in_bracket=bracketed)
        if hedge is not None and _offered_after(doc, first, reading, ref):
            return "differential", assertion.Assertion("affirmed", hedge, f'{OFFERED_AFTER} ("{hedge}")')
        if ref is None or ref.kind != "secondary":
            reading.committed.setdefault(reading.section_start, doc.clause[first])
        return _final(reading, ref, item), assertion.AFFIRMED
    if hedged_comorbidity:
        return _final(reading, ref, item), assertion.AFFIRMED
    if not reading.has_diagnosis_section and _committed(doc, first):
        return _final(reading, ref, item), assertion.Assertion("affirmed", None, "final: the answer commits to it")
    if strong is None and section != "differential" and _a_cause(doc, first):
        return _final(reading, ref, item), assertion.Assertion("affirmed", None, "final: the cause it commits to")
    if (not reading.has_diagnosis_section and not reading.any_final and not reading.commits
            and strong not in STRONG_ALTERNATIVE):
        return _final(reading, ref, item), assertion.Assertion("affirmed", None, "final: the first condition named")
    if weak is not None or strong is not None or not reading.has_diagnosis_section:
        return "differential", assertion.Assertion("affirmed", strong or weak, ALTERNATIVE)
    return None, assertion.AFFIRMED


ROUTINE_ESCALATION = "affirmed: the plan's only escalation, a routine pathway on a condition"


def _routine_escalation(doc: Document, first: int, ref: Ref | None) -> bool:
    """A harmful item of a routine pathway ("... with routine review") named, routine, under a condition ("Routine
    ENT referral if the ear is still not settling") in an answer that admits or refers nobody today: the routine
    pathway is the plan's only escalation, so the plan is that pathway, whatever the condition. An answer with a
    contact of today ("same-day ENT; routine ENT review if ...") is never it."""
    if ref is None or ref.klass not in HARMFUL_CLASSES or not any(home.routine_word(t) for t in tokenize(ref.name)):
        return False
    clause = doc.clause[first]
    words = [t for k, t in enumerate(doc.tokens) if doc.clause[k] == clause]  # its clause: "refer to ENT, routine"
    return any(home.routine_word(t) for t in words) and not home.sends_today(doc)


OFFERED_AFTER = "differential: hedged after the diagnosis it states"
SHORT_NAMED = "differential: the primary by a short name"


def _short_named(doc: Document, first: int, last: int, section: str) -> tuple[EntityKind | None, assertion.Assertion]:
    """The primary diagnosis by a short name ("Herpes is less likely as the cold sore has crusted over"): a
    differential under a Differential heading or where the answer rejects or hedges it, else nothing (a short
    name is never the answer's diagnosis)."""
    if section == "differential":
        return "differential", assertion.Assertion("affirmed", None, SHORT_NAMED)
    cue = cues.negation(doc, first, last, of_condition=True) or cues.differential_cue(doc, first, last)
    if cue is None:
        return None, assertion.AFFIRMED
    return "differential", assertion.Assertion("affirmed", cue, f'{SHORT_NAMED} ("{cue}")')


def _offered_after(doc: Document, first: int, reading: _Reading, ref: Ref | None) -> bool:
    """A condition hedged in the prose of a diagnosis section ("Impression: alcoholic ketoacidosis. Ethylene glycol
    ingestion is possible but unconfirmed.") after an earlier clause of it stated the diagnosis: an alternative
    offered, as "SVT, possibly AF" is in one line. Not a comorbidity (a secondary counts hedged: "she may be
    septic"), nor the cause the answer commits to."""
    if ref is None or ref.kind == "secondary":
        return False
    committed = reading.committed.get(reading.section_start)
    return committed is not None and committed < doc.clause[first] and not _a_cause(doc, first)


COMMITMENT = cues.cue_list("diagnosis_commitment")
"""Words by which prose commits to a diagnosis ("this is most likely CAP")."""
STRONG_ALTERNATIVE = cues.word_list("diagnosis_strong_alternative")
"""Cues that make even the first condition named an alternative ("Consider pneumonia")."""


CAUSE = cues.cue_list("diagnosis_cause")
"""Words by which an answer names the cause of its diagnosis ("DKA, probably tipped over by a viral
gastroenteritis"): a cause it commits to, hedged or not, is a final diagnosis (scoring.md)."""
CAUSE_REACH = 4


WORKING = cues.cue_list("diagnosis_working_after")
"""Words after a condition that make it the working diagnosis, queried or not ("?MM until proven otherwise")."""


def _working(doc: Document, last: int) -> bool:
    following = last + 1
    return (following < len(doc.lows) and doc.clause[following] == doc.clause[last]
            and WORKING.starting_at(doc.lows, following) is not None)


def _a_cause(doc: Document, first: int) -> bool:
    low = doc.lows
    return any(
        doc.clause[k] == doc.clause[first] and CAUSE.ending_at(low, k) is not None
        for k in range(max(0, first - CAUSE_REACH), first)
    )


def _committed(doc: Document, first: int) -> bool:
    low = doc.lows
    for k in range(max(0, first - 4), first):
        if doc.clause[k] == doc.clause[first] and COMMITMENT.ending_at(low, k) is not None:
            return True
    return False


def _leads(doc: Document, item: Item, first: int) -> bool:
    """The mention opens its list item (hedges aside): "possible colon cancer", not "UTI with possible PID"."""
    before = doc.text[item.start : doc.tokens[first].start]
    words = [w for w in re.findall(r"[A-Za-z]+", before.lower()) if w not in HEDGE_WORDS]
    return not words


HEDGE_WORDS = cues.word_list("diagnosis_item_hedges")


def _opens_bracket(doc: Document, first: int) -> bool:
    """The mention opens a bracket (hedges aside) under a diagnosis heading: "X must be excluded (suspected Y)"
    states Y as the working diagnosis, and the cue before the bracket is not Y's."""
    start = doc.tokens[first].start
    line = doc.text[doc.text.rfind("\n", 0, start) + 1 : start]
    opened = line.rfind("(")
    if opened < 0 or ")" in line[opened:]:
        return False
    words = re.findall(r"[A-Za-z]+", line[opened + 1 :].lower())
    return bool(words) and all(w in HEDGE_WORDS for w in words) or line[opened + 1 :].strip() == "?"


def _next_index(doc: Document, last: int) -> int:
    """The token after ``last``, past the rest of an expanded abbreviation."""
    k = last + 1
    while k < len(doc.tokens) and doc.tokens[k].start == doc.tokens[last].start:
        k += 1
    return k


def _next_low(doc: Document, last: int) -> str | None:
    k = _next_index(doc, last)
    return doc.lows[k] if k < len(doc.tokens) and doc.clause[k] == doc.clause[last] else None


def _service(doc: Document, last: int) -> bool:
    return _next_low(doc, last) in SERVICE_WORDS


QUOTES = frozenset("\"'\u201c\u201d\u2018\u2019")


def _quoted(doc: Document, first: int, last: int) -> bool:
    """A condition named in quotation marks is someone's own word reported ('presenting with
    "indigestion"'), not what the answer concludes."""
    start, end = doc.tokens[first].start, doc.tokens[last].end
    return start > 0 and end < len(doc.text) and doc.text[start - 1] in QUOTES and doc.text[end] in QUOTES


def _measured(doc: Document, last: int) -> bool:
    """A measurement word right after the name ("his oxygen levels"), not after a comma ("watch for ACS,
    sats monitoring": another item of the list)."""
    after = _next_index(doc, last)
    return _next_low(doc, last) in MEASUREMENT_WORDS and not (after < len(doc.tokens) and doc.comma_before[after])


def _inside_a_test(doc: Document, first: int, table: ReferenceTable) -> bool:
    """The mention stands in brackets right after a test ("blood gas (pH, bicarbonate)")."""
    bracket = assertion.bracket_of(doc, first)
    if bracket is None or bracket[0] == 0:
        return False
    before = bracket[0] - 1
    return any(m.ref is not None and m.ref.kind == "workup" and m.hit.last == before for m in table.find(doc))


URINE_WORDS = cues.word_list("specimen_urine")
BLOOD_WORDS = cues.word_list("specimen_blood")
SPECIMEN_REACH = 8


@batch_cache(maxsize=1024)
def _a_blood_test(name: str) -> bool:
    """The item names blood and not urine ("Blood or urine ketones" is tested in either)."""
    words = set(re.findall(r"[a-z]+", name.lower()))
    return bool(BLOOD_WORDS.intersection(words)) and not URINE_WORDS.intersection(words)


def _in_another_specimen(doc: Document, first: int, m: Mention) -> bool:
    """An analyte of a blood test named in a urine result, in the same sentence ("urine dip shows glucose 4+ and
    ketones 4+", "Urine: ketones 4+"): the urine was tested, not the blood."""
    if m.ref is None or not _a_blood_test(m.ref.name):
        return False
    if URINE_WORDS.intersection(m.phrase.text.lower().split()):
        return False
    at = doc.tokens[first].start
    before = doc.text[doc.text.rfind("\n", 0, at) + 1 : at]
    before = re.split(r"[.;!?](?:\s|$)", before)[-1]  # its sentence, a label before a colon included
    words = list(re.finditer(r"[a-z]+", before.lower()))[-SPECIMEN_REACH:]
    urine = [w for w in words if w.group() in URINE_WORDS]
    return bool(urine) and not _names_own_test(before[urine[-1].start() :])


def _names_own_test(after: str) -> bool:
    """The urine word names a test of its own, cut from the mention by a list separator with no colon
    between ("urine pregnancy test, FBC", "urinalysis and U&E"): the mention is the next list item, not an
    analyte in a urine result ("urine dip shows ketones 4+, glucose 2+", "Urine: ketones, glucose")."""
    if ":" in after:
        return False
    pieces = FRAGMENT_SEP_RE.split(after)
    own = WORD_RE.findall(pieces[0].lower())
    return len(pieces) > 1 and bool(own) and (
        own[-1] in INVESTIGATION_WORDS or own[-1].endswith(INVESTIGATION_ENDINGS)
        or (len(pieces) > 2 and _own_result(own, pieces[0])))


URINE_OWN_RESULT_WORDS = 4
"""At most this many words in a urine piece that is one analyte and its result ("urine prot neg")."""
_ENDS_ON_A_COUNT = re.compile(r"\d\s*\+*\s*$")
"""A piece that ends on a number or a count of pluses ("ketones 2", "blood 2+"): its result."""


def _own_result(own: list[str], piece: str) -> bool:
    """The urine piece is one urine analyte and its result of its own ("urine prot neg", "urine ketones 2"): a
    mention two list pieces on ("urine prot neg, PCR 12, plt/LFT nl") is a result of its own, not the urine's."""
    if len(own) > URINE_OWN_RESULT_WORDS or own[0] not in URINE_WORDS:
        return False
    return bool(_ENDS_ON_A_COUNT.search(piece)) or any(concepts.QUALITATIVE.starting_at(own, k)
                                                        for k in range(2, len(own)))


def _attributed(doc: Document, first: int) -> bool:
    low = doc.lows
    for k in range(max(0, first - 5), first):
        if doc.clause[k] == doc.clause[first] and ATTRIBUTED.ending_at(low, k) is not None:
            return True
    return False


def _final(reading: _Reading, ref: Ref | None, item: Item | None) -> EntityKind:
    # a comorbidity named first ("active smoker" in the history) is no commitment that makes
    # the conditions after it alternatives
    reading.any_final = reading.any_final or ref is None or ref.kind != "secondary"
    if ref is not None:
        reading.finals.add(id(ref))
    if item is not None:
        reading.final_items.add(item)
    return "diagnosis"


def _hedged_away(doc: Document, first: int, last: int) -> bool:
    """"X is unlikely", "less likely X": considered and put aside."""
    cue = cues.negation(doc, first, last, of_condition=True)
    return cue is not None and tuple(cue.split()) in cues.HEDGE


def _reason(said: assertion.Assertion, section: str, m: Mention) -> str:
    if not said.recommended or said.rule != "affirmed":
        return said.rule
    where = {"workup": "listed under a workup heading", "treatment": "listed under a plan heading",
             "diagnosis": "stated as the diagnosis", "icd": "stated as the diagnosis",
             "differential": "listed under a differential heading", "advice": "given as advice"}.get(section)
    return f"affirmed: {where}" if where else "affirmed: stated in the text"


def _codes(text: str, layout: Layout) -> list[tuple[int, int, str]]:
    """ICD-10 codes written as codes (see the module documentation)."""
    out = []
    for m in ICD_CODE_RE.finditer(text):
        start = m.start()
        section = layout.section_at(start).kind
        line_start = text.rfind("\n", 0, start) + 1
        before = text[line_start:start]
        in_brackets = before.rfind("(") > before.rfind(")") or before.rfind("[") > before.rfind("]")
        labelled = bool(ICD_LABEL_RE.search(before[-20:]))
        dotted_in_list = "." in m.group(1) and section in ("diagnosis", "differential")
        if section == "icd" or in_brackets or labelled or dotted_in_list:
            out.append((start, m.end(), m.group(1)))
    return out


def _attach_codes(
    text: str, layout: Layout, codes: list[tuple[int, int, str]], entities: list[Entity], field: SpanField
) -> None:
    """Give each code to the nearest diagnosis of its item (or line); a code alone is
    a diagnosis (or differential) of its own."""
    for start, end, code in codes:
        item = layout.item_at(start)
        lo, hi = (item.start, item.end) if item else (text.rfind("\n", 0, start) + 1, _line_end(text, start))
        near = [
            (e, e.evidence) for e in entities
            if e.kind in ("diagnosis", "differential") and e.icd10 is None and e.negated is None
            and isinstance(e.evidence, Span) and lo <= e.evidence.start < hi
            and not (e.reason or "").endswith(QUALIFIED)  # the code is the whole name's, not its last words'
        ]
        before = [e for e, span in near if span.end <= start]
        after = [e for e, span in near if span.start >= end]
        target = before[-1] if before else (after[0] if after else None)
        section = layout.section_at(start).kind
        if target is None and section == "icd":
            target = next(
                (e for e in entities if e.kind == "diagnosis" and e.icd10 is None and e.negated is None), None
            )
        icd = normalise_icd(code)
        if target is not None:
            target.icd10 = icd
            continue
        kind: EntityKind = "differential" if section == "differential" else "diagnosis"
        entities.append(Entity(kind=kind, text=code, icd10=icd,
                               evidence=Span(start=start, end=end, text=code, field=field),
                               source="text", section=section))


def _line_end(text: str, at: int) -> int:
    end = text.find("\n", at)
    return len(text) if end == -1 else end


def _advice_starts(doc: Document) -> list[int]:
    """Where the safety-net instructions of a text start (character offsets): at the
    expression, or at the "if" or the lead-in ("advise", "tell her to", "parents to")
    before it in its clause."""
    out = []
    for hit in concepts.safety_nets(doc):
        first = hit.first
        k = first - 1
        while k >= 0 and doc.clause[k] == doc.clause[hit.first]:
            opens_clause = k == 0 or doc.clause[k - 1] != doc.clause[k]
            # "advise to return if", and "should" only where it opens its clause ("should it worsen")
            if doc.lows[k] in ADVICE_LEADS or (doc.lows[k] in ADVICE_OPENING_LEADS and opens_clause):
                first = k
            k -= 1
        out.append(doc.tokens[first].start)
    return out


def _leftovers(
    doc: Document, item: Item, end: int, named: list[tuple[int, int]], codes: list[tuple[int, int]],
    names_diagnosis: bool, field: SpanField, table: ReferenceTable, named_words: frozenset[str],
) -> list[Entity]:
    """The pieces of a list item, up to ``end`` (where safety-net advice starts), that
    name no reference item (see the module doc). A piece that names one gives no
    other ("CT head": "head" qualifies the CT), nor does a piece within the reach of a
    negation ("avoid nitrates and opiates"), nor a treatment piece whose drug or procedure words are all
    those of a treatment item the list item names (``named_words``: "a second antiemetic" after the antiemetic)."""
    text = doc.text
    if item.kind in ("advice", "avoid", "icd") or (item.kind == "diagnosis" and names_diagnosis):
        return []
    if item.kind != "diagnosis" and text[item.end : _line_end(text, item.end)].strip(" *_") == ":":
        return []  # "Topical drops to the right eye, 5 minutes apart:" introduces the items below it
    start = item.start
    masked = codes + _asides(text, start, end)
    body = text[start:end]
    if _records_allergy(text[text.rfind("\n", 0, start) + 1 : end]):
        return []  # "**Allergy:** record a severe reaction to minocycline and the whole tetracycline class"
    colon = body.find(":")
    if colon > 0 and len(body[:colon].split()) <= 3:
        start += colon + 1
    explanation = _explanation(text, start, end)
    if explanation:
        end = explanation.start()
    named_end = min((b for a, b in named if start <= a < end), default=None)
    # "paracetamol for fever and pain", "zinc sulphate 50 mg daily for the low zinc": what follows a qualifier
    # after a named item or an unlisted drug explains it; a switch's target ("..., switch to oral ranitidine") is no
    # qualifier
    qualifier = next((w for w in WORD_RE.finditer(text, start if named_end is None else named_end, end)
                      if w.group().lower() in QUALIFIERS and not _switch_target(text, w)), None)
    if qualifier is not None and (named_end is not None or therapeutic(text[start : qualifier.start()])):
        end = qualifier.start()
    if item.kind == "diagnosis":
        pieces = [(start, end)]
    else:
        pieces = []
        cut = start
        for sep in FRAGMENT_SEP_RE.finditer(text, start, end):
            pieces.append((cut, sep.start()))
            cut = sep.end()
        pieces.append((cut, end))
        pieces = _joined(text, pieces)
    out = []
    for a, b in pieces:
        if any(na < b and nb > a for na, nb in named):
            continue
        for c, d in _unmasked(a, b, masked):
            fragment = _trim(text, c, d)
            if fragment is None:
                continue
            c, d = fragment
            piece = text[c:d]
            kind = _leftover_kind(item.kind, piece)
            if kind == "treatment" and _switches_to_nothing(piece, text[d:item.end]):
                continue  # "replacing simvastatin 20 mg", "switch to oral once afebrile": no drug of its own
            if kind is None or _not_given(doc, c, d, table):
                continue
            if kind == "treatment" and _names_again(piece, named_words):
                continue
            out.append(Entity(kind=kind, text=piece, evidence=Span(start=c, end=d, text=piece, field=field),
                              source="text", section=item.kind))
    return out


def _switch_target(text: str, word: re.Match[str]) -> bool:
    """The word is the target word of a switch right before it ("switch to", "change to oral"): it qualifies
    nothing of the item."""
    before = RAW_WORD_RE.findall(text[max(0, word.start() - 20) : word.start()].lower())
    return bool(before) and before[-1] in concepts.SWITCH_WORDS and word.group().lower() in concepts.SWITCH_TARGETS


def _records_allergy(line: str) -> bool:
    """The list item's line records an allergy or a reaction ("**Allergy:** ...", "record a severe reaction to
    minocycline", "document penicillin allergy"): its label is an allergy's, or a verb of recording opens it and it
    names the reaction; what it names is not given."""
    label, colon, _ = line.partition(":")
    if colon and " ".join(w for w in RAW_WORD_RE.findall(label.lower()) if not w.isdigit()) in RECORD_LABELS:
        return True
    words = [w for w in RAW_WORD_RE.findall(line.lower()) if not w.isdigit()]
    return bool(words) and words[0] in RECORD_VERBS and bool(RECORD_WORDS.intersection(words))


def _asides(text: str, start: int, end: int) -> list[tuple[int, int]]:
    """The bracketed asides over ``text[start:end]``, clipped to it. An aside may hold a ``;`` or a sentence end,
    or wrap to the next line, which cut it into two list items ("chart (hourly urine output; catheter if
    needed)", "(for" / "example levofloxacin hourly)"): each part is still the aside, no item."""
    line_start = text.rfind("\n", 0, start)
    low = text.rfind("\n", 0, max(line_start, 0)) + 1  # from the line before the item's line
    line_end = text.find("\n", end)
    high = len(text) if line_end < 0 else text.find("\n", line_end + 1)  # to the line after it
    high = len(text) if high < 0 else high
    return [(max(m.start(), start), min(m.end(), end)) for m in PAREN_RE.finditer(text, low, high)
            if m.start() < end and m.end() > start]


def _joined(text: str, pieces: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """A piece with no word of its own ("7" in "stations 4R and 7", "5 days") or of body
    sites only ("abdomen and pelvis" after "CT chest") continues the piece before it; a piece offered as another
    choice ("or ibuprofen" after "paracetamol") is one item with it, which the first choice stands for."""
    out: list[tuple[int, int]] = []
    for a, b in pieces:
        words = RAW_WORD_RE.findall(text[a:b].lower())
        if out and text[out[-1][1]:a].strip().lower() in ALTERNATIVE_LINKS:
            continue
        if out and (not _has_own_word(words) or all(w in BODY_SITES for w in words)):
            out[-1] = (out[-1][0], b)
        else:
            out.append((a, b))
    return out


def _written_words(tokens: list[Token]) -> list[str]:
    """The words as written ("12-lead ECG" is one token of three words)."""
    return [w for t in tokens for w in t.low.split()]


def _has_own_word(words: list[str]) -> bool:
    """A word that is not a number, a dose, a route, a timing or a verb of the plan."""
    return any(len(w) >= 3 and w not in NOISE_WORDS and not w[0].isdigit() for w in words)


def _not_given(doc: Document, start: int, end: int, table: ReferenceTable) -> bool:
    """The piece is negated (by a verdict inside it too: "codeine is of little use here"), a later discharge, or
    conditional on what the case record does not establish ("IV labetalol bolus then infusion if not below
    150/100")."""
    starts = doc.found.get("starts")  # the tokens' starts, listed once per document (as Document.tokens_within)
    if starts is None:
        starts = doc.found["starts"] = [t.start for t in doc.tokens]
    first = bisect_left(starts, start)
    last = max(first, bisect_left(starts, end) - 1)
    if first >= len(starts):
        return False
    if cues.negation(doc, first, last, inside=True) is not None or concepts.sends_home_later(doc, Hit(first, last)):
        return True  # "after drainage, discharge home on oral penicillin": a later discharge
    scope = assertion.condition_of(doc, first, last)
    return scope is not None and not table.record.holds(scope)


def _unmasked(a: int, b: int, masked: list[tuple[int, int]]) -> list[tuple[int, int]]:
    parts = [(a, b)]
    for ms, me in sorted(masked):
        next_parts = []
        for pa, pb in parts:
            if me <= pa or ms >= pb:
                next_parts.append((pa, pb))
                continue
            if ms > pa:
                next_parts.append((pa, ms))
            if me < pb:
                next_parts.append((me, pb))
        parts = next_parts
    return parts


def _trim(text: str, a: int, b: int) -> tuple[int, int] | None:
    while a < b and not text[a].isalnum():
        a += 1
    while b > a and not (text[b - 1].isalnum() or text[b - 1] in ")'"):
        b -= 1
    return (a, b) if b > a else None


def _leftover_kind(section: SectionKind, piece: str) -> EntityKind | None:
    tokens = tokenize(piece)
    words = _written_words(tokens)
    if not words or len(piece.split()) > LEFTOVER_MAX_WORDS or words[0] in QUALIFIERS:
        return None
    if not _has_own_word(words):
        return None
    if _statement(words):
        return None  # "paracetamol still detectable", "he will be immobilised in a cast": no item
    if any((w,) in cues.NEGATION_BEFORE or w in WITHHOLDING for w in words[:3]):
        return None  # "avoid NSAIDs", "keep NBM": nothing given
    if section == "treatment" and any(
        t.norm in INVESTIGATION_WORDS or t.norm.endswith(INVESTIGATION_ENDINGS) for t in tokens
    ):
        return "workup"
    if section == "treatment" and READINESS.intersection(words):
        return None  # "oxytocin infusion ready", "IV access": made ready, not given
    if section == "treatment" and not therapeutic(piece, tokens):
        return None  # advice, monitoring, timing, a state or a reason: left out when unlisted
    return section if section in ("diagnosis", "differential", "workup", "treatment") else None  # list sections only


def _statement(words: list[str]) -> bool:
    """The piece states something of a drug or a state ("paracetamol still detectable", "paralysis may last
    hours") or of the patient ("he will be immobilised in a cast"), rather than ordering it: a statement word after
    its first word, or a subject with a verb of being that gives nothing ("he will be given" still gives)."""
    if STATEMENT_WORDS.intersection(words[1:]):
        return True
    if words[0] not in STATEMENT_SUBJECTS:
        return False
    verb = STATEMENT_VERBS.starting_at(words, 1)
    return verb is not None and not GIVING_PARTICIPLES.intersection(words[1 + len(verb) : 2 + len(verb)])


def _switches_to_nothing(piece: str, after: str) -> bool:
    """A piece that opens with a switch gives what follows its target word (also when that was cut off as a
    qualifier: "swap her omeprazole" / "for ranitidine"), when that names a drug, procedure or fluid; with no
    target it names what the switch stops ("replacing simvastatin 20 mg"), and with a route alone the drug before
    it goes on by that route ("switch to oral when improving"): no drug of its own either way."""
    tokens = tokenize(piece)
    if not tokens or tokens[0].low not in concepts.SWITCH_WORDS:
        return False
    following = tokenize(after)
    if following and following[0].low in concepts.SWITCH_TARGETS:
        tokens += following
    target = next((k for k, t in enumerate(tokens) if t.low in concepts.SWITCH_TARGETS), None)
    return target is None or not _heads(_norms(tokens[target + 1:]))


THERAPY_WORDS = cues.word_list("unlisted_therapy_words")
"""Words of an unlisted answer item that make it a drug, procedure or fluid (counted extra)."""
DRUG_ENDINGS = _WORDS.phrases("unlisted_therapy_endings")
_DOSE_RE = re.compile(
    r"\b\d+(?:\.\d+)?\s*(?:" + "|".join(re.escape(u) for u in _WORDS.phrases("unlisted_dose_units")) + r")\b"
)



def _dose_after(doc: Document, hit: Hit) -> str | None:
    """The dose with its unit written right after the drug at ``hit`` in its clause ("atorvastatin 20 mg"), or
    None: the dose the drug is given at, which decides whether it is an item that names another dose."""
    if hit.last + 1 >= len(doc.tokens) or doc.clause[hit.last + 1] != doc.clause[hit.last]:
        return None
    line_end = doc.text.find("\n", doc.tokens[hit.last].end)
    rest = doc.text[doc.tokens[hit.last].end: len(doc.text) if line_end < 0 else line_end]
    found = _DOSE_RE.match(rest.lstrip())
    return found.group(0) if found is not None else None


ROUTE_NAMES = frozenset(t.norm for term in read_vocabulary().of_kind("route") for t in tokenize(term.name))
"""The routes' own names ("oral", "intravenous"): how a drug is given, not which."""

MONITORING = cues.cue_list("unlisted_monitoring")
"""Phrases that measure whatever therapy word they hold ("fluid balance", "urine output")."""


def _unmeasured(tokens: list[Token]) -> list[Token]:
    """The tokens that no monitoring phrase holds ("hourly obs and fluid balance" gives no fluid)."""
    lows = [t.low for t in tokens]
    held: set[int] = set()
    for k in range(len(lows)):
        phrase = MONITORING.starting_at(lows, k)
        if phrase is not None:
            held.update(range(k, k + len(phrase)))
    return [t for k, t in enumerate(tokens) if k not in held]


DRUG_NAME_FILLERS = cues.word_list("drug_name_fillers")
"""Words of a drug's longer name that name no drug alone ("daily weight" is not "low molecular weight heparin")."""


@batch_cache(maxsize=4096)
def _drug_names() -> frozenset[str]:
    from medbench_tui.core.scoring.groups import GROUP_MEMBERS

    words = (t.norm for names in GROUP_MEMBERS.values() for n in names for t in tokenize(n))
    return frozenset(w for w in words if w not in DRUG_NAME_FILLERS)


def _norms(tokens: list[Token]) -> set[str]:
    return {t.norm for t in tokens} | {t.low for t in tokens}


def _heads(norms: set[str]) -> set[str]:
    """The words that make a piece a drug, procedure or fluid, but a route ("oral" in "oral fluids")."""
    stems = {w for w in norms if len(w) > 5 and w.endswith(DRUG_ENDINGS)}
    return ((norms & THERAPY_WORDS) | (norms & _drug_names()) | stems) - ROUTE_NAMES


def _names_again(piece: str, named_words: frozenset[str]) -> bool:
    """Every drug or procedure word of the piece is one of a treatment item its list item names, or a name of that
    item's class: the same item said again ("switch to a second antiemetic" after the antiemetic given, "a moderate
    steroid to the face" beside the topical corticosteroid), never a drug of its own."""
    heads = _heads(_norms(_unmeasured(tokenize(piece))))
    return bool(heads) and heads <= named_words | _class_words(named_words)


@batch_cache(maxsize=4096)
def _class_words(named_words: frozenset[str]) -> frozenset[str]:
    """The words of the names (not the members) of every class a named item's own words name ("corticosteroid"
    gives "steroid")."""
    from medbench_tui.core.scoring.groups import GROUP_NAMES

    out: set[str] = set()
    for group, names in GROUP_NAMES.items():
        words = _norms(tokenize(" ".join((group, *names))))
        if any(w in named_words for w in words if w not in DRUG_NAME_FILLERS and len(w) > 3):
            out |= words
    return frozenset(out)


def therapeutic(piece: str, tokens: list[Token] | None = None) -> bool:
    """The answer item is a drug, procedure or fluid ("omeprazole 40 mg IV", "saline nose
    drops", "laparotomy"); advice, monitoring, referrals, timing and states are not."""
    every = tokens if tokens is not None else tokenize(piece)
    tokens = _unmeasured(every)
    norms = {t.norm for t in tokens} | {t.low for t in tokens}
    # beside a measure, a number is its reading or target ("urine output > 0.5 mL/kg/h"), not a dose
    dosed = _DOSE_RE.search(piece) is not None and len(tokens) == len(every)
    if dosed or norms & THERAPY_WORDS or norms & _drug_names():
        return True
    return any(len(w) > 5 and w.endswith(DRUG_ENDINGS) for w in norms)
