"""The batch manifest: JSON Lines, one (paper, repo) pair per line, checked whole before any work.

    {"id": "run-017", "paper": "papers/adamw.pdf", "repo": "runs/017", "units": "units/adamw.yaml"}

`id` defaults to the line number, `units` is optional, and relative paths are
resolved against the manifest's folder. Every problem (a malformed line, a
missing field, a paper, repository or units file that is not there, a repeated
id) is collected and reported in one `InputError`, so a batch of hundreds of
pairs is never stopped one typo at a time, nor after hours of work.
"""

from __future__ import annotations

import json
from pathlib import Path

from pydantic import BaseModel, ConfigDict, ValidationError

from sa_align.errors import InputError


class Pair(BaseModel):
    """One manifest line."""

    model_config = ConfigDict(extra="forbid", use_attribute_docstrings=True)

    id: str
    """Name of the pair's output folder; unique in the manifest."""
    paper: Path
    """Paper file."""
    repo: Path
    """Repository folder."""
    units: Path | None = None
    """Optional units file pinning the unit set."""


def read_manifest(path: str | Path) -> list[Pair]:
    """The manifest's pairs, or an `InputError` listing every problem found in it."""
    path = Path(path)
    if not path.is_file():
        raise InputError(f"manifest {str(path)!r} does not exist")
    pairs: list[Pair] = []
    problems: list[str] = []
    for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        pair, problem = _parse_line(line, n, path.parent)
        if problem:
            problems.append(f"{path}:{n}: {problem}")
            continue
        problems += [f"{path}:{n}: {p}" for p in _missing_inputs(pair)]
        pairs.append(pair)
    problems += _duplicates(pairs, path)
    if problems:
        head = f"manifest {path} has {len(problems)} problem(s); nothing was run:"
        raise InputError("\n  ".join([head, *problems]))
    return pairs


def _parse_line(line: str, n: int, base: Path) -> tuple[Pair | None, str | None]:
    try:
        raw = json.loads(line)
        if not isinstance(raw, dict):
            return None, "not a JSON object"
        raw.setdefault("id", f"pair-{n:04d}")
        pair = Pair.model_validate(raw)
    except json.JSONDecodeError as exc:
        return None, f"not valid JSON ({exc})"
    except ValidationError as exc:
        fields = "; ".join(f"{'.'.join(map(str, e['loc'])) or 'line'}: {e['msg']}" for e in exc.errors())
        return None, f"not a valid manifest line ({fields})"
    if pair.id in ("", ".", "..") or any(c in pair.id for c in "/\\\0"):
        return None, f"id {pair.id!r} is not a plain folder name"
    pair.paper, pair.repo = base / pair.paper, base / pair.repo
    pair.units = base / pair.units if pair.units else None
    return pair, None


def _missing_inputs(pair: Pair) -> list[str]:
    out = []
    if not pair.paper.is_file():
        out.append(f"pair {pair.id!r}: paper {str(pair.paper)!r} is not a file")
    if not pair.repo.is_dir():
        out.append(f"pair {pair.id!r}: repository {str(pair.repo)!r} is not a folder")
    if pair.units is not None and not pair.units.is_file():
        out.append(f"pair {pair.id!r}: units file {str(pair.units)!r} is not a file")
    return out


def _duplicates(pairs: list[Pair], path: Path) -> list[str]:
    ids = [p.id for p in pairs]
    repeated = sorted({i for i in ids if ids.count(i) > 1})
    return [f"{path}: duplicate pair id {i!r} ({ids.count(i)} lines)" for i in repeated]
