"""Issue 41, scoring one transcript: what the text extractor keeps between answers is keyed on everything it depends
on (the case's table and the text), and serves exactly what working it out again gives."""

from __future__ import annotations

from pathlib import Path

from ruamel.yaml import YAML

from medbench_tui.core.scoring.assertion import states_verdict
from medbench_tui.core.scoring.document import Document
from medbench_tui.core.scoring.reference import Ref, ReferenceTable, reference_table
from medbench_tui.core.scoring.text_extractor import (
    MIMIC_QUALIFIERS,
    QUALIFIER_MAX_WORDS,
    WORD_RE,
    _qualified_secondaries,
    _whole_secondaries,
)
from medbench_tui.core.validate import load_valid_case

CASES = Path(__file__).resolve().parent.parent / "cases"
ANSWERS = Path(__file__).resolve().parent / "data" / "answers"


def _table(name: str) -> ReferenceTable:
    return reference_table(load_valid_case(CASES / f"{name}.yaml"))


def _fresh(tail: str, table: ReferenceTable) -> list[Ref]:
    """The whole-text secondaries of ``tail`` searched in a new document, nothing kept."""
    doc = Document(tail)
    return [m.ref for m in table.find_items(doc) if m.ref is not None and m.ref.kind == "secondary"
            and m.hit.first == 0 and doc.span(m.hit)[1] == len(tail)]


def test_a_tails_secondaries_are_kept_per_table() -> None:
    """The same words asked of another case's table get that table's items, never the first table's."""
    malaria, obstruction, anaphylaxis = _table("im-malaria-001"), _table("sur-sbo-001"), _table("em-anaphylaxis-001")
    for _ in range(2):  # the second round is served from what the first kept
        first = _whole_secondaries("acute kidney injury", malaria)
        second = _whole_secondaries("acute kidney injury", obstruction)
        assert [r.name for r in first] == ["Acute kidney injury"]
        assert len(second) == 1 and second[0] is obstruction.secondary[0]
        assert first[0] is not second[0]
        assert _whole_secondaries("acute kidney injury", anaphylaxis) == []


def test_a_tails_secondaries_are_kept_per_text() -> None:
    """Each text is its own key: a shorter or longer tail is searched, not served the other's items."""
    table = _table("sur-sbo-001")
    for _ in range(2):
        for tail in ("AKI", "kidney injury", "acute kidney injury, pre-renal", "low potassium", "hypokalaemia",
                     "acute kidney injury with hypokalaemia"):
            assert [id(r) for r in _whole_secondaries(tail, table)] == [id(r) for r in _fresh(tail, table)], tail


def _uncached(doc: Document, m, table: ReferenceTable) -> list[tuple[int, Ref]]:
    """The qualified secondaries as they were read before anything was kept: every tail searched anew."""
    text = doc.text
    start, end = doc.span(m.hit)
    for k in range(m.hit.first + 1, min(m.hit.last, m.hit.first + QUALIFIER_MAX_WORDS) + 1):
        at = doc.tokens[k].start
        if at == doc.tokens[k - 1].start:
            continue
        if MIMIC_QUALIFIERS & set(WORD_RE.findall(text[start:at].lower())):
            return []
        tail = Document(text[at:end])
        for named in table.find_items(tail):
            if (named.ref is not None and named.ref.kind == "secondary" and named.ref is not m.ref
                    and named.hit.first == 0 and tail.span(named.hit)[1] == len(tail.text)):
                return [(at, named.ref)]
    return []


def test_qualified_secondaries_are_those_every_tail_searched_anew_gives() -> None:
    """On the labelled answers, and on answers of my own, every diagnosis mention's qualified secondaries (kept per
    table and tail, none looked for in a case without a secondary) are those of searching every tail again."""
    texts: list[tuple[str, str]] = [
        ("sur-sbo-001", "Diagnosis: adhesional SBO with pre-renal acute kidney injury and low potassium.\n"),
        ("im-malaria-001", "Severe falciparum malaria complicated by oliguric acute kidney injury\n"),
        ("im-hyperkalaemia-001", "Hyperkalaemia secondary to prerenal AKI; spurious hypokalaemia unlikely\n"),
        ("em-anaphylaxis-001", "Anaphylaxis with brittle asthma\n"),
    ]
    for path in sorted(ANSWERS.glob("*.yaml"))[:10]:
        data = YAML(typ="safe", pure=True).load(path.read_text(encoding="utf-8"))
        texts += [(data["case"], answer["text"]) for answer in data["answers"]]
    compared = named = 0
    for case, text in texts:
        table = _table(case)
        doc = Document(text)
        for m in table.find(doc):
            if m.ref is not None and m.ref.is_diagnosis and m.via is None:
                kept = _qualified_secondaries(doc, m, table)
                assert [(at, id(r)) for at, r in kept] == [(at, id(r)) for at, r in _uncached(doc, m, table)]
                compared += 1
                named += bool(kept)
    assert compared > 20 and named


def test_a_kept_verdict_of_a_name_is_the_one_worked_out_anew() -> None:
    """``states_verdict`` is kept per item name: every bundled item's name, and names of my own, get what reading
    the name again gives."""
    names = ["Withhold warfarin until INR known", "Explain why an MRI is not needed", "Oral amoxicillin",
             "Do not give NSAIDs", "Avoid metformin while on contrast"]
    for path in sorted(CASES.glob("*.yaml"))[:20]:
        if path.name == "medbench.yaml":
            continue
        case = load_valid_case(path)
        names += [w.item for w in case.workup] + [t.item for t in case.treatment]
    for _ in range(2):
        for name in names:
            assert states_verdict(name) == states_verdict.__wrapped__(name), name  # type: ignore[attr-defined]
