"""The Ray executor: pairs as Ray tasks on a local Ray runtime or an existing cluster.

Nothing assumes the driver's file system on a worker: each pair's paper (with
its LaTeX sources) and the repository's indexable files travel as archives
through Ray's object store, one object per distinct content, and the worker
unpacks them into a temporary folder. When every path of a pair lies under a
`shared_prefix` the user declares mounted on all nodes, the worker reads the
paths instead. Workers return the report; the driver writes it into `--out`,
restoring what only the driver can know (the input paths, the git commit,
files the walk skipped), so the folder is the same as the process executor's.
A worker that dies mid-pair is retried once by Ray, then the pair is failed.
"""

from __future__ import annotations

import os
import socket
import tempfile
from pathlib import Path
from typing import Any, Callable, Iterator

from sa_align.batch.inputs import Job, pack, unpack
from sa_align.batch.outcome import PairOutcome, failed, write_pair
from sa_align.config import EvalConfig
from sa_align.errors import ExecutorError
from sa_align.models import DriftReport
from sa_align.pipeline import evaluate

CONNECT_TIMEOUT_S = 3.0
"""How long an `--address` may take to accept a connection before the batch stops."""


def evaluate_remote(paper: Any, repo: Any, meta: dict, config: EvalConfig) -> dict:
    """Run on a worker: evaluate one pair from content (bytes) or shared paths; never raises."""
    try:
        if meta["shared"]:
            report = evaluate(Path(paper), Path(repo), units=meta["units_path"], config=config)
            return {"report": report.model_dump_json()}
        with tempfile.TemporaryDirectory(prefix="sa_align-pair-") as tmp:
            paper_path, repo_path, units = _materialize(Path(tmp), paper, repo, meta)
            try:
                report = evaluate(paper_path, repo_path, units=units, config=config)
            except Exception as exc:
                # Name the driver's paths, not this worker's temporary copies.
                message = f"{type(exc).__name__}: {exc}".replace(str(repo_path), meta["repo_path"])
                return {"error": message.replace(str(paper_path), meta["paper_path"])}
            return {"report": report.model_dump_json()}
    except Exception as exc:  # one broken pair must not stop the batch
        return {"error": f"{type(exc).__name__}: {exc}"}


def _materialize(tmp: Path, paper: bytes, repo: bytes, meta: dict) -> tuple[Path, Path, Path | None]:
    paper_dir = unpack(paper, tmp / "paper")
    repo_dir = unpack(repo, tmp / "repo" / meta["repo_name"])
    units = None
    if meta["units_bytes"] is not None:
        units = tmp / "units" / meta["units_name"]
        units.parent.mkdir(parents=True)
        units.write_bytes(meta["units_bytes"])
    return paper_dir / meta["paper_name"], repo_dir, units


class RayExecutor:
    """Pairs as Ray tasks; `address=None` starts (and afterwards stops) a local runtime of `workers` CPUs."""

    name = "ray"

    def __init__(self, address: str | None = None, workers: int | None = None, shared_prefix: str | Path | None = None,
                 work: Callable[..., dict] | None = None) -> None:
        self.address, self.workers = address, workers
        self.shared_prefix = Path(shared_prefix) if shared_prefix else None
        self.work = work or evaluate_remote
        """The task body (`evaluate_remote`); replaceable so tests can make a worker die."""
        self._started = False
        # Fail now, before any input is read: a missing extra, an address nobody answers at.
        self._ray: Any = _import_ray()
        if address is not None:
            check_reachable(address)

    def __enter__(self) -> "RayExecutor":
        if not self._ray.is_initialized():
            _connect(self._ray, self.address, self.workers)
            self._started = True
        return self

    def __exit__(self, *exc) -> None:
        if self._started:
            self._ray.shutdown()
            self._started = False

    def run(self, jobs: list[Job], out: Path, config: EvalConfig, formats: tuple[str, ...]) -> Iterator[PairOutcome]:
        """Submit every pair, then yield outcomes as tasks finish (the driver writes the reports)."""
        ray = self._ray
        task = ray.remote(max_retries=1, retry_exceptions=False, num_cpus=1)(self.work)
        stored: dict[str, Any] = {}
        pending = {task.remote(*self._arguments(job, stored), config): job for job in jobs}
        while pending:
            ready, _ = ray.wait(list(pending), num_returns=1)
            job = pending.pop(ready[0])
            yield self._collect(ready[0], job, out, formats)

    def _shared(self, job: Job) -> bool:
        if self.shared_prefix is None:
            return False
        paths = [job.pair.paper, job.pair.repo, *([job.pair.units] if job.pair.units else [])]
        return all(Path(os.path.abspath(p)).is_relative_to(os.path.abspath(self.shared_prefix)) for p in paths)

    def _arguments(self, job: Job, stored: dict[str, Any]) -> tuple[Any, Any, dict]:
        pair = job.pair
        if self._shared(job):
            units = str(pair.units) if pair.units else None
            return str(pair.paper), str(pair.repo), {"shared": True, "units_path": units}
        # One object per distinct content: a repository audited against many papers is stored once.
        for bundle in (job.paper, job.repo):
            if bundle.digest not in stored:
                stored[bundle.digest] = self._ray.put(pack(bundle))
        meta = {
            "shared": False, "paper_name": pair.paper.name, "repo_name": pair.repo.name or "repo",
            "units_name": pair.units.name if pair.units else None,
            "units_bytes": pair.units.read_bytes() if pair.units else None,
            "paper_path": str(pair.paper), "repo_path": str(pair.repo),
        }
        return stored[job.paper.digest], stored[job.repo.digest], meta

    def _collect(self, ref: Any, job: Job, out: Path, formats: tuple[str, ...]) -> PairOutcome:
        try:
            result = self._ray.get(ref)
        except self._ray.exceptions.RayError as exc:
            first = str(exc).strip().splitlines()[0] if str(exc).strip() else ""
            return failed(job.pair.id, f"{type(exc).__name__}: the task was lost twice (retried once); {first}")
        if "error" in result:
            return failed(job.pair.id, result["error"])
        try:
            report = DriftReport.model_validate_json(result["report"])
            if not self._shared(job):
                _restore_identity(report, job)
            return write_pair(report, out / job.pair.id, formats, job.stamp)
        except Exception as exc:
            return failed(job.pair.id, exc)


def _restore_identity(report, job: Job) -> None:
    """What the worker's temporary copy could not know: where the inputs live, HEAD, what the walk left out."""
    report.paper.path = str(job.pair.paper)
    report.repo.path = str(job.pair.repo)
    report.repo.git_commit = job.repo.git_commit
    report.repo.files_skipped += job.repo.skipped


def _import_ray():
    try:
        import ray
    except ImportError as exc:
        raise ExecutorError("the Ray executor needs ray: pip install 'sa-align[ray]'") from exc
    return ray


def _connect(ray, address: str | None, workers: int | None) -> None:
    if address is None:
        start_local_runtime(ray, workers)
        return
    try:
        ray.init(address=address, log_to_driver=False, logging_level="ERROR")
    except Exception as exc:
        raise ExecutorError(f"could not connect to the Ray cluster at {address!r}: {type(exc).__name__}: {exc}") from exc


def start_local_runtime(ray, workers: int | None = None) -> None:
    """A Ray runtime on this machine with `workers` CPUs, whose workers import this very sa_align."""
    here = str(Path(__file__).resolve().parents[2])
    path = os.pathsep.join(p for p in (here, os.environ.get("PYTHONPATH")) if p)
    ray.init(num_cpus=workers or os.cpu_count() or 1, include_dashboard=False, log_to_driver=False,
             logging_level="ERROR", runtime_env={"env_vars": {"PYTHONPATH": path}})


def check_reachable(address: str, timeout: float = CONNECT_TIMEOUT_S) -> None:
    """Fail within `timeout` seconds, naming `address`, when nothing listens there (ray.init may wait far longer)."""
    host_port = address.split("://", 1)[-1].rstrip("/")
    host, sep, port = host_port.rpartition(":")
    if not sep or not port.isdigit():
        return  # "auto" and other forms Ray resolves itself
    try:
        with socket.create_connection((host.strip("[]") or "127.0.0.1", int(port)), timeout=timeout):
            return
    except OSError as exc:
        raise ExecutorError(
            f"no Ray cluster answers at {address!r} ({exc.strerror or exc}); start one with `ray start --head` "
            "or leave out --address to run on a local Ray runtime") from None
