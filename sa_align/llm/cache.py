"""Disk cache of LLM replies, keyed by the semantic inputs of one provider call.

One JSON file per reply under `<cache_dir>/llm/v<N>/<2 hex>/<sha256>.json`. Writes go to a
temporary file in the same directory, are fsynced and then atomically renamed, so concurrent
writers and crashes never leave a torn entry; a corrupt entry reads as a miss.
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
from pathlib import Path
from typing import Any

CACHE_VERSION = 1
"""Bump when the key or the entry format changes, so old entries are never misread."""

NON_SEMANTIC_KEYS = frozenset(
    {
        "timeout",
        "request_timeout",
        "stream_timeout",
        "max_retries",
        "num_retries",
        "max_concurrency",
        "api_key",
        "drop_params",
        "metadata",
    }
)
"""`ModelSpec.extra` keys that change how a call is made, not what it returns; left out of the key."""


def cache_key(
    *,
    model: str,
    api_base: str | None,
    messages: list[dict[str, Any]],
    schema: dict[str, Any],
    response_format: Any,
    temperature: float,
    sample: int,
    extra: dict[str, Any],
) -> str:
    """sha256 over everything that shapes the reply, and nothing that only shapes the transport."""
    payload = {
        "v": CACHE_VERSION,
        "model": model,
        "api_base": (api_base or "").rstrip("/"),
        "messages": messages,
        "schema": schema,
        "response_format": response_format,
        "temperature": temperature,
        "sample": sample,
        "extra": {k: v for k, v in extra.items() if k not in NON_SEMANTIC_KEYS},
    }
    blob = json.dumps(payload, sort_keys=True, ensure_ascii=False, separators=(",", ":"), default=str)
    return hashlib.sha256(blob.encode("utf-8")).hexdigest()


class ResponseCache:
    """Get and put reply records by key; `root` is created on first write."""

    def __init__(self, root: Path) -> None:
        self.root = Path(root) / f"v{CACHE_VERSION}"

    def _path(self, key: str) -> Path:
        return self.root / key[:2] / f"{key}.json"

    def get(self, key: str) -> dict[str, Any] | None:
        """The stored record, or None when absent or unreadable."""
        try:
            record = json.loads(self._path(key).read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return None
        return record if isinstance(record, dict) and record.get("key") == key else None

    def put(self, key: str, record: dict[str, Any]) -> None:
        """Store `record` atomically; a failure to write only loses the cache entry."""
        path = self._path(key)
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".tmp-", suffix=".json")
        except OSError:
            return
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as fh:
                json.dump({**record, "key": key}, fh, ensure_ascii=False)
                fh.flush()
                os.fsync(fh.fileno())
            os.replace(tmp, path)
        except OSError:
            try:
                os.unlink(tmp)
            except OSError:
                pass
