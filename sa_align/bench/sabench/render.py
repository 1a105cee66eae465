"""The SA-Bench comparison as Markdown: one table of claim figures, one of run figures, the confusion.

The sections take the figures, not the result that holds them, so the result (`bench.sabench`) can
compose them without an import circle."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from sa_align.bench.sabench.metrics import ClaimMetrics, SABenchMetrics
    from sa_align.bench.sabench.spread import Spread


def _f(x: float | None, digits: int = 3) -> str:
    return "-" if x is None else f"{x:.{digits}f}"


def _claim_row(name: str, m: "ClaimMetrics") -> str:
    return (f"| {name} | {m.claims} | {m.decided} | {_f(m.coverage, 2)} | {m.reference_faithful} | {m.said_aligned} "
            f"| {_f(m.kappa_label)} | {_f(m.kappa_score)} | {_f(m.roc_auc)} | {_f(m.mean_abs_error)} |")


def _claims_table(m: "SABenchMetrics") -> list[str]:
    lines = [
        "| claims | n | decided | coverage | ref >= 0.75 (decided) | we say aligned | kappa (label) | kappa (score) | ROC AUC | mean abs. error |",
        "|---|---|---|---|---|---|---|---|---|---|",
        _claim_row("all", m.overall),
    ]
    lines += [_claim_row(dim, dm) for dim, dm in m.by_dimension.items()]
    if m.unseen:
        lines.append(_claim_row("reference read only files the run holds", m.seen))
    return lines


def _run_lines(m: "SABenchMetrics") -> list[str]:
    r, p = m.run, m.probability
    lines = [
        f"- runs scored: {r.runs}; mean per-run coverage {_f(r.mean_coverage, 2)}",
        f"- run-score Spearman {_f(r.spearman)} (Python line count alone: {_f(r.spearman_lines)})",
        f"- seconds per run: median {_f(r.median_seconds, 2)}, mean {_f(r.mean_seconds, 2)}",
    ]
    if p.claims:
        lines += [
            f"- calibrated probability over {p.claims} claims (base rate {_f(p.base_rate)}): ROC AUC {_f(p.roc_auc)}, "
            f"Brier {_f(p.brier, 4)} against {_f(p.brier_base, 4)} for the base rate (skill {_f(p.brier_skill)}), "
            f"ECE {_f(p.ece, 4)}",
            f"- run-score Spearman from expected scores (every claim counts): {_f(r.spearman_expected)}",
        ]
    if m.unseen:
        s, n = m.seen_probability, m.overall.claims
        lines.append(f"- {m.unseen} of {n} claims ({m.unseen / n:.0%}) are scored on files the published run lacks "
                     "(the reference cites them; SA-Bench's `.gitignore` dropped folders such as `configs/` and `data/`)"
                     + (f"; on the others the probability's ROC AUC is {_f(s.roc_auc)}, Brier skill {_f(s.brier_skill)}"
                        if s.claims else ""))
    return lines


def _confusion(m: "SABenchMetrics") -> list[str]:
    levels = next(iter(m.confusion.values()), {})
    lines = ["| our label \\ reference | " + " | ".join(levels) + " |", "|---" * (len(levels) + 1) + "|"]
    for label, row in m.confusion.items():
        if any(row.values()):
            lines.append(f"| {label} | " + " | ".join(str(v) for v in row.values()) + " |")
    return lines


_SPREAD_NAMES = {"kappa": "kappa (label)", "coverage": "coverage", "probability_roc_auc": "probability ROC AUC",
                 "brier_skill": "Brier skill", "run_spearman": "run-score Spearman",
                 "run_spearman_expected": "run-score Spearman (expected scores)",
                 "run_spearman_lines": "Python line count's Spearman", "spearman_over_lines": "our Spearman - line count's"}


def spread_lines(spreads: "list[Spread]") -> list[str]:
    """One column per spread: the median and the central interval of each figure over the draws."""
    if not spreads:
        return []
    heads = [f"{s.method}: {s.papers} papers{' with replacement' if s.method == 'bootstrap' else ''}, "
             f"{s.draws} draws" for s in spreads]
    lines = [f"## How far the figures move on other papers (median [central {spreads[0].level:.0%}])", "",
             "| figure | " + " | ".join(heads) + " |", "|---" * (len(spreads) + 1) + "|"]
    for key, name in _SPREAD_NAMES.items():
        cells = [f"{i.median:.3f} [{i.low:.3f}, {i.high:.3f}]" if (i := s.figures.get(key)) else "-" for s in spreads]
        if any(c != "-" for c in cells):
            lines.append(f"| {name} | " + " | ".join(cells) + " |")
    return [*lines, ""]


def section(title: str, m: "SABenchMetrics") -> list[str]:
    return [f"## {title}", "", *_claims_table(m), "", *_run_lines(m), "", *_confusion(m), ""]


def train_markdown(result) -> str:
    """The training summary: uncalibrated figures beside the grouped cross-validated ones."""
    folds = "; ".join(f"{k}: {', '.join(v)}" for k, v in result.folds.items())
    return "\n".join([
        "# The calibrated judge, trained on SA-Bench's development split",
        "",
        f"Model: `{result.model_path}`. Folds grouped by paper: {folds}.",
        "",
        f"> {result.note}",
        "",
        *section("Uncalibrated (calibration off)", result.uncalibrated),
        *section("Cross-validated (each paper judged by a model that never saw it)", result.cross_validated),
        *spread_lines(result.spread),
    ])
