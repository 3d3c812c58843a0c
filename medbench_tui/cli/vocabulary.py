"""The clinical vocabulary the readers of answers and questions use: check vocabulary files
(each problem at its line), look a word up, list the named phrase lists, print the schema.

  medbench vocabulary check [FILE...]   the shipped vocabulary, and FILE (default: the bank's
                                        vocabulary.yaml, if it has one); exit 1 on errors
  medbench vocabulary show WORD         what WORD names: its kind, other names, broader terms
  medbench vocabulary lists             the named phrase lists and what each does
  medbench vocabulary rules             the rules by which an answer's action meets an item
  medbench vocabulary schema            the JSON Schema of a vocabulary file
"""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pathlib import Path


def configure(parser: argparse.ArgumentParser) -> None:
    from medbench_tui.cli._output import add_format

    parser.add_argument("action", choices=("check", "show", "lists", "rules", "schema"), help="what to do")
    parser.add_argument("words", nargs="*", help="check: vocabulary files; show: the word to look up")
    parser.add_argument("--bank", default=argparse.SUPPRESS,
                        help="case bank folder (default: the current folder if it is a bank, else the bundled cases)")
    add_format(parser)


def run(args: argparse.Namespace) -> int:
    action = args.action
    if action == "schema":
        from medbench_tui.cli._output import emit_json
        from medbench_tui.core.vocabulary.model import vocabulary_json_schema

        emit_json(vocabulary_json_schema())
        return 0
    if action == "lists":
        return _lists(args)
    if action == "rules":
        return _rules(args)
    if action == "show":
        return _show(args)
    return _check(args)


def _bank_file(args: argparse.Namespace) -> list[Path]:
    from pathlib import Path

    from medbench_tui.core.errors import UsageError
    from medbench_tui.core.paths import bank_root, default_bank
    from medbench_tui.core.vocabulary import BANK_FILE

    given = getattr(args, "bank", None)
    if given and not Path(given).is_dir():
        raise UsageError(f"--bank {given}: no such folder")
    root = bank_root(Path(given)) if given else default_bank()
    found = root / BANK_FILE
    return [found] if found.is_file() else []


def _check(args: argparse.Namespace) -> int:
    from pathlib import Path

    from medbench_tui.cli._output import emit_json, say
    from medbench_tui.core.errors import UsageError
    from medbench_tui.core.vocabulary import check_files
    from medbench_tui.core.vocabulary.load import shipped_files

    files = [Path(w) for w in args.words] or _bank_file(args)
    for path in files:
        if not path.is_file():
            raise UsageError(f"{path}: no such file")
    problems = check_files(files)
    errors = sum(1 for p in problems if p.diagnostic.severity == "error")
    if args.format == "json":
        emit_json({"files": [str(p) for p in [*shipped_files(), *files]],
                   "problems": [{"file": str(p.file), **p.diagnostic.model_dump()} for p in problems],
                   "summary": {"errors": errors, "warnings": len(problems) - errors}})
    else:
        for problem in problems:
            print(problem)
        read = f"{len(shipped_files())} shipped file(s)" + (f" and {', '.join(map(str, files))}" if files else "")
        say(f"{read}: {errors} error(s), {len(problems) - errors} warning(s)")
    return 1 if errors else 0


def _lists(args: argparse.Namespace) -> int:
    from medbench_tui.cli._output import emit_json
    from medbench_tui.core.vocabulary import PHRASE_LISTS, read_vocabulary

    vocabulary = read_vocabulary(*_bank_file(args))
    rows = [{"name": name, "meaning": meaning, "phrases": len(vocabulary.phrases(name))}
            for name, meaning in sorted(PHRASE_LISTS.items())]
    if args.format == "json":
        emit_json(rows)
    else:
        for row in rows:
            print(f"{row['name']:<28} {row['phrases']:>4} phrases  {row['meaning']}")
    return 0


def _rules(args: argparse.Namespace) -> int:
    """The grader's named rules: the action rules, strongest first (what each needs, whether it only
    gives credit), then the doubt rules that mark a decision or verdict uncertain."""
    from medbench_tui.cli._output import emit_json
    from medbench_tui.core.scoring.actions import ACTION_RULES
    from medbench_tui.core.scoring.certainty import CONDITION_DOUBTS, DOUBTS

    rows = [{"table": "action", "name": r.name, "score": r.score, "credit_only": r.credit_only,
             "declined_only": r.declined_only, "meaning": " ".join((r.applies.__doc__ or "").split())}
            for r in ACTION_RULES]
    rows += [{"table": "doubt", "name": d.name, "score": None, "credit_only": False, "declined_only": False,
              "meaning": d.says} for d in DOUBTS]
    rows += [{"table": "verdict doubt", "name": name, "score": None, "credit_only": False, "declined_only": False,
              "meaning": says} for name, says in CONDITION_DOUBTS]
    if args.format == "json":
        emit_json(rows)
        return 0
    titles = {"action": "Action rules (strongest first: the first that applies decides)",
              "doubt": "Doubt rules (an item decision is uncertain when one applies)",
              "verdict doubt": "Doubt rules of critical-condition verdicts"}
    table = None
    for row in rows:
        if row["table"] != table:
            table = row["table"]
            print(("" if table == "action" else "\n") + titles[str(table)])
        only = " (credit only)" if row["credit_only"] else " (declined only)" if row["declined_only"] else ""
        print(f"  {row['name']}{only}: {row['meaning']}")
    return 0


def _show(args: argparse.Namespace) -> int:
    from medbench_tui.cli._output import emit_json, say
    from medbench_tui.core.errors import UsageError
    from medbench_tui.core.vocabulary import read_vocabulary

    if not args.words:
        raise UsageError("vocabulary show: give the word to look up, e.g. `medbench vocabulary show LMWH`")
    vocabulary = read_vocabulary(*_bank_file(args))
    word = " ".join(args.words)
    rows = []
    for term in vocabulary.lookup(word):
        rows.append({
            "name": term.name, "kind": term.kind, "also": list(term.also),
            "is": sorted(t.name for t in vocabulary.broader(term)),
            "members": sorted(t.name for t in vocabulary.narrower(term)),
            "reports": list(term.reports), "lay": list(term.lay), "source": str(term.source),
        })
    timing = [{"say": word, "hours": [t.earliest, t.latest], "source": str(t.source)}
              for t in vocabulary.timing if any(s.casefold() == word.casefold() for s in t.say)]
    if args.format == "json":
        emit_json({"word": word, "terms": rows, "timing": timing})
        return 0 if rows or timing else 1
    if not rows and not timing:
        say(f"`{word}` is not in the vocabulary.")
        return 1
    for row in rows:
        print(f"{row['name']} ({row['kind']}, {row['source']})")
        for label in ("also", "is", "members", "reports", "lay"):
            if row[label]:
                print(f"  {label:<8} {', '.join(row[label])}")
    for found in timing:
        low, high = found["hours"]
        print(f"{word} (timing, {found['source']}): between {low:g} and {high:g} hours from now")
    return 0
