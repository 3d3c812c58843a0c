"""Asking the user before a key from the environment goes to a host a bank's configuration
names (see :mod:`medbench_tui.core.endpoints.trust`)."""

from __future__ import annotations

import sys
from collections.abc import Iterable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from medbench_tui.core.endpoints.trust import Destination, EndpointLike


def ask_for_keys(endpoints: Iterable[EndpointLike], *, ask: bool | None = None) -> list[Destination]:
    """Ask, at a terminal, for each (key variable, host) pair not yet allowed: yes for this
    command, always (written to the settings' ``endpoint_keys``), or no. Returns the
    destinations left unconfirmed (all of them when nobody can be asked: input is piped)."""
    from medbench_tui.core.endpoints.trust import confirm, unconfirmed
    from medbench_tui.core.untrusted import visible

    pending = unconfirmed(endpoints)
    if not pending:
        return []
    if ask is None:
        ask = sys.stdin.isatty() and sys.stderr.isatty()
    if not ask:
        return pending
    left = []
    for place in pending:
        if place.variable is None:  # never: only a key from the environment is asked about
            continue
        print(visible(f"medbench: this bank's medbench.yaml would send the value of ${place.variable} "
                      f"to {place.host} ({place.base_url})."), file=sys.stderr)
        print("Send it? [y] yes, this time  [a] always (saved in the settings)  [N] no: ", end="",
              file=sys.stderr, flush=True)
        answer = sys.stdin.readline().strip().casefold()
        if answer in ("y", "yes", "a", "always"):
            confirm(place.variable, place.host)
            if answer in ("a", "always"):
                _remember(place.variable, place.host)
        else:
            left.append(place)
    return left


def require_keys(endpoints: Iterable[EndpointLike]) -> None:
    """Ask for every pair not yet allowed; refuse (nothing sent) when one is left."""
    from medbench_tui.core.endpoints.trust import refusal
    from medbench_tui.core.errors import MedbenchError

    left = ask_for_keys(endpoints)
    if left:
        raise MedbenchError("\n".join(refusal(place) for place in left))


def _remember(variable: str, host: str) -> None:
    from medbench_tui.core.settings import SettingsError, allow_endpoint_key

    try:
        path = allow_endpoint_key(host, variable)
    except SettingsError as exc:
        print(f"medbench: allowed for this command only: {exc}", file=sys.stderr)
        return
    print(f"medbench: saved in {path} (endpoint_keys)", file=sys.stderr)
