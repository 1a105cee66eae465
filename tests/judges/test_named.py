"""Placeholders the unit names: hinted functions, hinted classes, and groups of emptied candidates."""

from __future__ import annotations

from sa_align.judges.stub import judge_stub
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
    from sa_align.judges.ownership import unset_attributes

    files = {"m.py": '''
        class Model(Base):
            def run(self):
                return self.training, self.param_groups, self.hidden
    '''}
    j = small(files)
    assert unset_attributes(j.index) == frozenset({"hidden"})
    files["m.py"] += "\n        def build(self):\n            setattr(self, name, 1)\n"
    assert unset_attributes(small(files).index) == frozenset()
