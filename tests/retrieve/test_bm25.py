"""BM25 over pre-tokenized chunks: rare shared terms rank first, common terms say nothing."""

import numpy as np

from sa_align.retrieve.bm25 import Bm25

DOCS = [
    ["def", "warmup", "schedule", "learning", "rate"],
    ["def", "focal", "loss", "gamma", "alpha"],
    ["def", "loader", "batch", "size"],
    ["def", "loss", "cross", "entropy"],
    [],
]


def test_rare_terms_rank_first_and_ties_keep_document_order():
    bm = Bm25(DOCS)
    top = bm.top(["focal", "loss"], 3)
    assert [i for i, _ in top] == [1, 3]
    assert top[0][1] > top[1][1] > 0
    assert [i for i, _ in bm.top(["def"], 5)] == []  # in every document: no weight, no hits


def test_scores_cover_every_document_and_unknown_terms_score_zero():
    bm = Bm25(DOCS)
    assert bm.scores(["nowhere"]).tolist() == [0.0] * len(DOCS)
    once, twice = bm.scores(["gamma"]), bm.scores(["gamma", "gamma"])
    assert np.allclose(twice, 2 * once) and once[1] > 0
    assert bm.idf("def") == 0.0 and bm.idf("nowhere") == 0.0 and bm.idf("gamma") > bm.idf("loss") > 0
