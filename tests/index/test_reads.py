"""What a function body and a shell script read, from the indexed text."""

from __future__ import annotations

import textwrap

from sa_align.index import build_index
from sa_align.index.reads import body_reads, shell_reads

PYTHON = '''
import torch


def linear(n, beta_start=1e-4, beta_end=0.02):
    """From beta_start to beta_end."""
    return torch.linspace(beta_start, beta_end, n)


def cosine(n, beta_start=1e-4, s=0.008):
    # beta_start is kept for the old signature
    out = torch.arange(n).float(beta_start=1)
    return out.beta_start + s


@torch.no_grad()
def nested(x, p=0.5):
    def inner(y):
        return f"{y} {p}"
    return inner(x)


def reflective(x, scale=2.0):
    return eval("x * scale", {}, locals())
'''

SHELL = """\
SEEDS=3
ENVS="a b"
UNUSED=1
export LR=0.1
declare -x WD=0.05
CUDA=0 python train.py
for env in $ENVS; do
  for seed in $(seq 0 $((SEEDS - 1))); do echo "$env ${seed}"; done
done
(( n < LIMIT )) && echo
"""


def _index(tmp_path):
    (tmp_path / "sched.py").write_text(textwrap.dedent(PYTHON).lstrip())
    (tmp_path / "run.sh").write_text(SHELL)
    return build_index(tmp_path)


def test_body_reads_names_used_in_the_body_only(tmp_path):
    index = _index(tmp_path)
    assert {"beta_start", "beta_end", "n", "torch"} <= body_reads(index, "sched.py::linear")
    cosine = body_reads(index, "sched.py::cosine")
    # Comments, docstrings, keyword names and attributes spell the name but do not read it.
    assert "beta_start" not in cosine and {"s", "n", "out"} <= cosine


def test_body_reads_follow_nested_code_and_decorators(tmp_path):
    assert "p" in body_reads(_index(tmp_path), "sched.py::nested")


def test_reflective_bodies_read_everything(tmp_path):
    index = _index(tmp_path)
    assert body_reads(index, "sched.py::reflective") is None
    assert body_reads(index, "sched.py::<module>") is None
    assert body_reads(index, "sched.py::missing") is None


def test_shell_reads_expansions_arithmetic_and_exports(tmp_path):
    reads = shell_reads(_index(tmp_path), "run.sh")
    assert {"ENVS", "SEEDS", "env", "seed", "LIMIT"} <= reads.expanded
    assert "UNUSED" not in reads.expanded | reads.exported
    assert {"LR", "WD", "CUDA"} <= reads.exported and "LR" not in reads.expanded
