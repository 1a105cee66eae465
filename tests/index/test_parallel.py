"""Extraction across processes: forked workers sharing one counter, a failing worker, the spawn pool."""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

import pytest

import sa_align.index.parallel as parallel
from sa_align.index.cache import FactsCache, cache_key
from sa_align.index.parallel import extract_here, extract_parallel


def _items(root: Path) -> list[tuple[str, bytes]]:
    return [(p.relative_to(root).as_posix(), p.read_bytes()) for p in sorted(root.rglob("*")) if p.is_file()]


def _dump(facts: dict) -> dict:
    return {rel: ff.model_dump() for rel, ff in facts.items()}


@pytest.fixture
def items(mlrepo_copy: Path) -> list[tuple[str, bytes]]:
    return _items(mlrepo_copy)


def _keys(items: list[tuple[str, bytes]]) -> dict[str, str]:
    return {rel: cache_key(rel, str(len(data))) for rel, data in items}


@pytest.mark.skipif(not parallel.can_fork(), reason="needs fork")
def test_forked_workers_match_serial_and_write_their_entries(items, tmp_path: Path):
    keys = _keys(items)
    cache = FactsCache(tmp_path / "cache")
    got = extract_parallel(items, keys, cache, workers=3)
    assert _dump(got) == _dump(extract_here(items, keys, None))
    assert all(cache.load(keys[rel]) is not None for rel, _ in items)
    # ... and the aliases a moved file is found by, whichever process extracted it
    assert all(cache.load_alias(hashlib.sha256(data).hexdigest()) == rel for rel, data in items)


@pytest.mark.skipif(not parallel.can_fork(), reason="needs fork")
def test_a_worker_that_dies_costs_only_time(items, monkeypatch):
    def dying(items, keys, cache_dir, counter, conn):
        next(parallel._claims(counter, len(items)))  # claims the largest file, never delivers it
        os._exit(3)

    monkeypatch.setattr(parallel, "_work", dying)
    keys = _keys(items)
    got = extract_parallel(items, keys, None, workers=2)
    assert _dump(got) == _dump(extract_here(items, keys, None))


def test_spawned_pool_when_forking_is_unsafe(items, monkeypatch, tmp_path: Path):
    monkeypatch.setattr(parallel, "can_fork", lambda: False)
    keys = _keys(items)
    cache = FactsCache(tmp_path / "cache")
    got = extract_parallel(items, keys, cache, workers=2)
    assert _dump(got) == _dump(extract_here(items, keys, None))
    assert all(cache.load_alias(hashlib.sha256(data).hexdigest()) == rel for rel, data in items)
