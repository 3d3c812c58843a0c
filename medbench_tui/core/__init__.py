"""The core: cases, ICD-10, simulator, systems, scoring, runs and reports.

Nothing under this package imports Textual (a test enforces it), so the CLI and any
other tool can use it without the TUI.
"""
