"""Cohen's kappa, the agreement beyond chance every bench report gives (scikit-learn, the `sa-align[bench]` extra).

One computation for labels and for a table of counts, so a figure and its resampled spread agree to the
last bit. Callers round as their report does; undefined is `None` (JSON `null`), never 0.
"""

from __future__ import annotations

import math
import warnings
from typing import Hashable, Sequence


def cohen_kappa(first: Sequence[Hashable], second: Sequence[Hashable], labels: Sequence[Hashable], *,
                counts: Sequence[int] | None = None) -> float | None:
    """Cohen's kappa of two raters over the same items, unrounded; `None` when it is undefined: both
    raters put every item in one and the same class.

    `counts[i]`, when given, is how many items the pair `(first[i], second[i])` stands for.
    """
    from sklearn.metrics import cohen_kappa_score

    with warnings.catch_warnings():  # the undefined case warns before it returns NaN
        warnings.simplefilter("ignore")
        k = float(cohen_kappa_score(first, second, labels=list(labels), sample_weight=counts))
    return None if math.isnan(k) else k


def binary_kappa_from_counts(nn: int, ny: int, yn: int, yy: int) -> float | None:
    """Cohen's kappa of two yes/no raters from their 2x2 table (`ny`: the first says no, the second yes);
    `None` for an empty table. Resampling sums these tables instead of rebuilding thousands of labels per draw."""
    if not nn + ny + yn + yy:
        return None
    return cohen_kappa([0, 0, 1, 1], [0, 1, 0, 1], [0, 1], counts=[nn, ny, yn, yy])
