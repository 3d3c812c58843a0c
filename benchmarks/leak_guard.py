"""The LLM patient's leak guard: what it catches, and what it replaces that it should not.

    python benchmarks/leak_guard.py [--cases DIR] [--misses]

For every case of the bank (default: the bundled cases):

- **false replacements**: every sentence the record lets the patient say (the intro, each
  fact's answer, the stock replies of the patient's voice) is checked; a sentence the
  guard stops would be replaced by the grounded answer although nothing leaked.
  Target: 0.
- **leaks caught**: sentences that give the diagnosis away in the ways attacks found,
  made from the case itself: a name spelt with spaces, split in two, with look-alike
  digits, an acronym with dots, a lay or other-language name of the vocabulary's
  conditions, the code spoken ("J 18 point 1"), a value or finding that only an attachment
  holds, and a differential's name. Target: every one.

Prints both figures against their targets (the first is the one that keeps the guard
useful: a guard that replaces every reply catches every leak).
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

from medbench_tui.core.cases.bank import scan_bank
from medbench_tui.core.cases.model import Case
from medbench_tui.core.paths import bundled_cases_dir
from medbench_tui.core.simulators import LeakGuard
from medbench_tui.core.simulators.guard import Reading
from medbench_tui.core.simulators.lexicon import sentences
from medbench_tui.core.simulators.voice import ACKNOWLEDGE, DEFLECTIONS, FILLERS, GREETING, THANKS
from medbench_tui.core.validate import validate_file

LEETSPEAK = str.maketrans({"e": "3", "o": "0", "i": "1", "a": "4"})


def load_cases(folder: Path, limit: int | None = None) -> list[Case]:
    found: list[Case] = []
    bank = scan_bank(folder)  # the cases' bank, indexed once for them all
    for path in sorted(folder.glob("*.yaml")):
        if limit is not None and len(found) >= limit:
            break
        report = validate_file(path, bank=bank)
        if report.case is not None and not path.name.startswith("err-"):
            found.append(report.case)
    return found


def innocent(case: Case) -> list[str]:
    """What the record lets the patient say, sentence by sentence, and the voice's stock replies."""
    said = [*sentences(case.intro)]
    for answer in case.additional_answers:
        said += sentences(answer.answer)
    return said + [*FILLERS, *DEFLECTIONS, *GREETING, *THANKS, *ACKNOWLEDGE]


def attacks(case: Case) -> list[tuple[str, str]]:
    """(kind, sentence) that give the diagnosis away, each made from the case."""
    from medbench_tui.core.vocabulary import read_vocabulary

    primary = case.diagnosis.primary
    names = [primary.name, *primary.aliases]
    plain = [n for n in names if re.fullmatch(r"[A-Za-z][A-Za-z -]{5,}", n) and not n.isupper()]
    word = min(plain, key=len).replace("-", " ") if plain else None  # the shortest name: the hardest to spot
    out: list[tuple[str, str]] = []
    if word:
        out += [("spaced letters", f"Could it be {' '.join(word)}?"),
                ("split word", f"My neighbour thinks it's {word[:4]} {word[4:]}."),
                ("look-alikes", f"Is it {word.lower().translate(LEETSPEAK)}?")]
    acronym = next((n for n in names if n.isupper() and 2 <= len(n) <= 5 and n.isalpha()), None)
    if acronym:
        out.append(("dotted acronym", f"Is it {'.'.join(acronym)}.?"))
    told = " ".join([case.intro, *(a.answer for a in case.additional_answers)])
    flat = [f" {n.casefold()} " for n in names]
    for term in read_vocabulary().of_kind("condition"):
        if any(f" {own.casefold()} " in name for own in term.names for name in flat):
            unsaid = [lay for lay in term.lay if not any(Reading.of(s).names(lay) for s in sentences(told))]
            if unsaid:  # a lay name the record says is the patient's own to repeat
                out.append(("lay name", f"I'm worried it's {unsaid[0]}."))
            foreign = [n for n in term.also if not n.isascii()]
            if foreign:
                out.append(("other language", f"My mother said it was {foreign[0]}."))
            break
    code = re.match(r"([A-Z])(\d)(\d)(?:\.(\d))?", primary.icd10)
    if code:
        letter, tens, units, sub = code.groups()
        out.append(("spoken code", f"The letter said {letter} {tens}{units}" + (f" point {sub}." if sub else ".")))
    content = " ".join(a.content or "" for a in case.attachments)
    value = next((v for v in re.findall(r"\d+\.\d+|\d+/\d+", content) if v not in told), None)
    if value:
        out.append(("attachment value", f"The nurse wrote down {value}."))
    if case.differential:
        out.append(("differential", f"Is it {case.differential[0].name.lower()}?"))
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cases", type=Path, default=bundled_cases_dir(), help="folder of cases")
    parser.add_argument("--misses", action="store_true", help="print each false replacement and missed leak")
    parser.add_argument("--quick", action="store_true", help="the first 4 cases only (that nothing rotted)")
    args = parser.parse_args(argv)
    cases = load_cases(args.cases, limit=4 if args.quick else None)
    checked = replaced = tried = caught = 0
    by_kind: dict[str, list[int]] = {}
    for case in cases:
        guard = LeakGuard.from_case(case)
        for sentence in innocent(case):
            checked += 1
            why = guard.check(sentence)
            if why is not None:
                replaced += 1
                if args.misses:
                    print(f"  replaced  {case.id}: {sentence!r} ({why})")
        for kind, sentence in attacks(case):
            tried += 1
            stopped = guard.check(sentence) is not None
            caught += stopped
            by_kind.setdefault(kind, [0, 0])[0] += stopped
            by_kind[kind][1] += 1
            if args.misses and not stopped:
                print(f"  missed    {case.id}: {sentence!r} ({kind})")
    print(f"{len(cases)} cases")
    for kind, (hit, total) in sorted(by_kind.items()):
        print(f"  {kind:<18} {hit}/{total} caught")
    ok_false = replaced == 0
    ok_caught = caught == tried
    print(f"false replacements  {replaced} of {checked} record sentences ({100 * replaced / max(checked, 1):.2f}%)"
          f"   target 0   {'OK' if ok_false else 'MISSED'}")
    print(f"leaks caught        {caught} of {tried} ({100 * caught / max(tried, 1):.1f}%)"
          f"   target all   {'OK' if ok_caught else 'MISSED'}")
    return 0 if ok_false and ok_caught else 1


if __name__ == "__main__":
    sys.exit(main())
