"""medbench_tui: clinical consultation benchmarks in the terminal."""

__version__ = "0.1.0"
