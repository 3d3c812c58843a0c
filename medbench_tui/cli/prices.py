"""The price table work-ups are costed with: check it (each problem at its line), see what a
test is priced as.

  medbench prices check [FILE]   the shipped table, adjusted by FILE (default: the bank's
                                 prices.yaml, if it has one); exit 1 on errors
  medbench prices show TEXT      what TEXT (a work-up item, a test) is priced as
  medbench prices schema         the JSON Schema of a price table
"""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pathlib import Path


def configure(parser: argparse.ArgumentParser) -> None:
    from medbench_tui.cli._output import add_format

    parser.add_argument("action", choices=("check", "show", "schema"), help="what to do")
    parser.add_argument("words", nargs="*", help="check: a price table file; show: the test to price")
    parser.add_argument("--bank", default=argparse.SUPPRESS,
                        help="case bank folder (default: the current folder if it is a bank, else the bundled cases)")
    add_format(parser)


def _bank(args: argparse.Namespace) -> Path:
    from pathlib import Path

    from medbench_tui.core.errors import UsageError
    from medbench_tui.core.paths import bank_root, default_bank

    given = getattr(args, "bank", None)
    if given and not Path(given).is_dir():
        raise UsageError(f"--bank {given}: no such folder")
    return bank_root(Path(given)) if given else default_bank()


def run(args: argparse.Namespace) -> int:
    from pathlib import Path

    from medbench_tui.cli._output import emit_json, say
    from medbench_tui.core.costs.prices import PriceFile, check_prices, read_prices
    from medbench_tui.core.errors import UsageError
    from medbench_tui.core.paths import bank_prices_file

    if args.action == "schema":
        schema = PriceFile.model_json_schema(by_alias=True)
        emit_json({"$schema": "https://json-schema.org/draft/2020-12/schema", "$id": "urn:medbench:prices:1",
                   **schema, "title": "medbench price table"})
        return 0
    own = bank_prices_file(_bank(args))
    if args.action == "check":
        files = [Path(w) for w in args.words] or ([own] if own.is_file() else [])
        for path in files:
            if not path.is_file():
                raise UsageError(f"{path}: no such file")
        problems = check_prices(files)
        if args.format == "json":
            emit_json({"problems": [{"file": str(p.file), **p.diagnostic.model_dump()} for p in problems],
                       "summary": {"errors": len(problems)}})
        else:
            for problem in problems:
                print(problem)
            if not problems:
                table = read_prices(files[0] if files else None)
                say(f"price table {table.version or 'unversioned'} ({table.currency}): {len(table.entries)} "
                    f"entries, digest {table.digest}; no problems")
        return 1 if problems else 0
    from medbench_tui.core.costs.assess import price_text

    if not args.words:
        raise UsageError("prices show: give the test to price, e.g. `medbench prices show CT abdomen and pelvis`")
    table = read_prices(own if own.is_file() else None)
    text = " ".join(args.words)
    entries = price_text(text, table)
    if args.format == "json":
        emit_json({"text": text, "currency": table.currency,
                   "priced_as": [{"name": e.name, "price": e.price, "source": e.source} for e in entries]})
    elif not entries:
        say(f"`{text}` names no priced test: it would be reported as unpriced.")
    else:
        for entry in entries:
            print(f"{entry.name:<40} {entry.price:>8g}  ({entry.source})")
        print(f"{'total':<40} {sum(e.price for e in entries):>8g}  {table.currency}")
    return 0 if entries else 1
