"""Bad input and endpoint faults thrown at the CLI and the runner, against their targets.

    python benchmarks/fuzz_faults.py [--inputs 10000] [--faults 1000] [--seed 7] [--quick]

Part 1, bad input (``--inputs``): generated from the bundled cases and a recorded transcript,
each mutated one way (a line dropped, doubled or re-indented, the text cut anywhere, control
characters, bytes that are not UTF-8, a lone surrogate escape, deep nesting, a huge value, a
YAML tag or an alias bomb, a key YAML reads as a value, a path trick), given to ``validate``,
``score``, ``vocabulary check``, ``prices check``, ``adjudication import`` and ``icd`` in
this process, with odd command lines too. Part 2, endpoint faults (``--faults``): ``run``
against a real HTTP server on 127.0.0.1 that fails at random (429, 500, 503, 400, 401, a
body that is not JSON, a dropped connection, a reply that never comes, a gateway that echoes
the credential headers), with a planted secret as the key, then ``run --resume`` until every
run is complete, and every export of the group.

Printed against targets of 0: internal errors (an exception out of the command, or
"internal error" / a traceback in its output), secrets in any output, export or the run
store's file, and runs lost (planned runs neither complete nor recorded as incomplete).
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import random
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT)]

SECRET = "sk-fuzz-PLANTED-5e3c9a1f7b2d"
TRANSCRIPT = """case_id: {case_id}
system: fuzz
turns:
  - role: doctor
    text: "When did it start?"
final:
  text: |
    Diagnosis: {diagnosis}
    Plan: admit, IV fluids, review in the morning.
"""


class Tally:
    def __init__(self, keep: Path | None = None) -> None:
        self.calls = 0
        self.internal: list[str] = []
        self.secrets: list[str] = []
        self.keep = keep
        """Where the inputs of internal errors are copied, to replay them."""

    def _kept(self, argv: list[str]) -> str:
        if self.keep is None:
            return ""
        self.keep.mkdir(parents=True, exist_ok=True)
        saved = []
        for word in argv:
            path = Path(word)
            if path.is_file():
                copy = self.keep / f"{len(self.internal)}-{path.name}"
                copy.write_bytes(path.read_bytes())
                saved.append(str(copy))
        return f" (kept: {', '.join(saved)})" if saved else ""

    def call(self, argv: list[str], what: str) -> tuple[int, str]:
        """Run the CLI in this process; an escaping exception or a traceback is an internal error.
        Returns the exit status and what the command wrote to standard output."""
        from medbench_tui.cli import main

        self.calls += 1
        out, err = io.StringIO(), io.StringIO()
        try:
            with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
                code = main(argv)
        except SystemExit as exc:  # argparse's usage errors
            code = exc.code if isinstance(exc.code, int) else 2
        except BaseException as exc:  # noqa: BLE001 - what the benchmark looks for
            self.internal.append(f"{what}: {type(exc).__name__}: {exc}"[:300] + self._kept(argv))
            return 99, ""
        text = out.getvalue() + err.getvalue()
        if "internal error" in text or "Traceback (most recent call last)" in text:
            self.internal.append(f"{what}: {text.strip().splitlines()[-1][:300]}" + self._kept(argv))
        if SECRET in text:
            self.secrets.append(f"{what}: the key in the output")
        return int(code or 0), out.getvalue()


# --- part 1: bad input -----------------------------------------------------------------------

def _mutations(rng: random.Random) -> list[Callable[[str], bytes]]:
    def lines_op(text: str, op: str) -> str:
        lines = text.splitlines(keepends=True)
        if not lines:
            return text
        k = rng.randrange(len(lines))
        if op == "drop":
            del lines[k]
        elif op == "double":
            lines.insert(k, lines[k])
        elif op == "indent":
            lines[k] = " " * rng.choice((1, 3, 5)) + lines[k]
        elif op == "dedent":
            lines[k] = lines[k].lstrip()
        return "".join(lines)

    def insert(text: str, what: str) -> str:
        at = rng.randrange(len(text) + 1)
        return text[:at] + what + text[at:]

    def value(text: str, new: str) -> str:
        lines = text.splitlines(keepends=True)
        keyed = [i for i, line in enumerate(lines) if ": " in line and not line.lstrip().startswith("#")]
        if not keyed:
            return text
        k = rng.choice(keyed)
        head = lines[k].split(": ", 1)[0]
        lines[k] = f"{head}: {new}\n"
        return "".join(lines)

    controls = ["\x00", "\x1b]52;c;ZXZpbA==\x07", "\x1b[2J", "\u202e", "\x7f", "\ufeff", "\r"]
    return [
        lambda t: lines_op(t, "drop").encode(),
        lambda t: lines_op(t, "double").encode(),
        lambda t: lines_op(t, "indent").encode(),
        lambda t: lines_op(t, "dedent").encode(),
        lambda t: t[: rng.randrange(len(t) + 1)].encode(),
        lambda t: insert(t, rng.choice(controls)).encode(),
        lambda t: insert(t, '"\\ud800"').encode(),
        lambda t: t.encode()[: rng.randrange(1, 400)] + bytes([rng.choice((0xff, 0xc3, 0x80, 0xfe))])
        + t.encode()[400:],
        lambda t: value(t, "[" * rng.choice((50, 500, 5000)) + "]" * 3).encode(),
        lambda t: value(t, "x" * rng.choice((10_000, 300_000))).encode(),
        lambda t: value(t, rng.choice(("!!python/object/apply:os.system ['echo pwned']", "!!binary AAAA",
                                       "*undefined_alias", "&a [*a]", ".nan", "~", "true", "0x1F", "1e999",
                                       "2001-02-30", "{", "'", "[1, 2", "? [a]: b"))).encode(),
        lambda t: insert(t, rng.choice(("\ntrue: 1\n", "\n~: x\n", "\n.nan: 1\n.nan: 2\n", "\n1: one\n",
                                        "\n<<: *missing\n"))).encode(),
        lambda t: value(t, rng.choice(("../../../../etc/passwd", "/etc/shadow", "~/.ssh/id_rsa",
                                       "attachments/../../../secret", "C:\\Windows\\win.ini"))).encode(),
        lambda t: ("a: &a [" + ",".join(["*a"] * 3) + "]\n" if rng.random() < 0.5 else
                   "l0: &l0 [x,x,x,x,x,x,x,x,x]\n" + "".join(
                       f"l{i}: &l{i} [" + ",".join([f"*l{i - 1}"] * 9) + "]\n" for i in range(1, 9))).encode(),
    ]


def bad_inputs(count: int, rng: random.Random, work: Path, tally: Tally) -> None:
    import yaml

    from medbench_tui.core.cases.model import Case

    cases = sorted(p for p in (ROOT / "cases").glob("*-[0-9][0-9][0-9].yaml") if not p.name.startswith("err-"))
    texts = []
    for path in cases:
        text = path.read_text(encoding="utf-8")
        texts.append(text.split("\nchecks:")[0] + "\n")  # the checks are played apart (slow, and not input)
    case = Case.model_validate(yaml.safe_load(cases[0].read_text(encoding="utf-8")), by_alias=True)
    transcript = TRANSCRIPT.format(case_id=case.id, diagnosis=case.diagnosis.primary.name)
    vocabulary = (ROOT / "medbench_tui" / "vocabulary" / "drugs.yaml").read_text(encoding="utf-8")[:3000]
    prices = (ROOT / "medbench_tui" / "prices" / "default.yaml").read_text(encoding="utf-8")[:3000]
    mutations = _mutations(rng)
    (work / "bank").mkdir()
    (work / "bank" / "cases").mkdir()
    case_path = work / "bank" / "cases" / cases[0].name
    case_path.write_text(cases[0].read_text(encoding="utf-8").split("\nchecks:")[0] + "\n", encoding="utf-8")
    store = work / "runs.sqlite"
    for n in range(count):
        kind = rng.choices(("case", "transcript", "vocabulary", "prices", "jsonl", "argv", "icd"),
                           weights=(40, 20, 8, 6, 10, 10, 6))[0]
        target = work / f"input-{n % 50}"
        if kind == "case":
            target = target.with_suffix(".yaml")
            target.write_bytes(rng.choice(mutations)(rng.choice(texts)))
            tally.call(["validate", str(target)], f"validate #{n}")
        elif kind == "transcript":
            target = target.with_suffix(rng.choice((".yaml", ".json")))
            source = transcript if target.suffix == ".yaml" else json.dumps({"case_id": case.id, "turns": [],
                                                                           "final": {"text": "Diagnosis: x"}})
            target.write_bytes(rng.choice(mutations)(source))
            tally.call(["score", str(case_path), str(target)], f"score #{n}")
        elif kind == "vocabulary":
            target = target.with_suffix(".yaml")
            target.write_bytes(rng.choice(mutations)(vocabulary))
            tally.call(["vocabulary", "check", str(target)], f"vocabulary check #{n}")
        elif kind == "prices":
            target = target.with_suffix(".yaml")
            target.write_bytes(rng.choice(mutations)(prices))
            tally.call(["prices", "check", str(target)], f"prices check #{n}")
        elif kind == "jsonl":
            target = target.with_suffix(".jsonl")
            record = {"run_id": rng.choice((1, -1, 2 ** 70, "1", None)), "section": "treatment",
                      "reference": rng.choice(("x", "", "\ud800".encode("utf-8", "surrogatepass").decode("latin-1"))),
                      "label": rng.choice(("found", "OK", "nope", 3))}
            line = json.dumps(record)
            body = rng.choice((line, line[: rng.randrange(len(line))], "[" * 100_000, '{"a": "\\ud800"}',
                               "\x00\x01", line + "\n" + line))
            target.write_text(body + "\n", encoding="utf-8", errors="surrogatepass")
            tally.call(["adjudication", "--store", str(store), "import", str(target)], f"adjudication import #{n}")
        elif kind == "icd":
            query = rng.choice(("J18.9", "J 18 point 1", "", "X" * 5000, "\x1b[2J", "%%%", "A00-B99", "ü" * 300))
            tally.call(["icd", rng.choice(("lookup", "search")), query], f"icd #{n}")
        else:
            words = ["validate", "score", "report", "agreement", "icd", "vocabulary", "prices", "schema", "freeze",
                     "--format", "json", "md", "csv", "--store", str(work / "nowhere" / "x.sqlite"), "--bank",
                     str(work / "missing"), "--group", "999999", "-", "--", "\x00", "--nope", str(case_path),
                     "ü", "--seed", "-1", "--repeats", "0"]
            argv = [rng.choice(words) for _ in range(rng.randrange(1, 6))]
            if argv[0] not in ("validate", "score", "report", "agreement", "icd", "vocabulary", "prices", "schema",
                               "freeze"):
                argv.insert(0, "validate")  # never the TUI, serve or play: they wait for a person
            if argv[0] == "freeze":
                argv += ["--bank", str(work / "missing")]  # never pins the bundled bank
            tally.call(argv, f"argv #{n}: {argv}")


# --- part 2: endpoint faults -------------------------------------------------------------------

def endpoint_faults(count: int, seed: int, work: Path, tally: Tally) -> tuple[int, int, int]:
    """Runs against a failing server until ``count`` faults were served: (runs planned, runs
    recorded, faults served)."""
    from medbench_tui.core.runs.store import RunStore
    from tests.support.fake_openai import FakeOpenAI, Fault, Reply

    os.environ["OPENAI_API_KEY"] = SECRET
    kinds = ("429", "500", "503", "400", "401", "malformed", "drop", "timeout", "insufficient_quota")
    server = FakeOpenAI(default_reply="FINAL RESPONSE\nDiagnosis: pneumonia\nPlan: amoxicillin.",
                        fault_rate=0.5, fault_kinds=kinds, seed=seed, hang_seconds=1.5)
    served = [0]
    answer = server._next

    def counting(body: dict) -> Reply | Fault:
        reply = answer(body)
        served[0] += isinstance(reply, Fault)
        return reply

    server._next = counting  # type: ignore[method-assign]
    server.start()
    planned = recorded = 0
    try:
        bank = work / "faults"
        (bank / "cases").mkdir(parents=True)
        chosen = [p for p in sorted((ROOT / "cases").glob("*-[0-9][0-9][0-9].yaml")) if not p.name.startswith("err-")]
        for path in chosen[:6]:
            (bank / "cases" / path.name).write_text(path.read_text(encoding="utf-8"), encoding="utf-8")
            attachments = ROOT / "cases" / "attachments" / path.stem
            if attachments.is_dir():
                import shutil

                shutil.copytree(attachments, bank / "attachments" / path.stem)
        (bank / "medbench.yaml").write_text(
            "systems:\n  flaky:\n    kind: openai-chat\n"
            f"    base_url: {server.base_url}\n    model: fake\n    api_key_env: OPENAI_API_KEY\n"
            "    timeout: 1\n    max_retries: 1\n"
            f"    headers: {{Ocp-Apim-Subscription-Key: {SECRET}, Cookie: session={SECRET}}}\n",
            encoding="utf-8")
        store = work / "faults.sqlite"
        batch = 0
        while served[0] < count and batch < 400:
            batch += 1
            server.echo_credentials = "error" if batch % 4 == 0 else None
            code, text = tally.call(["run", "--system", "flaky", "--cases", str(bank / "cases"), "--store",
                                     str(store), "--format", "json"], f"run batch {batch}")
            if code == 99:
                continue
            try:
                group = json.loads(text)["group_id"]
            except (ValueError, KeyError):
                continue
            planned += min(6, len(chosen))
            for _ in range(5):  # resume until complete (the server still fails half the time)
                tally.call(["run", "--resume", group, "--store", str(store)], f"resume {group}")
            for fmt in ("text", "md", "json", "csv"):
                tally.call(["report", group, "--store", str(store), "--format", fmt], f"report {fmt}")
            with RunStore(store) as runs:
                recorded += len({(r.case_id, r.system, r.repeat) for r in runs.runs(group)})
        if store.exists() and SECRET.encode() in store.read_bytes():
            tally.secrets.append("the key in the run store's file")
        return planned, recorded, served[0]
    finally:
        server.close()


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--inputs", type=int, default=10_000)
    parser.add_argument("--faults", type=int, default=1_000)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--quick", action="store_true", help="300 inputs and 50 faults: that nothing rotted")
    parser.add_argument("--keep", type=Path, help="copy the inputs of internal errors into this folder")
    args = parser.parse_args(argv)
    if args.quick:
        args.inputs, args.faults = min(args.inputs, 300), min(args.faults, 50)
    rng = random.Random(args.seed)
    tally = Tally(args.keep)
    started = time.perf_counter()
    with tempfile.TemporaryDirectory() as folder:
        work = Path(folder)
        os.environ.setdefault("XDG_STATE_HOME", str(work / "state"))
        os.environ.setdefault("XDG_CONFIG_HOME", str(work / "config"))
        bad_inputs(args.inputs, rng, work, tally)
        inputs_done = tally.calls
        planned, recorded, served = endpoint_faults(args.faults, args.seed, work, tally)
    lost = max(0, planned - recorded)
    print(f"bad inputs: {inputs_done} commands; endpoint faults served: {served} over {tally.calls - inputs_done} "
          f"commands; {time.perf_counter() - started:.0f} s")
    for name, value in (("internal errors", len(tally.internal)), ("secrets in any output", len(tally.secrets)),
                        ("runs lost", lost)):
        print(f"  {'ok  ' if value == 0 else 'MISS'} {name:<24} {value} (target 0)")
    for line in (tally.internal + tally.secrets)[:20]:
        print("   ", line)


if __name__ == "__main__":
    main()
