"""Facts of a moved file, from the cache entry of the same content at its old path, without a parse.

The cache key covers path and content (facts name their file), so a moved file
misses its key. A content alias (`alias/<sha>`: the path an entry was last
extracted under) finds the old entry, whose facts are relabelled to the new
path. That is exact only when nothing in the facts depends on the folder: the
file keeps its name (module symbol, script-name entry points, file kind), and a
Python file or notebook has no relative import (resolved against its package).
Anything else is parsed again.
"""

from __future__ import annotations

import copy
import re

from sa_align.index.cache import FactsCache, cache_key, facts_from_dict, facts_to_dict
from sa_align.index.model import FileFacts
from sa_align.index.walk import file_kind

_RELATIVE_IMPORT = re.compile(rb"\bfrom\s+\.")
_ID_FIELDS = ("id", "parent", "caller", "resolved", "symbol")


def movable(old: str, new: str, data: bytes) -> bool:
    """True when the facts of `old` relabelled to `new` equal a fresh extraction of `new`."""
    if old == new or old.rsplit("/", 1)[-1] != new.rsplit("/", 1)[-1]:
        return False
    if file_kind(new) in ("python", "notebook"):
        return _RELATIVE_IMPORT.search(data) is None
    return True


def relabel(facts: FileFacts, old: str, new: str) -> FileFacts:
    """`facts` of `old` as facts of `new`: paths and `path::` ids rewritten."""
    data = copy.deepcopy(facts_to_dict(facts))
    prefix = f"{old}::"

    def fix(item: dict) -> None:
        for key in ("path", "target"):
            if item.get(key) == old:
                item[key] = new
        for key in _ID_FIELDS:
            value = item.get(key)
            if isinstance(value, str) and value.startswith(prefix):
                item[key] = new + value[len(old):]

    fix(data["info"])
    for name, items in data.items():
        if isinstance(items, list):
            for item in items:
                fix(item)
    return facts_from_dict(data)


def moved_facts(cache: FactsCache, rel: str, sha256: str, data: bytes) -> FileFacts | None:
    """Facts of `rel` from the same content cached under another path, or `None` (then parse)."""
    old = cache.load_alias(sha256)
    if old is None or not movable(old, rel, data):
        return None
    hit = cache.load(cache_key(old, sha256))
    if hit is None:
        return None
    facts = relabel(hit, old, rel)
    cache.store(cache_key(rel, sha256), facts)
    return facts
