"""The terminal application: one client of the core (which never imports Textual)."""
