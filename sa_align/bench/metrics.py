"""Agreement of predicted labels with gold, computed with scikit-learn (the `sa-align[bench]` extra).

Conventions:

- `undecided` is never a gold label. A unit left undecided counts as wrong in
  `accuracy`, `balanced_accuracy` and `kappa` (they measure the whole system) and
  is reported separately as `undecided_share`; `accuracy_decided` is accuracy
  over decided units only.
- Per-label precision/recall/F1 cover the five real labels; `macro_f1` averages
  F1 over the labels that occur in gold or in predictions (undecided excluded),
  so a clean-only dataset is not penalized for labels it cannot contain.
- A ratio with an empty denominator is `None` (JSON `null`), never 0.
- Retrieval recall@k: over units with gold spans, the share whose top-k
  candidates include one that overlaps a gold span (`CodeSpan.overlaps`).
"""

from __future__ import annotations

from collections import Counter
from typing import Any, Sequence

from pydantic import BaseModel, ConfigDict, Field

from sa_align.bench.agreement import cohen_kappa
from sa_align.models import CodeSpan, Label, UnitKind

REAL_LABELS = [Label.ALIGNED, Label.MISMATCHED, Label.STUBBED, Label.MISATTRIBUTED, Label.MISSING]
ALL_LABELS = REAL_LABELS + [Label.UNDECIDED]
DEFAULT_KS = (1, 3, 5, 8)


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", use_attribute_docstrings=True)


class Outcome(_Model):
    """One unit of one (case or variant) run: gold against prediction."""

    case_id: str
    """Clean case the run belongs to."""
    variant_id: str
    """Variant id (`<case>` for the clean case itself)."""
    unit_id: str
    """Unit id."""
    kind: UnitKind
    """Unit kind."""
    gold: Label
    """Gold label."""
    pred: Label
    """Predicted label."""
    gold_spans: list[CodeSpan] = Field(default_factory=list)
    """Gold code spans."""
    candidates: list[CodeSpan] = Field(default_factory=list)
    """Retrieved candidate spans, best first."""
    mutated: bool = False
    """True for the unit the variant's mutation targeted."""
    held: Label | None = None
    """The failure a preview rule found and held back for review (`UnitResult.held_label`)."""


class LabelScores(_Model):
    """Precision, recall and F1 of one label."""

    precision: float | None
    """Share of units predicted with this label whose gold is this label."""
    recall: float | None
    """Share of units with this gold label that were predicted with it."""
    f1: float | None
    """Harmonic mean of precision and recall."""
    support: int
    """Units whose gold is this label."""
    predicted: int
    """Units predicted with this label."""


class Metrics(_Model):
    """Label agreement, retrieval quality and the targeted detection rates over a set of outcomes."""

    n: int = 0
    """Units scored."""
    accuracy: float | None = None
    """Share of units whose predicted label equals gold (undecided counts as wrong)."""
    accuracy_decided: float | None = None
    """Accuracy over decided units only."""
    balanced_accuracy: float | None = None
    """Mean per-gold-label recall."""
    macro_f1: float | None = None
    """Mean F1 over labels present in gold or predictions."""
    kappa: float | None = None
    """Cohen's kappa between predictions and gold; `None` when undefined (a single label everywhere)."""
    undecided_share: float | None = None
    """Share of units left undecided."""
    per_label: dict[str, LabelScores] = Field(default_factory=dict)
    """Precision/recall/F1 per real label."""
    confusion: dict[str, dict[str, int]] = Field(default_factory=dict)
    """Gold label -> predicted label -> count."""
    recall_at_k: dict[str, float | None] = Field(default_factory=dict)
    """`k` -> share of units with gold spans whose top-k candidates overlap one."""
    value_mutation_detection: float | None = None
    """Numerical units with gold `mismatched`: share predicted `mismatched`."""
    value_mutation_held: float | None = None
    """Numerical units with gold `mismatched`: share left `undecided` with a held `mismatched` finding (a preview rule's)."""
    false_flag_rate: float | None = None
    """Numerical units with gold `aligned`: share predicted something other than aligned/undecided."""
    false_flag_rate_all: float | None = None
    """Units of every kind with gold `aligned`: share predicted a failure (mismatched, stubbed, misattributed, missing)."""
    stubbed_recall: float | None = None
    """Recall of `stubbed`."""
    stubbed_precision: float | None = None
    """Precision of `stubbed`."""
    missing_recall: float | None = None
    """Recall of `missing`."""
    missing_precision: float | None = None
    """Precision of `missing`."""
    by_kind: dict[str, "Metrics"] = Field(default_factory=dict)
    """The same metrics per unit kind (not nested further)."""


def _ratio(num: int, den: int) -> float | None:
    return num / den if den else None


def _clean(x: Any) -> float | None:
    import math

    return None if x is None or (isinstance(x, float) and math.isnan(x)) else float(x)


def recall_at_k(outcomes: Sequence[Outcome], ks: Sequence[int] = DEFAULT_KS) -> dict[str, float | None]:
    scored = [o for o in outcomes if o.gold_spans]
    out: dict[str, float | None] = {}
    for k in ks:
        hits = sum(any(c.overlaps(g) for c in o.candidates[:k] for g in o.gold_spans) for o in scored)
        out[str(k)] = _ratio(hits, len(scored))
    return out


def _per_label(gold: list[str], pred: list[str]) -> dict[str, LabelScores]:
    from sklearn.metrics import precision_recall_fscore_support

    labels = [lab.value for lab in REAL_LABELS]
    p, r, f, s = precision_recall_fscore_support(gold, pred, labels=labels, zero_division=float("nan"))
    counts = Counter(pred)
    return {
        lab: LabelScores(
            precision=_clean(p[i]), recall=_clean(r[i]), f1=_clean(f[i]), support=int(s[i]), predicted=counts.get(lab, 0)
        )
        for i, lab in enumerate(labels)
    }


def _balanced(gold: list[str], pred: list[str]) -> float | None:
    import warnings

    from sklearn.metrics import balanced_accuracy_score

    with warnings.catch_warnings():  # predictions outside the gold classes are expected (undecided)
        warnings.simplefilter("ignore")
        return _clean(balanced_accuracy_score(gold, pred))


def _macro_f1(per_label: dict[str, LabelScores], gold: list[str], pred: list[str]) -> float | None:
    present = (set(gold) | set(pred)) - {Label.UNDECIDED.value}
    f1s = [per_label[lab].f1 or 0.0 for lab in sorted(present) if lab in per_label]  # sorted: a sum must not depend on the hash seed
    return sum(f1s) / len(f1s) if f1s else None


def _targets(outcomes: Sequence[Outcome]) -> dict[str, float | None]:
    num = [o for o in outcomes if o.kind == UnitKind.NUMERICAL]
    mism = [o for o in num if o.gold == Label.MISMATCHED]
    clean = [o for o in num if o.gold == Label.ALIGNED]
    flagged = sum(o.pred not in (Label.ALIGNED, Label.UNDECIDED) for o in clean)
    clean_all = [o for o in outcomes if o.gold == Label.ALIGNED]
    flagged_all = sum(o.pred not in (Label.ALIGNED, Label.UNDECIDED) for o in clean_all)
    return {
        "value_mutation_detection": _ratio(sum(o.pred == Label.MISMATCHED for o in mism), len(mism)),
        "value_mutation_held": _ratio(sum(o.held == Label.MISMATCHED for o in mism), len(mism)),
        "false_flag_rate": _ratio(flagged, len(clean)),
        "false_flag_rate_all": _ratio(flagged_all, len(clean_all)),
    }


def compute_metrics(outcomes: Sequence[Outcome], ks: Sequence[int] = DEFAULT_KS, *, by_kind: bool = True) -> Metrics:
    """All metrics over `outcomes` (and, with `by_kind`, over each unit kind separately)."""
    if not outcomes:
        return Metrics()
    gold = [o.gold.value for o in outcomes]
    pred = [o.pred.value for o in outcomes]
    decided = [(g, p) for g, p in zip(gold, pred) if p != Label.UNDECIDED.value]
    per_label = _per_label(gold, pred)
    confusion: dict[str, dict[str, int]] = {}
    for g, p in zip(gold, pred):
        confusion.setdefault(g, {}).setdefault(p, 0)
        confusion[g][p] += 1
    metrics = Metrics(
        n=len(outcomes),
        accuracy=_ratio(sum(g == p for g, p in zip(gold, pred)), len(gold)),
        accuracy_decided=_ratio(sum(g == p for g, p in decided), len(decided)),
        balanced_accuracy=_balanced(gold, pred),
        macro_f1=_macro_f1(per_label, gold, pred),
        kappa=cohen_kappa(gold, pred, [lab.value for lab in ALL_LABELS]),
        undecided_share=_ratio(len(gold) - len(decided), len(gold)),
        per_label=per_label,
        confusion=confusion,
        recall_at_k=recall_at_k(outcomes, ks),
        stubbed_recall=per_label[Label.STUBBED.value].recall,
        stubbed_precision=per_label[Label.STUBBED.value].precision,
        missing_recall=per_label[Label.MISSING.value].recall,
        missing_precision=per_label[Label.MISSING.value].precision,
        **_targets(outcomes),
    )
    if by_kind:
        for kind in UnitKind:
            subset = [o for o in outcomes if o.kind == kind]
            if subset:
                metrics.by_kind[kind.value] = compute_metrics(subset, ks, by_kind=False)
    return metrics
