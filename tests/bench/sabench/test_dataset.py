from __future__ import annotations

import json

import pytest

from sa_align.bench.sabench.dataset import (
    RunRef,
    RunSkipped,
    claim_units,
    list_runs,
    paper_file,
    read_scores,
    select_papers,
    tables,
)
from sa_align.bench.sabench.source import open_source
from sa_align.errors import DatasetError
from tests.bench.sabench.conftest import FIXTURE


@pytest.fixture(params=["folder", "git"])
def source(request, sabench_git):
    return open_source(FIXTURE if request.param == "folder" else sabench_git)


def test_development_split_is_shipped_data():
    t = tables()
    assert len(t.development) == 20 and "mrq" in t.development and t.commit == "c3e80a9"
    assert t.dimensions["D1"].value == "numerical" and t.dimensions["D4"].value == "ordering"


def test_runs_are_listed_from_both_forms(source):
    runs = list_runs(source, ["tiny-sgd"])
    assert [r.setup for r in runs] == ["alpha_basic", "beta_agent", "delta_agent", "gamma_agent"]
    assert list_runs(source, ["tiny-sgd"], ["beta_agent"]) == [RunRef(setup="beta_agent", paper="tiny-sgd")]


def test_default_selection_is_the_development_split_and_names_are_checked(source):
    assert select_papers(source, None) == list(tables().development)
    assert select_papers(source, ["tiny-sgd"]) == ["tiny-sgd"]
    with pytest.raises(DatasetError, match="unknown SA-Bench papers: nope"):
        select_papers(source, ["nope"])
    with pytest.raises(DatasetError, match="unknown SA-Bench setups"):
        list_runs(source, ["tiny-sgd"], ["zeta"])


def test_scores_are_read_and_claims_become_units_without_the_answer(source):
    scores = read_scores(source, RunRef(setup="alpha_basic", paper="tiny-sgd"))
    assert scores.model == "judge-a" and len(scores.claims) == 5
    assert {c.dimension: c.score for c in scores.claims}["D4"] == 0.0
    units = claim_units(scores.claims)
    assert [u.kind.value for u in units] == ["numerical", "numerical", "method", "protocol", "ordering"]
    dumped = json.dumps([u.model_dump(mode="json") for u in units])
    # Only id, claim and source may reach a unit: no score, evidence, reasoning or trace.
    assert "LEAKMARK" not in dumped and '"score"' not in dumped
    assert units[0].section == "Section 1" and units[0].origin == "sa-bench" and units[0].quote == ""


@pytest.mark.parametrize("setup, reason", [
    ("gamma_agent", "no score file"),
    ("delta_agent", "unknown dimension 'D7'"),
])
def test_bad_score_files_skip_the_run_with_a_reason(source, setup, reason):
    with pytest.raises(RunSkipped, match=reason):
        read_scores(source, RunRef(setup=setup, paper="tiny-sgd"))


def test_out_of_range_and_missing_scores_are_refused(tmp_path):
    root = tmp_path / "experiments" / "runs" / "x_basic" / "p" / "repo" / "result"
    root.mkdir(parents=True)
    claim = {"id": "p-D1-001", "claim": "lr=0.1", "source": "s"}
    for score, match in ((0.6, "out-of-range"), (None, "missing or out-of-range"), (2, "out-of-range")):
        body = {"model": "m", "overall_score": 0.5, "dimensions": {"D1": {"claims": [{**claim, "score": score}]}}}
        (root / "p-sau-score.json").write_text(json.dumps(body))
        with pytest.raises(RunSkipped, match=match):
            read_scores(open_source(tmp_path), RunRef(setup="x_basic", paper="p"))
    (root / "p-sau-score.json").write_text("{not json")
    with pytest.raises(RunSkipped, match="not JSON"):
        read_scores(open_source(tmp_path), RunRef(setup="x_basic", paper="p"))


def test_the_paper_comes_from_a_basic_setup(source):
    assert paper_file(source, "tiny-sgd").endswith("alpha_basic/tiny-sgd/artifacts/workspace/paper/paper.md")
    assert paper_file(source, "missing-paper") is None


def test_export_leaves_the_judge_output_behind(source, tmp_path):
    count = source.export("experiments/runs/alpha_basic/tiny-sgd/repo", tmp_path / "r", skip="result")
    assert count == 1 and (tmp_path / "r" / "train.py").is_file() and not (tmp_path / "r" / "result").exists()


def test_a_folder_that_is_not_sabench_is_refused(tmp_path):
    with pytest.raises(DatasetError, match="neither an SA-Bench checkout"):
        open_source(tmp_path)
    with pytest.raises(DatasetError, match="not a folder"):
        open_source(tmp_path / "absent")


def test_a_reference_that_read_files_the_published_run_lacks_is_marked(source):
    # alpha_basic holds the train.py its reference cites; beta_agent's repository has only empty.py.
    assert not any(c.unseen for c in read_scores(source, RunRef(setup="alpha_basic", paper="tiny-sgd")).claims)
    assert all(c.unseen for c in read_scores(source, RunRef(setup="beta_agent", paper="tiny-sgd")).claims)


def test_only_the_cited_paths_are_read_and_none_is_kept(tmp_path):
    repo = tmp_path / "experiments" / "runs" / "x_basic" / "p" / "repo"
    (repo / "result").mkdir(parents=True)
    (repo / "train.py").write_text("lr = 0.1\n")
    cited = [{"file": "./train.py", "snippet": "LEAKMARK-snippet"}, {"file": "configs/LEAKMARK.yaml"}]
    claims = [{"id": "p-D1-001", "claim": "lr=0.1", "score": 1.0, "evidence": cited[:1]},
              {"id": "p-D1-002", "claim": "lr=0.1", "score": 1.0, "evidence": cited},
              {"id": "p-D1-003", "claim": "lr=0.1", "score": 1.0, "evidence": "not a list"}]
    body = {"model": "m", "overall_score": 1.0, "dimensions": {"D1": {"claims": claims}}}
    (repo / "result" / "p-sau-score.json").write_text(json.dumps(body))
    scores = read_scores(open_source(tmp_path), RunRef(setup="x_basic", paper="p"))
    assert [c.unseen for c in scores.claims] == [False, True, False]
    assert "LEAKMARK" not in scores.model_dump_json()
