"""A worded default names only a thing asked of: a clause after the question's lead ("how old were you then?") is no
thing, and gets a plain default, never "I couldn't say about old were you then." (found playing em-syncope-001)."""

from __future__ import annotations

import pytest

from medbench_tui.core.simulators.voice import what_is_asked


@pytest.mark.parametrize("question", ["how old were you then?", "how long were you out?", "how far did you get?",
                                      "and how often does she go?"])
def test_a_clause_names_no_thing(question: str) -> None:
    assert what_is_asked(question) == ""


@pytest.mark.parametrize(("question", "named"), [
    ("any night sweats?", "night sweats"),
    ("do you use a spacer with your inhaler?", "spacer"),
    ("and the pneumonia vaccine?", "pneumonia vaccine"),
    ("any contact sports?", "contact sports"),
])
def test_a_thing_asked_of_is_still_named(question: str, named: str) -> None:
    assert what_is_asked(question) == named
