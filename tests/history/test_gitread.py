import pytest

from sa_align.history.gitread import GitError, GitRepo, parse_commit

from tests.history.conftest import commit, git, init


@pytest.fixture
def repo(tmp_path):
    r = init(tmp_path / "r")
    shas = [commit(r, f"step {i}", {"a.py": f"x = {i}\n"}, day=i + 1) for i in range(4)]
    git(r, "checkout", "-q", "-b", "side", shas[1])
    side = commit(r, "side work", {"b.py": "y = 1\n"}, day=9)
    git(r, "checkout", "-q", "main")
    git(r, "merge", "-q", "--no-ff", "-m", "merge side", "side")
    return r, shas, side


def test_first_parent_order_skips_merged_side_commits(repo):
    r, shas, side = repo
    g = GitRepo(r)
    history = g.first_parent(None)
    assert history[:4] == shas and len(history) == 5 and side not in history
    assert g.first_parent(f"{shas[1]}..{shas[3]}") == shas[2:]
    assert g.first_parent("HEAD~2") == shas[:3] and g.first_parent(shas[0][:8]) == shas[:1]


def test_a_relative_path_and_a_bare_clone_are_read(repo, tmp_path, monkeypatch):
    r, shas, _ = repo
    monkeypatch.chdir(r.parent)
    assert GitRepo(r.name).first_parent(None)[:4] == shas
    git(tmp_path, "clone", "-q", "--bare", str(r), str(tmp_path / "bare.git"))
    assert GitRepo(tmp_path / "bare.git").first_parent(None)[:4] == shas
    git(r, "worktree", "add", "-q", str(tmp_path / "linked"), shas[2])  # `.git` is a file there
    assert GitRepo(tmp_path / "linked").first_parent(None) == shas[:3]


def test_commit_metadata_comes_from_the_commit_object(repo):
    r, shas, _ = repo
    meta = GitRepo(r).commits([shas[2]])[shas[2]]
    assert (meta.subject, meta.author, meta.author_date) == ("step 2", "Test Author", "2026-02-03T10:00:00+00:00")
    assert parse_commit("x", b"tree 1\nauthor A B <a@b> 1700000000 -0130\n\nsubject line\n\nbody").author_date.endswith("-01:30")


def test_tree_and_raw_objects(repo):
    r, shas, _ = repo
    g = GitRepo(r)
    entries = {e.path: e for e in g.tree(shas[3])}
    assert entries["a.py"].size == len("x = 3\n")
    assert g.objects([entries["a.py"].oid]) == {entries["a.py"].oid: b"x = 3\n"}


def test_bad_input_is_named(tmp_path, repo):
    r, shas, _ = repo
    (tmp_path / "plain").mkdir()
    with pytest.raises(GitError, match="not a git repository"):
        GitRepo(tmp_path / "plain")
    with pytest.raises(GitError, match="not a directory"):
        GitRepo(tmp_path / "missing")
    g = GitRepo(r)
    with pytest.raises(GitError, match="unknown revision 'v9.9'"):
        g.first_parent("v9.9..HEAD")
    with pytest.raises(GitError, match="selects no commits"):
        g.first_parent(f"{shas[3]}..{shas[3]}")
    with pytest.raises(GitError, match="no commits yet"):
        GitRepo(init(tmp_path / "empty")).first_parent(None)


def test_a_shallow_clone_missing_the_range_says_so(tmp_path, repo):
    r, shas, _ = repo
    clone = tmp_path / "shallow"
    git(tmp_path, "clone", "-q", "--depth", "2", "--no-local", f"file://{r}", str(clone))
    g = GitRepo(clone)
    assert g.is_shallow()
    with pytest.raises(GitError, match="shallow clone.*git fetch --unshallow"):
        g.first_parent(f"{shas[0]}..HEAD")
    assert len(g.first_parent(None)) == 2
