"""Per-file facts on disk, keyed by content hash, under `cache_dir/index/v<N>/`.

The key is a hash of the file's path and content hash (facts carry the path,
so the same content elsewhere is a different entry). The format version is part
of the directory, so a format change never reads stale entries. Each entry is
one pickle (protocol 5) of plain dicts, lists and scalars, written atomically
(temp file + `os.replace`). Loading refuses every pickled class or function
(`_DataUnpickler`), so a planted cache file cannot run code, and builds the
models without validation (`fast.make_many`) because the data is our own.
"""

from __future__ import annotations

import hashlib
import io
import pickle
from pathlib import Path
from typing import Any

from sa_align.index.fast import make, make_from, make_many
from sa_align.index.model import (
    CallFact,
    EntryPoint,
    FileFacts,
    FileInfo,
    RepoIndex,
    SkippedFile,
    StubFact,
    Symbol,
    TextFact,
    UnboundName,
    UnusedImport,
    ValueFact,
)
from sa_align.index.store import INDEX_FORMAT, index_root, write_atomic  # noqa: F401 - INDEX_FORMAT kept importable here

_LISTS: dict[str, type] = {
    "symbols": Symbol,
    "values": ValueFact,
    "calls": CallFact,
    "texts": TextFact,
    "stubs": StubFact,
    "entry_points": EntryPoint,
    "unbound": UnboundName,
    "unused_imports": UnusedImport,
}


def cache_key(rel: str, sha256: str) -> str:
    return hashlib.sha256(f"{rel}\0{sha256}".encode()).hexdigest()


class FactsCache:
    """Read and write per-file `FileFacts` entries and whole-repository packs.

    A pack holds what the assembled index adds to the per-file entries of one
    exact set of files (resolved callees, implicit calls, entry points,
    reachability) and the keys of those entries: an unchanged repository loads
    its entries and the pack and skips extraction and resolution entirely. The
    facts themselves are stored once, in the entries.
    """

    def __init__(self, cache_dir: Path):
        self.cache_dir = Path(cache_dir)
        self.root = index_root(self.cache_dir)

    def entry_path(self, key: str) -> Path:
        """Where the per-file entry `key` lives."""
        return self._path(key)

    def _path(self, key: str, kind: str = "files") -> Path:
        return self.root / kind / key[:2] / f"{key}.pkl"

    def load(self, key: str) -> FileFacts | None:
        data = self._read(self._path(key))
        try:
            return facts_from_dict(data) if data is not None else None
        except (KeyError, TypeError, ValueError, AttributeError):
            return None

    def store(self, key: str, facts: FileFacts) -> None:
        self.store_dict(key, facts_to_dict(facts))

    def store_dict(self, key: str, packed: dict[str, Any]) -> None:
        """Store facts already in compact form (`facts_to_dict`)."""
        self._write(self._path(key), packed)

    def store_alias(self, sha256: str, rel: str) -> None:
        """Remember that content `sha256` has an entry under path `rel` (for moved files)."""
        write_atomic(self.root / "alias" / sha256[:2] / sha256, rel.encode("utf-8", "surrogateescape"))

    def load_alias(self, sha256: str) -> str | None:
        """The path content `sha256` was last extracted under, if any."""
        try:
            return (self.root / "alias" / sha256[:2] / sha256).read_bytes().decode("utf-8", "surrogateescape")
        except (OSError, ValueError):
            return None

    def load_pack(self, key: str) -> dict[str, Any] | None:
        """RepoIndex fields from a pack and its entries; `None` when any part is missing or unreadable."""
        pack = self._read(self._path(key, "repos"))
        if not isinstance(pack, dict) or not isinstance(pack.get("entries"), list):
            return None
        entries = []
        for entry_key in pack["entries"]:
            entry = self._read(self._path(str(entry_key)))
            if not isinstance(entry, dict):
                return None
            entries.append(entry)
        try:
            return pack_from_dict(pack, entries)
        except (KeyError, TypeError, ValueError, AttributeError):
            return None

    def store_pack(self, key: str, entry_keys: list[str], index: RepoIndex, n_file_calls: int) -> None:
        """Store the pack of `index`, whose first `n_file_calls` calls come from the entries, in order."""
        self._write(self._path(key, "repos"), pack_to_dict(entry_keys, index, n_file_calls))

    @staticmethod
    def _read(path: Path) -> Any:
        try:
            with open(path, "rb") as fh:
                return _DataUnpickler(io.BytesIO(fh.read())).load()
        except (OSError, ValueError, EOFError, IndexError, KeyError, pickle.UnpicklingError, MemoryError):
            return None

    @staticmethod
    def _write(path: Path, data: Any) -> None:
        write_atomic(path, pickle.dumps(data, protocol=5))


class _DataUnpickler(pickle.Unpickler):
    """Loads only plain data: the cache never pickles a class, so any class reference is refused."""

    def find_class(self, module: str, name: str) -> Any:
        raise pickle.UnpicklingError(f"cache entries hold plain data only, not {module}.{name}")


def _dicts(items: list[Any]) -> list[dict[str, Any]]:
    return [item.__dict__ for item in items]


def facts_to_dict(facts: FileFacts) -> dict[str, Any]:
    """Plain form: the info and every fact as its field dict."""
    out: dict[str, Any] = {"info": facts.info.__dict__, "imports": facts.imports}
    for name in _LISTS:
        out[name] = _dicts(getattr(facts, name))
    return out


def facts_from_dict(data: dict[str, Any]) -> FileFacts:
    lists = {name: make_many(cls, data[name]) for name, cls in _LISTS.items()}
    return make(FileFacts, info=make_from(FileInfo, data["info"]), imports=data["imports"], **lists)


def pack_to_dict(entry_keys: list[str], index: RepoIndex, n_file_calls: int) -> dict[str, Any]:
    calls = index.calls
    return {
        "entries": entry_keys,
        "resolved": [c.resolved for c in calls[:n_file_calls]],
        "implicit": _dicts(calls[n_file_calls:]),
        "entry_points": _dicts(index.entry_points),
        "skipped": _dicts(index.skipped),
        "reachable": index.reachable,
    }


def pack_from_dict(pack: dict[str, Any], entries: list[dict[str, Any]]) -> dict[str, Any]:
    """The RepoIndex fields of a pack, with the facts of its entries (one model build per kind)."""
    out: dict[str, Any] = {"files": [make_from(FileInfo, e["info"]) for e in entries]}
    for name, cls in (("symbols", Symbol), ("values", ValueFact), ("texts", TextFact), ("stubs", StubFact),
                      ("unbound", UnboundName), ("unused_imports", UnusedImport)):
        out[name] = make_many(cls, [d for e in entries for d in e[name]])
    calls = [d for e in entries for d in e["calls"]]
    resolved = pack["resolved"]
    if len(resolved) != len(calls):
        raise ValueError("pack and entries disagree on the calls")
    for d, target in zip(calls, resolved):
        if target is not None:
            d["resolved"] = target
    out["calls"] = make_many(CallFact, calls + list(pack["implicit"]))
    out["entry_points"] = make_many(EntryPoint, pack["entry_points"])
    out["skipped"] = make_many(SkippedFile, pack["skipped"])
    out["reachable"] = list(pack["reachable"])
    return out
