"""Repository indexing: `build_index(repo) -> RepoIndex`.

Walks the repository (gitignore, vendored folders, binaries, size caps, symlinks
kept inside the root), extracts facts per file with tree-sitter queries from
`units/queries/` (symbols, literal values, calls, comments and strings, stub
evidence, names read unbound, imports never read), flattens config files,
resolves calls across modules, and computes entry points and reachability.
Per-file facts are cached by content hash.
"""

from __future__ import annotations

from sa_align.index.build import build_index
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
