"""Credentials never leave the process: every string the project stores, prints or exports
passes :func:`redact` (texts) or :func:`redact_data` (documents, before they are written
as JSON or YAML).

One definition of a secret, shared with the configuration's masked dump
(``EndpointConfig.public``):

- every header a configuration sends is a credential unless its name is on the short
  list of known non-secrets (:data:`NON_SECRET_HEADERS`): ``Ocp-Apim-Subscription-Key``,
  ``Cookie`` or a gateway's own header are secrets without anyone listing them;
- the values of the key variables a configuration names (``api_key_env``, whatever the
  variable is called) and every key a client was built with;
- the values of environment variables whose names look like credentials.

Secrets are known by value. A configured value is redacted whatever its length, as a whole
token, so that a short key (``k3y``) is replaced where it stands alone and never inside a
longer word; values of 8 characters or more are also replaced inside other text (a key
glued into a URL). A credential written out as ``name: value`` or ``name=value`` under a
credential-looking or configured header name is masked too, so a gateway that echoes a
header cannot put it in the run store, a report, an export or stderr. Standard library
only: the CLI's error path uses it.
"""

from __future__ import annotations

import functools
import os
import re
from collections.abc import Iterable, Mapping

from medbench_tui.core.jsondata import JSONValue

REDACTED = "[redacted]"
SUBSTRING_LENGTH = 8
"""Secrets this long are replaced wherever they occur; shorter ones only as whole tokens."""
MIN_SECRET_LENGTH = SUBSTRING_LENGTH
"""Environment variables found by their name only (``*_TOKEN``, ``*SECRET*``) count from this
length: ``TOKENIZERS_PARALLELISM=false`` holds no secret, and ``false`` is ordinary text."""
NON_SECRET_HEADERS = frozenset({
    "accept", "accept-encoding", "accept-language", "cache-control", "content-type", "user-agent",
    "referer", "http-referer", "x-title", "x-request-id", "openai-beta", "anthropic-version",
})
"""Headers known to carry no credential; every other header a configuration sends is a secret."""
_SECRET_NAME = re.compile(r"(API_?KEY|_KEY$|TOKEN|SECRET|PASSWORD|PASSWD|CREDENTIAL)", re.IGNORECASE)
_CREDENTIAL_NAMES = (r"(?:[a-z0-9]+[-_])*(?:api[-_]?key|subscription[-_]?key|auth[-_]?token|access[-_]?token|"
                     r"secret|password|passwd|session[-_]?id)|(?:proxy-)?authorization|(?:set-)?cookie")
"""Header names that carry a credential when written out in a text, configured or not."""
_HINT_WORDS = r"a(?:uthorization|pi[-_]?key|uth[-_]?token|ccess[-_]?token)|cookie|secret|passw|subscription|session"
_CREDENTIAL_HINT = re.compile(_HINT_WORDS, re.IGNORECASE)
"""What every credential-looking name contains: a text without it (and without a configured
header name) skips the slower search (the run store redacts every transcript it writes)."""
_TOKEN_CHAR = "A-Za-z0-9_"
"""A short secret counts where it stands alone: not inside a word or a name ("no_secret_here")."""

_variables: set[str] = set()
_values: set[str] = set()
_header_names: set[str] = set()


def secret_header(name: str) -> bool:
    """Whether a configured header's value is a credential: every header is, but the known
    non-secrets (:data:`NON_SECRET_HEADERS`)."""
    return name.strip().casefold() not in NON_SECRET_HEADERS


def remember_variable(name: str | None) -> None:
    """A configured key variable: its value (now or later) is a secret."""
    if name:
        _variables.add(name)


def remember_value(value: str | None) -> None:
    """A key or credential in hand (a client's key, a header's value), whatever its length."""
    if value and value.strip():
        value = value.strip()
        _values.add(value)
        scheme, _, token = value.partition(" ")
        if token and scheme.casefold() in ("bearer", "basic", "token"):
            remember_value(token)


def remember_headers(headers: Mapping[str, str] | None) -> None:
    """The values of the credential headers among ``headers`` (all but the known non-secrets);
    a cookie's values one by one as well (a gateway may echo one of them)."""
    for name, value in (headers or {}).items():
        if not secret_header(name):
            continue
        _header_names.add(name.strip())
        remember_value(value)
        if name.strip().casefold() == "cookie":
            for part in value.split(";"):
                remember_value(part.partition("=")[2])


def secret_values(environ: Mapping[str, str] | None = None) -> set[str]:
    """Every value known to be secret now."""
    environ = os.environ if environ is None else environ
    found = {value for name, value in environ.items() if _SECRET_NAME.search(name) and len(value) >= MIN_SECRET_LENGTH}
    found |= {environ[name] for name in _variables if environ.get(name)}
    found |= _values
    return {value for value in found if value.strip()}


def header_names() -> frozenset[str]:
    """The configured credential header names known now (redaction masks them written out)."""
    return frozenset(_header_names)


@functools.lru_cache(maxsize=16)
def _value_pattern(secrets: frozenset[str]) -> re.Pattern[str] | None:
    """One search for every secret, longest first: long ones anywhere, short ones as whole tokens."""
    if not secrets:
        return None
    parts = []
    for secret in sorted(secrets, key=lambda s: (-len(s), s)):
        escaped = re.escape(secret)
        if len(secret) < SUBSTRING_LENGTH:
            escaped = f"(?<![{_TOKEN_CHAR}]){escaped}(?![{_TOKEN_CHAR}])"
        parts.append(escaped)
    return re.compile("|".join(parts))


@functools.lru_cache(maxsize=16)
def _written_pattern(names: frozenset[str]) -> tuple[re.Pattern[str], re.Pattern[str]]:
    """(a credential written out as ``name: value``, a quick test for any of its names)."""
    configured = "|".join(re.escape(n) for n in sorted(names, key=len, reverse=True))
    alternatives = f"{configured}|{_CREDENTIAL_NAMES}" if configured else _CREDENTIAL_NAMES
    written = re.compile(
        rf"""(?ix)(?<![\w-])({alternatives})(?![\w-])        # the name
        (["']?\s*[:=]\s*["']?)                              # : or =, quotes
        (?:(bearer|basic|token)\s+)?                         # the scheme
        ([^\s"',;}}\]]{{4,}})""",
    )
    hint = re.compile(f"{configured}|{_HINT_WORDS}", re.IGNORECASE) if configured else _CREDENTIAL_HINT
    return written, hint


@functools.lru_cache(maxsize=16)
def _lower_hint(names: frozenset[str]) -> re.Pattern[str] | None:
    """The quick test of :func:`_written_pattern` for a lower-cased ASCII text: the same matches,
    several times faster than a case-insensitive search (None: a name that is not ASCII)."""
    if not all(name.isascii() for name in names):
        return None
    configured = "|".join(re.escape(n.lower()) for n in sorted(names, key=len, reverse=True))
    return re.compile(f"{configured}|{_HINT_WORDS}" if configured else _HINT_WORDS)


def _hinted(text: str, names: frozenset[str]) -> bool:
    """Whether ``text`` holds a credential-looking or configured header name (the quick test
    before the search for one written out)."""
    lower = _lower_hint(names) if text.isascii() else None
    if lower is not None:
        return lower.search(text.lower()) is not None
    return _written_pattern(names)[1].search(text) is not None


def redact(text: str, secrets: Iterable[str] | None = None) -> str:
    """``text`` with every secret value, and every credential written as ``name: value``,
    replaced by ``[redacted]``."""
    pattern = _value_pattern(frozenset(secret_values() if secrets is None else secrets))
    if pattern is not None:
        text = pattern.sub(REDACTED, text)
    names = frozenset(_header_names)
    return _written_pattern(names)[0].sub(_mask, text) if _hinted(text, names) else text


def redact_data(value: JSONValue, secrets: Iterable[str] | None = None, *, verbatim: Iterable[str] = ()) -> JSONValue:
    """A document (mappings, lists, texts, numbers) with every text redacted, keys included;
    numbers and structure untouched, so that it is still the same JSON or YAML once written.
    ``verbatim``: keys whose text values are kept as they are (a bank's path: a run is
    resumed from it, and a short key that happens to be a folder's name must not break it)."""
    known = frozenset(secret_values() if secrets is None else secrets)
    kept = frozenset(verbatim)

    def walk(item: JSONValue) -> JSONValue:
        if isinstance(item, str):
            return redact(item, known)
        if isinstance(item, Mapping):
            return {walk(k): v if k in kept and isinstance(v, str) else walk(v) for k, v in item.items()}
        if isinstance(item, (list, tuple)):
            return [walk(v) for v in item]
        return item

    return walk(value)


_JSON_ESCAPED = re.compile(r'["\\\x00-\x1f]')
"""What a JSON encoder writes as an escape: a secret holding one of these may not appear as
itself in a JSON text."""


def may_need_redaction(json_text: str, secrets: Iterable[str] | None = None) -> bool:
    """Whether :func:`redact_data` could change any text of the document that ``json_text`` is
    the JSON of: False only when no secret, and no credential-looking name, occurs in it.
    (A JSON encoder escapes only quotes, backslashes and control characters, so a text of the
    document holding a secret without these holds it in the JSON too.) One search of the whole
    text, so that the run store walks a document text by text only when it has to."""
    known = frozenset(secret_values() if secrets is None else secrets)
    if any(_JSON_ESCAPED.search(secret) or secret in json_text for secret in known):
        return True
    names = frozenset(_header_names)
    if any(_JSON_ESCAPED.search(name) for name in names):
        return True
    return _hinted(json_text, names)


def _mask(match: re.Match[str]) -> str:
    if match.group(4).startswith(REDACTED[:-1]):  # already redacted by value
        return match.group(0)
    scheme = f"{match.group(3)} " if match.group(3) else ""
    return f"{match.group(1)}{match.group(2)}{scheme}{REDACTED}"
