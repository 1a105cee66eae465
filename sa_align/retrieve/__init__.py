"""Unit -> candidate code: lexical, parameter, embedding and call-graph signals fused by rank.

`build_retriever(index, config)` does the per-repository work once (chunks, the
BM25 models, the parameter index, the embedding matrix, the undirected call
graph); `Retriever.retrieve(unit)` is then cheap. Each signal ranks chunks on
its own (lexical, parameter, embedding, hinted definition names, definition
signatures: see `names.py`); reciprocal rank fusion (`sum w_s / (k + rank_s)`) combines them, the
fused top hits seed a personalized PageRank over the call graph, and the final
fusion adds that ranking too. Every candidate lists the signals that found it.
"""

from __future__ import annotations

import bisect
from collections import defaultdict
from functools import lru_cache
from typing import Any

import sa_align.aliases as aliases
from sa_align.config import EvalConfig
from sa_align.errors import RetrievalError
from sa_align.index.model import RepoIndex, ValueFact
from sa_align.models import Candidate, CodeSpan, Unit, UnitKind
from sa_align.resources import load_yaml
from sa_align.retrieve.chunks import Chunk, build_chunks
from sa_align.retrieve.graph import expand, undirected
from sa_align.retrieve.names import build_definitions, caller_hits, name_hits, name_key
from sa_align.retrieve.params import ParamIndex, distinctive, param_index
from sa_align.retrieve.text import tokenize, tokenize_memo

__all__ = ["Retriever", "build_retriever", "query_text"]

MAX_SNIPPET_LINES = 80
"""Longest snippet a candidate carries; longer chunks are windowed around their best line."""


@lru_cache(maxsize=1)
def _settings() -> dict[str, Any]:
    return load_yaml("retrieval.yaml")


def _aliases(fn_name: str, name: str) -> list[str]:
    try:
        return [str(a) for a in getattr(aliases, fn_name)(name) or []]
    except Exception:  # an unknown name simply has no aliases
        return []


def query_text(unit: Unit) -> str:
    """Everything about a unit that may share words with its implementation."""
    parts = [unit.claim, unit.quote, " ".join(unit.hints), " ".join(unit.order)]
    for p in unit.params:
        parts += [p.name, p.surface or "", " ".join(_aliases("param_aliases", p.name))]
    for e in unit.entities:
        parts += [e, " ".join(_aliases("entity_aliases", e))]
    return "\n".join(x for x in parts if x)


class Retriever:
    """Ranks a repository's chunks for units; build once per index with `build_retriever`."""

    def __init__(self, index: RepoIndex, config: EvalConfig) -> None:
        from sa_align.retrieve.bm25 import Bm25

        self.index, self.config = index, config
        self.settings = _settings()
        self.chunks: list[Chunk] = build_chunks(index)
        docs = [tokenize_memo(c.text + "\n" + " ".join(c.extra)) for c in self.chunks]
        self.doc_terms = [set(d) for d in docs]
        self.bm25 = Bm25(docs) if any(docs) else None
        self.defs = build_definitions(self.chunks)
        sig_docs = self.defs.signature_docs
        self.sig_bm25 = Bm25(sig_docs) if any(sig_docs) else None
        self.params: ParamIndex = param_index(index)
        self._line_map = self._build_line_map()
        self._symbol_chunk = {c.symbol.id: c.id for c in reversed(self.chunks) if c.symbol is not None}
        self._call_sites = self._build_call_sites()
        self.ugraph = undirected(index)
        self.notes: list[str] = []
        """Why a signal did not run (switched off, not installed, failed): reported with the run."""
        self.errors: list[str] = []
        """Failures that dropped a signal without stopping retrieval (a subset of `notes`)."""
        self.embedder, self.matrix = self._load_embeddings()

    # -- building ----------------------------------------------------------------
    def _build_call_sites(self) -> list[tuple[str, int]]:
        """(callee name key, caller chunk id) for every call made inside a function."""
        out = []
        for c in self.index.calls:
            cid = self._symbol_chunk.get(c.caller)
            if cid is not None:
                out.append((name_key(c.callee.rsplit(".", 1)[-1]), cid))
        return out

    def _build_line_map(self) -> dict[str, tuple[list[int], list[int]]]:
        starts: dict[str, list[tuple[int, int]]] = defaultdict(list)
        for c in self.chunks:
            starts[c.path].append((c.start_line, c.id))
        return {p: ([s for s, _ in sorted(v)], [i for _, i in sorted(v)]) for p, v in starts.items()}

    def _load_embeddings(self) -> tuple[Any, Any]:
        """The embedder and the chunk matrix, or `(None, None)` with a note saying why.

        With `embeddings: true` a failure is a `RetrievalError`: the run was asked
        for embeddings and must not quietly go without. In auto mode (`null`) the
        signal is dropped and the failure reported; the other signals still run.
        """
        from sa_align.retrieve.embed import available, embed_matrix, make_embedder

        setting = self.config.embeddings
        if setting is False:
            self.notes.append("embedding: switched off in the config (`embeddings: false`)")
            return None, None
        if setting is None and not available():
            self.notes.append("embedding: not used, sentence-transformers is not installed")
            return None, None
        cache = self.config.cache_dir if self.config.use_cache else None
        try:
            embedder = make_embedder(setting, self.config.embedding_model, cache)
            by_path: dict[str, list[int]] = defaultdict(list)
            for c in self.chunks:
                by_path[c.path].append(c.id)
            ids = list(by_path.values())
            texts = [[self._embed_text(self.chunks[i]) for i in group] for group in ids]
            return embedder, embed_matrix(embedder, texts, ids, len(self.chunks))
        except Exception as exc:
            if setting:
                raise RetrievalError(
                    f"embeddings are required (`embeddings: true`) but failed: {_describe(exc)}; check the "
                    "`embeddings` extra and `embedding_model`, or set `embeddings` to null to run without") from exc
            self._error(f"embedding: signal disabled, the model could not load or encode the repository: {_describe(exc)}")
            return None, None

    def _error(self, message: str) -> None:
        if message not in self.errors:
            self.errors.append(message)
            self.notes.append(message)

    @property
    def signals(self) -> list[str]:
        """The signals available for this repository, in fusion order (`graph` runs for non-numerical units)."""
        names = ["bm25"] if self.bm25 is not None else []
        names += ["param", *(["embedding"] if self.matrix is not None else []), "name"]
        return names + (["signature"] if self.sig_bm25 is not None else []) + ["graph"]

    @staticmethod
    def _embed_text(chunk: Chunk) -> str:
        name = chunk.symbol.qualname if chunk.symbol is not None else chunk.path
        return f"{chunk.path} {name}\n{chunk.text}"

    def chunk_at(self, path: str, line: int) -> Chunk | None:
        """The chunk holding `line` of `path`."""
        entry = self._line_map.get(path)
        if entry is None:
            return None
        pos = bisect.bisect_right(entry[0], line) - 1
        if pos < 0:
            return None
        chunk = self.chunks[entry[1][pos]]
        return chunk if chunk.start_line <= line <= chunk.end_line else None

    # -- signals ----------------------------------------------------------------------
    def _bm25(self, tokens: list[str]) -> list[tuple[int, str]]:
        if self.bm25 is None or not tokens:
            return []
        qset = set(tokens)
        out = []
        for i, _ in self.bm25.top(tokens, self.settings["per_signal"]):
            # Longest first, then alphabetical: a set's own order changes with PYTHONHASHSEED.
            shared = sorted(qset & self.doc_terms[i], key=lambda t: (-len(t), t))[:3]
            out.append((i, "bm25:" + ",".join(shared)))
        return out

    def _signature(self, tokens: list[str]) -> list[tuple[int, str]]:
        """Definitions whose name, parameters and docstring match well: robust to an emptied body."""
        if self.sig_bm25 is None or not tokens:
            return []
        hits = self.sig_bm25.top(tokens, self.settings["signature_hits"])
        floor = (hits[0][1] if hits else 0.0) * float(self.settings["signature_floor"])
        return [(self.defs.signature_ids[i], "signature") for i, score in hits if score >= floor]

    def _names(self, unit: Unit) -> list[tuple[int, str]]:
        limit = self.settings["per_signal"]
        if unit.kind == UnitKind.ORDERING:
            return caller_hits(self.defs, self._call_sites, unit, limit)
        return name_hits(self.defs, unit, limit)

    def _param_hits(self, unit: Unit) -> tuple[list[tuple[int, str]], dict[int, int]]:
        """Chunks setting the unit's params (by name, by value); also each chunk's best line."""
        weight: dict[int, float] = defaultdict(float)
        why: dict[int, str] = {}
        focus: dict[int, int] = {}
        tol = self.config.numeric_rel_tol
        for p in unit.params:
            by_value = {id(f) for f in self.params.value_matches(p, tol)}
            for f in self.params.sites(p):
                self._credit(f, 2.0 if id(f) in by_value else 1.0, f"param:{p.name}={f.raw}", weight, why, focus)
            if distinctive(p):
                for f in self.params.value_matches(p, tol):
                    self._credit(f, 0.5, f"value:{f.raw}", weight, why, focus)
        ranked = sorted(weight, key=lambda c: (-weight[c], c))[: self.settings["per_signal"]]
        return [(c, why[c]) for c in ranked], focus

    def _credit(self, f: ValueFact, w: float, reason: str, weight, why, focus) -> None:
        if f.path.endswith((".md", ".rst", ".txt")):
            return
        chunk = self.chunk_at(f.path, f.line)
        if chunk is None:
            return
        if w > weight.get(chunk.id, 0.0) or chunk.id not in why:
            why[chunk.id] = reason
            focus[chunk.id] = f.line
        weight[chunk.id] += w

    def _embedding(self, unit: Unit, text: str) -> list[tuple[int, str]]:
        if self.embedder is None or self.matrix is None or not len(self.chunks):
            return []
        import numpy as np

        try:
            q = self.embedder.encode([text])[0]
        except Exception as exc:
            if self.config.embeddings:
                raise RetrievalError(f"embedding the query of {unit.id} failed: {_describe(exc)}") from exc
            # An encoder that failed once will fail again: one note, and no half-ranked units after it.
            self._error(f"embedding: signal disabled from {unit.id} on, its query could not be encoded: {_describe(exc)}")
            self.embedder = self.matrix = None
            return []
        sims = self.matrix @ q
        top = np.argsort(-sims, kind="stable")[: self.settings["per_signal"]]
        return [(int(i), f"embedding:{sims[i]:.2f}") for i in top if sims[i] > 0.1]

    def _graph(self, fused: list[int]) -> list[tuple[int, str]]:
        seeds: dict[str, float] = {}
        for rank, cid in enumerate(fused[: self.settings["graph_seeds"]]):
            sym = self.chunks[cid].symbol
            if sym is not None:
                seeds[sym.id] = seeds.get(sym.id, 0.0) + 1.0 / (rank + 1)
        out = []
        for sym_id, why in expand(self.index, self.ugraph, seeds, self.settings["per_signal"]):
            cid = self._symbol_chunk.get(sym_id)
            if cid is not None:
                out.append((cid, why))
        return out

    # -- fusion ------------------------------------------------------------------------------
    def _fuse(self, signals: dict[str, list[tuple[int, str]]]) -> tuple[list[int], dict[int, float], dict[int, list[str]]]:
        k = float(self.settings["rrf_k"])
        weights = self.settings["fusion_weights"]
        score: dict[int, float] = defaultdict(float)
        why: dict[int, list[str]] = defaultdict(list)
        for name, ranked in signals.items():
            for rank, (cid, reason) in enumerate(ranked):
                score[cid] += float(weights.get(name, 1.0)) / (k + rank + 1)
                why[cid].append(reason)
        order = sorted(score, key=lambda c: (-score[c], c))
        return order, score, why

    def retrieve(self, unit: Unit) -> list[Candidate]:
        """The top `config.top_k` chunks for `unit`, best first."""
        if not self.chunks:
            return []
        text = query_text(unit)
        param_ranked, focus = self._param_hits(unit)
        tokens = tokenize(text)
        signals = {"bm25": self._bm25(tokens), "param": param_ranked, "embedding": self._embedding(unit, text),
                   "name": self._names(unit)}
        if unit.kind != UnitKind.NUMERICAL:
            signals["signature"] = self._signature(tokens)
        if unit.kind != UnitKind.NUMERICAL:
            # Values live in configs and constants, outside the call graph: no prior to add there.
            first, _, _ = self._fuse(signals)
            signals["graph"] = self._graph(first)
        order, score, why = self._fuse(signals)
        # The calibrated judge's model is trained without embeddings: it reads the scores fused without them.
        plain = self._fuse({k: v for k, v in signals.items() if k != "embedding"})[1] if signals["embedding"] else None
        terms = set(tokens)
        return [self._candidate(cid, score[cid], why[cid], focus.get(cid), terms,
                                None if plain is None else plain.get(cid, 0.0)) for cid in order[: self.config.top_k]]

    def _candidate(self, cid: int, score: float, why: list[str], focus: int | None, terms: set[str],
                   without_embedding: float | None = None) -> Candidate:
        chunk = self.chunks[cid]
        start, end = chunk.start_line, chunk.end_line
        if end - start + 1 > MAX_SNIPPET_LINES:
            center = focus if focus is not None else start
            start = max(chunk.start_line, center - MAX_SNIPPET_LINES // 4)
            end = min(chunk.end_line, start + MAX_SNIPPET_LINES - 1)
        symbol = chunk.symbol.qualname if chunk.symbol is not None else None
        lines = self.index.lines(chunk.path, start, end)
        if focus is None or not start <= focus <= end:
            focus = self._best_line(lines, start, terms)
        span = CodeSpan(path=chunk.path, start_line=start, end_line=max(start, end), symbol=symbol)
        return Candidate(span=span, score=round(score, 6), why=why, snippet="\n".join(lines), focus_line=focus,
                         score_without_embedding=None if without_embedding is None else round(without_embedding, 6))

    def _best_line(self, lines: list[str], start: int, terms: set[str]) -> int | None:
        """The line sharing the rarest query terms (summed BM25 idf); the first such line on ties."""
        idf = self.bm25.idf if self.bm25 is not None else (lambda term: 0.0)
        best, best_weight = None, 0.0
        for i, line in enumerate(lines):
            weight = sum(idf(t) for t in terms.intersection(tokenize(line)))
            if weight > best_weight:
                best, best_weight = start + i, weight
        return best


def _describe(exc: BaseException) -> str:
    return f"{type(exc).__name__}: {exc}"


def build_retriever(index: RepoIndex, config: EvalConfig | None = None) -> Retriever:
    """A retriever over `index`: chunks, BM25, parameter index and embeddings built once."""
    return Retriever(index, config or EvalConfig())
