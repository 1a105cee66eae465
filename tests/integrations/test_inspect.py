"""The Inspect AI scorer in a real `inspect_ai.eval()`: a tiny task, the mock model, a local sandbox."""

import json
import math
from pathlib import Path

import pytest

pytest.importorskip("inspect_ai")

from inspect_ai import Task, eval as inspect_eval  # noqa: E402
from inspect_ai.dataset import Sample  # noqa: E402
from inspect_ai.solver import Generate, TaskState, generate, solver  # noqa: E402
from inspect_ai.util import sandbox  # noqa: E402

from sa_align import evaluate  # noqa: E402
from sa_align.config import EvalConfig  # noqa: E402
from sa_align.integrations.inspect import CopyCaps, sa_align_scorer  # noqa: E402
from tests.conftest import EXAMPLES  # noqa: E402

EX = EXAMPLES / "focal_loss"


@solver
def write_reproduction():
    """Asks the (mock) model, then writes the sample's `files_to_write` into the sandbox as its 'repository'."""

    async def solve(state: TaskState, generate_: Generate) -> TaskState:
        state = await generate_(state)
        for rel, text in state.metadata.get("files_to_write", {}).items():
            await sandbox().write_file(f"repo/{rel}", text)
        return state

    return solve


def _example_files() -> dict[str, str]:
    return {p.relative_to(EX / "repo").as_posix(): p.read_text() for p in sorted((EX / "repo").rglob("*")) if p.is_file()}


def _samples(tmp_path) -> list[Sample]:
    many = {f"pkg/m{i:02d}.py": f"X{i} = {i}\n" for i in range(14)} | {"weights.txt": "0.5\n" * 20_000}
    return [
        Sample(id="from-sandbox", input="Reproduce the paper.", metadata={"files_to_write": _example_files()}),
        Sample(id="empty-run", input="Reproduce the paper.", metadata={}),
        Sample(id="from-path", input="Reproduce the paper.", metadata={"repo": str(EX / "repo")}),
        Sample(id="no-paper-file", input="Reproduce the paper.",
               metadata={"paper": str(tmp_path / "missing.md"), "repo": str(EX / "repo")}),
        Sample(id="over-cap", input="Reproduce the paper.", metadata={"files_to_write": many}),
    ]


@pytest.fixture
def offline_tokenizer(monkeypatch):
    """Inspect counts message tokens with tiktoken's o200k_base; litellm (a dependency) ships that file.

    Pointing tiktoken's cache there keeps the eval offline instead of downloading it.
    """
    import litellm

    monkeypatch.setenv("TIKTOKEN_CACHE_DIR", str(Path(litellm.__file__).parent / "litellm_core_utils" / "tokenizers"))


def test_scores_in_a_real_eval_with_the_mock_model(tmp_path, offline_tokenizer):
    task = Task(
        dataset=_samples(tmp_path),
        solver=[generate(), write_reproduction()],
        scorer=sa_align_scorer(paper=EX / "paper.md", units=EX / "units.yaml", repo_dir="repo",
                               config=EvalConfig(embeddings=False), out_dir=tmp_path / "reports",
                               caps=CopyCaps(max_files=11, max_file_bytes=20_000)),
        sandbox="local",
    )
    [log] = inspect_eval(task, model="mockllm/model", log_dir=str(tmp_path / "logs"), display="none")
    assert log.status == "success", log.error
    scores = {s.id: s.scores["sa_align_scorer"] for s in log.samples}

    expected = evaluate(EX / "paper.md", EX / "repo", units=EX / "units.yaml", config=EvalConfig(embeddings=False))
    sandboxed = scores["from-sandbox"]
    assert sandboxed.value == pytest.approx(expected.summary.mean_score)
    assert sandboxed.metadata["counts"] == expected.summary.counts
    report = json.loads(open(sandboxed.metadata["report"]).read())
    assert report["repo"]["path"] == "sandbox:repo" and report["summary"]["counts"] == expected.summary.counts
    assert "copied 10 files" in sandboxed.explanation and "cap" not in sandboxed.explanation
    assert scores["from-path"].value == pytest.approx(expected.summary.mean_score)

    empty = scores["empty-run"]
    assert empty.value == 0.0 and "sandbox:repo does not exist" in empty.explanation

    unscored = scores["no-paper-file"]
    assert math.isnan(unscored.value) and unscored.reason == "scoring_failed" and "missing.md" in unscored.explanation

    capped = scores["over-cap"]
    assert "stopped at the 11-file cap (14 files in the folder)" in capped.explanation
    assert "1 file(s) over 20000 bytes not copied" in capped.explanation
    assert "copied 11 files" in capped.explanation and capped.metadata["n_units"] == len(report["results"])
    assert not math.isnan(log.results.scores[0].metrics["mean"].value)


def test_llm_judges_come_through_the_scorer_arguments(tmp_path, offline_tokenizer):
    task = Task(
        dataset=[Sample(id="judged", input="Reproduce the paper.", metadata={"repo": str(EX / "repo")})],
        solver=generate(),
        scorer=sa_align_scorer(paper=EX / "paper.md", units=EX / "units.yaml", judges=["mock/judge"],
                               config=EvalConfig(embeddings=False), out_dir=tmp_path / "reports"),
    )
    [log] = inspect_eval(task, model="mockllm/model", log_dir=str(tmp_path / "logs"), display="none")
    score = log.samples[0].scores["sa_align_scorer"]
    report = json.loads(open(score.metadata["report"]).read())
    assert [j["model"] for j in report["config"]["judges"]] == ["mock/judge"]
    assert any(v["judge"].startswith("llm") or "mock/judge" in v["judge"]
               for r in report["results"] for v in r["verdicts"])
