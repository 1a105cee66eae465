import random

import numpy as np
from rank_bm25 import BM25Okapi

from sa_align.retrieve.bm25 import ColumnBM25


def test_scores_equal_rank_bm25_exactly_on_repeated_queries():
    rng = random.Random(0)
    words = [f"w{i}" for i in range(40)]
    docs = [[rng.choice(words) for _ in range(rng.randint(0, 25))] for _ in range(200)]
    plain, columns = BM25Okapi(docs), ColumnBM25(docs)
    for _ in range(30):
        query = [rng.choice(words + ["absent"]) for _ in range(4)]
        first, again = columns.get_scores(query), columns.get_scores(query)
        assert np.array_equal(plain.get_scores(query), first) and np.array_equal(first, again)
    assert len(columns._columns) <= 41
