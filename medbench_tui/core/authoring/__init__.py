"""Authoring: what a case author works with beyond the case file itself: the library of a
bank's cases, with their validity, filters and sort."""
