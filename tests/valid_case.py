"""The valid case the validation tests change one thing in: a broken fixture, mended."""

from __future__ import annotations

from pathlib import Path

BROKEN = Path(__file__).parent / "data" / "broken"

# The broken fixture with its one fault mended, and its critical condition naming an item
# (a bare phrase there is an info, and this case has no findings at all).
VALID = (BROKEN / "ref-unknown-answer.yaml").read_text(encoding="utf-8").replace("[fevr]", "[fever]")
VALID = VALID.replace("""  - item: Fluoroquinolone
    class: contraindicated
""", """  - item: Fluoroquinolone
    class: contraindicated
  - item: Safety-netting for fever or loin pain
    class: acceptable
    aliases: [return if fever, return if loin pain]
""").replace("items: [return if fever, loin pain]", "items: [Safety-netting for fever or loin pain]")
