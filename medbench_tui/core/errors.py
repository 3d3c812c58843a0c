"""Errors a user can act on: each message says what to change."""


class MedbenchError(Exception):
    """A problem found in the user's input or environment (exit code 1)."""

    exit_code = 1


class UsageError(MedbenchError):
    """The command was called wrongly: a missing file, a bad option value (exit code 2)."""

    exit_code = 2
