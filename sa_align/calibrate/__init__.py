"""The calibrated judge: a small model, learned on SA-Bench's judged claims, that weighs the static evidence.

The static judges stay the evidence and the explanation; the model learns how
much that evidence (their votes, retrieval, how much of the claim occurs in the
code) says about whether SA-Bench's judge would call the claim faithful. Its
probability decides when a unit is lifted to `aligned`, when the judges' failure
evidence stands, and which units are uncertain enough to need review or an LLM
judge (`policy`).

    calibrator = Calibrator.for_config(config)      # loads and checks the model
    cal = calibrator.assess(unit, static_verdicts, candidates, index, hand)
    decided = calibrator.decide(hand, cal)
    if calibrator.wants_llm(cal, decided): ...       # only units it cannot settle cost an LLM call

`sa_align.judges.label.label_unit` is the one place these steps are taken in order.

Training (scikit-learn, the `bench` extra) is `sa_align.calibrate.train`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Sequence

from sa_align.calibrate.features import unit_features
from sa_align.calibrate.model import load_model, shipped_path
from sa_align.calibrate.policy import calibrated_result
from sa_align.config import EvalConfig
from sa_align.errors import CalibrationError
from sa_align.judges.numeric.sites import unread_line
from sa_align.models import Calibration, CalibrationInfo, Candidate, Label, Unit, UnitResult, Verdict

if TYPE_CHECKING:
    from sa_align.calibrate.model import CalibrationModel
    from sa_align.index.model import RepoIndex

__all__ = ["Calibrator", "CalibrationError"]


class Calibrator:
    """One run's calibrated judge: the model (or none, when only features are recorded) and the config."""

    def __init__(self, model: "CalibrationModel | None", config: EvalConfig, info: CalibrationInfo):
        self.model = model
        self.config = config
        self.info = info

    @classmethod
    def for_config(cls, config: EvalConfig) -> "Calibrator | None":
        """The run's calibrator; `None` when calibration is off and no features are recorded.

        A missing, corrupt or stale model raises `CalibrationError`, unless the config allows the
        uncalibrated aggregate, in which case the report says why it was used.
        """
        settings = config.calibration
        if not settings.enabled:
            info = CalibrationInfo(uncalibrated="calibration is switched off")
            return cls(None, config, info) if settings.record_features else None
        path = settings.model or shipped_path()
        try:
            model = load_model(path)
        except CalibrationError as exc:
            if not settings.allow_uncalibrated:
                raise
            return cls(None, config, CalibrationInfo(uncalibrated=str(exc)))
        info = CalibrationInfo(model=path.name, feature_version=model.feature_version, band=list(settings.band),
                               trained_on=_provenance(model))
        return cls(model, config, info)

    def assess(self, unit: Unit, verdicts: Sequence[Verdict], candidates: Sequence[Candidate],
               index: "RepoIndex", hand: UnitResult) -> Calibration:
        """The model's view of one unit's static evidence (`hand` is their uncalibrated aggregate)."""
        record = self.config.calibration.record_features
        if self.model is None and not record:
            return Calibration()
        features = unit_features(unit, verdicts, candidates, index, hand)
        cal = Calibration(features=features if record else {}, candidate_unread=_unread(candidates, index))
        if self.model is None:
            return cal
        (prob,), (expected,) = self.model.predict([features])
        low, high = self.config.calibration.band
        return cal.model_copy(update={"probability": round(prob, 4), "expected_score": round(expected, 4),
                                      "in_band": low < prob < high})

    def wants_llm(self, cal: Calibration, decided: UnitResult) -> bool:
        """Whether LLM judges should look: inside the band, where the static evidence alone would leave
        the unit `undecided` (`decided` is `decide` of their aggregate), or always when no model ran."""
        return self.model is None or cal.in_band or decided.label == Label.UNDECIDED

    def skipped_llm(self, samples: int) -> None:
        """Count one unit whose LLM judges were not called."""
        self.info.llm_units_skipped += 1
        self.info.llm_calls_saved += samples

    def decide(self, hand: UnitResult, cal: Calibration) -> UnitResult:
        """The unit's final result under the calibrated policy."""
        return calibrated_result(hand, cal, self.config)


def _unread(candidates: Sequence[Candidate], index: "RepoIndex") -> str:
    """Where the best candidate only declares settings nothing reads, and their names; else ""."""
    if not candidates or index is None:
        return ""
    span = candidates[0].span
    line = candidates[0].focus_line or span.start_line
    facts = unread_line(index, span.path, line)
    names = ", ".join(f"`{f.key_path or f.name}`" for f in facts)
    return f"{span.path}:{line} ({names})" if facts else ""


def _provenance(model: "CalibrationModel") -> str:
    p = model.provenance
    return f"{p.dataset} at {p.commit[:12]}, {len(p.papers)} papers, {p.claims} claims, trained {p.trained_at}"
