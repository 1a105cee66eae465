"""BM25 (Okapi, as `rank_bm25` scores it) with each term's frequency column computed once per corpus.

`rank_bm25` rebuilds a term's frequency over every document for every query; the
units of one run (and the many units of a benchmark) share most of their terms.
The scores are the same numbers: the same array expression, with the per-term
column and the length normaliser computed once instead of per query.
"""

from __future__ import annotations

import numpy as np
from rank_bm25 import BM25Okapi


class ColumnBM25(BM25Okapi):
    """`BM25Okapi` that keeps each queried term's frequency column."""

    def __init__(self, corpus) -> None:
        super().__init__(corpus)
        self._columns: dict[str, np.ndarray] = {}
        self._norm = self.k1 * (1 - self.b + self.b * np.array(self.doc_len) / self.avgdl)

    def _column(self, term: str) -> np.ndarray:
        col = self._columns.get(term)
        if col is None:
            col = self._columns[term] = np.array([(doc.get(term) or 0) for doc in self.doc_freqs])
        return col

    def get_scores(self, query) -> np.ndarray:
        score = np.zeros(self.corpus_size)
        for q in query:
            q_freq = self._column(q)
            score += (self.idf.get(q) or 0) * (q_freq * (self.k1 + 1) / (q_freq + self._norm))
        return score
