"""Repository indexing: `build_index(repo) -> RepoIndex`.

Walks the repository (gitignore, vendored folders, binaries, size caps, symlinks
kept inside the root), extracts facts per file with tree-sitter queries from
`units/queries/` (symbols, literal values, calls, comments and strings, stub
evidence, names read unbound, imports never read), flattens config files,
resolves calls across modules, and computes entry points and reachability.
Per-file facts are cached by content hash.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

# Loaded on first use: a warm `sa-align index` only walks, hashes and reads a cached
# summary, and building the fact models would cost it a fifth of its time.
_LAZY = {
    "build_index": "sa_align.index.build",
    **{name: "sa_align.index.model" for name in (
        "CallFact", "EntryPoint", "FileFacts", "FileInfo", "RepoIndex", "SkippedFile", "StubFact", "Symbol",
        "TextFact", "UnboundName", "UnusedImport", "ValueFact",
    )},
}

if TYPE_CHECKING:
    from sa_align.index.build import build_index
    from sa_align.index.model import (CallFact, EntryPoint, FileFacts, FileInfo, RepoIndex, SkippedFile, StubFact,
                                      Symbol, TextFact, UnboundName, UnusedImport, ValueFact)


def __getattr__(name: str) -> Any:
    # An unknown name raises AttributeError, so `from sa_align.index import walk` still imports the submodule.
    if name in _LAZY:
        return getattr(import_module(_LAZY[name]), name)
    raise AttributeError(f"module 'sa_align.index' has no attribute {name!r}")


__all__ = [
    "CallFact",
    "EntryPoint",
    "FileFacts",
    "FileInfo",
    "RepoIndex",
    "SkippedFile",
    "StubFact",
    "Symbol",
    "TextFact",
    "UnboundName",
    "UnusedImport",
    "ValueFact",
    "build_index",
]
