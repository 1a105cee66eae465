"""The index summary: cached under the repository's content key, root and commit read anew, bounded text."""

import json
import shutil
import subprocess
import sys
from pathlib import Path

from sa_align.config import IndexConfig
from sa_align.index.summary import cached_index_summary, render_index_summary
from tests.conftest import EXAMPLES

REPO = EXAMPLES / "focal_loss" / "repo"


def _checkout(dest, head):
    repo = shutil.copytree(REPO, dest)
    (repo / ".git").mkdir()
    (repo / ".git" / "HEAD").write_text(head + "\n")
    return repo


def test_summary_is_cached_by_content_with_root_and_commit_read_each_time(tmp_path):
    cache = tmp_path / "cache"
    first = cached_index_summary(_checkout(tmp_path / "a", "a" * 40), IndexConfig(), cache)
    assert first["cache"].endswith("files parsed") and first["root"] == str((tmp_path / "a").resolve())
    assert first["git_commit"] == "a" * 40
    moved = _checkout(tmp_path / "b", "0123456789abcdef0123456789abcdef01234567")
    second = cached_index_summary(moved, IndexConfig(), cache)
    assert second["cache"] == "hit" and second["root"] == str(moved.resolve())
    assert second["git_commit"] == "0123456789abcdef0123456789abcdef01234567"
    assert {k: v for k, v in second.items() if k not in ("root", "git_commit", "cache")} == \
        {k: v for k, v in first.items() if k not in ("root", "git_commit", "cache")}
    (moved / "train.py").write_text((moved / "train.py").read_text() + "\ndef extra():\n    pass\n")
    assert cached_index_summary(moved, IndexConfig(), cache)["cache"] == "1 files parsed"
    assert cached_index_summary(moved, IndexConfig(), None)["cache"].endswith("files parsed")


def test_a_summary_hit_loads_neither_the_parser_nor_the_fact_models(tmp_path):
    repo = _checkout(tmp_path / "a", "a" * 40)
    cached_index_summary(repo, IndexConfig(), tmp_path / "cache")
    code = ("import json, sys; from sa_align.index.summary import cached_index_summary as s;"
            f"got = s({str(repo)!r}, None, {str(tmp_path / 'cache')!r});"
            "print(json.dumps([got['cache'], sorted(m for m in ('tree_sitter', 'sa_align.index.model', "
            "'sa_align.index.build', 'sa_align.index.cache') if m in sys.modules)]))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                         cwd=Path(__file__).resolve().parents[2]).stdout
    assert json.loads(out) == ["hit", []]


def test_text_rendering_counts_tables_and_shows_the_first_items_of_lists():
    lines = render_index_summary({"files": {"python": 3, "config": 1}, "stubs": [f"s{i}" for i in range(7)],
                                  "entry_points": [], "git_commit": None}, shown=2)
    assert lines == ["files: python 3, config 1", "stubs: 7: s0; s1; 5 more with --json", "entry_points: 0",
                     "git_commit: none"]
