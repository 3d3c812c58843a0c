"""Where a key may go: a bank's ``medbench.yaml`` is data someone else may have written, and
it names both an environment variable and the host its value is sent to.

Three rules, checked before any request:

- **never**: link-local and cloud metadata addresses (``169.254.169.254``, ``fe80::1``,
  ``metadata.google.internal``), whatever the host name resolves to; and plain ``http://``
  to a host other than this machine when a credential goes with the request;
- **ask first**: the value of an environment variable (``api_key_env``) goes to a host other
  than this machine only once the user has confirmed that pair (variable, host), at the
  terminal or in the TUI, or the settings allow it (``endpoint_keys``: host -> variables);
- **this machine** (``localhost``, ``127.0.0.0/8``, ``::1``) is trusted: nothing leaves it.

:class:`Destination` says what a configuration would send where (``medbench systems`` shows
it); :func:`unconfirmed` lists the pairs still to confirm; :func:`confirm` records the user's
yes for this process; the client refuses a request whose pair is neither confirmed nor
allowed (:func:`admit`), so a path that forgot to ask fails closed.
"""

from __future__ import annotations

import asyncio
import ipaddress
import socket
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Protocol
from urllib.parse import urlsplit

from medbench_tui.core.redact import secret_header

METADATA_HOSTS = frozenset({
    "metadata", "metadata.google.internal", "metadata.goog", "metadata.azure.internal",
    "instance-data", "instance-data.ec2.internal",
})
"""Names of the cloud metadata services (the addresses are caught by number)."""
METADATA_ADDRESSES = frozenset(ipaddress.ip_address(a) for a in (
    "169.254.169.254", "169.254.170.2", "fd00:ec2::254", "100.100.100.200", "192.0.0.192",
))
RESOLVE_SECONDS = 10.0
"""Longest wait for a host name's addresses; past it the request itself says what is wrong."""
NOT_CONFIRMED = "key_not_confirmed"
"""The :class:`EndpointError` code of a request refused because its key was not confirmed."""

_confirmed: set[tuple[str, str]] = set()
_resolved: dict[str, str | None] = {}


class EndpointLike(Protocol):
    """What a key's destination is read from: a configuration or a client built from one."""

    @property
    def base_url(self) -> str: ...
    @property
    def api_key_env(self) -> str | None: ...
    @property
    def headers(self) -> dict[str, str]: ...


def host_of(base_url: str) -> str:
    """The host of a base URL, lower case, without brackets ("" when it has none)."""
    try:
        return (urlsplit(base_url).hostname or "").rstrip(".").casefold()
    except ValueError:
        return ""


def _address(host: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    """The address a host written as a number stands for ("169.254.169.254", "2852039166",
    "0xa9.0xfe.0xa9.0xfe", "::ffff:169.254.169.254"), else None."""
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        if not host or not all(c in "0123456789abcdefx." for c in host):
            return None
        try:
            address = ipaddress.ip_address(socket.inet_aton(host))
        except (OSError, ValueError):
            return None
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        return address.ipv4_mapped
    return address


def is_this_machine(host: str) -> bool:
    """``localhost`` or a loopback address: a request there never leaves the machine."""
    if host == "localhost" or host.endswith(".localhost"):
        return True
    address = _address(host)
    return address is not None and (address.is_loopback or address.is_unspecified)


def _forbidden(address: ipaddress.IPv4Address | ipaddress.IPv6Address) -> str | None:
    if address in METADATA_ADDRESSES:
        return "a cloud metadata address"
    if address.is_link_local:
        return "a link-local address"
    return None


def forbidden_host(host: str) -> str | None:
    """Why no request may go to ``host`` as written (a metadata or link-local address), or None."""
    if host in METADATA_HOSTS:
        return "a cloud metadata service"
    address = _address(host)
    return _forbidden(address) if address is not None else None


def sends_credentials(endpoint: EndpointLike) -> bool:
    """A key from the environment, or a header other than the known non-secrets."""
    return bool(endpoint.api_key_env) or any(secret_header(name) for name in endpoint.headers)


def address_problem(base_url: str, *, credentials: bool) -> str | None:
    """What is wrong with sending to ``base_url``, read from the address alone (the
    configuration refuses it at load): a metadata or link-local host; plain http to
    another machine with a credential."""
    host = host_of(base_url)
    why = forbidden_host(host)
    if why is not None:
        return f"{host} is {why}: medbench never sends requests there"
    if credentials and base_url.casefold().startswith("http://") and not is_this_machine(host):
        return (f"plain http:// to {host} would send the key unencrypted: use https://, "
                "or a server on this machine (localhost)")
    return None


@dataclass(frozen=True)
class Destination:
    """What one endpoint configuration sends where."""

    base_url: str
    host: str
    variable: str | None
    """The environment variable whose value goes out as the key (None: no key)."""
    headers: tuple[str, ...]
    """The names of the credential headers it sends (written in the configuration itself)."""

    @property
    def needs_confirmation(self) -> bool:
        return self.variable is not None and not is_this_machine(self.host)

    def describe(self) -> str:
        """In words: "sends $OPENAI_API_KEY and header api-key to api.openai.com"."""
        parts = [f"${self.variable}"] if self.variable else []
        if self.headers:
            parts.append(f"header{'s' if len(self.headers) > 1 else ''} {', '.join(self.headers)}")
        sent = " and ".join(parts) if parts else "no credential"
        return f"sends {sent} to {self.host or self.base_url}"


def destination(endpoint: EndpointLike) -> Destination:
    return Destination(endpoint.base_url, host_of(endpoint.base_url), endpoint.api_key_env or None,
                       tuple(name for name in endpoint.headers if secret_header(name)))


def allowed(variable: str, host: str, endpoint_keys: dict[str, list[str]] | None = None) -> bool:
    """Confirmed in this process, or allowed by the settings (``endpoint_keys``), or this machine."""
    if is_this_machine(host) or (variable, host) in _confirmed:
        return True
    if endpoint_keys is None:
        endpoint_keys = _settings_keys()
    return any(host == listed.casefold().rstrip(".") and variable in variables
               for listed, variables in endpoint_keys.items())


def _settings_keys() -> dict[str, list[str]]:
    from medbench_tui.core.settings import SettingsError, load_settings

    try:
        return load_settings().endpoint_keys
    except SettingsError:
        return {}


def unconfirmed(endpoints: Iterable[EndpointLike]) -> list[Destination]:
    """The destinations whose key the user has not allowed yet (each pair once)."""
    keys = _settings_keys()
    found: dict[tuple[str, str], Destination] = {}
    for endpoint in endpoints:
        place = destination(endpoint)
        if place.needs_confirmation and place.variable is not None and not allowed(place.variable, place.host, keys):
            found.setdefault((place.variable, place.host), place)
    return list(found.values())


def confirm(variable: str, host: str) -> None:
    """The user said yes: the value of ``variable`` may go to ``host`` in this process."""
    _confirmed.add((variable, host.casefold()))


def confirmed() -> list[tuple[str, str]]:
    """The pairs confirmed in this process (handed to a batch's own process)."""
    return sorted(_confirmed)


def refusal(place: Destination) -> str:
    """Why a request was not sent, and the ways to allow it."""
    return (f"not sent: this bank's configuration would send the value of ${place.variable} to {place.host}, "
            "and nobody has allowed that: confirm it when medbench asks at a terminal (`medbench systems`), or "
            f"allow it in the settings file: endpoint_keys: {{{place.host}: [{place.variable}]}}")


async def resolved_problem(host: str) -> str | None:
    """Why ``host`` may not be contacted once its name is resolved (a name that leads to a
    metadata or link-local address), or None; each host is resolved once per process. A name
    that does not resolve is left to the request, which says the server cannot be reached."""
    if host in _resolved:
        return _resolved[host]
    problem = None
    if _address(host) is None and host:
        try:
            infos = await asyncio.wait_for(
                asyncio.get_running_loop().getaddrinfo(host, None, type=socket.SOCK_STREAM), RESOLVE_SECONDS)
        except (OSError, UnicodeError, TimeoutError):
            infos = []
        for info in infos:
            address = _address(str(info[4][0]).split("%")[0])
            why = _forbidden(address) if address is not None else None
            if why is not None:
                problem = f"{host} leads to {address}, {why}: medbench never sends requests there"
                break
    _resolved[host] = problem
    return problem
