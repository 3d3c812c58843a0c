"""The price table: what each test or procedure of a work-up costs.

The shipped table (``medbench_tui/prices/default.yaml``) holds relative prices; a bank may
put a ``prices.yaml`` beside its ``medbench.yaml`` that adjusts entries of the shipped table
(an entry with the same ``name`` replaces it; new entries are added) or, with ``replace:
true``, stands alone (its own currency and source). Each problem is reported at its line.

A text (a work-up item, an attachment, an answer's test) is priced by the entries it names:
an entry's ``name``, one of its ``also`` names, or one of its ``reports`` labels. Names are
compared as the scorer compares words (case, spelling, plurals and abbreviations do not
matter). Entries marked ``fallback`` ("blood tests") count only when nothing more specific
is named.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from pydantic import Field

from medbench_tui.core.datafile import DataFileError, Problem, StrictEntry, Text, problem, valid_sections
from medbench_tui.core.jsondata import JSONObject
from medbench_tui.core.paths import bank_prices_file, shipped_prices_file
from medbench_tui.core.text import normalise
from medbench_tui.core.yamldoc import FileKind, parse_yaml_text

SHIPPED = shipped_prices_file()


PRICE_FILE = FileKind(
    noun="price table",
    needs="`prices:` (a list of entries with `name` and `price`)",
    example="`currency: ...`, `prices: [...]`",
)


class PriceEntry(StrictEntry):
    """One test or procedure and its price."""

    name: Text = Field(description="the test or procedure, as work-up items name it")
    also: list[Text] = Field(default_factory=list, description="other names and abbreviations")
    reports: list[Text] = Field(
        default_factory=list, description="result labels that show the test was done (Hb, K+, troponin)")
    price: float = Field(ge=0, description="its price in the table's currency (0: part of the consultation)")
    fallback: bool = Field(default=False,
                           description="counts only when a text names nothing more specific (blood tests)")
    note: Text | None = None


class VisitPrices(StrictEntry):
    per_turn: float = Field(default=0, ge=0,
                            description="the cost of each doctor/patient turn pair of the consultation")


class PriceFile(StrictEntry):
    """A price table file."""

    version: Text | None = Field(default=None, description="the table's version, shown in reports")
    currency: Text | None = Field(default=None, description="an ISO code (USD, GBP, EUR) or `relative`")
    unit: Text | None = Field(default=None, description="what one unit is, in words")
    source: Text | None = Field(default=None, description="where the prices come from")
    replace: bool = Field(default=False, description="a bank's table: true to replace the shipped table entirely")
    visit: VisitPrices | None = None
    prices: list[PriceEntry] = Field(default_factory=list)


class PriceTableError(DataFileError):
    what = "the price table"


@dataclass(frozen=True)
class Price:
    name: str
    price: float
    names: tuple[str, ...]
    reports: tuple[str, ...]
    fallback: bool
    source: str


@dataclass(frozen=True)
class PriceTable:
    """The prices a run group is costed with."""

    version: str
    currency: str
    unit: str
    source: str
    per_turn: float
    entries: tuple[Price, ...]
    digest: str
    """sha256 (first 16 hex digits) of the files read: stored with each run group."""
    files: tuple[str, ...]

    def describe(self) -> dict[str, object]:
        """What a run group records of the table it was costed with."""
        return {"version": self.version, "currency": self.currency, "unit": self.unit,
                "digest": self.digest, "files": list(self.files)}


def read_prices(bank_file: Path | None = None) -> PriceTable:
    """The shipped table, adjusted or replaced by ``bank_file`` when it exists."""
    if bank_file is None or not bank_file.is_file():
        return _read((str(SHIPPED),))
    stat = bank_file.stat()
    return _read((str(SHIPPED), str(bank_file.resolve())), stat.st_mtime_ns, stat.st_size)


def bank_prices(bank_root: Path) -> PriceTable:
    """The table a bank's runs are costed with: its ``prices.yaml`` over the shipped table."""
    return read_prices(bank_prices_file(bank_root))


def check_prices(files: list[Path]) -> list[Problem]:
    """Every problem of the shipped table and ``files`` (``medbench prices check``); never raises."""
    try:
        _build(tuple(str(p) for p in (SHIPPED, *files)))
    except PriceTableError as exc:
        return exc.problems
    return []


@lru_cache(maxsize=8)
def _read(files: tuple[str, ...], mtime_ns: int = 0, size: int = 0) -> PriceTable:
    return _build(files)


def _build(files: tuple[str, ...]) -> PriceTable:
    problems: list[Problem] = []
    digest = hashlib.sha256()
    read: list[tuple[Path, PriceFile, list[int]]] = []
    for name in files:
        path = Path(name)
        try:
            raw = path.read_bytes()
            text = raw.decode("utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            problems.append(problem(path, "file.unreadable", f"Cannot read this file ({exc}).", None))
            continue
        digest.update(raw + b"\0")
        parsed = parse_yaml_text(text, PRICE_FILE)
        problems.extend(Problem(path, d) for d in parsed.diagnostics)
        if not parsed.ok:
            continue
        content = valid_sections(path, parsed, problems, PriceFile, {"prices": PriceEntry})
        lines = [(parsed.positions.locate(("prices", i)) or (1, 1))[0] for i in range(len(content.prices))]
        read.append((path, content, lines))
    table = _merge(read, problems)
    if any(p.diagnostic.severity == "error" for p in problems):
        raise PriceTableError(problems)
    return PriceTable(**table, digest=digest.hexdigest()[:16], files=tuple(Path(f).name for f in files))


def _merge(read: list[tuple[Path, PriceFile, list[int]]], problems: list[Problem]) -> JSONObject:
    entries: dict[str, Price] = {}
    first_line: dict[str, tuple[Path, int]] = {}
    header = {"version": "", "currency": "relative", "unit": "", "source": "", "per_turn": 0.0}
    for index, (path, content, lines) in enumerate(read):
        bank = index > 0
        if bank and content.replace:
            entries.clear()
            header = {"version": "", "currency": "", "unit": "", "source": "", "per_turn": 0.0}
        if bank and not content.replace and content.currency and content.currency != header["currency"]:
            problems.append(problem(
                path, "prices.currency",
                f"This table is in {content.currency} but adjusts the shipped table, which is in "
                f"{header['currency']}: give every price in {header['currency']}, or add `replace: true` to use "
                "your own table alone.", None, where=("currency",)))
        for field in ("version", "currency", "unit", "source"):
            if getattr(content, field):
                header[field] = getattr(content, field)
        if content.visit is not None:
            header["per_turn"] = content.visit.per_turn
        seen_here: set[str] = set()
        for entry, line in zip(content.prices, lines, strict=True):
            ident = normalise(entry.name)
            if ident in seen_here:
                where = first_line[ident]
                problems.append(problem(path, "prices.duplicate",
                                        f"`{entry.name}` is priced twice (first at line {where[1]}): keep one entry "
                                        "and put other names in its `also`.", (line, 1)))
                continue
            seen_here.add(ident)
            first_line[ident] = (path, line)
            names = tuple(dict.fromkeys(n for n in (normalise(x) for x in (entry.name, *entry.also)) if n))
            reports = tuple(dict.fromkeys(n for n in (normalise(x) for x in entry.reports) if n))
            entries[ident] = Price(entry.name, entry.price, names, reports, entry.fallback, f"{path.name}:{line}")
    if not header["currency"]:
        problems.append(problem(read[-1][0], "prices.currency", "Say the table's `currency:` (an ISO code such "
                                "as USD, or `relative`).", None))
    return {**header, "entries": tuple(entries.values())}
