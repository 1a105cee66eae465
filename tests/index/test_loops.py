"""Loops over seeds, runs and folds, read with tree-sitter from a real index."""

from __future__ import annotations

import textwrap

from sa_align.index import build_index
from sa_align.index.loops import count_loops

TRAIN = '''
import argparse

SEEDS = [0, 1, 2]


def main(args, cfg):
    for seed in range(3):
        pass
    for seed in range(1, 6):
        pass
    for run in range(args.runs):
        pass
    for fold in range(cfg["folds"]):
        pass
    for i, seed in enumerate(SEEDS):
        pass
    for trial in tqdm([10, 20]):
        pass
    for seed in range(len(SEEDS)):
        pass
    for epoch in range(100):
        pass
    for seed in range(args.start, args.stop):
        pass
'''


def test_loops_state_counts_or_name_the_setting_that_does(tmp_path):
    (tmp_path / "train.py").write_text(textwrap.dedent(TRAIN).lstrip())
    (tmp_path / "tests").mkdir()
    (tmp_path / "tests" / "test_train.py").write_text("for seed in range(7):\n    pass\n")
    loops = [(lp.param, lp.var, lp.line, lp.count, lp.setting, lp.form) for lp in count_loops(build_index(tmp_path))]
    assert loops == [
        ("seeds", "seed", 7, 3, None, "range"),
        ("seeds", "seed", 9, 5, None, "range"),
        ("seeds", "run", 11, None, "runs", "range"),
        ("folds", "fold", 13, None, "folds", "range"),
        ("seeds", "seed", 15, None, "SEEDS", "items"),
        ("seeds", "trial", 17, 2, None, "range"),
        ("seeds", "seed", 19, None, "SEEDS", "items"),
    ]
