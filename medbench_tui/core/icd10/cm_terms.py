"""ICD-10-CM titles and inclusion terms as more ways in to WHO codes.

CM words diagnoses the way clinicians do ("Gaucher disease", "Takotsubo syndrome",
"Plummer-Vinson syndrome") where WHO 2019 files them under a broader title ("Other
sphingolipidosis"). Each CM title and inclusion term becomes an entry term of the WHO
code its CM code rolls up to: the nearest WHO 2019 ancestor (the code itself, its first
four characters, its category), never across a change of meaning: when a row of
cm_rollup_changes.yaml covers the code, its terms go to the row's `instead` codes, or
nowhere.

The CM tabular comes from the installed simple-icd-10-cm package, pinned with its
sha256 in icd10/manifest.json. WHO titles stay what is shown; CM words only find them.
"""

from __future__ import annotations

from collections.abc import Iterator

from medbench_tui.core import paths
from medbench_tui.core.icd10.data import (
    MANIFEST_FILE,
    Tables,
    cm_change,
    instead_codes,
    pinned_data,
)


def entry_terms(t: Tables) -> Iterator[tuple[str, str]]:
    """(WHO code, CM title or inclusion term), in CM order, each pair once."""
    manifest_path = paths.icd10_data_dir() / MANIFEST_FILE
    import xml.etree.ElementTree as ET  # only when the index is built

    root = ET.fromstring(pinned_data("cm_terms", manifest_path))
    seen: set[tuple[str, str]] = set()
    for diag in root.iter("diag"):
        homes = who_codes(diag.findtext("name") or "", t)
        texts = [diag.findtext("desc") or ""]
        texts += [note.text or "" for note in diag.iterfind("inclusionTerm/note")]
        texts += [note.text or "" for note in diag.iterfind("includes/note")]
        for who in homes:
            for text in filter(None, (text.strip() for text in texts)):
                if (who, text) not in seen:
                    seen.add((who, text))
                    yield who, text


def who_codes(cm: str, t: Tables) -> list[str]:
    """The WHO codes a CM code's terms belong to (empty: none, the meaning changes)."""
    change = cm_change(cm, t)
    if change is not None:
        return [code for code in instead_codes(change, cm, t) if t.is_code(code)]
    for length in (len(cm), 5, 3):
        home = cm[:length]
        if t.is_code(home):
            return [home]
    return []

