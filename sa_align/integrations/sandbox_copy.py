"""Copy a folder out of an Inspect sandbox, within caps on file count, total bytes and file size.

Only the sandbox's own commands run (`find`, then one `read_file` per file); the
copied files land under a local folder and are never executed. Folders that
are never part of a reproduction (`.git`, caches, virtualenvs) are pruned.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from typing import Any

PRUNED = (".git", "__pycache__", ".venv", "venv", "node_modules", ".mypy_cache", ".pytest_cache")


@dataclass
class CopyCaps:
    """How much of a sandbox folder the scorer copies out."""

    max_files: int = 5_000
    """Files copied at most; the rest are left behind and the score says so."""
    max_bytes: int = 50_000_000
    """Total bytes copied at most."""
    max_file_bytes: int = 2_000_000
    """Files larger than this are not copied (the indexer would skip them anyway)."""


@dataclass
class CopyResult:
    """What came out of the sandbox."""

    files: int = 0
    """Files copied."""
    bytes: int = 0
    """Bytes copied."""
    exists: bool = True
    """Whether the folder exists in the sandbox at all."""
    limits: list[str] = field(default_factory=list)
    """Each cap that stopped the copy or left files behind, in words."""


async def copy_out(env: Any, folder: str, dest: Path, caps: CopyCaps) -> CopyResult:
    """Copy `folder` of sandbox `env` into `dest` (created), stopping at the caps."""
    dest.mkdir(parents=True, exist_ok=True)
    kib = max(1, caps.max_file_bytes // 1024)
    listed = await _find(env, folder, ["-size", f"-{kib + 1}k"])
    if listed is None:
        return CopyResult(exists=False)
    result = CopyResult()
    oversized = await _find(env, folder, ["-size", f"+{kib}k"]) or []
    if oversized:
        result.limits.append(f"{len(oversized)} file(s) over {caps.max_file_bytes} bytes not copied")
    for rel in sorted(listed):
        if result.files >= caps.max_files:
            result.limits.append(f"stopped at the {caps.max_files}-file cap ({len(listed)} files in the folder)")
            break
        data = await _read(env, f"{folder.rstrip('/')}/{rel}")
        if data is None or len(data) > caps.max_file_bytes:
            continue
        if result.bytes + len(data) > caps.max_bytes:
            result.limits.append(f"stopped at the {caps.max_bytes}-byte cap")
            break
        target = dest.joinpath(*PurePosixPath(rel).parts)
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(data)
        result.files += 1
        result.bytes += len(data)
    return result


async def _find(env: Any, folder: str, size: list[str]) -> list[str] | None:
    """Relative paths of the regular files under `folder` passing the size test; `None` if it is not a folder."""
    prune: list[str] = []
    for name in PRUNED:
        prune += [*(["-o"] if prune else []), "-name", name]
    cmd = ["find", folder, "-mindepth", "1", "(", *prune, ")", "-prune", "-o", "-type", "f", *size, "-print"]
    res = await env.exec(cmd)
    if not res.success:
        return None
    base = folder.rstrip("/") + "/"
    out = []
    for line in res.stdout.splitlines():
        rel = line[len(base):] if line.startswith(base) else line
        parts = PurePosixPath(rel).parts
        if rel and ".." not in parts and not PurePosixPath(rel).is_absolute():
            out.append(rel)
    return out


async def _read(env: Any, path: str) -> bytes | None:
    try:
        return await env.read_file(path, text=False)
    except Exception:  # unreadable, vanished or over the sandbox's own read limit: not copied
        return None
