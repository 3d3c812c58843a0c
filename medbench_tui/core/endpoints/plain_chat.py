"""A batch's chat requests, posted straight over aiohttp.

The SDK's request path (request options, headers, URL and request objects over its
HTTP layer) costs about 1 ms of CPU a request on top of the transport's 0.4 ms
(benchmarks/runner_throughput.py), and a batch makes thousands of requests that are
all alike: a JSON body posted to ``{base_url}/chat/completions``, the reply read as
bytes. So a batch posts them itself, with the headers servers read (the key as a
bearer token, the configured headers), and reads an error status as the SDK reads it
(the error object's message, code and type). Streams, probes, the SDK's quick retries
and single consultations keep the SDK.
"""

from __future__ import annotations

import json
import ssl
from collections.abc import Mapping
from typing import TYPE_CHECKING

from pydantic_core import to_json

from medbench_tui import __version__
from medbench_tui.core.endpoints.errors import EndpointError, ServerRefusal, refused, timed_out, unreachable
from medbench_tui.core.jsondata import JSONObject

if TYPE_CHECKING:
    import aiohttp


def server_refusal(status: int, headers: Mapping[str, str], data: bytes) -> ServerRefusal:
    """An error reply read as the SDK reads it: ``Error code: N - <message>``, with the
    code and type of the ``error`` object (or of the body, when it has none)."""
    message = f"Error code: {status}"
    error: object = None
    try:
        body = json.loads(data)
    except (ValueError, RecursionError):
        body = None
    if isinstance(body, dict):
        error = body.get("error", body)
    if isinstance(error, dict):
        if isinstance(error.get("message"), str) and error["message"]:
            message += f" - {error['message']}"
        code, kind = error.get("code"), error.get("type")
        return ServerRefusal(status, headers, message, None if code is None else str(code),
                             kind if isinstance(kind, str) else None)
    return ServerRefusal(status, headers, message)


class PlainChat:
    """Posts chat completion bodies to one endpoint over one aiohttp session (its
    connections are kept for the whole batch; :meth:`close` when the batch ends)."""

    def __init__(self, *, base_url: str, api_key: str, api_key_env: str | None, headers: dict[str, str],
                 timeout: float, tls: ssl.SSLContext) -> None:
        self._base_url = base_url
        self._api_key_env = api_key_env
        self._url = f"{base_url}/chat/completions"
        self._headers = {
            "Authorization": f"Bearer {api_key}",
            "Content-Type": "application/json",
            "Accept": "application/json",
            "User-Agent": f"medbench-tui/{__version__}",
            **headers,
        }
        self._timeout = timeout
        self._tls = tls
        self._session: aiohttp.ClientSession | None = None

    async def post(self, body: JSONObject) -> bytes:
        """The reply's bytes; an error status, a timeout or a lost connection raise an
        :class:`EndpointError` worded as the SDK's path words it."""
        import aiohttp  # here: it takes a fifth of a second to import, and only batches need it

        if self._session is None:
            # limit=0: the batch's request gate, not the pool, bounds the requests in flight
            self._session = aiohttp.ClientSession(
                connector=aiohttp.TCPConnector(ssl=self._tls, limit=0), headers=self._headers,
                # the timeout is each request's total deadline: a server sending a byte a second
                # must not hold a run for minutes
                timeout=aiohttp.ClientTimeout(total=self._timeout, sock_connect=self._timeout),
            )
        try:
            async with self._session.post(self._url, data=to_json(body)) as response:
                data = await response.read()
                if response.status >= 400:
                    raise refused(server_refusal(response.status, response.headers, data),
                                  base_url=self._base_url, api_key_env=self._api_key_env)
                return data
        except EndpointError:
            raise
        except TimeoutError as exc:  # before OSError: a timeout is one
            raise timed_out(self._base_url) from exc
        except (OSError, aiohttp.ClientError) as exc:
            raise unreachable(self._base_url, exc) from exc

    async def close(self) -> None:
        if self._session is not None:
            await self._session.close()
            self._session = None
