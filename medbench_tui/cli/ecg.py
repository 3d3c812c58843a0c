"""Draw a synthetic 12-lead ECG for a case attachment (a PNG a clinician can read, marked as
synthetic, from a simulated heart vector). Prints a description to use as the attachment's
`description` (what a text-only system is sent); check it against the picture and write
it in your own words. The same rhythm, rate and seed always draw the same picture: say in the
case notes how the image was made.

  medbench ecg inferior-stemi attachments/em-mi-001/ecg.png --rate 92 --seed 3
"""

from __future__ import annotations

import argparse


def configure(parser: argparse.ArgumentParser) -> None:
    from medbench_tui.core.authoring.ecg import RHYTHMS

    parser.add_argument("rhythm", choices=sorted(RHYTHMS), help="what the ECG shows")
    parser.add_argument("output", help="the PNG file to write")
    parser.add_argument("--rate", type=int, help="ventricular rate per minute (default: one typical of the rhythm)")
    parser.add_argument("--seed", type=int, default=1, help="the variation between drawings (default 1)")
    parser.add_argument("--label", default="", help="text for the header, e.g. a date (never the diagnosis)")


def run(args: argparse.Namespace) -> int:
    from pathlib import Path

    from medbench_tui.core.authoring.ecg import draw, simulate
    from medbench_tui.core.errors import UsageError

    if args.rate is not None and not 20 <= args.rate <= 250:
        raise UsageError("--rate: give a ventricular rate between 20 and 250 per minute")
    output = Path(args.output)
    if output.suffix.lower() != ".png":
        raise UsageError(f"{output}: the ECG is drawn as a PNG: give a file name ending in .png")
    ecg = simulate(args.rhythm, args.rate, args.seed)
    try:
        draw(ecg, output, label=args.label)
    except OSError as exc:
        raise UsageError(f"{output}: cannot write it ({exc.strerror or exc})") from None
    print(f"wrote {output}")
    print(f"description: Synthetic 12-lead ECG, ventricular rate about {ecg.rate}/min: {ecg.description}.")
    return 0
