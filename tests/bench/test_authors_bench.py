"""The pure parts of `benchmarks/authors_bench.py`: ranking, pooling, label counts, the export."""

from __future__ import annotations

import importlib.util
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

SCRIPT = Path(__file__).resolve().parents[2] / "benchmarks" / "authors_bench.py"


@pytest.fixture(scope="module")
def bench():
    spec = importlib.util.spec_from_file_location("authors_bench", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up
    try:
        spec.loader.exec_module(module)
        yield module
    finally:
        sys.modules.pop(spec.name, None)


def _summary(expected, mean, **counts):
    return {"expected_score": expected, "mean_score": mean, "counts": counts}


def test_a_tie_counts_against_the_authors_and_a_missing_figure_ranks_last(bench) -> None:
    assert bench.rank(0.6, [0.5, 0.4]) == 1
    assert bench.rank(0.5, [0.5, 0.4]) == 2
    assert bench.rank(0.5, [None, 0.7]) == 2
    assert bench.rank(None, [None, 0.1]) == 3


def test_best_and_median_skip_missing_figures(bench) -> None:
    assert bench.spread([0.2, None, 0.6, 0.4]) == (0.6, 0.4)
    assert bench.spread([None]) == (None, None)


def test_firsts_are_pooled_over_true_and_over_true_plus_partial_papers(bench) -> None:
    rows = [
        bench.PaperRow("a", "true", _summary(0.8, 0.7), [_summary(0.5, 0.9), _summary(0.4, 0.3)]),
        bench.PaperRow("b", "partial", _summary(0.6, 0.6), [_summary(0.5, 0.5)]),
        bench.PaperRow("c", "partial", _summary(0.1, None), [_summary(0.5, 0.5)]),
    ]
    figures = [bench.row_figures(r) for r in rows]
    assert figures[0]["expected_score"] == {"authors": 0.8, "agents_best": 0.5, "agents_median": 0.45, "rank": 1}
    assert figures[0]["mean_score"]["rank"] == 2
    firsts = bench.pooled_firsts(figures)
    assert firsts["true"]["expected_score"] == {"first": 1, "papers": 1}
    assert firsts["true"]["mean_score"] == {"first": 0, "papers": 1}
    assert firsts["true+partial"]["expected_score"] == {"first": 2, "papers": 3}
    assert firsts["true+partial"]["mean_score"] == {"first": 1, "papers": 3}


def test_failure_share_is_over_decided_units(bench) -> None:
    counts = bench.label_counts([_summary(None, None, aligned=2, missing=1, undecided=5),
                                 _summary(None, None, stubbed=1)])
    assert counts["reports"] == 2
    assert counts["counts"]["undecided"] == 5 and counts["counts"]["mismatched"] == 0
    assert counts["failure_share"] == 0.5


def test_the_table_has_a_row_per_paper_and_the_pooled_lines(bench) -> None:
    rows = [bench.PaperRow("a", "true", _summary(0.8, 0.7, aligned=1), [_summary(0.5, 0.9, missing=1)])]
    text = bench.render("claims", bench.summarize_source(rows))
    assert "| a | true | 0.800 | 0.500 | 0.500 | 1/2 | 0.700 | 0.900 | 0.900 | 2/2 |" in text
    assert "Authors first (true papers): by expected_score: 1/1; by mean_score: 0/1" in text
    assert "| agents | 1 | 0 | 0 | 0 | 0 | 1 | 0 | 1.000 |" in text


@pytest.mark.skipif(shutil.which("git") is None, reason="git not installed")
def test_the_export_leaves_out_blobs_the_fetched_copy_lacks(bench, tmp_path) -> None:
    work = tmp_path / "src"
    work.mkdir()

    def git(*args: str) -> str:
        return subprocess.run(["git", "-C", str(work), *args], capture_output=True, check=True, text=True).stdout.strip()

    git("init", "-q")
    (work / "train.py").write_text("lr = 3e-4\n")
    (work / "weights.bin").write_text("large\n")
    git("add", ".")
    git("-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "c")
    blob = git("rev-parse", "HEAD:weights.bin")
    (work / ".git" / "objects" / blob[:2] / blob[2:]).unlink()  # as a snapshot without large files
    mirrors = tmp_path / "mirrors"
    (mirrors / "o+r").mkdir(parents=True)
    shutil.move(str(work / ".git"), str(mirrors / "o+r" / "repo"))
    dest = tmp_path / "out"
    written, absent = bench.export_release((("o/r", git_commit(mirrors / "o+r" / "repo")),), mirrors, dest)
    assert (written, absent) == (1, 1)
    assert (dest / "train.py").read_text() == "lr = 3e-4\n" and not (dest / "weights.bin").exists()


def git_commit(git_dir: Path) -> str:
    return subprocess.run(["git", f"--git-dir={git_dir}", "rev-parse", "HEAD"], capture_output=True, check=True,
                          text=True).stdout.strip()
