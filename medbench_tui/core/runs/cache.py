"""An optional response cache (``medbench run --cache``), kept in the run store.

The key is the sha256 of the canonical JSON of the full request: endpoint URL, model,
messages and every sampling parameter (never the API key). Re-running a group with
the same systems then costs nothing for the requests already answered; any change in
the prompt, the history or a parameter is a different key.
"""

from __future__ import annotations

import hashlib
import json

from medbench_tui.core.endpoints.client import ChatReply
from medbench_tui.core.jsondata import JSONObject
from medbench_tui.core.runs.store import RunStore


def request_key(request: JSONObject) -> str:
    canonical = json.dumps(request, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(canonical.encode("utf-8", "surrogatepass")).hexdigest()


class ResponseCache:
    def __init__(self, store: RunStore) -> None:
        self.store = store
        self.hits = 0
        self.misses = 0

    def get(self, request: JSONObject) -> ChatReply | None:
        text = self.store.cached_response(request_key(request))
        if text is None:
            self.misses += 1
            return None
        self.hits += 1
        return ChatReply(**json.loads(text), cached=True)

    def put(self, request: JSONObject, reply: ChatReply) -> None:
        document = {"text": reply.text, "finish_reason": reply.finish_reason, "model": reply.model,
                    "system_fingerprint": reply.system_fingerprint}
        self.store.cache_response(request_key(request), document)
