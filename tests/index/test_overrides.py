"""Hard-coded overrides of configuration reads, found with tree-sitter over a real index."""

from __future__ import annotations

import textwrap

from sa_align.index import build_index
from sa_align.index.overrides import overrides

TRAIN = '''
import argparse
import yaml


def from_config(path):
    cfg = yaml.safe_load(open(path))
    lr = cfg["lr"]
    lr = 0.01
    momentum = float(cfg.get("momentum", 0.9))
    if cfg["debug"]:
        momentum = 0.5
    cfg["wd"] = 5e-4
    return lr, momentum


def from_args():
    p = argparse.ArgumentParser()
    args, _ = p.parse_known_args()
    args.lr = 0.1
    for epoch in range(3):
        args.epochs = 10
    return args


def elsewhere():
    lr = 0.02
    return lr


class Trainer:
    def __init__(self, cfg):
        self.lr = cfg.lr
        print(cfg.warmup)
        self.lr = 0.3
        cfg.warmup = 100
        self.model = cfg.model
        self.model = None
        self.args = get_args()
        self.args.dropout = 0.0


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    opts = parser.parse_args()
    opts.batch_size = 64
'''


def _index(tmp_path):
    (tmp_path / "train.py").write_text(textwrap.dedent(TRAIN).lstrip())
    return build_index(tmp_path)


def test_a_literal_after_the_read_in_the_same_function_overrides_it(tmp_path):
    index = _index(tmp_path)
    found = overrides(index, "train.py", "train.py::from_config")
    # `lr = cfg["lr"]` then `lr = 0.01`; an item of a loaded config; a conditional literal is left out.
    assert found == {(8, "lr"): 7, (12, "wd"): 6}


def test_a_literal_on_what_a_parser_returned_overrides_it_outside_loops(tmp_path):
    found = overrides(_index(tmp_path), "train.py", "train.py::from_args")
    assert found == {(19, "lr"): 18}


def test_self_attributes_and_config_objects_read_before(tmp_path):
    found = overrides(_index(tmp_path), "train.py", "train.py::Trainer.__init__")
    # `self.lr` bound from `cfg.lr`; `cfg.warmup` read before it is set; `None` is a literal too.
    assert found == {(34, "lr"): 32, (35, "warmup"): 33, (37, "model"): 36, (39, "dropout"): 38}


def test_another_function_and_the_module_level(tmp_path):
    index = _index(tmp_path)
    assert overrides(index, "train.py", "train.py::elsewhere") == {}
    assert overrides(index, "train.py", None) == {(45, "batch_size"): 44}


def test_subscript_targets_are_indexed_as_assignments(tmp_path):
    index = _index(tmp_path)
    facts = {(f.key_path, f.line): f.value for f in index.values if f.source == "assign"}
    assert facts[("cfg.wd", 12)] == 5e-4
