"""Plural folding and stopwords of the lexical tokenizer, on real words."""

from __future__ import annotations

import pytest

from sa_align.retrieve.text import _stem, tokenize


@pytest.mark.parametrize("plural, singular", [
    ("boxes", "box"), ("losses", "loss"), ("classes", "class"), ("batches", "batch"), ("hashes", "hash"),
    ("entries", "entry"), ("policies", "policy"), ("probabilities", "probability"), ("layers", "layer"),
    ("sizes", "size"), ("cases", "case"), ("causes", "cause"), ("biases", "bias"), ("aliases", "alias"),
    ("statuses", "status"), ("focuses", "focus"), ("caches", "cache"), ("indices", "index"),
    ("matrices", "matrix"), ("axes", "axis"), ("betas", "beta"), ("epochs", "epoch"), ("matches", "match"),
])
def test_a_plural_meets_its_singular(plural, singular):
    assert _stem(plural) == _stem(singular)


@pytest.mark.parametrize("word", ["loss", "focus", "axis", "class", "bias", "alias", "process", "status", "box"])
def test_singulars_ending_in_s_are_kept_whole(word):
    assert _stem(word) == word


def test_identifiers_and_prose_share_tokens():
    assert {"box", "numbox", "loss"} <= set(tokenize("num_boxes = len(losses)"))
    assert set(tokenize("the number of anchor boxes")) & set(tokenize("def decode_box(anchor):"))


def test_stopwords_match_the_word_as_written():
    # `class` the keyword says nothing; `classes` in a claim does, and meets `num_classes`.
    assert "class" not in tokenize("class Head:")
    assert "class" in tokenize("over 80 classes") and "class" in tokenize("num_classes = 80")
    assert tokenize("returns the values") == []
