"""A consultation at the plain terminal: each line you type (or pipe in) is one doctor
message and gets one patient reply. Commands: /attachments lists what has been
released; /final starts the final response (the lines up to the end of input, or up to
a line /end), which ends the consultation and prints the scorecard. End of input
without /final ends it incomplete. Exit 0 when the consultation is complete, else 1."""

from __future__ import annotations

import sys


def configure(parser) -> None:
    parser.add_argument("case", metavar="CASE", help="case file (or the id of a case in the bank)")
    parser.add_argument("--simulator", default="grounded", help="patient simulator (default: grounded)")
    parser.add_argument("--transcript", metavar="FILE", help="write the transcript (JSON if FILE ends in .json, else YAML)")
    parser.add_argument("--bank", help="case bank for a case id and medbench.yaml (default: the case's bank)")


def _case_path(given: str, bank: str | None):
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

    def __init__(self, stream) -> None:
        self.stream = stream
        self.interactive = stream.isatty()

    def _line(self, prompt: str = "doctor> ") -> str | None:
        """One line of input (blocking is fine: nothing else runs while the doctor types)."""
        if self.interactive:
            print(prompt, end="", file=sys.stderr, flush=True)
        line = self.stream.readline()
        return None if line == "" else line.rstrip("\n")

    async def __call__(self, consultation):
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

    def show(self, seen) -> None:
        """Print the opening or a patient reply, with the attachments that came with it."""
        text = seen.intro if hasattr(seen, "intro") else seen.text
        _out(f"Patient: {text.strip()}")
        for view in seen.attachments:
            _out(view.render())


def run(args) -> int:
    import asyncio
    from pathlib import Path

    from medbench_tui.core.bankconfig import load_bank_config
    from medbench_tui.core.case import patient_record
    from medbench_tui.core.consultation import Consultation
    from medbench_tui.core.paths import bank_root, bank_root_of
    from medbench_tui.core.scoring import render_scorecard_text, score
    from medbench_tui.core.scoring.extractor_choice import make_extractor
    from medbench_tui.core.simulators import make_simulator
    from medbench_tui.core.systems.human import HumanSystem
    from medbench_tui.core.transcript import dump_transcript
    from medbench_tui.core.validate import load_valid_case

    path = _case_path(args.case, args.bank)
    case = load_valid_case(path)
    bank = bank_root(Path(args.bank)) if args.bank else bank_root_of(path)
    simulator = make_simulator(args.simulator, patient_record(case), bank=bank)
    extractor = make_extractor(None, load_bank_config(bank).evaluator)  # the bank's evaluator (text by default)
    consultation = Consultation(case, simulator, system="human", bank_root=bank_root_of(path))
    doctor = TerminalDoctor(sys.stdin)
    transcript = asyncio.run(HumanSystem(doctor, show=doctor.show).consult(consultation))
    if consultation.error is not None:
        print(f"medbench: error: {consultation.error}", file=sys.stderr)
    if args.transcript:
        dump_transcript(transcript, Path(args.transcript))
    _out()
    if transcript.status == "complete":
        _out(render_scorecard_text(score(case, transcript, extractor=extractor)))
        return 0
    _out(f"The consultation is incomplete ({transcript.reason}); nothing is scored.")
    return 1
