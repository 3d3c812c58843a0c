"""WHO ICD-10 Version 2019: check codes, or find the code for a diagnosis.

  medbench icd lookup J18.9 E11.65 I21.A1
  medbench icd search heart attack
  medbench icd search "UTI in pregnancy" --limit 5 --format json

`lookup` says for each code whether it is a WHO ICD-10 2019 code (categories and
subcategories only: a chapter or block is not a code), its title, and for ICD-10-CM
(US) codes the WHO code to use instead. Exit status 0 when every code is valid, 1 when
any is not. `search` finds WHO codes by title, abbreviation or everyday name; exit
status 0 when something matched, 1 when nothing did. Usage errors exit with 2.

The WHO titles come from the WHO ICD-10 2019 classification; WHO's terms apply.
"""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from medbench_tui.core.icd10.model import CodeInfo

MAX_LIMIT = 200


def configure(parser: argparse.ArgumentParser) -> None:
    from medbench_tui.cli._output import add_format

    parser.formatter_class = argparse.RawDescriptionHelpFormatter
    actions = parser.add_subparsers(dest="icd_command", metavar="ACTION")
    lookup = actions.add_parser(
        "lookup",
        help="check WHO ICD-10 2019 codes",
        description="Check codes against WHO ICD-10 2019: title, kind, and for ICD-10-CM codes "
        "the WHO code to use. Exit status: 0 when all are valid WHO codes, 1 otherwise.",
    )
    lookup.add_argument("codes", nargs="+", metavar="CODE", help="codes such as J18.9, j189, E11.65")
    add_format(lookup)
    search = actions.add_parser(
        "search",
        help="find WHO ICD-10 2019 codes by title or everyday name",
        description="Fuzzy search of WHO ICD-10 2019 titles, with abbreviations, everyday names and "
        "UK/US spellings. A code (J18, j18.9) lists that code first. Exit status: 0 when "
        "something matched, 1 when nothing did.",
    )
    search.add_argument("text", nargs="+", metavar="TEXT", help="what to look for (several words are one phrase)")
    search.add_argument(
        "--limit", type=_limit, default=10, metavar="N", help=f"at most N hits, 1-{MAX_LIMIT} (default: 10)"
    )
    add_format(search)


def _limit(value: str) -> int:
    try:
        number = int(value)
    except ValueError:
        number = 0
    if not 1 <= number <= MAX_LIMIT:
        raise argparse.ArgumentTypeError(f"give a whole number from 1 to {MAX_LIMIT}, not {value!r}")
    return number


def run(args: argparse.Namespace) -> int:
    from medbench_tui.core.errors import UsageError

    if args.icd_command == "lookup":
        return _lookup(args)
    if args.icd_command == "search":
        return _search(args)
    raise UsageError("say what to do: 'medbench icd lookup CODE...' or 'medbench icd search TEXT'")


def _lookup(args: argparse.Namespace) -> int:
    from medbench_tui.cli._output import emit_json
    from medbench_tui.core.icd10 import lookup

    infos = [lookup(code) for code in args.codes]
    if args.format == "json":
        emit_json([info.to_json() for info in infos])
    else:
        print("\n\n".join(_describe(info) for info in infos))
    return 0 if all(info.valid for info in infos) else 1


def _describe(info: CodeInfo) -> str:
    if info.valid:
        head = f"{info.code}  {info.title}"
        state = f"valid WHO ICD-10 2019 {info.kind}" + (f" (in {info.parent})" if info.parent else "")
    elif info.kind:
        head = f"{info.code}  {info.title}"
        state = f"not a code: a WHO {info.kind}"
    elif info.cm_only:
        head, state = info.code, "not WHO ICD-10 2019: an ICD-10-CM (US) code"
    else:
        head, state = info.code or repr(info.query), "not a WHO ICD-10 2019 code"
    lines = [head, f"  {state}"]
    lines += [f"  note: {note}" for note in info.notes]
    if info.suggestions:
        lines.append("  use instead:" if not info.valid else "  see:")
        width = max(len(s.code) for s in info.suggestions)
        lines += [f"    {s.code.ljust(width)}  {s.title}" for s in info.suggestions]
    return "\n".join(lines)


def _search(args: argparse.Namespace) -> int:
    from medbench_tui.cli._output import emit_json, say
    from medbench_tui.core.errors import UsageError
    from medbench_tui.core.icd10 import search

    text = " ".join(args.text).strip()
    if not text:
        raise UsageError("give some words to search for, for example: medbench icd search heart attack")
    hits = search(text, args.limit)
    if args.format == "json":
        emit_json([hit.to_json() for hit in hits])
    elif hits:
        width = max(len(hit.code) for hit in hits)
        for hit in hits:
            print(f"{hit.code.ljust(width)}  {hit.score:5.1f}  {hit.title}")
        for note in dict.fromkeys(hit.note for hit in hits if hit.note):
            print(f"note: {note}")
    else:
        say(f"no WHO ICD-10 2019 title matches {text!r}; try other words or an abbreviation")
    return 0 if hits else 1
