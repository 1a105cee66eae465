"""The reply cache on its own: what goes into a key, and entries under concurrent writers."""

from __future__ import annotations

import threading
from pathlib import Path

from sa_align.llm.cache import ResponseCache, cache_key

MESSAGES = [{"role": "system", "content": "You judge code."}, {"role": "user", "content": "Is lr=0.1 set?"}]


def test_cache_key_ignores_transport_settings() -> None:
    base = dict(model="m", api_base="http://h/v1", messages=MESSAGES, schema={}, response_format=None, temperature=0.0, sample=0)
    key = cache_key(**base, extra={"max_tokens": 5})
    assert key == cache_key(**base, extra={"max_tokens": 5, "timeout": 3, "num_retries": 9, "api_key": "s"})
    assert key == cache_key(**{**base, "api_base": "http://h/v1/"}, extra={"max_tokens": 5})
    assert key != cache_key(**base, extra={"max_tokens": 6})
    assert key != cache_key(**{**base, "sample": 1}, extra={"max_tokens": 5})


def test_cache_concurrent_writers_and_corrupt_entries(tmp_path: Path) -> None:
    cache = ResponseCache(tmp_path)
    key = "ab" + "0" * 62
    writers = [
        threading.Thread(target=lambda i=i: [cache.put(key, {"raw": f"r{i}" * 500}) for _ in range(20)]) for i in range(4)
    ]
    for t in writers:
        t.start()
    for t in writers:
        t.join()
    assert cache.get(key)["raw"] in {f"r{i}" * 500 for i in range(4)}
    assert [p.name for p in cache.root.rglob("*") if p.is_file()] == [f"{key}.json"]  # no temp files left
    (cache.root / "cd").mkdir()
    (cache.root / "cd" / ("cd" + "1" * 62 + ".json")).write_text('{"raw": "trunc')
    assert cache.get("cd" + "1" * 62) is None
