"""perfs7: a pass of ``ReferenceTable.find`` that cannot find anything in a document is skipped (issue 41).

``reference.PASS_TRIGGERS`` names, for each such pass, the words of the case's table without which it finds nothing.
These tests check, on varied texts (the cases' own item names, reshuffled and labelled, and free texts of several
topics), that a pass a document's words do not trigger gives nothing when it is run anyway, and that ``find`` with the
skips gives exactly what it gives with every pass run.
"""

from __future__ import annotations

from itertools import islice
from pathlib import Path

import pytest

from medbench_tui.core.cases.model import Case
from medbench_tui.core.scoring import reference
from medbench_tui.core.scoring.document import Document
from medbench_tui.core.scoring.reference import ReferenceTable, build_table
from tests.support.case_yaml import case_yaml

CASES = sorted((Path(__file__).resolve().parent.parent / "cases").glob("*.yaml"))

FREE_TEXTS = [
    "Keep him fasted for 6 hours, then gastroscopy. Fasting for 4 hrs first.",
    "Repeat once at 10 minutes if still fitting.",
    "Lorazepam 4 mg IV now, repeat once at 10 minutes.\n?Ca on the left breast line. L breast lump, hard. ?Ca",
    "1. Check visual acuity and do a slit-lamp exam first.\n2. Then irrigate the eye with saline.",
    "**Breastfeeding:** can continue\nAspirin: stop\nAntibiotics (IV)\nLiver biopsy (percutaneous, guided)",
    "no need to fast for 6 hours; admit under medicine, bloods today, review tomorrow",
    "Plan - safety net: come back if the rash spreads. GP review in two weeks. Paracetamol regularly.",
    "",
    "ok",
]


def _load(path: Path) -> Case | None:
    try:
        return Case.model_validate(case_yaml(path))  # parsed once a run, shared with the other tests
    except ValueError:
        return None


def _with_fasting_delay(path: Path) -> Case:
    """A case of the bank with a harmful delay for fasting added (no bundled case has one)."""
    data = case_yaml(path)  # a copy of its own
    data["treatment"].append({"item": "Delay the procedure to wait for fasting", "class": "contraindicated",
                              "weight": 1})
    return Case.model_validate(data)


@pytest.fixture(scope="module")
def tables() -> list[ReferenceTable]:
    # the first 20 valid cases in file order, read until there are 20 (not every file of the bank)
    loaded = islice((case for path in CASES if path.name != "medbench.yaml" and (case := _load(path)) is not None), 20)
    return [build_table(case) for case in loaded] + [build_table(_with_fasting_delay(CASES[0]))]


def _texts(table: ReferenceTable) -> list[str]:
    names = [phrase.text for ref in table.refs for phrase in ref.phrases]
    out = list(FREE_TEXTS)
    for name in names[:40]:
        words = name.split()
        out += [name, " ".join(reversed(words)), f"{words[0]}: {' '.join(words[1:])}", f"Plan: {name} today, then"
                f" repeat once. Then {name.lower()} (IV)", f"{' '.join(words[1:])} ({words[0].lower()})"]
    return out


def _run(table: ReferenceTable, name: str, doc: Document) -> list[reference.Mention]:
    """The pass named ``name`` run on ``doc`` whatever its words, as ``find`` calls it (and with no mention named
    before it: a mention found earlier only takes words from it)."""
    keys, norms, written = reference._key_words(doc)
    words = [table.canon(w) for w in norms]
    where: dict[str, list[int]] = {}
    for position, word in enumerate(words):
        where.setdefault(word, []).append(position)
    passes = {
        reference.UNORDERED_PASS: lambda: table._unordered(doc, keys, words, where, set()),
        reference.LABEL_VERDICT_PASS: lambda: table._label_verdicts(doc, keys, words),
        reference.BRACKET_QUALIFIER_PASS: lambda: table._bracket_qualifiers(doc, keys, words),
        reference.SEQUENCED_PASS: lambda: table._sequenced(doc, keys, words),
        reference.FASTED_PASS: lambda: table._fasted_for_hours(doc),
        reference.QUERIED_PASS: lambda: table._queried_mentions(doc, []),
        reference.ELIDED_REPEAT_PASS: lambda: table._elided_repeats(doc, []) if table._repeats else [],
        reference.MOST_WORDS_PASS: lambda: table._most_words(doc, keys, where, []),
    }
    assert passes.keys() == reference.PASS_TRIGGERS.keys()  # every pass of the table is tested
    return passes[name]()


def _may(table: ReferenceTable, doc: Document) -> frozenset[str]:
    keys, norms, _ = reference._key_words(doc)
    return table.passes_that_may_apply([table.canon(w) for w in norms], doc.lows)


def test_the_table_lists_each_pass_with_its_kind_of_words(tables: list[ReferenceTable]) -> None:
    for table in tables:
        assert table.pass_triggers.keys() == reference.PASS_TRIGGERS.keys()
        for kind, trigger in table.pass_triggers.values():
            assert kind in (reference.KEY_WORDS, reference.WRITTEN_WORDS)
            assert isinstance(trigger, frozenset)
    for name in reference.PASS_TRIGGERS:  # no pass is tested only by its being skipped
        assert any(table.pass_triggers[name][1] for table in tables), name


def test_a_pass_not_triggered_finds_nothing(tables: list[ReferenceTable]) -> None:
    skipped = ran = 0
    for table in tables:
        for text in _texts(table):
            doc = Document(text)
            may = _may(table, doc)
            for name in reference.PASS_TRIGGERS:
                if name in may:
                    ran += 1
                    continue
                skipped += 1
                assert _run(table, name, Document(text)) == [], (name, text)
    assert skipped and ran


def test_find_with_skips_is_find_with_every_pass(tables: list[ReferenceTable], monkeypatch: pytest.MonkeyPatch
                                                 ) -> None:
    every = frozenset(reference.PASS_TRIGGERS)
    for table in tables:
        texts = _texts(table)
        skipping = [table.find(Document(text)) for text in texts]
        monkeypatch.setattr(table, "passes_that_may_apply", lambda *_: every)  # new documents: nothing kept
        assert [table.find(Document(text)) for text in texts] == skipping
        monkeypatch.undo()
