"""Compare: systems played over chosen cases and read side by side. Planning a comparison,
playing it in a process of its own, and what the compare and results views show of it."""
