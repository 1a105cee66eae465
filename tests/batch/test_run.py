"""Batch runs: per-pair reports, an aggregate table, failures recorded, resumes keyed by content."""

import json
import shutil

import pytest

import sa_align.batch.local as local
from sa_align.batch import run_batch
from sa_align.config import EvalConfig
from sa_align.errors import InputError
from tests.conftest import EXAMPLES

EX = EXAMPLES / "focal_loss"


def _offline() -> EvalConfig:
    """Embeddings are covered by the retrieval tests; here they would only make each worker load torch.

    Built per test, not at import: a config reads its cache dir when it is made.
    """
    return EvalConfig(embeddings=False, rules={"preview": True})  # findings as labels, so counts move with the code


def write_manifest(tmp_path, repo_b=EX / "repo", units_b=EX / "units.yaml", name="manifest.jsonl"):
    lines = [
        {"id": "a", "paper": str(EX / "paper.md"), "repo": str(EX / "repo"), "units": str(EX / "units.yaml")},
        {"id": "b", "paper": str(EX / "paper.md"), "repo": str(repo_b), "units": str(units_b)},
        {"id": "c", "paper": str(EX / "paper.md"), "repo": str(EX / "repo"), "units": str(EX / "units.yaml")},
    ]
    path = tmp_path / name
    path.write_text("\n".join(json.dumps(x) for x in lines) + "\n")
    return path


def test_failed_pair_is_recorded_and_rerun_only_it(tmp_path):
    bad_units = tmp_path / "bad.yaml"
    bad_units.write_text("units: [this is not: a unit list\n")
    out = tmp_path / "out"
    first = run_batch(write_manifest(tmp_path, units_b=bad_units), out, workers=1, config=_offline())
    assert [o.status for o in first] == ["done", "failed", "done"]
    assert "bad.yaml" in first[1].error
    table = (out / "summary.csv").read_text().splitlines()
    assert table[0].startswith("id,status,mean_score,aligned") and len(table) == 4
    assert "| b | failed |" in (out / "summary.md").read_text()
    second = run_batch(write_manifest(tmp_path), out, workers=1, config=_offline())
    assert [o.status for o in second] == ["skipped", "done", "skipped"]
    assert (out / "b" / "report.json").is_file() and (out / "b" / "report.md").is_file()


def test_resume_follows_content_not_paths(tmp_path):
    out = tmp_path / "out"
    run_batch(write_manifest(tmp_path), out, workers=1, config=_offline())
    moved = shutil.copytree(EX / "repo", tmp_path / "elsewhere" / "repo")
    again = run_batch(write_manifest(tmp_path, repo_b=moved), out, workers=1, config=_offline())
    assert [o.status for o in again] == ["skipped", "skipped", "skipped"]
    config_yaml = moved / "config.yaml"
    config_yaml.write_text(config_yaml.read_text().replace("lr: 0.02", "lr: 0.01"))
    changed = run_batch(write_manifest(tmp_path, repo_b=moved), out, workers=1, config=_offline())
    assert [o.status for o in changed] == ["skipped", "done", "skipped"]
    assert changed[1].counts["mismatched"] == again[1].counts["mismatched"] - 1


def test_a_pair_done_by_other_code_is_evaluated_again(tmp_path, monkeypatch):
    out = tmp_path / "out"
    run_batch(write_manifest(tmp_path), out, workers=1, config=_offline())
    monkeypatch.setattr("sa_align.resources.code_fingerprint", lambda: "edited")
    again = run_batch(write_manifest(tmp_path), out, workers=1, config=_offline())
    assert [o.status for o in again] == ["done", "done", "done"]


class Killed(BaseException):
    """Stands in for the process being stopped mid-batch (like KeyboardInterrupt, not an Exception)."""


def test_interrupted_batch_resumes_without_redoing_finished_pairs(tmp_path, monkeypatch):
    manifest = write_manifest(tmp_path)
    out = tmp_path / "out"
    real = local.evaluate_pair
    calls = []
    killed = []

    def interrupt_on_second(pair, *args):
        calls.append(pair.id)
        if pair.id == "b" and not killed:
            killed.append(pair.id)
            raise Killed
        return real(pair, *args)

    monkeypatch.setattr(local, "evaluate_pair", interrupt_on_second)
    with pytest.raises(Killed):
        run_batch(manifest, out, workers=1, config=_offline())
    assert (out / "a" / ".done").is_file() and not (out / "b").exists()
    calls.clear()
    outcomes = run_batch(manifest, out, workers=1, config=_offline())
    assert calls == ["b", "c"]
    assert [o.status for o in outcomes] == ["skipped", "done", "done"]


def test_pool_of_two_processes(tmp_path):
    outcomes = run_batch(write_manifest(tmp_path), tmp_path / "out", workers=2, config=_offline())
    assert sorted(o.status for o in outcomes) == ["done", "done", "done"]
    assert outcomes[0].mean_score == outcomes[2].mean_score


def test_unknown_executor_and_ray_only_options_are_refused_before_any_work(tmp_path):
    manifest = write_manifest(tmp_path)
    with pytest.raises(InputError, match="unknown executor 'spark'"):
        run_batch(manifest, tmp_path / "out", executor="spark")
    with pytest.raises(InputError, match="--address"):
        run_batch(manifest, tmp_path / "out", address="127.0.0.1:6379")
    assert not (tmp_path / "out").exists()
