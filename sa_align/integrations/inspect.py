"""An Inspect AI scorer that audits the repository a solver produced against the sample's paper.

    from sa_align.integrations.inspect import sa_align_scorer

    Task(dataset=..., solver=..., sandbox="docker",
         scorer=sa_align_scorer(paper="paper.md", units="paper.units.yaml", repo_dir="/workspace/repo"))

The paper is the sample metadata's `paper` (a path), else its `paper_text`
(Markdown), else the scorer's `paper` argument; a units file likewise
(`units`). The repository is the metadata's `repo` path when present, else
`repo_dir` copied out of the sample's sandbox within `CopyCaps` (a copy that
hits a cap says so in the score). The score's value is the report's mean
SA-Bench-scale score; its metadata holds the counts per label and where the
drift report was written.

Outcomes follow Inspect's scoring policy: a solver that produced no repository
scores 0 with an explanation (as SA-Bench scores an empty run); a run in which
no unit could be decided, or whose paper or units file cannot be read (the
scorer's own inputs), is unscored; anything else that goes wrong raises.
Static judges run offline by default; `judges=[...]` (litellm model strings)
or a whole `config` adds LLM judges.
"""

from __future__ import annotations

import re
import tempfile
from pathlib import Path
from typing import Any, Sequence

from inspect_ai.scorer import Score, Target, mean, scorer, stderr
from inspect_ai.solver import TaskState

from sa_align.config import EvalConfig, ModelSpec
from sa_align.errors import PaperError, UnitsFileError
from sa_align.integrations.sandbox_copy import CopyCaps, copy_out
from sa_align.pipeline import evaluate
from sa_align.report import write_reports

__all__ = ["CopyCaps", "sa_align_scorer"]


class _Unscorable(Exception):
    """The scorer's own inputs (paper, units, where the repository is) are unusable."""


@scorer(metrics=[mean(), stderr()])
def sa_align_scorer(
    paper: str | Path | None = None,
    units: str | Path | None = None,
    *,
    repo_dir: str = ".",
    sandbox_name: str | None = None,
    judges: Sequence[str | ModelSpec] = (),
    config: EvalConfig | None = None,
    caps: CopyCaps | None = None,
    out_dir: str | Path = "sa_align_reports",
):
    """Score each sample by auditing its repository against its paper (mean SA-Bench score, 0 to 1).

    Args:
      paper: Paper file used when the sample's metadata names none.
      units: Units file (ours, SA-Bench `sau.json`, PaperBench `rubric.json`) used when the metadata names none.
      repo_dir: Folder in the sandbox that holds the solver's repository.
      sandbox_name: Which of the sample's sandboxes to copy from (`None`: the default one).
      judges: LLM judge models; none keeps the audit offline (static judges only).
      config: A whole `EvalConfig`; `judges` are added to it.
      caps: Limits of the copy out of the sandbox.
      out_dir: Where each sample's drift report is written (`<out_dir>/<sample>-<epoch>/`).
    """
    base = config or EvalConfig()
    if judges:
        base = base.model_copy(update={"judges": [*base.judges, *EvalConfig(judges=list(judges)).judges]})
    caps = caps or CopyCaps()

    async def score(state: TaskState, target: Target) -> Score:
        with tempfile.TemporaryDirectory(prefix="sa_align-inspect-") as tmp:
            try:
                paper_path, units_path = _paper_and_units(state.metadata, paper, units, Path(tmp))
                repo, where, notes = await _repository(state.metadata, repo_dir, sandbox_name, caps, Path(tmp))
            except _Unscorable as exc:
                return Score.unscored(reason="scoring_failed", explanation=str(exc))
            if repo is None:
                return Score(value=0.0, answer="no repository", explanation=f"no repository to audit: {where}",
                             metadata={"counts": {}, "report": None, "repository": where})
            return await _audit(paper_path, repo, units_path, where, notes, base, _folder(out_dir, state))

    return score


def _paper_and_units(metadata: dict, paper, units, tmp: Path) -> tuple[Path, Path | None]:
    if metadata.get("paper"):
        paper_path = Path(metadata["paper"])
    elif metadata.get("paper_text"):
        paper_path = tmp / "paper.md"
        paper_path.write_text(str(metadata["paper_text"]), encoding="utf-8")
    elif paper is not None:
        paper_path = Path(paper)
    else:
        raise _Unscorable("no paper: set the sample metadata's `paper` (a path) or `paper_text`, or the scorer's `paper`")
    if not paper_path.is_file():
        raise _Unscorable(f"paper {str(paper_path)!r} is not a file")
    units_value = metadata.get("units") or units
    units_path = Path(units_value) if units_value else None
    if units_path is not None and not units_path.is_file():
        raise _Unscorable(f"units file {str(units_path)!r} is not a file")
    return paper_path, units_path


async def _repository(metadata: dict, repo_dir: str, sandbox_name, caps: CopyCaps, tmp: Path):
    """(local folder or None, where it came from, notes on the copy)."""
    if metadata.get("repo"):
        path = Path(metadata["repo"])
        found = path.is_dir() and any(path.iterdir())
        return (path if found else None), str(path) if found else f"{path} is missing or empty", []
    from inspect_ai.util import sandbox

    try:
        env = sandbox(sandbox_name)
    except (ProcessLookupError, ValueError) as exc:
        raise _Unscorable(f"no repository: the sample has no sandbox ({exc}) and its metadata no `repo` path") from None
    where = f"sandbox:{repo_dir}"
    copied = await copy_out(env, repo_dir, tmp / "repo", caps)
    if not copied.exists:
        return None, f"{where} does not exist", []
    if copied.files == 0:
        return None, f"{where} holds no files", copied.limits
    return tmp / "repo", where, [f"copied {copied.files} files ({copied.bytes} bytes)", *copied.limits]


async def _audit(paper: Path, repo: Path, units: Path | None, where: str, notes: list[str], config: EvalConfig,
                 folder: Path) -> Score:
    import anyio

    try:
        report = await anyio.to_thread.run_sync(lambda: evaluate(paper, repo, units=units, config=config))
    except (PaperError, UnitsFileError) as exc:
        return Score.unscored(reason="scoring_failed", explanation=f"{type(exc).__name__}: {exc}")
    report.repo.path = where  # the local copy is gone once scoring ends
    written = write_reports(report, folder, ("json", "md"))
    s = report.summary
    counts = {k: v for k, v in s.counts.items() if v}
    metadata: dict[str, Any] = {
        "counts": s.counts, "by_kind": s.by_kind, "n_units": s.n_units, "report": str(written[0]),
        "repository": where, "copy": notes,
    }
    explanation = "; ".join([
        f"{s.n_units} units: " + ", ".join(f"{k} {v}" for k, v in counts.items()),
        f"report {written[0]}", *notes,
    ])
    if s.mean_score is None:
        return Score.unscored(reason="grader_failed", metadata=metadata,
                              explanation=f"no unit could be decided (configure an LLM judge); {explanation}")
    return Score(value=s.mean_score, answer=f"{s.mean_score:.3f}", explanation=explanation, metadata=metadata)


def _folder(out_dir: str | Path, state: TaskState) -> Path:
    name = re.sub(r"[^A-Za-z0-9._-]+", "_", str(state.sample_id)).strip("._") or "sample"
    return Path(out_dir) / f"{name}-{state.epoch}"
