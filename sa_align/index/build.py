"""`build_index`: walk, extract (cached, in parallel when it pays), resolve, reach."""

from __future__ import annotations

import gc
import os
import time
from functools import lru_cache
from pathlib import Path

from sa_align.config import IndexConfig
from sa_align.index.cache import FactsCache, cache_key
from sa_align.index.extract import file_text
from sa_align.index.fast import make_many
from sa_align.index.gitinfo import git_commit
from sa_align.index.model import FileFacts, RepoIndex, SkippedFile
from sa_align.index.moved import moved_facts
from sa_align.index.snapshot import Snapshot, repo_cache_key, snapshot
from sa_align.index.walk import Skip
from sa_align.resources import load_yaml

__all__ = ["Snapshot", "build_index", "make_index", "repo_cache_key", "snapshot"]

PARALLEL_MIN_BYTES = 1_000_000
"""Below this much source to parse, worker processes cost more than they save."""


@lru_cache(maxsize=1)
def _implicit_methods() -> list[str]:
    return list(load_yaml("entrypoints.yaml")["implicit_methods"])


def _extract_all(todo: dict[str, bytes], keys: dict[str, str], cache: FactsCache | None,
                 workers: int) -> dict[str, FileFacts]:
    """Extract and cache `todo` (entries and the aliases moved files are found by); with several cores,
    worker processes share the work."""
    # Imported here: a warm build loads the whole index from the cache and never parses.
    from sa_align.index.parallel import extract_here, extract_parallel

    total = sum(len(d) for d in todo.values())
    if workers < 2 or len(todo) < 8 or total < PARALLEL_MIN_BYTES:
        return extract_here(list(todo.items()), keys, cache)
    return extract_parallel(list(todo.items()), keys, cache, workers)


def _workers(config: IndexConfig) -> int:
    if config.workers is not None:
        return config.workers
    try:
        cores = len(os.sched_getaffinity(0))
    except AttributeError:
        cores = os.cpu_count() or 1
    return min(cores, 4)


def build_index(repo: str | Path | Snapshot, config: IndexConfig | None = None,
                cache_dir: Path | None = None) -> RepoIndex:
    """Index a repository: files, symbols, values, calls, texts, stubs, entry points, reachability.

    `repo` is a folder, or a `snapshot` of one already taken (its own config is used then).
    `cache_dir` enables the facts cache (`cache_dir/index/v<N>/`); `None` disables it.
    Raises `RepoError` when `repo` is not a readable directory.
    """
    t0 = time.perf_counter()
    snap = repo if isinstance(repo, Snapshot) else snapshot(repo, config)
    # Indexing allocates a few hundred thousand small objects and no cycles worth
    # collecting: repeated collections of the growing heap would cost a third of the time.
    enabled = gc.isenabled()
    gc.disable()
    try:
        index = _build(snap, cache_dir)
    finally:
        if enabled:
            # The index is long-lived: move it (and everything else young) to the
            # oldest generation now, instead of letting the first young collection
            # after `gc.enable()` scan all of it.
            gc.freeze()
            gc.unfreeze()
            gc.enable()
    index.stats["seconds"] = round(time.perf_counter() - t0, 4)
    return index


def _build(snap: Snapshot, cache_dir: Path | None) -> RepoIndex:
    root, config, walked, data, hashes, content, pack_key = (
        snap.root, snap.config, snap.walked, snap.data, snap.hashes, snap.content, snap.key)
    cache = FactsCache(cache_dir) if cache_dir is not None and config.use_cache else None
    pack = cache.load_pack(pack_key) if cache else None
    parsed: dict[str, FileFacts] = {}
    if pack is not None:
        index = make_index(root, content, pack)
    else:
        facts: dict[str, FileFacts] = {}
        todo: dict[str, bytes] = {}
        for rel, blob in data.items():
            hit = _cached(cache, rel, hashes[rel], blob) if cache else None
            if hit is not None:
                facts[rel] = hit
            else:
                todo[rel] = blob
        parsed = _extract_all(todo, {rel: cache_key(rel, hashes[rel]) for rel in todo}, cache, _workers(config))
        facts.update(parsed)  # with a cache, extraction has stored each entry and its alias
        ordered = sorted(facts)
        index = _assemble(root, content, [facts[rel] for rel in ordered], walked.skipped)
        if cache:
            n_file_calls = sum(len(facts[rel].calls) for rel in ordered)
            cache.store_pack(pack_key, [cache_key(rel, hashes[rel]) for rel in ordered], index, n_file_calls)
    for rel, blob in data.items():
        index.set_file_text(rel, file_text(rel, blob))
    index.stats = _stats(index, len(data), len(parsed), pack is not None)
    return index


def _cached(cache: FactsCache, rel: str, sha256: str, blob: bytes) -> FileFacts | None:
    """The cached facts of this content at this path, else at the path it was moved from."""
    hit = cache.load(cache_key(rel, sha256))
    return hit if hit is not None else moved_facts(cache, rel, sha256, blob)


def _stats(index: RepoIndex, n_files: int, n_parsed: int, from_pack: bool) -> dict[str, float]:
    return {
        "files": float(n_files), "skipped": float(len(index.skipped)), "parsed": float(n_parsed),
        "cache_hits": float(n_files - n_parsed), "repo_cache_hit": float(from_pack),
        "symbols": float(len(index.symbols)), "values": float(len(index.values)), "calls": float(len(index.calls)),
        "resolved_calls": float(sum(1 for c in index.calls if c.resolved)), "seconds": 0.0,
    }


def make_index(root: Path, content: str, fields: dict) -> RepoIndex:
    return RepoIndex.model_construct(root=str(root), content_hash=content, git_commit=git_commit(root), stats={},
                                     **fields)


def _assemble(root: Path, content: str, facts: list[FileFacts], skipped: list[Skip]) -> RepoIndex:
    from sa_align.index.reach import entry_points, reachable
    from sa_align.index.resolve import resolve_calls

    resolver, calls = resolve_calls(facts, _implicit_methods())
    eps = entry_points(facts, resolver)
    return make_index(root, content, {
        "files": [ff.info for ff in facts],
        "skipped": make_many(SkippedFile, [s._asdict() for s in sorted(skipped, key=lambda s: s.path)]),
        "symbols": [s for ff in facts for s in ff.symbols],
        "values": [v for ff in facts for v in ff.values],
        "calls": calls,
        "texts": [t for ff in facts for t in ff.texts],
        "stubs": [s for ff in facts for s in ff.stubs],
        "unbound": [u for ff in facts for u in ff.unbound],
        "unused_imports": [u for ff in facts for u in ff.unused_imports],
        "entry_points": eps,
        "reachable": reachable(calls, eps, facts),
    })
