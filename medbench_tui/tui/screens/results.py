"""Results mode: stored runs and their statistics (coming in a later release)."""

from medbench_tui.tui.screens.coming_soon import ComingSoonScreen


class ResultsScreen(ComingSoonScreen):
    MODE = "results"
    MODE_TITLE = "Results"
    PROMISE = (
        "Browse the stored runs of every system over the bank: scores per metric, category and "
        "case, paired comparisons with confidence intervals, and the consultations behind each "
        "number, with export to Markdown, CSV and JSON."
    )
    MEANWHILE = "Until then: medbench report [RUN_GROUP] --format md."
