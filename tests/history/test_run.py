import json

import pytest

from sa_align import audit_history
from sa_align.history import select_commits
from sa_align.history.gitread import GitError
from sa_align.models import Label

from tests.history.conftest import PAPER, UNITS, commit, git, init


def test_the_example_history_finds_the_commits_that_introduced_drift(example_history, offline_config, tmp_path):
    h = audit_history(PAPER, example_history, units=UNITS, config=offline_config, reports_dir=tmp_path / "reports")
    assert [p.commit.subject for p in h.points] == [
        "Reproduce RetinaNet with the focal loss", "Scale the learning rate for 8 GPUs",
        "Describe the configuration in the README", "Use a fixed loss normalizer for now"]
    lr = h.introduced_in("num-004")
    assert (lr.label_before, lr.label_after) == (Label.ALIGNED, Label.MISMATCHED)
    assert lr.commit.subject == "Scale the learning rate for 8 GPUs" and lr.commit.author_date.startswith("2026-01-03")
    assert lr.evidence_before[0].code.strip() == "lr: 0.01" and lr.evidence_after[0].code.strip() == "lr: 0.02"
    norm = h.introduced_in("meth-002")
    assert norm.label_after == Label.STUBBED and "return 1.0" in norm.evidence_after[0].code
    assert norm.commit.subject == "Use a fixed loss normalizer for now"
    means = [p.mean_score for p in h.points]
    assert means[0] > means[1] > means[3]
    assert h.points[2].units_reused > 0 and h.reuse.units == 3 * 22 and 0 < h.reuse.units_share < 1
    assert h.points[1].files_reused == 9 and h.points[1].files == 10  # only config.yaml was parsed again
    # each commit's full report is kept, so any two can be compared with `sa-align diff`
    saved = json.loads((tmp_path / "reports" / h.points[1].commit.sha[:12] / "report.json").read_text())
    assert saved["repo"]["git_commit"] == h.points[1].commit.sha


def test_an_unchanged_commit_keeps_every_verdict_and_a_moved_file_is_not_parsed(example_history, offline_config):
    git(example_history, "commit", "-q", "--allow-empty", "-m", "Empty commit")
    (example_history / "scripts").mkdir()
    git(example_history, "mv", "evaluate.py", "scripts/evaluate.py")
    git(example_history, "commit", "-q", "-m", "Move the evaluation script")
    h = audit_history(PAPER, example_history, revs="HEAD~3..HEAD", units=UNITS, config=offline_config)
    empty, moved = h.points[1], h.points[2]
    assert empty.units_reused == empty.n_units == 22 and empty.files_reused == empty.files
    assert moved.files_reused == moved.files == 10  # the moved file came from the cache, relabelled


def test_every_and_the_default_cap_are_reported(tmp_path, offline_config):
    repo = init(tmp_path / "long")
    shas = [commit(repo, f"c{i}", {"train.py": f"LR = 0.0{i}\n"}, day=i + 1) for i in range(7)]
    assert select_commits(shas, every=3, max_commits=10) == ([shas[0], shas[3], shas[6]], False)
    h = audit_history(PAPER, repo, every=2, max_commits=2, units=UNITS, config=offline_config)
    assert [p.commit.sha for p in h.points] == [shas[4], shas[6]]
    assert h.selection.capped and h.selection.after_every == 4 and h.selection.in_range == 7
    assert any(n.startswith("capped: audited the newest 2 of 4") for n in h.notes)


def test_a_commit_without_code_has_no_results_and_is_skipped_by_change_detection(tmp_path, offline_config):
    repo = init(tmp_path / "r")
    commit(repo, "docs only", {"README.md": "# A reproduction\n"})
    commit(repo, "code", {"loss.py": "def normalizer(n):\n    return 1.0\n"}, day=2)
    h = audit_history(PAPER, repo, units=UNITS, config=offline_config)
    assert [p.status for p in h.points] == ["no-code", "evaluated"]
    assert h.points[0].mean_score is None and h.points[0].counts == {}
    assert h.changes == [] and any("hold no code" in n for n in h.notes)


def test_bad_repositories_and_ranges(tmp_path, offline_config):
    (tmp_path / "plain").mkdir()
    with pytest.raises(GitError, match="not a git repository"):
        audit_history(PAPER, tmp_path / "plain", units=UNITS, config=offline_config)
    repo = init(tmp_path / "r")
    commit(repo, "code", {"train.py": "LR = 0.01\n"})
    with pytest.raises(GitError, match="unknown revision 'nope'"):
        audit_history(PAPER, repo, revs="nope..HEAD", units=UNITS, config=offline_config)
