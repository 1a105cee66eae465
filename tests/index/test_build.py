"""Robustness of `build_index` on hostile and broken input, and what the index carries."""

from __future__ import annotations

import time
from pathlib import Path

from sa_align.config import IndexConfig
from sa_align.index import SkippedFile, build_index


def _info(index, path):
    return {f.path: f for f in index.files}[path]


def test_syntax_errors_keep_a_partial_tree(tmp_path: Path):
    (tmp_path / "broken.py").write_text("def ok():\n    lr = 3e-4\n    return lr\n\ndef bad(:\n    pass\n\nBATCH = 64\n")
    index = build_index(tmp_path)
    assert _info(index, "broken.py").parse_errors > 0
    assert "broken.py::ok" in index.symbol_by_id
    assert {v.name: v.value for v in index.values}.items() >= {"lr": 3e-4, "BATCH": 64}.items()


def test_non_utf8_is_decoded_with_replacement(tmp_path: Path):
    (tmp_path / "latin.py").write_bytes("# caf\xe9 note\nalpha = 0.5\nname = 'r\xe9sum\xe9'\n".encode("latin-1"))
    index = build_index(tmp_path)
    assert {v.name: v.value for v in index.values}["alpha"] == 0.5
    assert "\ufffd" in index.file_text("latin.py")
    assert _info(index, "latin.py").kind == "python"


def test_empty_files(tmp_path: Path):
    for name in ("empty.py", "empty.yaml", "empty.json", "empty.sh", "empty.ipynb", "empty.txt"):
        (tmp_path / name).write_bytes(b"")
    index = build_index(tmp_path)
    assert len(index.files) == 6
    assert index.symbol_by_id["empty.py::<module>"].end_line == 1


def test_five_megabyte_single_line(tmp_path: Path):
    line = "x = [" + ", ".join(["1"] * 1_700_000) + "]"
    (tmp_path / "huge.py").write_text(line)
    assert (tmp_path / "huge.py").stat().st_size > 5_000_000
    index = build_index(tmp_path)  # over the default cap: skipped and recorded
    assert {s.path: s.reason for s in index.skipped} == {"huge.py": "too-large"}
    start = time.perf_counter()
    index = build_index(tmp_path, IndexConfig(max_file_bytes=10_000_000))
    assert time.perf_counter() - start < 10
    info = _info(index, "huge.py")  # a minified-looking line: kept as text, not parsed
    assert (info.kind, info.lines, info.size) == ("text", 1, len(line))
    assert index.file_text("huge.py") == line


def test_long_literal_lists_are_capped(tmp_path: Path):
    (tmp_path / "table.py").write_text("x = [" + ", ".join(["1"] * 1000) + "]\ny = [1, 2]\n")
    index = build_index(tmp_path)
    assert {v.name: v.value for v in index.values} == {"y": [1, 2]}


def test_deeply_nested_code(tmp_path: Path):
    depth = 600  # beyond the Python recursion limit of any recursive walk
    body = "".join("    " * i + f"def f{i}():\n" for i in range(depth)) + "    " * depth + "return 1\n"
    (tmp_path / "deep.py").write_text(body)
    (tmp_path / "deep_expr.py").write_text("y = " + "(" * 3000 + "1" + ")" * 3000 + "\n")
    (tmp_path / "deep.json").write_text("[" * 5000 + "]" * 5000)
    index = build_index(tmp_path)
    assert _info(index, "deep.py").kind == "python"
    nested = [s for s in index.symbols if s.path == "deep.py" and s.kind == "function"]
    assert len(nested) >= 300  # tree-sitter may give up on the innermost levels; the rest is indexed
    assert "f599" in {s.name for s in nested}
    assert _info(index, "deep_expr.py").kind == "python"
    assert _info(index, "deep.json").parse_errors == 1


def test_index_keeps_texts_stats_and_hashes(mlrepo_index):
    assert mlrepo_index.file_text("mlrepo/data.py").startswith("def make_loader")
    assert mlrepo_index.lines("mlrepo/train.py", 12, 12) == ["lr = 3e-4"]
    assert len(mlrepo_index.content_hash) == 64
    assert all(len(f.sha256) == 64 for f in mlrepo_index.files)
    assert mlrepo_index.stats["parsed"] == len(mlrepo_index.files)
    assert mlrepo_index.symbol_at("mlrepo/train.py", 30).id == "mlrepo/train.py::Trainer.step"


def test_parallel_extraction_matches_serial(mlrepo_copy: Path, tmp_path: Path, monkeypatch):
    import sa_align.index.build as build

    serial = build_index(mlrepo_copy, IndexConfig(workers=1))
    monkeypatch.setattr(build, "PARALLEL_MIN_BYTES", 0)
    parallel = build_index(mlrepo_copy, IndexConfig(workers=2), cache_dir=tmp_path / "cache")
    assert parallel.model_dump(exclude={"stats"}) == serial.model_dump(exclude={"stats"})
    assert len(list((tmp_path / "cache").rglob("*.pkl"))) == len(serial.files) + 1  # files written by both sides


def test_file_kind_answers_for_indexed_paths_only(tmp_path: Path):
    (tmp_path / "train.py").write_text("lr = 0.1\n")
    (tmp_path / "config.yaml").write_text("lr: 0.1\n")
    index = build_index(tmp_path)
    assert index.file_kind("train.py") == "python"
    assert index.file_kind("config.yaml") == "config"
    assert index.file_kind("missing.py") is None


def test_a_snapshot_builds_the_index_its_folder_builds(mlrepo_copy: Path, tmp_path: Path):
    from sa_align.index.build import repo_cache_key, snapshot

    snap = snapshot(mlrepo_copy)
    assert snap.key == repo_cache_key(mlrepo_copy) and set(snap.data) == set(snap.hashes)
    (mlrepo_copy / "later.py").write_text("x = 1\n")  # the snapshot keeps the files as they were
    from_snap = build_index(snap, cache_dir=tmp_path / "cache")
    assert "later.py" not in {f.path for f in from_snap.files}
    (mlrepo_copy / "later.py").unlink()
    fresh = build_index(mlrepo_copy)
    assert from_snap.model_dump(exclude={"stats"}) == fresh.model_dump(exclude={"stats"})
    assert build_index(snap, cache_dir=tmp_path / "cache").stats["repo_cache_hit"] == 1.0


def test_skipped_files_are_index_models_in_path_order(tmp_path: Path):
    (tmp_path / "b.py").write_bytes(b"x = 1\0\0binary after all\n")  # found binary when read
    (tmp_path / "a.pt").write_bytes(b"\0weights")  # skipped by the walk for its extension
    (tmp_path / "ok.py").write_text("y = 2\n")
    index = build_index(tmp_path)
    assert all(isinstance(s, SkippedFile) for s in index.skipped)
    assert [s.model_dump() for s in index.skipped] == [{"path": "a.pt", "reason": "binary"},
                                                      {"path": "b.py", "reason": "binary"}]
