"""Fitting the calibrated judge (scikit-learn, the `bench` extra; never needed at run time).

Training data are claim outcomes recorded with their features (`ClaimOutcome.features`,
from a benchmark run with `calibration.record_features` on and calibration off, so the
features see only the static judges). Both heads are L2-regularised logistic regressions
on standardized inputs; their coefficients go into a `CalibrationModel` file that numpy
evaluates at run time.
"""

from __future__ import annotations

from datetime import date
from typing import Sequence

from sa_align.calibrate.features import FEATURE_VERSION, feature_names
from sa_align.calibrate.model import CalibrationModel, LogisticHead, Provenance, raw_inputs
from sa_align.models import SA_BENCH_LEVELS

FAITHFUL_AT = 0.75
C_FAITHFUL = 0.05
"""Inverse regularisation strength of the binary head (chosen by grouped cross-validation)."""
C_LEVELS = 0.05
"""Inverse regularisation strength of the level head."""


def optional_features(rows: Sequence[dict[str, float]]) -> list[str]:
    """Features absent from at least one training row: each gets an absence indicator."""
    names = feature_names()
    return [f for f in names if any(f not in r for r in rows)]


def fit(rows: Sequence[dict[str, float]], references: Sequence[float], provenance: Provenance) -> CalibrationModel:
    """A model trained on feature rows and their reference levels."""
    import numpy as np
    from sklearn.linear_model import LogisticRegression

    if len(rows) != len(references) or not rows:
        raise ValueError("training needs one reference level per feature row, and at least one row")
    names = feature_names()
    optional = optional_features(rows)
    fill = [float(np.median([r[f] for r in rows if f in r])) if any(f in r for r in rows) else 0.0 for f in names]
    raw = raw_inputs(rows, names, optional, fill)
    center, scale = raw.mean(axis=0), raw.std(axis=0)
    scale[scale < 1e-9] = 1.0
    x = (raw - center) / scale
    levels = np.array([_level(r) for r in references])
    faithful = (levels >= FAITHFUL_AT).astype(int)
    if len(set(faithful)) < 2:
        raise ValueError("training needs both faithful and unfaithful claims")
    binary = LogisticRegression(C=C_FAITHFUL, max_iter=2000).fit(x, faithful)
    classes = sorted(set(levels))
    multi = LogisticRegression(C=C_LEVELS, max_iter=2000).fit(x, np.array([classes.index(v) for v in levels]))
    coef, intercept = multi.coef_, multi.intercept_
    if len(classes) == 2:  # sklearn stores one row for two classes
        coef, intercept = np.vstack([-coef / 2, coef / 2]), np.array([-intercept[0] / 2, intercept[0] / 2])
    return CalibrationModel(
        feature_version=FEATURE_VERSION, features=names, optional=optional, fill=fill,
        center=[round(float(v), 8) for v in center], scale=[round(float(v), 8) for v in scale],
        faithful=LogisticHead(classes=[0.0, 1.0], intercept=[float(binary.intercept_[0])],
                              coef=[[round(float(v), 8) for v in binary.coef_[0]]]),
        levels=LogisticHead(classes=[float(c) for c in classes], intercept=[float(v) for v in intercept],
                            coef=[[round(float(v), 8) for v in row] for row in coef]),
        provenance=provenance.model_copy(update={"claims": len(rows), "trained_at": provenance.trained_at or date.today().isoformat()}),
    )


def _level(reference: float) -> float:
    """The nearest SA-Bench level (references are on the levels already; this guards against drift)."""
    return min(SA_BENCH_LEVELS, key=lambda level: abs(level - reference))
