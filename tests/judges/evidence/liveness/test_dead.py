"""Dead code: the fixpoint, the liveness rules of `units/liveness.yaml`, and what a `stubbed` verdict may rest on.

Each repository below is ordinary, faithful code whose functions a run does use
without the repository spelling a call to them where it runs: none of them may
be called dead, let alone `stubbed`.
"""

from __future__ import annotations

import json

from sa_align.judges.evidence.liveness.dead import dead_among, dead_code
from sa_align.judges.stub.judge import judge_stub
from sa_align.models import Label, Unit

RUN = '''
    from lab.experiment import launch

    if __name__ == "__main__":
        launch()
'''


def _names(ids) -> set[str]:
    return {sid.split("::", 1)[1] for sid in ids}


def _dead(small, files: dict[str, str]) -> set[str]:
    return _names(dead_code(small(files).index).dead)


def method(uid: str, claim: str, hints: list[str]) -> Unit:
    return Unit(id=uid, kind="method", claim=claim, hints=hints)


def test_fixpoint_kills_chains_but_not_what_running_code_uses():
    users = {
        "a": set(),          # nothing uses it
        "b": {"a"},          # only a dead function does
        "c": {"b", "a"},
        "d": {None},         # module-level code uses it
        "e": {"d"},          # a live function uses it
        "f": {"g"},          # a cycle with no way in stays alive: no proof either way
        "g": {"f"},
        "h": {"outside"},    # a user that is not a key (reachable, kept) never dies
    }
    assert dead_among(users) == {"a", "b", "c"}


CHAIN = {
    "run.py": '''
        from lib import used

        if __name__ == "__main__":
            used()
    ''',
    "lib.py": '''
        def helper():
            return 1


        def orphan():
            return helper() + leaf()


        def leaf():
            return 2


        def used():
            return helper()
    ''',
}


async def test_dead_code_over_an_index(small):
    dead = dead_code(small(CHAIN).index)
    assert _names(dead.dead) == {"orphan", "leaf"}
    assert dead.callers["lib.py::leaf"] == ("lib.py::orphan",)
    # Nothing names `orphan`: it may be reached in a way no rule knows, so nothing is proven.
    assert not dead.proven


async def test_a_switched_off_call_proves_the_chain_and_an_unused_import_suggests_it(small):
    off = {**CHAIN, "run.py": CHAIN["run.py"] + "    # orphan()\n"}
    dead = dead_code(small(off).index)
    assert _names(dead.proven) == _names(dead.certain) == {"orphan", "leaf"}
    assert dead.traces["lib.py::orphan"][0].kind == "off"
    imported = {**CHAIN, "run.py": CHAIN["run.py"].replace("import used", "import orphan, used")}
    dead = dead_code(small(imported).index)
    assert _names(dead.proven) == {"orphan", "leaf"} and not dead.certain


async def test_registry_decorators_and_string_dispatch_keep_functions(small):
    files = {
        "run.py": RUN,
        "lab/__init__.py": "",
        "lab/registry.py": '''
            OBJECTIVES = {}


            def objective(key):
                def add(fn):
                    OBJECTIVES[key] = fn
                    return fn
                return add
        ''',
        "lab/objectives.py": '''
            from lab.registry import objective


            @objective("margin")
            def ranking_margin(pos, neg, gap=0.5):
                return max(0.0, gap - pos + neg)
        ''',
        "lab/noise.py": '''
            def salt_and_pepper(x):
                return [0.0 if i % 7 == 0 else v for i, v in enumerate(x)]


            def pick_noise(kind):
                return globals()[kind]
        ''',
        "lab/experiment.py": '''
            import sys

            from lab.noise import pick_noise
            from lab.registry import OBJECTIVES


            def launch():
                # salt_and_pepper(...) is chosen on the command line
                noise = pick_noise(sys.argv[1])
                return OBJECTIVES[sys.argv[2]](1.0, noise([0.5])[0])
        ''',
    }
    assert not _dead(small, files) & {"ranking_margin", "salt_and_pepper"}


async def test_computed_method_names_and_config_targets_keep_functions(small):
    files = {
        "run.py": RUN,
        "conf/train.yaml": "criterion:\n  _target_: lab.criteria.smooth_hinge\n  margin: 1.0\n",
        "conf/trainer.json": json.dumps({"callback": {"class_path": "lab.criteria.EarlyStop.patience_left"}}),
        "lab/__init__.py": "",
        "lab/criteria.py": '''
            def smooth_hinge(score, margin=1.0):
                return max(0.0, margin - score) ** 2


            class EarlyStop:
                def patience_left(self):
                    return 3
        ''',
        "lab/warmups.py": '''
            class Warmups:
                def linear_ramp(self, t):
                    return t

                def cosine_ramp(self, t):
                    return 1 - t
        ''',
        "lab/experiment.py": '''
            from lab.warmups import Warmups


            def launch(shape="cosine"):
                # cosine_ramp(1.0) and linear_ramp(1.0) stay selectable
                # smooth_hinge(0.2) comes from the config
                return getattr(Warmups(), f"{shape}_ramp")(0.5)
        ''',
    }
    assert not _dead(small, files) & {"smooth_hinge", "EarlyStop.patience_left", "Warmups.linear_ramp",
                                       "Warmups.cosine_ramp"}


async def test_framework_hooks_are_kept_but_a_plain_method_can_die(small):
    files = {
        "run.py": RUN,
        "lab/__init__.py": "",
        "lab/module.py": '''
            import torch
            import pytorch_lightning as pl


            class Classifier(pl.LightningModule):
                def on_validation_epoch_end(self):
                    self.log("epoch_done", 1.0)

                def configure_optimizers(self):
                    return torch.optim.SGD(self.parameters(), lr=0.1)

                def predict_step(self, batch, batch_idx):
                    return batch.argmax(-1)

                @torch.no_grad()
                def smoothing_schedule(self, epoch):
                    return 0.1 / (epoch + 1)


            class RoundGrad(torch.autograd.Function):
                @staticmethod
                def forward(ctx, x):
                    return x.round()

                @staticmethod
                def backward(ctx, grad):
                    return grad
        ''',
        "lab/experiment.py": '''
            import pytorch_lightning as pl

            from lab.module import Classifier, RoundGrad


            def launch():
                # Classifier().configure_optimizers()
                # Classifier().smoothing_schedule(0)
                pl.Trainer().fit(Classifier())
                return RoundGrad.apply
        ''',
    }
    dead = _dead(small, files)
    assert not dead & {"Classifier.on_validation_epoch_end", "Classifier.configure_optimizers",
                       "Classifier.predict_step", "RoundGrad.backward"}
    # A method the repository itself called, whose call was switched off, is no hook; and
    # `@torch.no_grad()` registers nothing.
    assert "Classifier.smoothing_schedule" in dead


async def test_a_public_api_re_export_keeps_a_library_function(small):
    files = {
        "pyproject.toml": '[project]\nname = "transport"\n[project.scripts]\nfetch-data = "transport.io:fetch"\n',
        "transport/__init__.py": '"""Optimal transport."""\nfrom .solvers import entropic_plan\n',
        "transport/solvers.py": '''
            import numpy as np


            def entropic_plan(a, b, cost, eps=0.05):
                kernel = np.exp(-cost / eps)
                return kernel * a[:, None] * b[None, :]


            def unbalanced_plan(a, b, cost, eps=0.05):
                return entropic_plan(a, b, cost, eps) * 0.5
        ''',
        "transport/extras.py": '''
            __all__ = ["barycenter"]


            def barycenter(measures):
                return sum(measures) / len(measures)
        ''',
        "transport/io.py": '''
            def fetch(url="https://example.org/costs.npz"):
                return url
        ''',
    }
    j = small(files)
    assert not _names(dead_code(j.index).dead) & {"entropic_plan", "barycenter"}
    unit = method("plan", "Transport plans come from entropic regularization.", ["entropic_plan", "eps"])
    assert judge_stub(j.context(unit)).label != Label.STUBBED


async def test_a_function_only_a_notebook_calls_is_used(small):
    notebook = {"cells": [{"cell_type": "code", "metadata": {}, "outputs": [], "execution_count": 1,
                           "source": ["from transport.solvers import sharpen\n", "sharpen([1.0, 2.0])\n"]}],
                "metadata": {}, "nbformat": 4, "nbformat_minor": 5}
    files = {
        "run.py": RUN.replace("lab.experiment", "transport.solvers").replace("launch", "soften"),
        "demo.ipynb": json.dumps(notebook),
        "transport/__init__.py": "",
        "transport/solvers.py": '''
            def sharpen(x, power=2.0):
                return [v ** power for v in x]


            def soften(x):
                return [v ** 0.5 for v in x]
        ''',
    }
    assert "sharpen" not in _dead(small, files)


async def test_default_arguments_and_decorator_arguments_use_a_function(small):
    files = {
        "train.py": '''
            import functools


            def zero_pad(batch):
                width = max(len(b) for b in batch)
                return [b + [0] * (width - len(b)) for b in batch]


            def squared_hinge(scores, margin=1.0):
                return sum(max(0.0, margin - s) ** 2 for s in scores) / len(scores)


            def on_failure(exc):
                return None


            def retrying(handler):
                def wrap(fn):
                    @functools.wraps(fn)
                    def run(*args):
                        try:
                            return fn(*args)
                        except ValueError as exc:
                            return handler(exc)
                    return run
                return wrap


            @retrying(handler=on_failure)
            def fit(data, objective=squared_hinge, collate=zero_pad):
                return objective([sum(x) for x in collate(data)])


            def fit_plain(data, objective=squared_hinge, collate=zero_pad):
                return objective([sum(x) for x in collate(data)])


            if __name__ == "__main__":
                print(fit([[1, 2], [3]]))
        ''',
    }
    assert not _dead(small, files) & {"zero_pad", "squared_hinge", "on_failure"}
    # Defaults are evaluated where the definition runs, even for a function nothing calls.
    files["train.py"] = files["train.py"].replace("print(fit(", "print(len(").replace("@retrying(handler=on_failure)\n", "")
    assert not _dead(small, files) & {"zero_pad", "squared_hinge"}


async def test_a_multi_line_import_is_no_use_and_tests_are_no_users(small):
    files = {
        "run.py": '''
            from lab.ops import (
                double,
                negate,
            )


            def go(x):
                return double(x)


            if __name__ == "__main__":
                go(1)
        ''',
        "lab/__init__.py": "",
        "lab/ops.py": '''
            def double(x):
                return 2 * x


            def negate(x):
                return -x


            def clamp(x):
                return max(-1, min(1, x))
        ''',
        "tests/test_ops.py": '''
            from lab.ops import clamp


            def test_clamp():
                assert clamp(3) == 1
        ''',
    }
    dead = dead_code(small(files).index)
    # `negate` is imported on a continuation line and never called: its import is the only trace.
    assert "lab/ops.py::negate" in dead.proven and "lab/ops.py::negate" not in dead.certain
    # `clamp` only runs under pytest, which is no run of the experiments; nothing shows it lost a call.
    assert "lab/ops.py::clamp" in dead.dead and "lab/ops.py::clamp" not in dead.proven


async def test_names_defined_twice_never_die(small):
    files = {
        "run.py": RUN,
        "lab/__init__.py": "",
        "lab/state.py": '''
            import sys

            if sys.platform == "win32":
                def scratch_dir():
                    return "C:/tmp"
            else:
                def scratch_dir():
                    return "/tmp"


            class Meter:
                def __init__(self):
                    self._total = 0.0

                @property
                def total(self):
                    return self._total

                @total.setter
                def total(self, value):
                    self._total = value
        ''',
        "lab/experiment.py": '''
            from lab.state import Meter


            def launch():
                # print(scratch_dir())
                return Meter()
        ''',
    }
    assert not _dead(small, files) & {"scratch_dir", "Meter.total"}


async def test_an_orphan_beside_unrelated_placeholders_is_not_blamed_on_them(small):
    files = {
        "run.py": RUN,
        "lab/__init__.py": "",
        "lab/buffers.py": '''
            class Buffer:
                def weight(self, item):
                    raise NotImplementedError


            class RankedBuffer(Buffer):
                def weight(self, item):
                    return abs(item) ** 0.6


            def jitter(x):
                # TODO: jitter hue as well
                return x


            def temporal_shift(x, k=1):
                return x[k:] + x[:k]
        ''',
        "lab/experiment.py": '''
            from lab.buffers import RankedBuffer, jitter


            def launch():
                # return temporal_shift([1, 2, 3])
                return RankedBuffer().weight(jitter(2.0))
        ''',
    }
    j = small(files)
    unit = method("shift", "Frames are shifted in time by one step.", ["temporal_shift"])
    verdict = judge_stub(j.context(unit))
    assert verdict.label == Label.STUBBED and verdict.certain, verdict.reason
    assert "commented out (lab/experiment.py:" in verdict.reason
    # Neither the abstract `Buffer.weight` nor the unrelated TODO in `jitter` is the cause.
    assert "placeholder" not in verdict.reason


async def test_commented_out_code_is_a_trace_but_prose_about_a_call_is_not(small):
    def experiment(comment: str) -> dict[str, str]:
        return {
            "run.py": RUN,
            "lab/__init__.py": "",
            "lab/mix.py": "def blend(a, b, t=0.5):\n    return a * (1 - t) + b * t\n",
            "lab/experiment.py": f"from lab import mix\n\n\ndef launch():\n{comment}\n    return mix\n",
        }

    code = ["    # out = mix.blend(1.0, 2.0)", "    # return post(mix.blend(1.0, 2.0), 3)",
            "    # out = mix.blend(\n    #     1.0,\n    #     2.0,\n    # )"]
    for comment in code:
        assert "lab/mix.py::blend" in dead_code(small(experiment(comment)).index).certain, comment
    prose = ["    # TODO: call blend() here once the schedule is tuned", "    # blend() is applied by the trainer"]
    for comment in prose:
        dead = dead_code(small(experiment(comment)).index)
        assert "lab/mix.py::blend" in dead.dead and "lab/mix.py::blend" not in dead.proven, comment


async def test_unreadable_code_keeps_alive_what_it_may_call(small):
    files = {
        "run.py": RUN,
        "lab/__init__.py": "",
        "lab/experiment.py": "def launch():\n    return 1\n",
        "lab/kernels.py": "def fused_scale(x):\n    return 2 * x\n",
        # A minified module (tree-sitter is not asked to read it: every name in it is a use) and a
        # broken one: both still count as code that may call what they name.
        "lab/generated.py": "from lab.kernels import fused_scale\nTABLE = [" + "0, " * 8000 + "fused_scale(1)]\n",
        "lab/broken.py": "def half(:\n    return fused_scale(\n",
    }
    assert "fused_scale" not in _dead(small, files)
