"""Tokens for lexical search: identifiers split (snake_case, camelCase), lower-cased, lightly stemmed."""

from __future__ import annotations

import re
from functools import lru_cache

from sa_align.aliases import split_identifier
from sa_align.resources import load_yaml

_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*|\d+(?:\.\d+)?")


@lru_cache(maxsize=1)
def stopwords() -> frozenset[str]:
    return frozenset(str(w).lower() for w in load_yaml("retrieval.yaml")["stopwords"])


@lru_cache(maxsize=200_000)
def _parts(word: str) -> tuple[str, ...]:
    """Stemmed search tokens of one word, stopwords left out.

    Stopwords are matched as written, before plural folding: the list names words
    (`class`, the keyword), and a plural it does not list (`classes`, a count in
    a claim) still says something.
    """
    parts = [p.lower() for p in split_identifier(word) if p]
    whole = word.strip("_").lower()
    if len(parts) > 1 and whole:
        parts.append(whole.replace("_", ""))
    stop = stopwords()
    return tuple(_stem(p) for p in parts if p not in stop)


_IRREGULAR = {"indices": "index", "vertices": "vertex", "matrices": "matrix", "axes": "axis", "analyses": "analysis",
              "caches": "cache", "criteria": "criterion"}
"""Plurals no suffix rule folds (a `-ches` rule that keeps `batch` would make `caches` `cach`)."""
_ES_AFTER = ("sses", "xes", "zzes", "ches", "shes")
"""Plural `-es` endings whose singular ends without the `e` (`losses`, `boxes`, `batches`, `hashes`)."""
_SINGULAR_S = ("ss", "us", "is", "ias")
"""Endings of singular words that end in `s` (`loss`, `focus`, `axis`, `alias`)."""


def _stem(word: str) -> str:
    """Fold an English plural onto its singular, so `boxes` meets `box` and `layers` meets `layer`.

    Plural folding only: cheap, and unlike a full stemmer it never merges distinct
    identifiers (`state`/`stat`, `mode`/`mod`). Short words are left alone.
    """
    if word in _IRREGULAR:
        return _IRREGULAR[word]
    if len(word) <= 4 or not word.endswith("s"):
        return word
    if word.endswith("ies"):
        return word[:-3] + "y"  # entries -> entry
    if word.endswith(_ES_AFTER) or word.endswith("iases"):
        return word[:-2]  # losses -> loss, boxes -> box, biases -> bias
    if word.endswith("uses") and len(word) > 5 and word[-5] not in "aeiou":
        return word[:-2]  # statuses -> status, focuses -> focus (but causes -> cause)
    if word.endswith(_SINGULAR_S):
        return word
    return word[:-1]  # layers -> layer, sizes -> size, cases -> case


def tokenize(text: str) -> list[str]:
    """Search tokens of `text`: split identifiers plus the joined compound, minus stopwords."""
    out: list[str] = []
    for m in _WORD.finditer(text):
        for part in _parts(m.group(0)):
            if len(part) > 1 or part.isdigit():
                out.append(part)
    return out


MAX_MEMO = 50_000
"""Texts whose tokens `tokenize_memo` keeps per process (cleared when full)."""
_TOKENS: dict[str, tuple[str, ...]] = {}


def tokenize_memo(text: str) -> tuple[str, ...]:
    """`tokenize`, remembered per text: successive commits of a history share most chunk texts."""
    hit = _TOKENS.get(text)
    if hit is None:
        if len(_TOKENS) >= MAX_MEMO:
            _TOKENS.clear()
        hit = _TOKENS[text] = tuple(tokenize(text))
    return hit


def identifier_tokens(name: str) -> set[str]:
    """Tokens of one identifier or phrase (no stopword removal beyond the shared list)."""
    return set(tokenize(name))
