"""How a model endpoint's failure is told to its callers: one error with the codes they
treat apart, shared by the client and the context budget."""

from __future__ import annotations

from typing import Any

from medbench_tui.core.errors import MedbenchError
from medbench_tui.core.redact import redact

CONTEXT_EXCEEDED = "context_exceeded"
IMAGE_UNSUPPORTED = "image_unsupported"
UNREACHABLE = "unreachable"


class EndpointError(MedbenchError):
    """A model endpoint failed. ``retryable`` is True for rate limits (429 without
    ``insufficient_quota``), server errors (5xx), timeouts, dropped connections and
    garbled replies; False for requests the endpoint will always refuse (400, 401,
    403, 404, insufficient quota, a missing key, a request longer than the context,
    images to a model that takes none, whatever the status).

    ``code`` names the failures callers treat apart: :data:`CONTEXT_EXCEEDED`,
    :data:`IMAGE_UNSUPPORTED`, :data:`UNREACHABLE` (its retries have a time budget)."""

    def __init__(
        self,
        message: str,
        *,
        retryable: bool,
        status: int | None = None,
        retry_after: float | None = None,
        code: str | None = None,
    ) -> None:
        super().__init__(redact(message))
        self.retryable = retryable
        self.status = status
        self.retry_after = retry_after
        self.code = code

    def to_json(self) -> dict[str, Any]:
        return {
            "message": str(self),
            "retryable": self.retryable,
            "status": self.status,
            "retry_after": self.retry_after,
            "code": self.code,
        }
