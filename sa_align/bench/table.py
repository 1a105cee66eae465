"""Rich tables of benchmark results, for the terminal."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from sa_align.bench.metrics import Metrics

if TYPE_CHECKING:
    from rich.console import Console, RenderableType


def _f(x: float | None, pct: bool = True) -> str:
    if x is None:
        return "-"
    return f"{100 * x:.1f}" if pct else f"{x:.3f}"


def _summary_rows(m: Metrics) -> list[tuple[str, str]]:
    rows = [
        ("units", str(m.n)),
        ("accuracy %", _f(m.accuracy)),
        ("accuracy (decided) %", _f(m.accuracy_decided)),
        ("macro-F1 %", _f(m.macro_f1)),
        ("balanced accuracy %", _f(m.balanced_accuracy)),
        ("Cohen's kappa", _f(m.kappa, pct=False)),
        ("undecided %", _f(m.undecided_share)),
    ]
    rows += [(f"recall@{k} %", _f(v)) for k, v in m.recall_at_k.items()]
    rows += [
        ("value-mutation detection %", _f(m.value_mutation_detection)),
        ("value mutations held for review %", _f(m.value_mutation_held)),
        ("false flags on clean numerical %", _f(m.false_flag_rate)),
        ("false flags on clean units, every kind %", _f(m.false_flag_rate_all)),
        ("stubbed P / R %", f"{_f(m.stubbed_precision)} / {_f(m.stubbed_recall)}"),
        ("missing P / R %", f"{_f(m.missing_precision)} / {_f(m.missing_recall)}"),
    ]
    return rows


def metrics_tables(m: Metrics, title: str) -> list[Any]:
    from rich.table import Table

    summary = Table(title=title, show_header=True)
    summary.add_column("metric")
    summary.add_column("value", justify="right")
    for name, value in _summary_rows(m):
        summary.add_row(name, value)
    labels = Table(title="per label", show_header=True)
    for col in ("label", "precision %", "recall %", "F1 %", "gold", "predicted"):
        labels.add_column(col, justify="left" if col == "label" else "right")
    for lab, s in m.per_label.items():
        if s.support or s.predicted:
            labels.add_row(lab, _f(s.precision), _f(s.recall), _f(s.f1), str(s.support), str(s.predicted))
    kinds = Table(title="per kind", show_header=True)
    for col in ("kind", "units", "accuracy %", "macro-F1 %", "kappa", "undecided %"):
        kinds.add_column(col, justify="left" if col == "kind" else "right")
    for kind, km in m.by_kind.items():
        kinds.add_row(kind, str(km.n), _f(km.accuracy), _f(km.macro_f1), _f(km.kappa, pct=False), _f(km.undecided_share))
    return [summary, labels, kinds]


def render_table(result: Any, console: "Console | None" = None) -> "RenderableType":
    """Print the result's tables (a `BenchResult` or a `JudgeEvalResult`) and return them as one renderable."""
    from rich.console import Console, Group

    renderables = result.tables() if hasattr(result, "tables") else _bench_tables(result)
    group = Group(*renderables)
    (console or Console()).print(group)
    return group


def _bench_tables(result: Any) -> list[Any]:
    from rich.text import Text

    runs = len(result.runs)
    variants = sum(1 for r in result.runs if r.mutation is not None)
    head = Text(
        f"{len(result.cases)} case(s), {variants} variant(s), {runs} evaluation(s), "
        f"{len(result.errors)} error(s), {result.seconds:.1f}s; seed {result.seed}"
    )
    out: list[Any] = [head]
    out += metrics_tables(result.metrics, "all units")
    if variants:
        from rich.table import Table

        targets = Table(title="mutated units only", show_header=True)
        targets.add_column("metric")
        targets.add_column("value", justify="right")
        for name, value in _summary_rows(result.target_metrics)[:7]:
            targets.add_row(name, value)
        out.append(targets)
    return out
