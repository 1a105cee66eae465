"""The Ray executor on a real local Ray runtime: the same folders as the process pool, from content."""

import json
import os
import shutil
import socket
import time
import uuid

import pytest

ray = pytest.importorskip("ray")

from sa_align.batch import run_batch  # noqa: E402
from sa_align.batch.ray_exec import RayExecutor, evaluate_remote, start_local_runtime  # noqa: E402
from sa_align.config import EvalConfig  # noqa: E402
from sa_align.errors import ExecutorError  # noqa: E402
from tests.batch.test_run import EX, write_manifest  # noqa: E402

pytestmark = pytest.mark.slow

VOLATILE = ("created_at", "timing")
"""Report fields that differ between any two runs."""


@pytest.fixture(scope="module", autouse=True)
def runtime():
    """One small local runtime for the module (the executor reuses a runtime it finds running)."""
    start_local_runtime(ray, workers=2)
    yield
    ray.shutdown()


def _config(tmp_path) -> EvalConfig:
    return EvalConfig(embeddings=False, cache_dir=tmp_path / "cache")


def _reports(out) -> dict:
    found = {}
    for path in sorted(out.glob("*/report.json")):
        data = json.loads(path.read_text())
        found[path.parent.name] = {k: v for k, v in data.items() if k not in VOLATILE}
    return found


def _changed_repo(tmp_path):
    repo = shutil.copytree(EX / "repo", tmp_path / "runs" / "repo")
    config = repo / "config.yaml"
    config.write_text(config.read_text().replace("lr: 0.02", "lr: 0.01"))
    return repo


def test_reports_match_the_process_executor_and_the_cache_is_keyed_by_content(tmp_path):
    manifest = write_manifest(tmp_path, repo_b=_changed_repo(tmp_path))
    config = _config(tmp_path)
    by_ray = run_batch(manifest, tmp_path / "ray", config, executor="ray")
    by_pool = run_batch(manifest, tmp_path / "pool", config, executor="process", workers=2)
    assert [o.status for o in by_ray] == ["done", "done", "done"]
    assert [o.model_dump() for o in by_ray] == [o.model_dump() for o in by_pool]
    assert _reports(tmp_path / "ray") == _reports(tmp_path / "pool") and len(_reports(tmp_path / "ray")) == 3
    assert (tmp_path / "ray" / "summary.csv").read_text() == (tmp_path / "pool" / "summary.csv").read_text()
    # The process executor's stamps are the Ray executor's: nothing is left to do.
    assert {o.status for o in run_batch(manifest, tmp_path / "ray", config, executor="process")} == {"skipped"}

    # The same content under another path on the worker hits the index cache: nothing new is written.
    cache = tmp_path / "cache" / "index"
    before = {p: p.stat().st_mtime_ns for p in cache.rglob("*") if p.is_file()}
    moved = shutil.copytree(EX / "repo", tmp_path / "moved" / "repo")
    again = run_batch(write_manifest(tmp_path, repo_b=moved, name="again.jsonl"), tmp_path / "again", config,
                      executor="ray")
    assert [o.mean_score for o in again] == [by_ray[0].mean_score] * 3
    assert {p: p.stat().st_mtime_ns for p in cache.rglob("*") if p.is_file()} == before


def test_shared_prefix_reads_inputs_in_place(tmp_path):
    manifest = write_manifest(tmp_path)
    config = _config(tmp_path)
    shared = run_batch(manifest, tmp_path / "shared", config, executor="ray", shared_prefix=EX.parent)
    pool = run_batch(manifest, tmp_path / "pool", config, executor="process", workers=1)
    assert [o.status for o in shared] == ["done"] * 3
    assert _reports(tmp_path / "shared") == _reports(tmp_path / "pool")


def test_one_failing_pair_is_recorded_with_the_drivers_paths(tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text("units: [this is not: a unit list\n")
    outcomes = run_batch(write_manifest(tmp_path, units_b=bad), tmp_path / "out", _config(tmp_path), executor="ray")
    assert [o.status for o in outcomes] == ["done", "failed", "done"]
    assert "bad.yaml" in outcomes[1].error and "sa_align-pair-" not in outcomes[1].error
    assert not (tmp_path / "out" / "b" / ".done").exists()


def die_on_first_attempt(paper, repo, meta, config):
    """A task body whose first run kills its worker process (as an out-of-memory kill would)."""
    marks = meta["marks"]
    os.makedirs(marks, exist_ok=True)
    open(os.path.join(marks, uuid.uuid4().hex), "w").close()
    if len(os.listdir(marks)) == 1:
        os._exit(1)
    return evaluate_remote(paper, repo, meta, config)


def always_die(paper, repo, meta, config):
    marks = meta["marks"]
    os.makedirs(marks, exist_ok=True)
    open(os.path.join(marks, uuid.uuid4().hex), "w").close()
    os._exit(1)


class _Marked(RayExecutor):
    """Adds a folder for the task body's attempt marks to every task's metadata."""

    def __init__(self, work, marks):
        super().__init__(work=work)
        self.marks = marks

    def _arguments(self, job, stored):
        paper, repo, meta = super()._arguments(job, stored)
        return paper, repo, {**meta, "marks": str(self.marks / job.pair.id)}


def _one_pair_manifest(tmp_path):
    path = tmp_path / "one.jsonl"
    path.write_text(json.dumps({"id": "a", "paper": str(EX / "paper.md"), "repo": str(EX / "repo"),
                                "units": str(EX / "units.yaml")}) + "\n")
    return path


@pytest.mark.parametrize(("work", "status", "attempts"), [(die_on_first_attempt, "done", 2), (always_die, "failed", 2)])
def test_a_worker_that_dies_is_retried_once_then_the_pair_fails(tmp_path, work, status, attempts):
    from sa_align.batch.inputs import Job, pair_digest, paper_bundle, repo_bundle
    from sa_align.batch.manifest import read_manifest
    from sa_align.batch.outcome import stamp

    config = _config(tmp_path)
    [pair] = read_manifest(_one_pair_manifest(tmp_path))
    paper, repo = paper_bundle(pair.paper), repo_bundle(pair.repo, config.index)
    job = Job(pair=pair, paper=paper, repo=repo, stamp=stamp(pair_digest(paper, repo, pair.units), config))
    (tmp_path / "out").mkdir()
    with _Marked(work, tmp_path / "marks") as executor:
        [outcome] = list(executor.run([job], tmp_path / "out", config, ("json",)))
    assert outcome.status == status
    assert len(list((tmp_path / "marks" / "a").iterdir())) == attempts
    if status == "failed":
        assert "lost twice (retried once)" in outcome.error


def test_an_unreachable_address_fails_fast_naming_it(tmp_path):
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]  # closed again when the block ends: nothing listens there
    address = f"127.0.0.1:{port}"
    started = time.monotonic()
    with pytest.raises(ExecutorError, match=f"no Ray cluster answers at '{address}'"):
        run_batch(_one_pair_manifest(tmp_path), tmp_path / "out", _config(tmp_path), executor="ray", address=address)
    assert time.monotonic() - started < 10
    assert not (tmp_path / "out").exists()
