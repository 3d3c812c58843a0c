"""Generate a realistic case bank for benchmarks and tests.

    python benchmarks/make_bank.py [--count 250] [--quick] [FOLDER]

writes FOLDER/medbench.yaml, FOLDER/cases/<id>.yaml (valid cases, about 150 lines each,
with comments, block scalars, variants linked by `parent_id`) and their attachment
files, and prints FOLDER (a new temporary folder when none is given).
"""

from __future__ import annotations

import argparse
import random
import struct
import tempfile
import zlib
from pathlib import Path

# (name, WHO ICD-10 2019 code, aliases, category, organ system, required workup, required treatment)
DIAGNOSES = [
    ("Pneumonia, unspecified", "J18.9", ["community-acquired pneumonia", "CAP"], "internal_medicine",
     "respiratory", "Chest X-ray", "Amoxicillin"),
    ("Acute cystitis", "N30.0", ["bladder infection", "UTI"], "internal_medicine", "renal",
     "Urine dipstick", "Nitrofurantoin"),
    ("Acute myocardial infarction, unspecified", "I21.9", ["heart attack", "MI"], "emergency_medicine",
     "cardiovascular", "12-lead ECG", "Aspirin"),
    ("Acute appendicitis, other and unspecified", "K35.8", ["appendicitis"], "surgery",
     "gastrointestinal", "Ultrasound of the abdomen", "Appendicectomy"),
    ("Type 2 diabetes mellitus without complications", "E11.9", ["type 2 diabetes", "T2DM"],
     "internal_medicine", "endocrine", "HbA1c", "Metformin"),
    ("Asthma, unspecified", "J45.9", ["asthma"], "pediatrics", "respiratory", "Peak flow",
     "Inhaled corticosteroid"),
    ("Gastritis, unspecified", "K29.7", ["gastritis"], "internal_medicine", "gastrointestinal",
     "Helicobacter pylori test", "Proton pump inhibitor"),
    ("Migraine, unspecified", "G43.9", ["migraine"], "internal_medicine", "nervous",
     "Neurological examination", "Triptan"),
    ("Moderate depressive episode", "F32.1", ["depression", "major depressive disorder"], "psychiatry",
     "mental", "PHQ-9", "Sertraline"),
    ("Cellulitis of other parts of limb", "L03.1", ["cellulitis"], "internal_medicine", "skin",
     "Mark the margins of the redness", "Flucloxacillin"),
]

OPENERS = [
    "Doctor, I don't feel right and I wanted to get it checked.",
    "Thanks for seeing me so quickly, I've been worried.",
    "My wife made me come in today, to be honest.",
    "I've been putting this off for a while now.",
    "Sorry, I know you're busy, but this has been bothering me.",
    "Hi, I booked the first appointment I could get.",
    "I was up most of the night with this, so here I am.",
    "I'm not one to come to the doctor, but this is different.",
]
COMPLAINTS = [
    "There's a pain that comes and goes and it's getting harder to ignore.",
    "I feel hot and cold and completely washed out.",
    "Something has been off with my stomach for days.",
    "I get short of breath just walking up the stairs at home.",
    "My leg has gone red and it feels tight and sore.",
    "My head has been pounding on and off all week.",
    "I keep running to the toilet and it stings.",
    "I've lost my appetite and I can't sleep properly.",
    "I have a cough that just won't shift.",
    "There's a pressure in my chest that scares me.",
    "I've been so thirsty lately and I'm tired all the time.",
    "I feel low and I can't be bothered with anything.",
]
DETAILS = [
    "It started on {day} and it's been worse since yesterday.",
    "The paracetamol I took on {day} didn't do much.",
    "I had to leave work early on {day} because of it.",
    "It woke me up on {day} night and again this morning.",
    "My neighbour said I looked pale when she saw me on {day}.",
    "I thought it would settle by {day} but it hasn't.",
    "I rang the helpline on {day} and they said to book in.",
]
CLOSERS = [
    "I just want to know what's going on.",
    "I'm worried it's something serious.",
    "Can you help me get back on my feet?",
    "I need to be fit for my daughter's wedding in {weeks} weeks.",
    "I can't afford more time off, honestly.",
    "Is there something you can give me for it?",
]
DAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]
TOPICS = [
    ("onset", "when it started and how it has changed", ["start", "began", "how long", "onset"],
     "It began {n} days ago, slowly at first, and it's been a bit worse every day."),
    ("severity", "how bad it is", ["how bad", "severity", "scale", "score"],
     "I'd say {n} out of ten at its worst; it stops me doing things."),
    ("fever", "fever, sweats or chills", ["fever", "temperature", "sweats", "chills"],
     "I've felt hot at night, I haven't measured it."),
    ("medications", "regular medicines", ["medication", "medicines", "tablets", "pills"],
     "Just vitamin D, and paracetamol when I need it."),
    ("allergies", "drug allergies", ["allergy", "allergic", "allergies", "reaction"],
     "Penicillin gave me a rash as a child, nothing else I know of."),
    ("smoking", "smoking history", ["smoke", "cigarettes", "tobacco"],
     "I stopped smoking {n} years ago; before that ten a day."),
    ("alcohol", "alcohol intake", ["alcohol", "drink", "units", "beer", "wine"],
     "A couple of glasses of wine at the weekend."),
    ("family", "family history", ["family", "mother", "father", "runs in the family"],
     "My father had high blood pressure; nothing else that I know of."),
    ("travel", "recent travel", ["travel", "abroad", "holiday", "trip"],
     "No, I haven't been anywhere for months."),
    ("weight", "weight change", ["weight", "lost weight", "gained weight"],
     "Maybe a kilo or two less, I haven't really checked."),
    ("sleep", "sleep", ["sleep", "sleeping", "insomnia", "night"],
     "Badly, I wake up around {n} o'clock and can't get back to sleep."),
    ("work", "occupation", ["work", "job", "occupation"],
     "I'm a bus driver, full time, mostly early shifts."),
    ("appetite", "appetite and eating", ["appetite", "eating", "food"],
     "I'm eating less than usual, just toast most days."),
    ("bowels", "bowel habit", ["bowels", "stool", "diarrhoea", "constipation"],
     "Normal, once a day, no blood that I've seen."),
    ("urine", "passing urine", ["urine", "wee", "water", "bladder"],
     "No change there, as far as I can tell."),
    ("breathing", "breathlessness", ["breath", "breathless", "short of breath"],
     "Only when I hurry; at rest I'm fine."),
    ("pain", "pain elsewhere", ["pain", "ache", "hurt", "sore"],
     "A dull ache now and then, nothing sharp."),
    ("mood", "mood", ["mood", "low", "depressed", "anxious"],
     "I'm fed up with it, but otherwise I'm myself."),
    ("past", "past medical history", ["past", "history", "operations", "illnesses"],
     "I had my tonsils out as a child; nothing since."),
    ("contacts", "sick contacts", ["contact", "anyone else", "family ill"],
     "Nobody at home has had anything like it."),
]


def _sentence(rng: random.Random, pool: list[str]) -> str:
    return rng.choice(pool).format(day=rng.choice(DAYS), weeks=rng.randint(2, 9))


def intro_for(index: int) -> str:
    rng = random.Random(f"intro-{index}")
    parts = [_sentence(rng, OPENERS), _sentence(rng, COMPLAINTS), _sentence(rng, DETAILS),
             _sentence(rng, COMPLAINTS), _sentence(rng, CLOSERS)]
    return " ".join(parts)


def _wrap(text: str, indent: str) -> str:
    words, lines, line = text.split(), [], ""
    for word in words:
        if line and len(line) + len(word) > 80:
            lines.append(line)
            line = ""
        line = f"{line} {word}".strip()
    lines.append(line)
    return "".join(f"{indent}{line}\n" for line in lines)


def case_text(index: int, *, answers: int = 15, parent: str | None = None) -> str:
    """One valid, realistic case (comments, flow and block lists, block scalars)."""
    rng = random.Random(index)
    name, code, aliases, category, organ, workup, treatment = DIAGNOSES[index % len(DIAGNOSES)]
    case_id = f"gen-{index:04d}"
    age = rng.randint(19, 88)
    sex = rng.choice(["female", "male"])
    topics = TOPICS[: min(answers, len(TOPICS))]
    out = [
        "# yaml-language-server: $schema=../../medbench_tui/schema/case.schema.json",
        f"# Generated case {index} for benchmarks: realistic shape, synthetic content.",
        "schema_version: 1",
        f"id: {case_id}                 # equals the file name",
        f"parent_id: {parent or 'null'}",
        f"title: {name} in a {age}-year-old",
        "status: review                 # draft | review | final",
        "authors: [Benchmark Generator]",
        "reviewers: []",
        "metadata:",
        f"  category: {category}",
        f"  specialties: [{organ}]",
        f"  organ_systems: [{organ}]",
        "  age_group: adult",
        f"  sex: {sex}",
        f"  complexity: {rng.choice(['basic', 'intermediate', 'advanced'])}",
        f"  urgency: {rng.choice(['routine', 'urgent'])}",
        "  language: en",
        "  setting: primary_care",
        "patient:",
        f"  age: {age}",
        f"  sex: {sex}",
        "  informant: self",
        "  behavior: [standard]",
        "  default_answer: negative",
        "intro: |",
        _wrap(intro_for(index), "  ").rstrip("\n"),
        "additional_answers:",
    ]
    for number in range(answers):
        fact_id, topic, keywords, answer = topics[number % len(topics)]
        if number >= len(topics):
            fact_id, topic = f"{fact_id}-{number}", f"{topic} (follow-up {number})"
        out += [
            f"  - id: {fact_id}",
            f"    topic: {topic}",
            f"    keywords: [{', '.join(keywords)}]",
            f"    answer: {answer.format(n=rng.randint(2, 9))}",
        ]
    out += [
        "control_questions:",
        "  - id: cq-onset",
        "    concept: onset and course",
        "    answered_by: [onset]",
        "    weight: 2",
        "  - id: cq-medications",
        "    concept: current medication",
        f"    answered_by: [{topics[min(3, len(topics) - 1)][0]}]",
        "attachments:",
        "  - id: obs",
        "    kind: lab_report",
        "    title: Observations at triage",
        "    content: |",
        f"      Temperature {36 + rng.random() * 2:.1f} C, pulse {rng.randint(60, 120)}/min,",
        f"      blood pressure {rng.randint(100, 160)}/{rng.randint(60, 95)} mmHg, SpO2 {rng.randint(92, 99)}%.",
        "    available: at_start",
        "  - id: photo",
        "    kind: image",
        "    title: Clinical photograph",
        f"    file: attachments/{case_id}/photo.png",
        "    description: A round, darker patch of skin about 2 cm across on a paler background.",
        "    available: on_request",
        "    request_keywords: [photo, picture, image]",
        "diagnosis:",
        "  primary:",
        f"    name: {name}",
        f"    icd10: {code}               # WHO ICD-10 2019",
        f"    aliases: [{', '.join(aliases)}]",
        "  secondary: []",
        "differential:",
    ]
    for other in rng.sample([d for d in DIAGNOSES if d[0] != name], 3):
        out += [f"  - name: {other[0]}", f"    icd10: {other[1]}", f"    aliases: [{other[2][0]}]"]
    out += [
        "workup:",
        f"  - item: {workup}",
        "    class: required",
        f"    weight: {rng.randint(1, 3)}",
        "  - item: Full blood count",
        "    class: acceptable",
        "    aliases: [FBC, CBC, complete blood count]",
        "  - item: Whole-body CT",
        "    class: unexpected",
        "    penalty: 1",
        "treatment:",
        f"  - item: {treatment}",
        "    class: required",
        "    weight: 2",
        "  - item: Safety-netting advice",
        "    class: acceptable",
        "    aliases: [return precautions, seek urgent care]",
        "critical_conditions:",
        "  - id: cc-return",
        "    description: Must tell the patient when to seek urgent help.",
        "    kind: must_include",
        "    items: [Safety-netting advice]",
        f"    applies_if: [{treatment}]",
        f"num_steps: {rng.randint(6, 14)}",
        "max_turns: 30",
        "notes: |",
        "  Generated for benchmarks; not a clinical case.",
        "extensions: {}",
    ]
    return "\n".join(out) + "\n"


IMAGE_SIDE = 64  # pixels: validation rejects pictures too small to show a finding


def _png() -> bytes:
    """A grey 64x64 photograph-like picture: a soft gradient with a darker round patch."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    centre, radius = IMAGE_SIDE / 2, IMAGE_SIDE / 5
    rows = []
    for y in range(IMAGE_SIDE):
        shades = (
            60 if (x - centre) ** 2 + (y - centre) ** 2 < radius**2 else 140 + (x + y) % 64
            for x in range(IMAGE_SIDE)
        )
        rows.append(b"\x00" + bytes(shades))
    header = struct.pack(">IIBBBBB", IMAGE_SIDE, IMAGE_SIDE, 8, 0, 0, 0, 0)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(b"".join(rows)))
            + chunk(b"IEND", b""))


def make_bank(folder: Path, count: int = 250) -> Path:
    """Write a bank of ``count`` cases (every tenth a variant of the one before) into ``folder``."""
    folder = Path(folder)
    cases = folder / "cases"
    cases.mkdir(parents=True, exist_ok=True)
    (folder / "medbench.yaml").write_text("# A generated bank for benchmarks.\n", encoding="utf-8")
    for index in range(count):
        parent = f"gen-{index - 1:04d}" if index % 10 == 9 else None
        case_id = f"gen-{index:04d}"
        (cases / f"{case_id}.yaml").write_text(case_text(index, parent=parent), encoding="utf-8")
        attachments = folder / "attachments" / case_id
        attachments.mkdir(parents=True, exist_ok=True)
        (attachments / "photo.png").write_bytes(_png())
    return folder


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folder", nargs="?", type=Path, help="where to write the bank (default: a new temp folder)")
    parser.add_argument("--count", type=int, default=250)
    parser.add_argument("--quick", action="store_true", help="3 cases (that nothing rotted)")
    args = parser.parse_args(argv)
    folder = args.folder or Path(tempfile.mkdtemp(prefix="medbench-bank-"))
    print(make_bank(folder, 3 if args.quick else args.count))


if __name__ == "__main__":
    main()
