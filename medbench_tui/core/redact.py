"""Credentials never leave the process: every string the project stores, prints or exports
passes :func:`redact`.

Secrets are known by value, not by name: the values of the key variables that a
configuration names (``api_key_env``, whatever the variable is called), every key a
client was built with, the values of credential headers (``Authorization``, ``api-key``),
and the values of environment variables whose names look like credentials. A gateway
that echoes the key in an error thus cannot put it in the run store, a report, an export
or stderr. Standard library only: the CLI's error path uses it.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping

REDACTED = "[redacted]"
# Shorter values (`unused`, `1`, `true`) are not keys and would garble ordinary text.
MIN_SECRET_LENGTH = 8
_SECRET_NAME = re.compile(r"(API_?KEY|_KEY$|TOKEN|SECRET|PASSWORD|PASSWD|CREDENTIAL)", re.IGNORECASE)
CREDENTIAL_HEADER = re.compile(r"^(authorization|proxy-authorization|x?-?api-?key|x-auth-token)$", re.IGNORECASE)
# `Authorization: Bearer abc`, `"api-key": "abc"`, `api_key=abc` written out in an echoed text.
_CREDENTIAL_TEXT = re.compile(
    r"""(?ix)\b((?:proxy-)?authorization|x?-?api[-_]?key|x-auth-token)(?![-_a-z])   # the name
    (["']?\s*[:=]\s*["']?)                                                          # : or =, quotes
    (?:(bearer|basic|token)\s+)?                                                     # the scheme
    ([^\s"',;}\]]{4,})""",
)
_CREDENTIAL_HINT = re.compile(r"(?i)a(?:uthorization|pi[-_]?key|uth-token)")
"""What every credential written out contains: a text without it skips the slower search
(the run store redacts every transcript it writes)."""

_variables: set[str] = set()
_values: set[str] = set()


def remember_variable(name: str | None) -> None:
    """A configured key variable: its value (now or later) is a secret."""
    if name:
        _variables.add(name)


def remember_value(value: str | None) -> None:
    """A key or credential in hand (a client's key, a header's value)."""
    if value and len(value) >= MIN_SECRET_LENGTH:
        _values.add(value)
        scheme, _, token = value.partition(" ")
        if token and scheme.casefold() in ("bearer", "basic", "token"):
            remember_value(token)


def remember_headers(headers: Mapping[str, str] | None) -> None:
    """The values of the credential headers among ``headers``."""
    for name, value in (headers or {}).items():
        if CREDENTIAL_HEADER.match(name.strip()):
            remember_value(value)


def secret_values(environ: Mapping[str, str] | None = None) -> set[str]:
    """Every value known to be secret now."""
    environ = os.environ if environ is None else environ
    found = {value for name, value in environ.items() if _SECRET_NAME.search(name)}
    found |= {environ[name] for name in _variables if name in environ}
    found |= _values
    return {value for value in found if len(value) >= MIN_SECRET_LENGTH}


def redact(text: str, secrets: set[str] | None = None) -> str:
    """``text`` with every secret value, and every credential written as ``name: value``,
    replaced by ``[redacted]``."""
    for secret in sorted(secret_values() if secrets is None else secrets, key=len, reverse=True):
        if secret in text:
            text = text.replace(secret, REDACTED)
    return _CREDENTIAL_TEXT.sub(_mask, text) if _CREDENTIAL_HINT.search(text) else text


def _mask(match: re.Match[str]) -> str:
    if match.group(4).startswith(REDACTED[:-1]):  # already redacted by value
        return match.group(0)
    scheme = f"{match.group(3)} " if match.group(3) else ""
    return f"{match.group(1)}{match.group(2)}{scheme}{REDACTED}"
