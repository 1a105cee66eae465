"""Placeholders the unit names: hinted functions, hinted classes, and groups of emptied candidates."""

from __future__ import annotations

import pytest

from sa_align.judges.stub.judge import judge_stub
from sa_align.models import Label, Unit

LAYER = {
    "train.py": '''
        from layer import Adapter

        if __name__ == "__main__":
            Adapter(4, 2)
    ''',
    "layer.py": '''
        import random


        class Adapter:
            def __init__(self, width, rank):
                self.down = [[0.0] * width for _ in range(rank)]
                self.up = [[0.0] * rank for _ in range(width)]
                self.init_adapter_weights()

            def init_adapter_weights(self):
                """Gaussian down-projection and zero up-projection, so the adapter starts as identity."""
                raise NotImplementedError

            def apply(self, x):
                return x
    ''',
}

POLICY = {
    "train.py": '''
        from policy import GaussianPolicy

        if __name__ == "__main__":
            GaussianPolicy(3).act([0.0])
    ''',
    "policy.py": '''
        class GaussianPolicy:
            """Mean from a small network; state-independent log standard deviation."""

            def __init__(self, dim):
                self.log_std = [0.0] * dim

            def act(self, obs):
                raise NotImplementedError

            def log_prob(self, obs, action):
                raise NotImplementedError
    ''',
}


def method(claim: str, hints: list[str]) -> Unit:
    return Unit(id="m", kind="method", claim=claim, hints=hints)


async def test_named_helper_that_lost_the_units_names_is_stubbed(small):
    unit = method("The down-projection is Gaussian and the up-projection starts at zero.",
                  ["init_adapter_weights", "random.gauss", "self.up"])
    verdict = judge_stub(small(LAYER).context(unit))
    assert verdict.label == Label.STUBBED and verdict.certain
    assert "`Adapter.init_adapter_weights`" in verdict.reason and "names it" in verdict.reason


async def test_class_whose_methods_are_mostly_placeholders_is_stubbed(small):
    unit = method("The policy is Gaussian with a learned, state-independent log standard deviation.",
                  ["GaussianPolicy", "log_std"])
    verdict = judge_stub(small(POLICY).context(unit))
    assert verdict.label == Label.STUBBED
    assert "class `GaussianPolicy`" in verdict.reason


async def test_one_emptied_method_does_not_stub_a_class_claim_living_elsewhere(small):
    files = dict(POLICY)
    old = "def act(self, obs):\n                raise NotImplementedError"
    assert old in POLICY["policy.py"]
    files["policy.py"] = POLICY["policy.py"].replace(
        old, "def act(self, obs):\n                return [o + s for o, s in zip(obs, self.log_std)]")
    unit = method("Actions add the log standard deviation to the observation.", ["GaussianPolicy", "act", "log_std"])
    assert judge_stub(small(files).context(unit)).label != Label.STUBBED


GROUP = {
    "train.py": '''
        from optim import build_optimizer, build_scheduler

        if __name__ == "__main__":
            opt = build_optimizer([1.0], 0.1)
            build_scheduler(opt, 100)
    ''',
    "optim.py": '''
        def build_optimizer(params, lr):
            raise NotImplementedError


        def warmup_then_decay(step, warmup, total):
            raise NotImplementedError


        def build_scheduler(optimizer, total, warmup_ratio=0.1):
            warmup = int(total * warmup_ratio)
            return [warmup_then_decay(s, warmup, total) for s in range(total)]
    ''',
}


async def test_several_emptied_functions_that_together_carry_the_unit_are_stubbed(small):
    unit = method("Training uses momentum SGD with a warm-up followed by a decay of the rate.",
                  ["build_optimizer", "warmup_then_decay", "total"])
    verdict = judge_stub(small(GROUP).context(unit))
    assert verdict.label == Label.STUBBED, verdict.reason
    assert "all placeholders" in verdict.reason or "names it" in verdict.reason


PAIR = {
    "train.py": '''
        from nets import ActorValue

        if __name__ == "__main__":
            ActorValue(3).act([0.0])
    ''',
    "nets.py": '''
        class Net:
            def __init__(self, dim):
                self.dim = dim

            def __call__(self, x):
                return x


        class ActorValue:
            """Separate policy and value networks."""

            def __init__(self, dim):
                # TODO: build the two networks
                return None

            def act(self, obs):
                return self.policy_net(obs), self.value_net(obs)

            def values(self, obs):
                return self.value_net(obs)
    ''',
}


async def test_emptied_constructor_owns_the_attributes_nothing_sets(small):
    # `self.policy_net` and `self.value_net` are read but set nowhere: they went missing with the constructor.
    unit = method("Policy and value function are separate networks that share no parameters.",
                  ["ActorValue", "policy_net", "value_net"])
    verdict = judge_stub(small(PAIR).context(unit))
    assert verdict.label == Label.STUBBED and "`ActorValue.__init__`" in verdict.reason


async def test_attributes_framework_bases_provide_are_not_missing(small):
    from sa_align.judges.evidence.ownership import unset_attributes

    files = {"m.py": '''
        class Base:
            pass


        class Model(Base):
            def run(self):
                return self.training, self.param_groups, self.hidden
    '''}
    j = small(files)
    assert unset_attributes(j.index) == frozenset({"hidden"})
    files["m.py"] += "\n        def build(self):\n            setattr(self, name, 1)\n"
    assert unset_attributes(small(files).index) == frozenset()


async def test_a_class_built_on_a_library_class_may_inherit_any_attribute(small):
    from sa_align.judges.evidence.ownership import unset_attributes

    files = {"m.py": '''
        from somelib import Base


        class Model(Base):
            def run(self):
                return self.hidden
    '''}
    assert unset_attributes(small(files).index) == frozenset()


DUPLICATE = {
    "nets/__init__.py": "",
    "nets/blocks.py": '''
        class GatedUnit:
            def __init__(self, width):
                self.gate = [0.5] * width
                self.proj = [1.0] * width

            def forward(self, x):
                return [g * p * v for g, p, v in zip(self.gate, self.proj, x)]
    ''',
    "old/__init__.py": "",
    "old/blocks.py": '''
        """Kept so that old checkpoints still unpickle."""


        class GatedUnit:
            def __init__(self, width):
                self.width = width

            def forward(self, x):
                raise NotImplementedError("convert the checkpoint first")
    ''',
    "run.py": '''
        from nets.blocks import GatedUnit

        if __name__ == "__main__":
            print(GatedUnit(2).forward([1.0, 2.0]))
    ''',
}


@pytest.mark.parametrize("hints", [["GatedUnit.forward", "gate", "proj"], ["GatedUnit"], ["forward", "gate"]])
async def test_emptied_copy_in_a_legacy_module_is_not_the_implementation(small, hints):
    unit = method("Each unit scales its input by a gate and a projection.", hints)
    verdict = judge_stub(small(DUPLICATE).context(unit))
    assert verdict.label != Label.STUBBED, verdict.reason


async def test_compound_hint_naming_a_real_definition_too_is_not_stubbed(small):
    files = {
        "warm.py": '''
            def linear_warmup(step, total):
                raise NotImplementedError


            def linear_warmup_factor(step, total):
                return min(1.0, step / max(total, 1))
        ''',
        "run.py": '''
            import sys
            from warm import linear_warmup, linear_warmup_factor

            if __name__ == "__main__":
                warm = linear_warmup if "--exact" in sys.argv else linear_warmup_factor
                print([warm(s, 10) for s in range(12)])
        ''',
    }
    unit = method("The rate grows linearly during the warm-up.", ["linear_warmup"])
    verdict = judge_stub(small(files).context(unit))
    assert verdict.label != Label.STUBBED, verdict.reason


@pytest.mark.parametrize("header", ["class Walker(\n            Agent,\n        ):", "@tagged\n        class Walker(Agent):"])
async def test_interface_base_named_by_the_unit_is_not_a_deferred_class(small, header):
    files = {"agents.py": f'''
        def tagged(cls):
            return cls


        class Agent:
            """Chooses moves and learns from outcomes."""

            def choose(self, options):
                raise NotImplementedError

            def learn(self, outcome):
                raise NotImplementedError


        class Cautious(Agent):
            margin = 0.1


        {header}
            def choose(self, options):
                return max(options)

            def learn(self, outcome):
                return outcome * 0.5


        if __name__ == "__main__":
            print(Walker().choose([1, 2]), Walker().learn(1.0))
    '''}
    for hints in (["Agent"], ["Agent.choose"], ["choose"]):
        unit = method("The agent chooses moves and learns from outcomes.", hints)
        verdict = judge_stub(small(files).context(unit))
        assert verdict.label != Label.STUBBED, (hints, verdict.reason)


async def test_protocol_and_type_stub_beside_the_code_are_not_stubs(small):
    files = {
        "kern/__init__.py": "",
        "kern/attn.py": '''
            import math


            class KernelAttention:
                """Attention with a positive feature map, linear in length."""

                def __init__(self, dim):
                    self.dim = dim

                def features(self, x):
                    return [v + 1.0 if v > 0 else math.exp(v) for v in x]

                def attend(self, q, k):
                    fq, fk = self.features(q), self.features(k)
                    return [a * sum(fk) for a in fq]
        ''',
        "kern/attn.pyi": '''
            class KernelAttention:
                dim: int
                def __init__(self, dim: int) -> None: ...
                def features(self, x: list[float]) -> list[float]: ...
                def attend(self, q: list[float], k: list[float]) -> list[float]: ...
        ''',
        "kern/walk.py": '''
            from typing import Protocol


            class Mover(Protocol):
                def step(self, state): ...
                def cost(self, state, move): ...


            class GridMover:
                def step(self, state):
                    return state + 1

                def cost(self, state, move):
                    return abs(move - state)
        ''',
        "run.py": '''
            from kern.attn import KernelAttention
            from kern.walk import GridMover

            if __name__ == "__main__":
                print(KernelAttention(2).attend([1.0], [2.0]), GridMover().step(0), GridMover().cost(0, 1))
        ''',
    }
    j = small(files)
    for claim, hints in [("Attention uses a positive feature map.", ["KernelAttention", "features"]),
                         ("Attention uses a positive feature map.", ["KernelAttention.features"]),
                         ("Movers step through the grid at a cost.", ["Mover", "step", "cost"])]:
        verdict = judge_stub(j.context(method(claim, hints)))
        assert verdict.label != Label.STUBBED, (hints, verdict.reason)


async def test_type_stub_does_not_hide_a_class_that_defers_its_work(small):
    files = {
        "rank.py": '''
            class PairRanker:
                def __init__(self, margin):
                    self.margin = margin

                def score(self, a, b):
                    raise NotImplementedError

                def loss(self, a, b):
                    raise NotImplementedError
        ''',
        "rank.pyi": '''
            class PairRanker:
                margin: float
                def __init__(self, margin: float) -> None: ...
                def score(self, a: float, b: float) -> float: ...
                def loss(self, a: float, b: float) -> float: ...
        ''',
        "run.py": '''
            from rank import PairRanker

            if __name__ == "__main__":
                PairRanker(0.5).loss(1.0, 0.0)
        ''',
    }
    unit = method("Pairs are ranked with a margin loss.", ["PairRanker", "margin"])
    verdict = judge_stub(small(files).context(unit))
    assert verdict.label == Label.STUBBED and "rank.py" == verdict.evidence[0].path, verdict.reason
