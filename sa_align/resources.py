"""Locate the data shipped with the package: `units/` (tables, patterns, rubrics) and `prompts/`.

In a wheel they live inside the package (`sa_align/units`, `sa_align/prompts`);
in a source checkout they are the top-level folders beside the package.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Any

_PKG = Path(__file__).resolve().parent


@lru_cache(maxsize=None)
def data_dir(name: str) -> Path:
    """Directory of shipped data `name` (`units` or `prompts`)."""
    for candidate in (_PKG / name, _PKG.parent / name):
        if candidate.is_dir():
            return candidate
    raise FileNotFoundError(
        f"sa_align data folder {name!r} not found next to {_PKG}; the installation is incomplete"
    )


@lru_cache(maxsize=None)
def load_yaml(relpath: str) -> Any:
    """Parse `units/<relpath>` (YAML). Cached: these tables never change during a run."""
    import yaml

    # The C loader (libyaml, shipped in PyYAML's wheels) reads the alias tables about ten times faster.
    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    with open(data_dir("units") / relpath, encoding="utf-8") as fh:
        return yaml.load(fh, Loader=loader)  # noqa: S506 - a safe loader


@lru_cache(maxsize=None)
def prompt_text(name: str) -> str:
    """Text of `prompts/<name>`."""
    return (data_dir("prompts") / name).read_text(encoding="utf-8")


@lru_cache(maxsize=None)
def code_fingerprint() -> str:
    """A digest of the installed code and its shipped data (`units/`, `prompts/`).

    Resumable runs keep a result only while this is unchanged: an edited judge, rule
    table or model gives other results under the same version number (an editable
    install, a development checkout).
    """
    import hashlib

    digest = hashlib.sha256()
    folders = [_PKG] + [data_dir(name) for name in ("units", "prompts") if not (_PKG / name).is_dir()]
    for folder in folders:
        for path in sorted(p for p in folder.rglob("*") if p.is_file() and p.suffix not in (".pyc", ".pyo")):
            digest.update(path.relative_to(folder).as_posix().encode())
            digest.update(hashlib.sha256(path.read_bytes()).digest())
    return digest.hexdigest()[:16]
