"""Words shared by the judges that compare claims with code: generic words, crude stems, distinctive claim words.

A leaf module (it imports no judge), so every judge can import it at the top:
`missing/judge.py` re-exports these names for older callers.
"""

from __future__ import annotations

from functools import lru_cache

from sa_align.models import Unit
from sa_align.resources import load_yaml
from sa_align.retrieve.text import tokenize


@lru_cache(maxsize=1)
def generic_words() -> frozenset[str]:
    """Words too generic in machine-learning code to show that a claim is implemented (`units/retrieval.yaml`)."""
    return frozenset(tokenize(" ".join(str(w) for w in load_yaml("retrieval.yaml")["generic_words"])))


def root(word: str) -> str:
    """A crude stem so prose and identifiers meet: `normalized`/`normalize` -> `normaliz`, `cropped` -> `crop`."""
    for suffix in ("ization", "ation", "ing", "ed", "es", "e", "s"):
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            word = word[: -len(suffix)]
            break
    if len(word) > 3 and word[-1] == word[-2] and word[-1] not in "aeiou":
        word = word[:-1]
    return word


def distinctive_words(unit: Unit) -> set[str]:
    """Stems of claim, quote and step words that would show up in an implementation of this claim."""
    words = set(tokenize(f"{unit.claim} {unit.quote} {' '.join(unit.order)}")) - generic_words()
    return {root(w) for w in words if len(w) >= 4 and not w.isdigit()}


__all__ = ["distinctive_words", "generic_words", "root"]
