"""Things derived from an index, built once and reused while the index lives.

Retrieval, the judges and the calibrated judge each derive tables from one index
(a parameter index, the code's vocabulary, the stubs); keyed by the index object's
identity, they go when the index does.
"""

from __future__ import annotations

import weakref
from typing import Any, Callable, TypeVar

from sa_align.index.model import RepoIndex

T = TypeVar("T")
_CACHE: dict[tuple[int, str], tuple[weakref.ref, Any]] = {}


def per_index(index: RepoIndex, key: str, build: Callable[[RepoIndex], T]) -> T:
    """Build something derived from `index` once and reuse it while the index lives."""
    slot = (id(index), key)
    hit = _CACHE.get(slot)
    if hit is not None and hit[0]() is index:
        return hit[1]
    value = build(index)
    _CACHE[slot] = (weakref.ref(index, lambda _r, s=slot: _CACHE.pop(s, None)), value)
    return value
