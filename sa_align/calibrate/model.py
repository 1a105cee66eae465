"""The calibrated judge's model file: logistic heads over the features, evaluated with numpy.

A model file (JSON, under 1 MB) records the feature set it was trained on
(`feature_version` and the ordered `features`), where its training data came
from, and two heads over the same standardized inputs:

- `faithful`: a binary logistic regression, the probability that SA-Bench's
  judge scores the unit >= 0.75;
- `levels`: a multinomial logistic regression over SA-Bench's five levels, whose
  expectation is the unit's expected score.

Inputs are the features in order, an absent feature replaced by its training
median, followed by one absence indicator per feature in `optional`.
"""

from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path
from typing import Mapping, Sequence

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from sa_align.calibrate.features import FEATURE_VERSION, feature_names
from sa_align.errors import CalibrationError

SHIPPED = "calibration/sabench.json"
"""The shipped model, under `units/`."""
MAX_BYTES = 1_000_000


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", use_attribute_docstrings=True)


class LogisticHead(_Model):
    """One logistic regression over the standardized inputs."""

    classes: list[float]
    """The classes: `[0, 1]` for the binary head, the SA-Bench levels for the level head."""
    intercept: list[float]
    """One intercept per class (one in all for the binary head)."""
    coef: list[list[float]]
    """One row of coefficients per intercept, one column per input."""


class Provenance(_Model):
    """Where a model's training data came from."""

    dataset: str
    """The dataset's name and where it is published."""
    commit: str
    """The dataset's commit."""
    license: str
    """The training data's licence and attribution."""
    papers: list[str] = Field(default_factory=list)
    """Papers whose runs were used for training (never the held-out ones)."""
    claims: int = 0
    """Judged claims trained on."""
    trained_at: str = ""
    """Date of training, ISO 8601."""
    command: str = ""
    """The command that trained the model."""


class CalibrationModel(_Model):
    """A trained calibrated judge."""

    kind: str = "sa_align-calibration"
    """Marks the file as an sa_align calibration model."""
    feature_version: str
    """Version of the feature set (`sa_align.calibrate.features.FEATURE_VERSION`) the model expects."""
    features: list[str]
    """Feature names in input order."""
    optional: list[str] = Field(default_factory=list)
    """Features that may be absent; each adds an absence indicator input after the features."""
    fill: list[float]
    """Value used for each feature when it is absent (its training median)."""
    center: list[float]
    """Per input: subtracted before scaling."""
    scale: list[float]
    """Per input: divisor after centering."""
    faithful: LogisticHead
    """Binary head: probability of a reference score >= 0.75."""
    levels: LogisticHead
    """Multinomial head over SA-Bench's levels: the expected score."""
    provenance: Provenance
    """Training data."""
    cross_validation: dict[str, float | None] = Field(default_factory=dict)
    """Grouped-by-paper cross-validated figures of this configuration (see `benchmarks/README.md`)."""

    @model_validator(mode="after")
    def _shapes(self) -> "CalibrationModel":
        n_in = len(self.features) + len(self.optional)
        if len(self.fill) != len(self.features) or len(self.center) != n_in or len(self.scale) != n_in:
            raise ValueError("fill, center and scale do not match the features")
        if not set(self.optional) <= set(self.features):
            raise ValueError("optional features must be features")
        for name, head in (("faithful", self.faithful), ("levels", self.levels)):
            if len(head.coef) != len(head.intercept) or any(len(row) != n_in for row in head.coef):
                raise ValueError(f"the {name} head's coefficients do not match the inputs")
        if len(self.faithful.intercept) != 1 or len(self.levels.classes) != len(self.levels.intercept):
            raise ValueError("heads have the wrong number of classes")
        return self

    def inputs(self, rows: list[Mapping[str, float]]):
        """The standardized input matrix of feature mappings (absent -> training median + indicator)."""
        import numpy as np

        return (raw_inputs(rows, self.features, self.optional, self.fill) - np.array(self.center)) / np.array(self.scale)

    def predict(self, rows: list[Mapping[str, float]]) -> tuple[list[float], list[float]]:
        """(probability of faithful, expected score) per row."""
        import numpy as np

        if not rows:
            return [], []
        x = self.inputs(rows)
        z = x @ np.array(self.faithful.coef[0]) + self.faithful.intercept[0]
        prob = 1.0 / (1.0 + np.exp(-np.clip(z, -40, 40)))
        logits = x @ np.array(self.levels.coef).T + np.array(self.levels.intercept)
        logits -= logits.max(axis=1, keepdims=True)
        weights = np.exp(logits)
        weights /= weights.sum(axis=1, keepdims=True)
        expected = weights @ np.array(self.levels.classes)
        return [float(p) for p in prob], [float(e) for e in expected]


def raw_inputs(rows: Sequence[Mapping[str, float]], features: Sequence[str], optional: Sequence[str],
               fill: Sequence[float]):
    """Inputs before standardizing: the features in order (`fill` where absent), then one absence
    indicator per optional feature. Training and prediction both build their matrix here."""
    import numpy as np

    x = np.array([[float(r.get(f, v)) for f, v in zip(features, fill)] for r in rows], dtype=float)
    absent = np.array([[float(f not in r) for f in optional] for r in rows], dtype=float).reshape(len(rows), len(optional))
    return np.nan_to_num(np.hstack([x, absent]), nan=0.0, posinf=0.0, neginf=0.0)


def shipped_path() -> Path:
    """Where the shipped model lives."""
    from sa_align.resources import data_dir

    return data_dir("units") / SHIPPED


def load_model(path: str | Path | None = None) -> CalibrationModel:
    """Read and check a model file (the shipped one by default); `CalibrationError` names what is wrong."""
    path = Path(path) if path is not None else shipped_path()
    try:
        stat = path.stat()
    except OSError as exc:
        raise CalibrationError(f"calibration model {path} not found") from exc
    # Keyed by size and modification time too: a file rewritten in place is read again.
    return _load(path, stat.st_size, stat.st_mtime_ns)


@lru_cache(maxsize=8)
def _load(path: Path, size: int, _mtime: int) -> CalibrationModel:
    try:
        if size > MAX_BYTES:
            raise CalibrationError(f"calibration model {path} is larger than {MAX_BYTES} bytes")
        model = CalibrationModel.model_validate(json.loads(path.read_text(encoding="utf-8")))
    except FileNotFoundError as exc:
        raise CalibrationError(f"calibration model {path} not found") from exc
    except (OSError, ValueError, ValidationError) as exc:
        raise CalibrationError(f"calibration model {path} is unreadable or corrupt: {str(exc)[:300]}") from exc
    if model.feature_version != FEATURE_VERSION or model.features != feature_names():
        raise CalibrationError(
            f"calibration model {path} was trained on feature set {model.feature_version!r}, but this sa_align "
            f"computes feature set {FEATURE_VERSION!r}{'' if model.feature_version != FEATURE_VERSION else ' with other features'}; "
            "retrain it (`sa-align bench --sabench DATASET --train OUT`)")
    return model
