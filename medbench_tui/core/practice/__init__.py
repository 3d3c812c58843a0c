"""Practice: a person plays the doctor. How a case is shown before the consultation, and the
played session from the first question to the scorecard."""
