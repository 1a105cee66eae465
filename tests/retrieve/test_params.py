"""The parameter index: names through alias tables and the arguments of well-known calls."""

from __future__ import annotations

import textwrap

import pytest

from sa_align.index import build_index
from sa_align.models import Param
from sa_align.retrieve.params import param_index

CODE = '''
    import torch
    import torch.nn as nn

    head = nn.Dropout(p=0.5)
    block = nn.Dropout(0.3)
    optimizer = torch.optim.SGD(model.parameters(), 0.1, momentum=0.9)
    scheduler = torch.optim.lr_scheduler.StepLR(optimizer, 30, 0.2)
    steps = torch.optim.lr_scheduler.MultiStepLR(optimizer, [30, 60], gamma=0.5)
    torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
    shape = torch.zeros(30, 0.1)
'''


@pytest.fixture(scope="module")
def pidx(tmp_path_factory):
    root = tmp_path_factory.mktemp("calls")
    (root / "train.py").write_text(textwrap.dedent(CODE))
    return param_index(build_index(root))


@pytest.mark.parametrize("name, raws", [
    ("dropout", ["0.5", "0.3"]),
    ("learning_rate", ["0.1"]),
    ("momentum", ["0.9"]),
    ("lr_step_size", ["30"]),
    ("lr_decay_factor", ["0.2", "0.5"]),
    ("lr_milestones", ["[30, 60]"]),
    ("max_grad_norm", ["1.0"]),
])
def test_call_arguments_set_the_parameters_the_table_names(pidx, name, raws):
    assert [f.raw for f in pidx.sites(Param(name=name, value=1))] == raws


def test_positions_of_unknown_calls_set_nothing(pidx):
    # `torch.zeros(30, 0.1)` is a shape, not a step size or a learning rate.
    sites = pidx.sites(Param(name="lr_step_size", value=30)) + pidx.sites(Param(name="learning_rate", value=0.1))
    assert all(f.call != "torch.zeros" for f in sites)


FILES = {
    # One import form per file: the callee is matched by what its file's imports make it.
    "from_module.py": '''
        from torch import optim

        opt = optim.SGD(model.parameters(), 0.05)
    ''',
    "from_name.py": '''
        from torch.optim import SGD as TorchSGD, Adam
        from torch.optim.lr_scheduler import (
            StepLR,  # step decay
        )

        opt = TorchSGD(model.parameters(), 0.06, 0.8)
        other = Adam(model.parameters(), 0.007)
        sched = StepLR(opt, 25, 0.3)
    ''',
    "module_alias.py": '''
        import torch.nn as nn
        import torch.nn.functional as F

        drop = nn.Dropout(0.15)
        out = F.dropout(x, 0.35)
    ''',
    "keras_model.py": '''
        from tensorflow import keras

        opt = keras.optimizers.SGD(0.02, 0.85)
        drop = keras.layers.Dropout(0.45)
    ''',
    "tf_keras.py": '''
        import tensorflow as tf
        from keras.optimizers import Adam

        opt = tf.keras.optimizers.Adam(0.003, 0.95)
        other = Adam(0.004)
    ''',
    "local.py": '''
        import torch


        class SGD:
            def __init__(self, scale, lr):
                self.lr = lr


        opt = SGD(0.07, 0.5)
        made = self.optimizer_cls(params, 0.08)
        seeded = env.seed(11)
    ''',
    "shadowed.py": '''
        from torch.optim import SGD

        SGD = make_optimizer
        opt = SGD(params, 0.09)
    ''',
}


@pytest.fixture(scope="module")
def forms(tmp_path_factory):
    root = tmp_path_factory.mktemp("forms")
    for rel, text in FILES.items():
        (root / rel).write_text(textwrap.dedent(text))
    return param_index(build_index(root))


@pytest.mark.parametrize("name, where", [
    ("learning_rate", {("from_module.py", "0.05"), ("from_name.py", "0.06"), ("from_name.py", "0.007"),
                       ("keras_model.py", "0.02"), ("tf_keras.py", "0.003"), ("tf_keras.py", "0.004")}),
    ("momentum", {("from_name.py", "0.8"), ("keras_model.py", "0.85")}),
    ("lr_step_size", {("from_name.py", "25")}),
    ("lr_decay_factor", {("from_name.py", "0.3")}),
    ("dropout", {("module_alias.py", "0.15"), ("module_alias.py", "0.35"), ("keras_model.py", "0.45")}),
    ("beta1", {("tf_keras.py", "0.95")}),
])
def test_call_arguments_are_read_as_the_imported_library_defines_them(forms, name, where):
    assert {(f.path, f.raw) for f in forms.sites(Param(name=name, value=1))} == where


def test_keras_positions_are_not_read_as_torch_ones(forms):
    # `keras.optimizers.SGD(0.02, 0.85)`: 0.85 is the momentum, not a learning rate.
    lrs = {(f.path, f.raw) for f in forms.sites(Param(name="learning_rate", value=0.85))}
    assert ("keras_model.py", "0.85") not in lrs


def test_callees_no_import_resolves_set_nothing(forms):
    # A local `SGD`, an attribute of `self`, a name reassigned after its import, `env.seed`.
    for name in ("learning_rate", "seed", "momentum"):
        assert not [f for f in forms.sites(Param(name=name, value=1)) if f.path in ("local.py", "shadowed.py")]


def test_imports_are_read_from_every_form():
    from sa_align.retrieve.callees import parse_imports

    text = textwrap.dedent('''
        import os, torch.nn as nn
        import numpy
        from torch.optim import (
            SGD,
            Adam as A,  # an alias
        )
        from . import local
        from tensorflow.keras import layers
    ''')
    got = parse_imports(text)
    assert got == {"os": {"os"}, "nn": {"torch.nn"}, "numpy": {"numpy"}, "SGD": {"torch.optim.SGD"},
                   "A": {"torch.optim.Adam"}, "layers": {"keras.layers"}}


def test_a_call_arguments_meaning_lasts_as_long_as_its_index(tmp_path):
    import gc

    from sa_align.retrieve.params import call_meaning, fact_names

    (tmp_path / "train.py").write_text("from torch.optim import SGD\nopt = SGD(params, 0.1)\n")
    index = build_index(tmp_path)
    param_index(index)
    fact = next(f for f in index.values if f.source == "positional")
    assert "learning_rate" in fact_names(fact)
    del index
    gc.collect()
    assert call_meaning(fact) is None
