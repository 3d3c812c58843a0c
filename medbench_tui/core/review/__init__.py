"""Physicians check the evaluator: adjudication records and agreement statistics."""
