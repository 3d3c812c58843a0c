"""Compare mode: consultations of two systems side by side (coming in a later release)."""

from medbench_tui.tui.screens.coming_soon import ComingSoonScreen


class CompareScreen(ComingSoonScreen):
    MODE = "compare"
    MODE_TITLE = "Compare"
    PROMISE = (
        "Put two runs of the same case next to each other: the two consultations turn by turn, "
        "the facts each one elicited, and where their scorecards differ (diagnosis, workup, "
        "treatment, safety checks), with the evidence for each difference."
    )
    MEANWHILE = "Until then: medbench run --system A --system B, then medbench report."
