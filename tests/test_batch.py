"""Batch runs: per-pair reports, an aggregate table, failures recorded, interrupted runs resumed."""

import json

import pytest

import sa_align.batch as batch
from sa_align.config import EvalConfig
from sa_align.errors import InputError
from tests.conftest import EXAMPLES

EX = EXAMPLES / "focal_loss"


def _offline() -> EvalConfig:
    """Embeddings are covered by the retrieval tests; here they would only make each worker load torch.

    Built per test, not at import: a config reads its cache dir when it is made.
    """
    return EvalConfig(embeddings=False)


def _manifest(tmp_path, repo_b):
    lines = [
        {"id": "a", "paper": str(EX / "paper.md"), "repo": str(EX / "repo"), "units": str(EX / "units.yaml")},
        {"id": "b", "paper": str(EX / "paper.md"), "repo": str(repo_b), "units": str(EX / "units.yaml")},
        {"id": "c", "paper": str(EX / "paper.md"), "repo": str(EX / "repo"), "units": str(EX / "units.yaml")},
    ]
    path = tmp_path / "manifest.jsonl"
    path.write_text("\n".join(json.dumps(x) for x in lines) + "\n")
    return path


def test_failed_pair_is_recorded_and_rerun_only_it(tmp_path):
    manifest = _manifest(tmp_path, tmp_path / "not-there")
    out = tmp_path / "out"
    first = batch.run_batch(manifest, out, workers=1, config=_offline())
    assert [o.status for o in first] == ["done", "failed", "done"]
    assert "not a directory" in first[1].error or "does not exist" in first[1].error
    table = (out / "summary.csv").read_text().splitlines()
    assert table[0].startswith("id,status,mean_score,aligned") and len(table) == 4
    assert "| b | failed |" in (out / "summary.md").read_text()
    second = batch.run_batch(_manifest(tmp_path, EX / "repo"), out, workers=1, config=_offline())
    assert [o.status for o in second] == ["skipped", "done", "skipped"]
    assert (out / "b" / "report.json").is_file() and (out / "b" / "report.md").is_file()


class Killed(BaseException):
    """Stands in for the process being stopped mid-batch (like KeyboardInterrupt, not an Exception)."""


def test_interrupted_batch_resumes_without_redoing_finished_pairs(tmp_path, monkeypatch):
    manifest = _manifest(tmp_path, EX / "repo")
    out = tmp_path / "out"
    real = batch.evaluate_pair
    calls = []
    killed = []

    def interrupt_on_second(pair, *args):
        calls.append(pair.id)
        if pair.id == "b" and not killed:
            killed.append(pair.id)
            raise Killed
        return real(pair, *args)

    monkeypatch.setattr(batch, "evaluate_pair", interrupt_on_second)
    with pytest.raises(Killed):
        batch.run_batch(manifest, out, workers=1, config=_offline())
    assert (out / "a" / ".done").is_file() and not (out / "b").exists()
    calls.clear()
    outcomes = batch.run_batch(manifest, out, workers=1, config=_offline())
    assert calls == ["b", "c"]
    assert [o.status for o in outcomes] == ["skipped", "done", "done"]


def test_pool_of_two_processes(tmp_path):
    manifest = _manifest(tmp_path, EX / "repo")
    outcomes = batch.run_batch(manifest, tmp_path / "out", workers=2, config=_offline())
    assert sorted(o.status for o in outcomes) == ["done", "done", "done"]
    assert outcomes[0].mean_score == outcomes[2].mean_score


def test_bad_manifest_lines(tmp_path):
    bad = tmp_path / "m.jsonl"
    bad.write_text('{"paper": "p.md"}\n')
    with pytest.raises(InputError, match="m.jsonl:1"):
        batch.read_manifest(bad)
    dup = tmp_path / "d.jsonl"
    dup.write_text('{"id": "x", "paper": "p", "repo": "r"}\n{"id": "x", "paper": "p", "repo": "r"}\n')
    with pytest.raises(InputError, match="duplicate"):
        batch.read_manifest(dup)
