"""The clinical words of the simulated patient's observation, examination and time patterns are vocabulary
lists (questions.yaml), read into the patterns at import in the lists' order; a broken entry is reported at its
line."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from medbench_tui.core.simulators import intent, planner
from medbench_tui.core.simulators.lexicon import phrase_alternation
from medbench_tui.core.vocabulary import check_files, read_vocabulary
from tests.test_vocabulary_vdata2 import NEW_LISTS as VDATA2_LISTS

NEW_LISTS = ("patient_findings_asks", "patient_more_observations", "patient_examined_parts",
             "patient_observation_asks", "patient_measured_only", "patient_points_in_time", "patient_weekdays")


@pytest.mark.parametrize("name", NEW_LISTS + VDATA2_LISTS)
def test_each_new_list_loads_as_text_and_becomes_an_alternation(name):
    phrases = read_vocabulary().phrases(name)
    assert phrases and all(isinstance(p, str) and p == p.strip().lower() for p in phrases)
    pattern = re.compile(rf"^(?:{phrase_alternation(name)})$", re.IGNORECASE)
    assert all(pattern.match(p) for p in phrases), "each phrase is matched as written, never as a pattern"


def test_the_alternation_keeps_the_lists_order():
    """'vital' comes before 'vital signs': the first that fits at a place is taken, as the pattern always did."""
    more = read_vocabulary().phrases("patient_more_observations")
    assert more.index("vital") < more.index("vital signs")
    assert intent._MORE_OBSERVATIONS.sub("#", "any vital signs?") == "any # signs?"


@pytest.mark.parametrize(("pattern", "text", "found"), [
    (intent._BODY_PART, "can I have a look at the calves", True),
    (intent._BODY_PART, "how are his joints feeling", True),
    (intent._BODY_PART, "any heart trouble in the family", False),  # no "your/his/her/the" before it
    (intent._OBSERVATION_PHRASES, "what's his capillary refill now?", True),
    (intent._OBSERVATION_PHRASES, "what are her oxygen saturations", True),
    (intent._OBSERVATION_PHRASES, "any tempting offers", False),  # a word that starts like one is not one
    (intent._MEASURED, "what was the respiratory rate again?", True),
    (intent._MEASURED, "did you take your temperature?", False),  # a temperature a patient may take
    (intent._FINDINGS_ASKED, "what did the triage nurse record as her visual acuity?", True),
    (intent._FINDINGS_ASKED, "does it hurt when you cough?", False),
    (planner._POINT_IN_TIME, "it started on Thursday after lunch", True),
    (planner._POINT_IN_TIME, "I fell at 7.30pm", True),
    (planner._POINT_IN_TIME, "it has been going on for about three weeks", False),
    (planner._SINCE, "the rash has been there since Sunday", True),
    (planner._SINCE, "since then it has been worse", False),
])
def test_the_patterns_read_their_words_from_the_lists(pattern, text, found):
    assert bool(pattern.search(text)) is found


@pytest.mark.parametrize(("text", "line", "message"), [
    ("phrases:\n  patient_weekdays: [monday, 7]\n", 2, "`phrases.patient_weekdays.1` must be text."),
    ("phrases:\n  patient_examined_parts:\n    - knee\n    - {a: b}\n", 4,
     "`phrases.patient_examined_parts.1` must be text."),
    ("phrases:\n  patient_points_in_time: fortnight ago\n", 2, "`phrases.patient_points_in_time` must be a list."),
    ("phrases:\n  patient_dose_units: [mg, 5]\n", 2, "`phrases.patient_dose_units.1` must be text."),
    ("phrases:\n  patient_examine_felt_parts:\n    - wrist\n    - {a: b}\n", 4,
     "`phrases.patient_examine_felt_parts.1` must be text."),
    ("phrases:\n  patient_history_headings: fhx\n", 2, "`phrases.patient_history_headings` must be a list."),
])
def test_a_broken_entry_of_a_new_list_is_reported_at_its_line(tmp_path: Path, text, line, message):
    path = tmp_path / "vocabulary.yaml"
    path.write_text(text, encoding="utf-8")
    problems = [(p.diagnostic.line, p.diagnostic.code, p.diagnostic.message) for p in check_files([path])
                if p.file == path]
    assert problems == [(line, "schema.type", message)]
