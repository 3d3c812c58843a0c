"""Freeze a case bank: write bank-manifest.json at its root (label, date, case schema and
WHO ICD-10 data versions, and every case file and attachment with its size and sha256).

--check compares the bank with its manifest instead: exit 0 when nothing changed, 1 with
the list of files added, removed or changed since it was frozen. Runs record the manifest
they ran against, and reports say whether the cases still match it.
"""

from __future__ import annotations

import argparse

from medbench_tui.cli._output import add_format, name_text


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--bank", default=argparse.SUPPRESS,
                        help="case bank to freeze (default: the current folder, else the bundled cases)")
    parser.add_argument("--label", metavar="L", type=name_text,
                        help="a name for this version (default: the folder's name and date)")
    parser.add_argument("--check", action="store_true", help="list what changed since the bank was frozen")
    add_format(parser)


def run(args: argparse.Namespace) -> int:
    from pathlib import Path

    from medbench_tui.cli._output import emit_json, say
    from medbench_tui.core.cases.manifest import check_bank, freeze
    from medbench_tui.core.errors import UsageError
    from medbench_tui.core.paths import bank_root, default_bank

    given = getattr(args, "bank", None)
    bank = bank_root(Path(given)) if given else default_bank()
    if not bank.is_dir():
        raise UsageError(f"--bank {given}: no such folder; give the folder of a case bank")
    if args.check:
        if args.label:
            raise UsageError("--label names a new freeze; --check compares with the existing one: use one of them")
        result = check_bank(bank)
        if args.format == "json":
            emit_json({"bank": str(bank), **result.to_json()})
        else:
            print(f"bank {bank}, frozen as '{result.label}' (manifest sha256 {result.manifest_sha256[:12]})")
            for word, paths in (("added", result.added), ("removed", result.removed), ("changed", result.changed)):
                for changed in paths:
                    print(f"{word:8} {changed}")
            if result.manifest_edited:
                print("edited   bank-manifest.json (its recorded sha256 is not its own)")
            if result.shipped_prices_changed:
                print("changed  the shipped price table (this medbench prices work-ups differently)")
            print("the bank matches its manifest" if result.matches else
                  "the bank differs from its manifest: restore the files, or freeze again with a new label")
        return 0 if result.matches else 1
    path, manifest = freeze(bank, args.label)
    cases = sum(1 for f in manifest["files"] if f["kind"] == "case")
    attachments = len(manifest["files"]) - cases
    if args.format == "json":
        emit_json({"bank": str(bank), "manifest": str(path), "label": manifest["label"],
                   "manifest_sha256": manifest["manifest_sha256"], "cases": cases, "attachments": attachments})
    else:
        print(f"froze {cases} cases and {attachments} attachments as '{manifest['label']}'")
        print(f"manifest {path} (sha256 {manifest['manifest_sha256']})")
    say("check it later with: medbench freeze --check" + (f" --bank {given}" if given else ""))
    return 0
