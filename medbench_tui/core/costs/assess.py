"""What a run's work-up cost, and how it could harm: by omission or by commission.

Cost, in the price table's currency:

* **consultation**: the tests the doctor asked for during the consultation (each attachment
  released on request: results, imaging, an ECG, examination and observations at their
  price, often 0); attachments given at the start or after a turn were not ordered;
* **plan**: the work-up the final response recommends (the reference items it matched,
  acceptable and unexpected ones included, and the unlisted tests it added); a test already
  done in the consultation is not paid twice;
* **visit**: the table's ``visit.per_turn`` for each doctor/patient turn pair;
* **reference**: what the case's required work-up costs, for comparison.

A text that names no priced test is listed as unpriced and left out of the sums, never
counted as free; the card and the report say how many were left out.

Harm, weighted as the case weights its items:

* **omission**: the weights of the required work-up and treatment items the final leaves out;
* **commission**: the penalties of unexpected tests and the weights of contraindicated and
  not-indicated treatments it gives;
* a failed critical condition counts as an omission (``must_include``) or a commission
  (``must_not_include``, and giving a contraindicated treatment).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Literal

from pydantic import BaseModel, Field

from medbench_tui.core.cases.model import Attachment, Case
from medbench_tui.core.costs.prices import Price, PriceTable
from medbench_tui.core.text import key_tokens, tokenize
from medbench_tui.core.transcript import Transcript

CostSource = Literal["consultation", "plan", "reference"]

_SEGMENT = re.compile(r"\n|;|\.(?:\s|$)")
"""Where one result of a report ends: a line, a semicolon, a full stop before a space."""


class CostLine(BaseModel):
    what: str = Field(description="The attachment title, work-up item or answer text priced.")
    source: CostSource
    priced_as: list[str] = Field(default_factory=list, description="The price table entries it was priced as.")
    cost: float | None = Field(description="Its cost; null when it names no priced test (unpriced).")
    turn: int | None = None


class RunCost(BaseModel):
    """The cost of one run's work-up."""

    currency: str
    unit: str
    table: str = Field(description="The price table's digest.")
    lines: list[CostLine] = Field(default_factory=list)
    consultation: float = 0
    plan: float = Field(default=0, description="The plan's tests not already done during the consultation.")
    visit: float = 0
    total: float = Field(default=0, description="consultation + plan + visit")
    reference: float = Field(default=0, description="What the case's required work-up costs.")
    unpriced: list[str] = Field(default_factory=list)
    tests_ordered: int = Field(default=0, description="Priced tests paid for (consultation and plan), each once.")

    def summary(self) -> str:
        """The scorecard's line: what was ordered, what it cost, and the reference."""
        money = _money(self.currency)
        unpriced = f" ({len(self.unpriced)} unpriced, left out)" if self.unpriced else ""
        return (f"You ordered {self.tests_ordered} test{'s' if self.tests_ordered != 1 else ''} costing "
                f"{money(self.consultation + self.plan)}{unpriced}; with the visit {money(self.total)}. "
                f"The reference work-up costs {money(self.reference)}.")


class HarmSplit(BaseModel):
    """Harm by omission and by commission, weighted as the case weights its items."""

    omission: float = 0
    commission: float = 0
    conditions_omission: int = Field(default=0, description="Failed must_include critical conditions.")
    conditions_commission: int = Field(default=0, description="Failed must_not_include and implicit conditions.")
    omitted: list[str] = Field(default_factory=list)
    committed: list[str] = Field(default_factory=list)


@dataclass(frozen=True)
class ItemOutcome:
    """What the scorer decided of one work-up or treatment row (the scorecard's ``items``)."""

    section: Literal["workup", "treatment"]
    reference: str | None
    answer: str | None
    status: str


@dataclass(frozen=True)
class ConditionOutcome:
    status: str
    kind: str
    implicit: bool
    id: str


def _money(currency: str) -> Callable[[float], str]:
    def show(value: float) -> str:
        number = f"{value:,.2f}".rstrip("0").rstrip(".")
        return f"{number} units" if currency == "relative" else f"{number} {currency}"
    return show


# --- pricing texts -----------------------------------------------------------------------


class _Index:
    """The table's names by their first normalised word, longest first."""

    def __init__(self, table: PriceTable) -> None:
        self.by_first: dict[str, list[tuple[tuple[str, ...], Price]]] = {}
        for entry in table.entries:
            for name in (*entry.names, *entry.reports):
                words = tuple(name.split())
                if words:
                    self.by_first.setdefault(words[0], []).append((words, entry))
        for options in self.by_first.values():
            options.sort(key=lambda o: -len(o[0]))

    def named(self, text: str) -> list[Price]:
        """The entries ``text`` names, left to right, longest name first at each word."""
        words = [t.norm for t in key_tokens(tokenize(text))]
        found: list[Price] = []
        i = 0
        while i < len(words):
            for name, entry in self.by_first.get(words[i], ()):
                if tuple(words[i:i + len(name)]) == name:
                    found.append(entry)
                    i += len(name)
                    break
            else:
                i += 1
        return found


_INDEXES: dict[str, _Index] = {}


def _index(table: PriceTable) -> _Index:
    index = _INDEXES.get(table.digest)
    if index is None:
        index = _INDEXES[table.digest] = _Index(table)
    return index


def _specific(entries: Iterable[Price]) -> list[Price]:
    """Each entry once; fallback entries ("blood tests") only when nothing more specific is named."""
    unique = list(dict.fromkeys(entries))
    specific = [e for e in unique if not e.fallback]
    return specific or unique


def price_text(text: str, table: PriceTable) -> list[Price]:
    """What a work-up item or an answer's test is priced as."""
    return _specific(_index(table).named(text))


def price_attachment(attachment: Attachment, table: PriceTable) -> list[Price]:
    """What a released attachment is priced as: the tests its title names; when the title
    names only something general ("Blood tests"), the first test each result line of its
    content names ("Full blood count: haemoglobin 128 ..." is one full blood count)."""
    index = _index(table)
    titled = index.named(attachment.title)
    if titled and not all(e.fallback for e in titled):
        general = any(e.fallback for e in titled)
        if not general:
            return _specific(titled)
    content = attachment.content or attachment.description or ""
    per_line = [found[0] for segment in _SEGMENT.split(content) if (found := index.named(segment))]
    return _specific([*titled, *per_line])


# --- the assessment ------------------------------------------------------------------------


def run_cost(case: Case, transcript: Transcript, workup: list[ItemOutcome], table: PriceTable) -> RunCost:
    """The cost of ``transcript``'s work-up, with the final's work-up read from ``workup``."""
    lines: list[CostLine] = []
    paid: dict[str, float] = {}
    unpriced: list[str] = []
    attachments = {a.id: a for a in case.attachments}

    def add(what: str, source: CostSource, entries: list[Price], turn: int | None = None) -> None:
        if not entries:
            lines.append(CostLine(what=what, source=source, cost=None, turn=turn))
            if source != "reference":
                unpriced.append(what)
            return
        new = [e for e in entries if e.name not in paid] if source != "reference" else entries
        cost = sum(e.price for e in new)
        lines.append(CostLine(what=what, source=source, priced_as=[e.name for e in entries], cost=cost, turn=turn))
        if source != "reference":
            paid.update((e.name, e.price) for e in new)

    released: set[str] = set()
    for event in transcript.events:
        attachment = attachments.get(event.attachment or "")
        if (event.kind != "attachment_released" or attachment is None or attachment.available != "on_request"
                or attachment.id in released):
            continue
        released.add(attachment.id)
        add(attachment.title, "consultation", price_attachment(attachment, table), event.turn)
    consultation = sum(paid.values())

    given = {"matched", "acceptable", "unexpected", "extra"}
    for row in workup:
        if row.section != "workup" or row.status not in given:
            continue
        add(row.reference or row.answer or "", "plan", _item_prices(case, row, table))
    plan = sum(paid.values()) - consultation

    reference = 0.0
    for item in case.workup:
        if item.klass == "required":
            entries = _named_item_prices(item.item, item.aliases, table)
            add(item.item, "reference", entries)
            reference += sum(e.price for e in entries)
    visit = table.per_turn * transcript.steps
    return RunCost(
        currency=table.currency, unit=table.unit, table=table.digest, lines=lines,
        consultation=consultation, plan=plan, visit=visit, total=consultation + plan + visit,
        reference=reference, unpriced=unpriced, tests_ordered=sum(1 for price in paid.values() if price > 0),
    )


def _item_prices(case: Case, row: ItemOutcome, table: PriceTable) -> list[Price]:
    if row.reference is not None:
        item = next((w for w in case.workup if w.item == row.reference), None)
        if item is not None:
            return _named_item_prices(item.item, item.aliases, table)
    return price_text(row.answer or "", table)


def _named_item_prices(name: str, aliases: list[str], table: PriceTable) -> list[Price]:
    """A reference item by its name, else by the first alias that names a priced test."""
    for text in (name, *aliases):
        entries = price_text(text, table)
        if entries:
            return entries
    return []


def harm_split(case: Case, rows: list[ItemOutcome], conditions: list[ConditionOutcome]) -> HarmSplit:
    workup = {w.item: w for w in case.workup}
    treatment = {t.item: t for t in case.treatment}
    default_penalty = case.scoring.unexpected_penalty if case.scoring and case.scoring.unexpected_penalty else 1.0
    split = HarmSplit()
    for row in rows:
        ref = row.reference or ""
        if row.status == "missing":
            weight = (workup[ref].weight if row.section == "workup" and ref in workup
                      else treatment[ref].weight if ref in treatment else 1.0)
            split.omission += weight
            split.omitted.append(ref)
        elif row.section == "workup" and row.status == "unexpected" and ref in workup:
            split.commission += workup[ref].penalty or default_penalty
            split.committed.append(ref)
        elif row.section == "treatment" and row.status in ("contraindicated", "not_indicated") and ref in treatment:
            split.commission += treatment[ref].weight
            split.committed.append(ref)
    for condition in conditions:
        if condition.status != "FAIL":
            continue
        if condition.kind == "must_include" and not condition.implicit:
            split.conditions_omission += 1
        else:
            split.conditions_commission += 1
    return split
