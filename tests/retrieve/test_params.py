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
