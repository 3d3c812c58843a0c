"""Plain data as JSON and YAML carry it: a run's stored documents (transcript, scorecard, requests),
configurations, reports' JSON, a case file before it is validated. The one place the project names it.

``JSONValue`` is ``Any``, not the recursive union of str, int, float, bool, None, lists and objects:
readers index into documents whose shape they know (``scorecard["metrics"]["recall"]``), and a union
would need a check at every step. The name says what the value is; a value whose model exists is
typed with the model instead."""

from __future__ import annotations

from typing import Any, TypeAlias

JSONValue: TypeAlias = Any
"""A value decoded from JSON or YAML, or made to be encoded as JSON."""

JSONObject: TypeAlias = dict[str, JSONValue]
"""A JSON object: a document, a record of one, a configuration."""
