"""Extraction across processes: this process and forked workers claim files from one shared counter.

Files are claimed largest first, one at a time, so the processes finish together
whatever else the machine is running. Workers are forked (they inherit the file
contents and the compiled queries, nothing is pickled on the way in), write their
own cache entries and send the same pickled entries back as they go; this process
unpacks them between its own files. A worker that fails only costs time:
whatever it claimed but never delivered is extracted here. Where forking is
unsafe (other threads exist, or no `fork`), a process pool with spawned workers
takes fixed shares instead.
"""

from __future__ import annotations

import gc
import multiprocessing
import os
import pickle
import queue
import threading
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

from sa_align.index.cache import FactsCache, facts_from_dict, facts_to_dict, write_atomic
from sa_align.index.extract import extract_file, prepare
from sa_align.index.model import FileFacts

Items = list[tuple[str, bytes]]


def extract_here(items: Items, keys: dict[str, str], cache: FactsCache | None) -> dict[str, FileFacts]:
    """Extract `items` in this process; with a cache, store each entry and its content's alias."""
    out = {}
    for rel, data in items:
        out[rel] = facts = extract_file(rel, data)
        if cache:
            cache.store(keys[rel], facts)
            cache.store_alias(facts.info.sha256, rel)
    return out


def _entry(rel: str, data: bytes, key: str, cache: FactsCache | None) -> bytes:
    """Extract one file in a worker; returns (and caches, with its alias) its pickled entry."""
    facts = extract_file(rel, data)
    blob = pickle.dumps(facts_to_dict(facts), protocol=5)
    if cache:
        write_atomic(cache.entry_path(key), blob)
        cache.store_alias(facts.info.sha256, rel)
    return blob


def can_fork() -> bool:
    # fork is cheap and shares memory, but is unsafe once other threads exist.
    return os.name == "posix" and threading.active_count() == 1 and "fork" in multiprocessing.get_all_start_methods()


def extract_parallel(items: Items, keys: dict[str, str], cache: FactsCache | None, workers: int) -> dict[str, FileFacts]:
    """Extract `items` with this process and `workers - 1` others."""
    items = sorted(items, key=lambda kv: -len(kv[1]))
    if can_fork():
        return _forked(items, keys, cache, workers)
    return _pooled(items, keys, cache, workers)


def _claims(counter: Any, n: int) -> Iterator[int]:
    while True:
        with counter.get_lock():
            i = counter.value
            if i >= n:
                return
            counter.value = i + 1
        yield i


def _work(items: Items, keys: dict[str, str], cache_dir: Path | None, counter: Any, conn: Any) -> None:
    """Forked worker: claim and extract files until none are left, sending each entry as it is done.

    A thread sends, so extraction never waits for the parent to read the pipe.
    """
    gc.disable()  # the worker exits after this; collections would only cost time
    cache = FactsCache(cache_dir) if cache_dir is not None else None
    outbox: queue.SimpleQueue[tuple[str, bytes] | None] = queue.SimpleQueue()
    sender = threading.Thread(target=_send_all, args=(outbox, conn), daemon=True)
    sender.start()
    for i in _claims(counter, len(items)):
        rel, data = items[i]
        outbox.put((rel, _entry(rel, data, keys[rel], cache)))
    outbox.put(None)
    sender.join()
    conn.close()


def _send_all(outbox: "queue.SimpleQueue[tuple[str, bytes] | None]", conn: Any) -> None:
    while True:
        msg = outbox.get()
        conn.send(msg)
        if msg is None:
            return


class _Inbox:
    """Entries arriving from the workers, taken between this process's own files."""

    def __init__(self, conns: list[Any]):
        self.open = list(conns)

    def take(self, out: dict[str, FileFacts], wait: bool) -> None:
        for conn in list(self.open):
            try:
                while wait or conn.poll():
                    msg = conn.recv()
                    if msg is None:
                        raise EOFError
                    rel, blob = msg
                    out[rel] = facts_from_dict(pickle.loads(blob))
            except (EOFError, OSError):
                self.open.remove(conn)


def _forked(items: Items, keys: dict[str, str], cache: FactsCache | None, workers: int) -> dict[str, FileFacts]:
    prepare()  # compiled once here rather than once per process
    ctx = multiprocessing.get_context("fork")
    counter = ctx.Value("i", 0)
    procs, conns = [], []
    for _ in range(workers - 1):
        recv, send = ctx.Pipe(duplex=False)
        proc = ctx.Process(target=_work, args=(items, keys, cache.cache_dir if cache else None, counter, send),
                           daemon=True)
        proc.start()
        send.close()
        procs.append(proc)
        conns.append(recv)
    out: dict[str, FileFacts] = {}
    try:
        inbox = _Inbox(conns)
        for i in _claims(counter, len(items)):
            out.update(extract_here([items[i]], keys, cache))
            inbox.take(out, wait=False)  # unpacking here lets the workers take more files
        inbox.take(out, wait=True)
    finally:
        for proc in procs:
            if proc.is_alive() and len(out) < len(items):
                proc.terminate()  # interrupted here: the workers' results are no longer wanted
            proc.join()
    missing = [(rel, data) for rel, data in items if rel not in out]
    out.update(extract_here(missing, keys, cache))
    return out


def _batch(items: list[tuple[str, str, bytes]], cache_dir: Path | None) -> list[tuple[str, bytes]]:
    cache = FactsCache(cache_dir) if cache_dir is not None else None
    return [(rel, _entry(rel, data, key, cache)) for rel, key, data in items]


def _pooled(items: Items, keys: dict[str, str], cache: FactsCache | None, workers: int) -> dict[str, FileFacts]:
    """Fixed shares, largest first into the lightest bin; bin 0 is extracted here."""
    bins: list[Items] = [[] for _ in range(workers)]
    load = [0] * workers
    for rel, data in items:
        i = min(range(workers), key=load.__getitem__)
        bins[i].append((rel, data))
        load[i] += len(data)
    cache_dir = cache.cache_dir if cache else None
    with ProcessPoolExecutor(max_workers=workers - 1, mp_context=multiprocessing.get_context("spawn")) as pool:
        futures = [pool.submit(_batch, [(r, keys[r], d) for r, d in b], cache_dir) for b in bins[1:] if b]
        out = extract_here(bins[0], keys, cache)
        for fut in futures:
            out.update((rel, facts_from_dict(pickle.loads(blob))) for rel, blob in fut.result())
    return out
