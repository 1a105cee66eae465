from sa_align.index import build_index
from sa_align.index.cache import FactsCache, facts_to_dict
from sa_align.index.extract import extract_file
from sa_align.index.moved import movable, relabel

SOURCE = b'''"""Training entry point."""
import torch
from models.net import Net


class Trainer:
    def step(self, x, lr=0.01):
        # TODO: warmup
        return Net()(x) * lr


def main():
    Trainer().step(1)


if __name__ == "__main__":
    main()
'''


def test_relabelled_facts_equal_a_fresh_extraction_at_the_new_path():
    moved = relabel(extract_file("src/train.py", SOURCE), "src/train.py", "tools/train.py")
    assert facts_to_dict(moved) == facts_to_dict(extract_file("tools/train.py", SOURCE))
    assert moved.symbols[1].id.startswith("tools/train.py::")


def test_only_files_whose_facts_do_not_depend_on_their_folder_move():
    assert movable("a/train.py", "b/train.py", SOURCE)
    assert not movable("a/train.py", "a/run.py", SOURCE)  # the name is part of the facts
    assert not movable("a/m.py", "b/m.py", b"from .net import Net\n")  # resolved against its package
    assert movable("a/config.yaml", "b/config.yaml", b"from .x: 1\n")


def test_a_moved_file_is_read_from_the_cache_not_parsed(tmp_path):
    (tmp_path / "r" / "src").mkdir(parents=True)
    (tmp_path / "r" / "src" / "train.py").write_bytes(SOURCE)
    first = build_index(tmp_path / "r", cache_dir=tmp_path / "cache")
    assert first.stats["parsed"] == 1
    (tmp_path / "r" / "tools").mkdir()
    (tmp_path / "r" / "src" / "train.py").rename(tmp_path / "r" / "tools" / "train.py")
    second = build_index(tmp_path / "r", cache_dir=tmp_path / "cache")
    assert second.stats["parsed"] == 0 and second.stats["cache_hits"] == 1
    assert {s.path for s in second.symbols} == {"tools/train.py"}
    assert FactsCache(tmp_path / "cache").load_alias(second.files[0].sha256) == "src/train.py"
