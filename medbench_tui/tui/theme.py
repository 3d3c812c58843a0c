"""The house theme: a calm clinical palette (slate and teal, soft signal colours)."""

from __future__ import annotations

from textual.theme import Theme

MEDBENCH_THEME = Theme(
    name="medbench",
    primary="#4FB3BF",
    secondary="#7FA7C9",
    accent="#9AD1C1",
    warning="#E0B354",
    error="#E8747C",
    success="#7FC8A9",
    foreground="#D8E2E8",
    background="#0F171D",
    surface="#15212A",
    panel="#1C2B36",
    dark=True,
    variables={
        "footer-key-foreground": "#4FB3BF",
        "block-cursor-text-style": "none",
        "input-selection-background": "#4FB3BF 35%",
    },
)
