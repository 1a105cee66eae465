"""Score `sa_align` against PaperBench JudgeEval grades (human-graded submissions).

Layout read (tolerant; only what is needed is required):

```
DATASET/                       any folder; every `expected_result.json` below it is one graded submission
  .../<item>/
    expected_result.json       the grading tree: rubric nodes (`id`, `requirements`, `weight`,
                               `sub_tasks`, and on leaves `task_category` and a `score` of 0 or 1);
                               the tree may also sit under a key such as `graded_task_tree`
    submission/                the submitted repository (else the item's only subfolder)
    paper.md                   optional; also looked for (any of paper.md/.pdf/.tex/.txt) in up to
                               three parent folders; without one, a stand-in paper is built from the
                               rubric text (units are given, so nothing is extracted from it)
```

Only leaves whose `task_category` is Code Development are scored. The rubric
leaves become units through `sa_align.extract.importers.import_paperbench_rubric`;
our binary decision is 1 for `aligned` and 0 for any other decided label;
`undecided` leaves are excluded from the scores and counted.
"""

from __future__ import annotations

import json
import tempfile
from pathlib import Path
from typing import Any, Callable

from pydantic import BaseModel, ConfigDict, Field

from sa_align.bench.agreement import cohen_kappa
from sa_align.config import EvalConfig
from sa_align.errors import DatasetError
from sa_align.extract.importers import import_paperbench_rubric
from sa_align.models import DriftReport, Label

PAPER_NAMES = ("paper.md", "paper.pdf", "paper.tex", "paper.txt")
TREE_KEYS = ("graded_task_tree", "task_tree", "grading", "result", "judge_output", "rubric")


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", use_attribute_docstrings=True)


class LeafOutcome(_Model):
    """One Code Development leaf: the expected grade and our decision."""

    item: str
    """Submission folder."""
    leaf_id: str
    """Rubric node id."""
    expected: int
    """Expected grade: 1 passed, 0 failed."""
    label: Label
    """Our label for the leaf's unit."""
    predicted: int | None
    """1 for aligned, 0 for another decided label, `None` when undecided."""


class BinaryMetrics(_Model):
    """Agreement of binary decisions with expected grades."""

    leaves: int = 0
    """Code Development leaves with an expected grade."""
    decided: int = 0
    """Leaves we decided."""
    undecided: int = 0
    """Leaves we left undecided (excluded from the scores)."""
    accuracy: float | None = None
    """Share of decided leaves whose decision equals the grade."""
    precision: float | None = None
    """Of leaves we passed, the share graded passed."""
    recall: float | None = None
    """Of leaves graded passed, the share we passed."""
    f1: float | None = None
    """F1 of the `passed` class."""
    kappa: float | None = None
    """Cohen's kappa between decisions and grades."""


class JudgeEvalResult(_Model):
    """The whole JudgeEval comparison."""

    dataset: str
    """Dataset path."""
    items: list[str] = Field(default_factory=list)
    """Submission folders evaluated."""
    outcomes: list[LeafOutcome] = Field(default_factory=list)
    """Per-leaf expected grade and decision."""
    metrics: BinaryMetrics = Field(default_factory=BinaryMetrics)
    """Scores over all decided leaves."""
    errors: list[str] = Field(default_factory=list)
    """Items that could not be evaluated."""

    def tables(self) -> list[Any]:
        from rich.table import Table

        t = Table(title=f"PaperBench JudgeEval ({len(self.items)} submission(s))")
        t.add_column("metric")
        t.add_column("value", justify="right")
        m = self.metrics
        for name, value in m.model_dump().items():
            t.add_row(name, "-" if value is None else f"{value:.3f}" if isinstance(value, float) else str(value))
        t.add_row("errors", str(len(self.errors)))
        return [t]


def find_tree(data: Any) -> dict[str, Any] | None:
    """The grading tree inside an `expected_result.json` payload."""
    if isinstance(data, dict):
        if "sub_tasks" in data or ("requirements" in data and "id" in data):
            return data
        for key in TREE_KEYS:
            if (inner := find_tree(data.get(key))) is not None:
                return inner
    return None


def code_leaves(tree: dict[str, Any]) -> dict[str, int]:
    """Leaf id -> expected grade (0/1) of every scored Code Development leaf."""
    out: dict[str, int] = {}
    stack = [tree]
    while stack:
        node = stack.pop()
        kids = [c for c in node.get("sub_tasks") or [] if isinstance(c, dict)]
        if kids:
            stack.extend(kids)
            continue
        category = str(node.get("task_category") or "").strip().lower().replace("_", " ")
        score = node.get("score")
        if category == "code development" and isinstance(score, (int, float)) and not isinstance(score, bool):
            out[str(node.get("id"))] = 1 if score >= 0.5 else 0
    return out


def _strip_scores(node: dict[str, Any]) -> dict[str, Any]:
    keep = {k: v for k, v in node.items() if k in ("id", "requirements", "weight", "task_category", "finegrained_task_category")}
    keep["sub_tasks"] = [_strip_scores(c) for c in node.get("sub_tasks") or [] if isinstance(c, dict)]
    return keep


def _submission(item: Path) -> Path:
    if (item / "submission").is_dir():
        return item / "submission"
    subdirs = [p for p in item.iterdir() if p.is_dir() and not p.name.startswith(".")]
    if len(subdirs) == 1:
        return subdirs[0]
    raise DatasetError(f"{item}: no `submission/` folder")


def _paper(item: Path, tree: dict[str, Any], tmp: Path) -> Path:
    for folder in [item, *list(item.parents)[:3]]:
        for name in PAPER_NAMES:
            if (folder / name).is_file():
                return folder / name
    stand_in = tmp / f"{item.name}-paper.md"
    text = [f"# {tree.get('requirements') or item.name}", ""]
    text += [f"- {r}" for r in _requirements(tree)]
    stand_in.write_text("\n".join(text) + "\n", encoding="utf-8")
    return stand_in


def _requirements(node: dict[str, Any]) -> list[str]:
    out = [str(node["requirements"])] if node.get("requirements") and not node.get("sub_tasks") else []
    for c in node.get("sub_tasks") or []:
        if isinstance(c, dict):
            out += _requirements(c)
    return out


def _judge_item(item: Path, config: EvalConfig, evaluator: Callable[..., DriftReport], tmp: Path) -> list[LeafOutcome]:
    try:
        data = json.loads((item / "expected_result.json").read_text(encoding="utf-8-sig"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise DatasetError(f"{item}: unreadable expected_result.json: {exc}") from exc
    tree = find_tree(data)
    if tree is None:
        raise DatasetError(f"{item}: expected_result.json holds no grading tree")
    expected = code_leaves(tree)
    units = [u for u in import_paperbench_rubric(_strip_scores(tree)) if u.id in expected]
    if not units:
        raise DatasetError(f"{item}: no graded Code Development leaves")
    report = evaluator(_paper(item, tree, tmp), _submission(item), units=units, config=config)
    labels = {r.unit.id: r.label for r in report.results}
    out = []
    for unit in units:
        label = labels.get(unit.id, Label.UNDECIDED)
        pred = None if label == Label.UNDECIDED else int(label == Label.ALIGNED)
        out.append(LeafOutcome(item=str(item), leaf_id=unit.id, expected=expected[unit.id], label=label, predicted=pred))
    return out


def binary_metrics(outcomes: list[LeafOutcome]) -> BinaryMetrics:
    decided = [o for o in outcomes if o.predicted is not None]
    m = BinaryMetrics(leaves=len(outcomes), decided=len(decided), undecided=len(outcomes) - len(decided))
    if not decided:
        return m
    from sklearn.metrics import accuracy_score, precision_recall_fscore_support

    y = [o.expected for o in decided]
    p = [o.predicted for o in decided]
    prec, rec, f1, _ = precision_recall_fscore_support(y, p, labels=[1], zero_division=float("nan"))
    m.accuracy = float(accuracy_score(y, p))
    m.precision, m.recall, m.f1 = (None if v != v else float(v) for v in (prec[0], rec[0], f1[0]))
    m.kappa = cohen_kappa(y, p, [0, 1])
    return m


def run_judgeeval(
    dataset: str | Path,
    config: EvalConfig | None = None,
    *,
    out: Path | None = None,
    evaluator: Callable[..., DriftReport] | None = None,
) -> JudgeEvalResult:
    """Evaluate every graded submission under `dataset` and compare with the expected leaf grades."""
    root = Path(dataset)
    items = sorted({p.parent for p in root.rglob("expected_result.json")}) if root.is_dir() else []
    if not items:
        raise DatasetError(f"{root}: no expected_result.json found (see sa_align.bench.judgeeval for the layout)")
    if evaluator is None:
        from sa_align.pipeline import evaluate as evaluator
    config = config or EvalConfig()
    result = JudgeEvalResult(dataset=str(root))
    with tempfile.TemporaryDirectory(prefix="sa-align-judgeeval-") as tmp:
        for item in items:
            try:
                result.outcomes += _judge_item(item, config, evaluator, Path(tmp))
                result.items.append(str(item))
            except Exception as exc:  # one broken submission is recorded, never sinks the run
                result.errors.append(f"{item}: {type(exc).__name__}: {exc}")
    result.metrics = binary_metrics(result.outcomes)
    if out is not None:
        Path(out).parent.mkdir(parents=True, exist_ok=True)
        Path(out).write_text(json.dumps(result.model_dump(mode="json"), indent=2), encoding="utf-8")
    return result
