"""A consultation at the plain terminal: each line you type (or pipe in) is one doctor
message and gets one patient reply. Commands: /attachments lists what has been
released; /final starts the final response (the lines up to the end of input, or up to
a line /end), which ends the consultation and prints the scorecard. End of input
without /final ends it incomplete. Exit 0 when the consultation is complete, else 1.

When a model-played patient cannot answer (its server is down, its key refused), the
grounded patient is offered in its place: asked at a terminal, taken with a notice when
the input is piped (the transcript records the switch)."""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pathlib import Path
    from typing import TextIO

    from medbench_tui.core.cases.attachment_view import DoctorView
    from medbench_tui.core.consultation.loop import Consultation
    from medbench_tui.core.simulators import PatientReply
    from medbench_tui.core.transcript import FinalResponse


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("case", metavar="CASE", help="case file (or the id of a case in the bank)")
    parser.add_argument("--simulator", default="grounded", help="patient simulator (default: grounded)")
    parser.add_argument(
        "--transcript", metavar="FILE", help="write the transcript (JSON if FILE ends in .json, else YAML)"
    )
    parser.add_argument(
        "--bank", default=argparse.SUPPRESS, help="case bank for a case id and medbench.yaml (default: the case's bank)"
    )


def _case_path(given: str, bank: str | None) -> Path:
    from pathlib import Path

    from medbench_tui.core.errors import UsageError
    from medbench_tui.core.paths import bundled_cases_dir, cases_dir, is_bank

    path = Path(given)
    if path.is_file():
        return path
    folders = [Path(bank)] if bank else ([Path.cwd()] if is_bank(Path.cwd()) else []) + [bundled_cases_dir()]
    for folder in folders:
        candidate = cases_dir(folder) / f"{given}.yaml"
        if candidate.is_file():
            return candidate
    raise UsageError(f"{given}: no such case file (give a path to a .yaml case, or a case id in the bank)")


def _out(text: str = "") -> None:
    print(text, flush=True)


class TerminalDoctor:
    """Reads doctor lines from stdin and prints what the doctor receives."""

    def __init__(self, stream: TextIO) -> None:
        self.stream = stream
        self.interactive = stream.isatty()

    def _line(self, prompt: str = "doctor> ") -> str | None:
        """One line of input (blocking is fine: nothing else runs while the doctor types)."""
        if self.interactive:
            print(prompt, end="", file=sys.stderr, flush=True)
        try:
            line = self.stream.readline()
            line.encode("utf-8")  # stdin may hand undecodable bytes over as surrogates
        except (UnicodeDecodeError, UnicodeEncodeError):
            from medbench_tui.core.errors import UsageError

            raise UsageError("the input is not UTF-8 text: type the questions, or pipe in a text file") from None
        return None if line == "" else line.rstrip("\n")

    async def __call__(self, consultation: Consultation) -> str | FinalResponse | None:
        from medbench_tui.core.transcript import FinalResponse

        while True:
            line = self._line()
            if line is None:
                return None
            command = line.strip()
            if not command:
                continue
            if command == "/attachments":
                views = [consultation.show(a) for a in consultation.released]
                _out("\n\n".join(v.render() for v in views) if views else "(no attachments released yet)")
                continue
            if command == "/final":
                lines = []
                while (more := self._line("final> ")) is not None and more.strip() != "/end":
                    lines.append(more)
                return FinalResponse(text="\n".join(lines).strip() or None)
            return line

    def offer_grounded(self, error: Exception) -> bool:
        """Continue with the grounded patient when the model patient fails?"""
        print(f"medbench: the patient model cannot answer: {error}", file=sys.stderr)
        if not self.interactive:
            print("medbench: continuing with the grounded patient (answers from the case record)", file=sys.stderr)
            return True
        answer = self._line("Continue with the grounded patient (answers from the case record)? [Y/n] ")
        return answer is None or answer.strip().lower() in ("", "y", "yes")

    def show(self, seen: DoctorView | PatientReply) -> None:
        """Print the opening or a patient reply, with the attachments that came with it."""
        text = seen.intro if hasattr(seen, "intro") else seen.text
        _out(f"Patient: {text.strip()}")
        for view in seen.attachments:
            _out(view.render())


def run(args: argparse.Namespace) -> int:
    import asyncio
    from pathlib import Path

    from medbench_tui.cli._keys import require_keys
    from medbench_tui.core.cases.bank import load_bank
    from medbench_tui.core.cases.model import patient_record
    from medbench_tui.core.consultation.loop import Consultation
    from medbench_tui.core.errors import MedbenchError
    from medbench_tui.core.files import writable_destination
    from medbench_tui.core.paths import bank_root_of
    from medbench_tui.core.scoring import render_scorecard_text, score
    from medbench_tui.core.scoring.extractor_choice import make_extractor
    from medbench_tui.core.simulators import make_simulator
    from medbench_tui.core.systems.human import HumanSystem
    from medbench_tui.core.transcript import dump_transcript
    from medbench_tui.core.validate import load_valid_case

    given_bank = getattr(args, "bank", None)
    path = _case_path(args.case, given_bank)
    case = load_valid_case(path)
    bank = load_bank(Path(given_bank) if given_bank else bank_root_of(path))
    transcript_file = Path(args.transcript) if args.transcript else None
    if transcript_file is not None:
        writable_destination(transcript_file, "--transcript")
    if bank.config_problem is None:  # before the first request: a key from the environment goes where allowed
        require_keys(bank.config.endpoints_for([], args.simulator))
    simulator = make_simulator(args.simulator, patient_record(case), bank=bank)
    extractor = make_extractor(None, bank.config.evaluator)  # the bank's evaluator (text by default)
    consultation = Consultation(case, simulator, system="human", bank_root=bank_root_of(path))
    doctor = TerminalDoctor(sys.stdin)
    if hasattr(simulator, "offer_grounded"):
        simulator.offer_grounded = doctor.offer_grounded
    transcript = asyncio.run(HumanSystem(doctor, show=doctor.show).consult(consultation))
    if consultation.error is not None:
        print(f"medbench: error: {consultation.error}", file=sys.stderr)
    _out()
    if transcript.status == "complete":
        from medbench_tui.core.costs.prices import bank_prices

        _out(render_scorecard_text(score(case, transcript, extractor=extractor, prices=bank_prices(bank.root))))
    else:
        _out(f"The consultation is incomplete ({transcript.reason}); nothing is scored.")
    if transcript_file is not None:
        try:
            dump_transcript(transcript, transcript_file)
        except OSError as exc:  # the scorecard is printed above: only the file is lost
            raise MedbenchError(f"--transcript {transcript_file}: cannot write it: {exc.strerror or exc}") from None
    return 0 if transcript.status == "complete" else 1
