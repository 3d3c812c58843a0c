"""How faithfully the grounded patient converses: the labelled consultations of
``tests/data/questions/consultations/`` (rules in ``tests/data/questions/LABELLING.md``),
each played in order as one consultation.

Per case and overall: fact recall, false denials (a labelled fact missed and a "No."
given instead), replies with unrequested facts, default correctness (no fact, and the
wording fits the question), attachments handed over when asked and when not asked,
repeats cut short, leaks (the leak guard on every reply sentence), and confidently wrong
replies (a fact other than the ones asked for, stated without the doubt the patient says
aloud when it is unsure).

Then the figures of the patient's acceptance targets, each against its target: fact recall
>= 96%, at most 1 false denial per 200 messages, >= 95% of replies fully right (right facts,
nothing unrequested, a fitting default), attachments released on >= 97% of requests, 0
leaks, confidently wrong replies <= 1%.

A case is read from a ``cases/`` folder beside the consultations (or beside their folder),
else from the bundled bank. ``--all`` measures every labelled set of the repository, one
line of targets each.

    python benchmarks/patient_fidelity.py [--misses] [--consultations DIR] [--all] [--quick]

``--quick`` plays the first two consultations only (that nothing rotted).
"""

from __future__ import annotations

import argparse
import asyncio
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from ruamel.yaml import YAML

from medbench_tui.core.cases.model import Case, patient_record
from medbench_tui.core.cases.yamlio import parse_case_text
from medbench_tui.core.consultation.loop import Consultation
from medbench_tui.core.paths import bundled_cases_dir
from medbench_tui.core.simulators import GroundedSimulator, LeakGuard, PatientReply
from medbench_tui.core.simulators.base import SURE
from medbench_tui.core.simulators.lexicon import sentences, words
from medbench_tui.core.simulators.voice import DEFAULT_ANSWERS, is_default_answer, is_default_for

REPO = Path(__file__).resolve().parent.parent
CONSULTATIONS = REPO / "tests" / "data" / "questions" / "consultations"
LABELLED_SETS = (
    CONSULTATIONS,
    REPO / "tests" / "data" / "heldout" / "questions",
    *sorted((REPO / "tests" / "data" / "heldout").glob("round*/questions"), key=lambda p: int(p.parent.name[5:])),
    REPO / "tests" / "data" / "newcases" / "patient",
)
"""Every labelled consultation set of the repository (those that exist are measured by ``--all``)."""
NEGATIVE = {" ".join(words(a)) for a in DEFAULT_ANSWERS["negative"]} | {"no"}


@dataclass
class Tally:
    """The counts of one case (or of all cases together)."""

    case_id: str
    replies: int = 0
    facts: int = 0
    facts_given: int = 0
    false_denials: int = 0
    unrequested: int = 0
    defaults: int = 0
    defaults_ok: int = 0
    asked: int = 0
    asked_ok: int = 0
    unasked: int = 0
    cut_short: int = 0
    leaks: int = 0
    right: int = 0
    confidently_wrong: int = 0
    doubted_right: int = 0
    """Right replies that give facts with doubt ("I'm not sure that's what you mean, but ..."): the
    cost of doubt said aloud, shown beside the confident errors it prevents."""
    by_tag: Counter[str] = field(default_factory=Counter)
    by_tag_ok: Counter[str] = field(default_factory=Counter)
    misses: list[str] = field(default_factory=list)

    def add(self, other: Tally) -> None:
        for name in ("replies", "facts", "facts_given", "false_denials", "unrequested", "defaults", "defaults_ok",
                     "asked", "asked_ok", "unasked", "cut_short", "leaks", "right", "confidently_wrong",
                     "doubted_right"):
            setattr(self, name, getattr(self, name) + getattr(other, name))
        self.by_tag.update(other.by_tag)
        self.by_tag_ok.update(other.by_tag_ok)
        self.misses += other.misses

    def figures(self) -> str:
        return (
            f"recall {pct(self.facts_given, self.facts)}%; false denials {self.false_denials}; "
            f"unrequested {pct(self.unrequested, self.replies)}%; defaults {pct(self.defaults_ok, self.defaults)}%; "
            f"attachments asked {pct(self.asked_ok, self.asked)}%; attachments unasked {self.unasked}; "
            f"cut short {self.cut_short}; leaks {self.leaks}; confidently wrong {self.confidently_wrong}; "
            f"right but said with doubt {self.doubted_right}"
        )

    def targets(self) -> list[tuple[str, str, bool]]:
        """The acceptance figures: (name, value against its target, whether it meets it)."""
        per_200 = 200 * self.false_denials / self.replies if self.replies else 0.0
        wrong = share(self.confidently_wrong, self.replies, empty=0.0)
        recall, right = share(self.facts_given, self.facts), share(self.right, self.replies)
        released = share(self.asked_ok, self.asked)
        return [
            ("fact recall", f"{recall:.1f}% (>= 96%)", recall >= 96),
            ("false denials per 200 messages", f"{per_200:.1f} (<= 1)", per_200 <= 1),
            ("replies fully right", f"{right:.1f}% (>= 95%)", right >= 95),
            ("attachments released on request", f"{released:.1f}% (>= 97%)", released >= 97),
            ("leaks", f"{self.leaks} (0)", self.leaks == 0),
            ("confidently wrong replies", f"{wrong:.1f}% (<= 1%)", wrong <= 1),
        ]

    def target_lines(self) -> str:
        doubted = f"  {'':4} {'right replies said with doubt':34} {pct(self.doubted_right, self.replies)}% (no target)"
        return "\n".join(
            [*(f"  {'ok  ' if met else 'MISS'} {name:34} {value}" for name, value, met in self.targets()), doubted]
        )


def pct(part: int, whole: int) -> str:
    return f"{share(part, whole):.1f}"


def share(part: int, whole: int, *, empty: float = 100.0) -> float:
    """``part`` as a percentage of ``whole`` (``empty`` when there is nothing to count)."""
    return 100 * part / whole if whole else empty


def denies(text: str) -> bool:
    """Does the reply contain a denial ("No.", "No, not that I've noticed.", "No night sweats.")?"""
    return any(" ".join(words(s)) in NEGATIVE or (is_default_for(s) and s.lower().startswith(("no", "but no")))
               for s in sentences(text))


def whole(answer: str, text: str) -> bool:
    """Is the fact's answer in the reply from its second word to its end (the frame
    "As I said, ..." may change the first)?"""
    said = " ".join(words(answer)[1:])
    return not said or said in " ".join(words(text))


def said_by_record(sentence: str, own: set[str]) -> bool:
    """Is the sentence the patient's own record ("As I said, " + a record sentence)? The
    guard may flag such a sentence (the record says "long-sighted", a case lists "long
    sight"); it is the record, not a leak."""
    flat = " ".join(words(sentence))
    return any(flat == s or flat.endswith(" " + s) for s in own)


def load_case(case_id: str, folder: Path | None = None) -> Case:
    """The case of a consultation: from a ``cases/`` folder beside the consultations or beside
    their folder (cases outside the bank), else from the bundled bank."""
    beside = [folder / "cases", folder.parent / "cases"] if folder is not None else []
    path = next((p / f"{case_id}.yaml" for p in beside if (p / f"{case_id}.yaml").is_file()),
                bundled_cases_dir() / f"{case_id}.yaml")
    return Case.model_validate(parse_case_text(path.read_text(encoding="utf-8")).data)


def play(path: Path) -> Tally:
    """Play one labelled consultation and count what went right."""
    data = YAML(typ="safe", pure=True).load(path.read_text(encoding="utf-8"))
    case = load_case(data["case_id"], path.parent)
    case = case.model_copy(update={"max_turns": max(case.max_turns, len(data["turns"]))})  # a long consultation
    patient = GroundedSimulator(patient_record(case))
    consultation = Consultation(case, patient, system="fidelity", bank_root=bundled_cases_dir())
    guard = LeakGuard.from_case(case)
    timed = {a.id for a in case.attachments if a.available == "after_turn"}
    answers = {a.id: a.answer for a in case.additional_answers}
    own = {" ".join(words(s)) for text in [case.intro, *answers.values()] for s in sentences(text)}
    tally = Tally(case.id)
    given_before: set[str] = set()
    for turn in data["turns"]:
        reply: PatientReply = asyncio.run(consultation.ask(turn["ask"]))
        ok = score_turn(tally, turn, reply, guard, timed, answers, given_before, own)
        given_before.update(reply.facts)
        for tag in turn.get("tags") or []:
            tally.by_tag[tag] += 1
            tally.by_tag_ok[tag] += ok
    return tally


def score_turn(
    tally: Tally, turn: dict, reply: PatientReply, guard: LeakGuard, timed: set[str], answers: dict[str, str],
    given_before: set[str], own: set[str],
) -> bool:
    """Count one reply; True when it is right in every respect."""
    want = list(turn.get("facts") or [])
    allowed = set(want) | set(turn.get("may") or [])
    tags = set(turn.get("tags") or [])
    attachments = set(turn.get("attachments") or [])
    got = set(reply.facts)
    released = {a.id for a in reply.attachments}
    problems: list[str] = []
    tally.replies += 1
    tally.facts += len(want)
    tally.facts_given += len(got & set(want))
    missed = [f for f in want if f not in got]
    if missed:
        problems.append(f"missed {missed}")
        if denies(reply.text):
            tally.false_denials += 1
            problems.append("FALSE DENIAL")
    if got - allowed:
        tally.unrequested += 1
        problems.append(f"unrequested {sorted(got - allowed)}")
    short = [f for f in got & given_before if not whole(answers[f], reply.text)]
    if short:
        tally.cut_short += 1
        problems.append(f"cut short {short}")
    if turn.get("default"):
        tally.defaults += 1
        fits = not (tags & {"open", "diagnosis"}) or not denies(reply.text)
        if want:
            fits = fits and any(is_default_answer(s) or is_default_for(s) for s in sentences(reply.text))
        elif got - allowed:
            fits = False
        tally.defaults_ok += fits
        if not fits:
            problems.append("default does not fit")
    if tags & {"exam", "obs"} and denies(reply.text):
        problems.append("refuses the examination")
        tally.false_denials += 1
    if attachments:
        tally.asked += 1
        if attachments <= released:
            tally.asked_ok += 1
        else:
            problems.append(f"attachments not given {sorted(attachments - released)}")
    unasked = released - attachments - timed
    if unasked:
        tally.unasked += 1
        problems.append(f"attachments not asked for {sorted(unasked)}")
    leaks = [s for s in sentences(reply.text) if guard.check(s) and not said_by_record(s, own)]
    if leaks:
        tally.leaks += 1
        problems.append(f"LEAK {leaks}")
    if got - allowed and reply.confidence >= SURE:
        tally.confidently_wrong += 1
        problems.append("CONFIDENTLY WRONG")
    tally.right += not problems
    tally.doubted_right += not problems and bool(got) and reply.confidence < SURE
    if problems:
        tally.misses.append(f"  {tally.case_id}: {turn['ask']!r} -> {reply.text!r} [{'; '.join(problems)}]")
    return not problems


def run(paths: list[Path]) -> tuple[list[Tally], Tally]:
    tallies = [play(path) for path in paths]
    total = Tally("overall")
    for tally in tallies:
        total.add(tally)
    return tallies, total


def consultations(folder: Path) -> list[Path]:
    """The labelled consultations of a folder (not its README or notes)."""
    return sorted(p for p in folder.glob("*.yaml") if p.is_file())


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--misses", action="store_true", help="list every miss")
    parser.add_argument("--consultations", type=Path, default=CONSULTATIONS, metavar="DIR")
    parser.add_argument("--all", action="store_true", help="every labelled set of the repository")
    parser.add_argument("--quick", action="store_true", help="the first two consultations only")
    args = parser.parse_args(argv)
    if args.all:
        for folder in LABELLED_SETS:
            paths = consultations(folder)
            if paths:
                _, total = run(paths)
                print(f"{folder.relative_to(REPO)}: {len(paths)} cases, {total.replies} replies")
                print(total.target_lines())
        return
    tallies, total = run(consultations(args.consultations)[: 2 if args.quick else None])
    for tally in tallies:
        print(f"{tally.case_id:28} {tally.replies:3} replies  {tally.figures()}")
    print("per category (replies right in every respect):")
    for tag in sorted(total.by_tag):
        right, asked = total.by_tag_ok[tag], total.by_tag[tag]
        print(f"  {tag:10} {right:3}/{asked:<3} {pct(right, asked)}%")
    if args.misses:
        print("misses:")
        print("\n".join(total.misses))
    print(f"{len(tallies)} cases, {total.replies} replies")
    print(total.figures())
    print("targets:")
    print(total.target_lines())


if __name__ == "__main__":
    main()
