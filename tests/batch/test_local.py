"""The process executor: a worker process that dies mid-pair is retried once, then its pair fails."""

import os

import pytest

from sa_align.batch import run_batch
from sa_align.batch.local import ProcessExecutor, evaluate_pair
from sa_align.batch.manifest import read_manifest
from sa_align.batch.run import _job
from sa_align.config import EvalConfig
from tests.batch.test_run import write_manifest


def die_on_b(pair, out, config, formats, stamp):
    """Kills its own process for pair `b`: on every attempt, or only the first when `retry-ok` exists."""
    marks = out / "marks"
    marks.mkdir(exist_ok=True)
    if pair.id == "b":
        tries = len(list(marks.iterdir()))
        (marks / f"b-{tries}").touch()
        if not (out / "retry-ok").exists() or tries == 0:
            os._exit(1)
    return evaluate_pair(pair, out, config, formats, stamp)


@pytest.mark.parametrize("recovers", [True, False])
def test_a_dead_worker_is_retried_once_and_only_its_pair_fails(tmp_path, recovers):
    config = EvalConfig(embeddings=False)
    out = tmp_path / "out"
    out.mkdir()
    if recovers:
        (out / "retry-ok").touch()
    jobs = [_job(pair, config) for pair in read_manifest(write_manifest(tmp_path))]
    outcomes = {o.id: o for o in ProcessExecutor(workers=2, work=die_on_b).run(jobs, out, config, ("json",))}
    assert sorted(outcomes) == ["a", "b", "c"]
    assert outcomes["a"].status == outcomes["c"].status == "done"
    assert len(list((out / "marks").glob("b-*"))) == 2
    if recovers:
        assert outcomes["b"].status == "done"
    else:
        assert outcomes["b"].status == "failed" and "died twice (retried once)" in outcomes["b"].error
        assert not (out / "b" / ".done").exists()


def test_the_batch_table_records_the_dead_workers_pair(tmp_path, monkeypatch):
    import sa_align.batch.run as run

    monkeypatch.setattr(run, "make_executor", lambda *a, **k: ProcessExecutor(workers=2, work=die_on_b))
    outcomes = run_batch(write_manifest(tmp_path), tmp_path / "out", EvalConfig(embeddings=False))
    assert [o.status for o in outcomes] == ["done", "failed", "done"]
    assert "| b | failed |" in (tmp_path / "out" / "summary.md").read_text()
