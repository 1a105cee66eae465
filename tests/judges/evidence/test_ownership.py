"""Which placeholder is the unit's own implementation: the helper it names, not a caller of it."""

from __future__ import annotations

from sa_align.judges.stub.judge import judge_stub
from sa_align.models import Label, Unit

LOSS = {
    "train.py": '''
        from loss import total_loss

        if __name__ == "__main__":
            total_loss([1.0], [True])
    ''',
    "loss.py": '''
        def normalizer(num_positive, num_total):
            # TODO: divide by the number of positive anchors
            return 1.0


        def total_loss(losses, positive_mask):
            count = sum(positive_mask)
            norm = normalizer(count, len(positive_mask))
            return sum(losses) / norm
    ''',
}

SCHEDULE = {
    "train.py": '''
        from schedule import cosine_multiplier


        def run_epoch(epoch, steps_per_epoch, optimizer):
            for i in range(steps_per_epoch):
                mult = cosine_multiplier(epoch + i / steps_per_epoch, 100)
                optimizer.step(mult)


        if __name__ == "__main__":
            run_epoch(0, 10, None)
    ''',
    "schedule.py": '''
        def cosine_multiplier(progress, total):
            """Cosine multiplier after `progress` epochs."""
            pass
    ''',
}


async def test_helper_the_hints_name_is_stubbed_not_its_caller(small):
    unit = Unit(id="m", kind="method", claim="The loss is normalized by the number of positive anchors.",
                hints=["normalizer", "num_positive", "positive_mask"])
    verdict = judge_stub(small(LOSS).context(unit))
    assert verdict.label == Label.STUBBED
    assert "`normalizer`" in verdict.reason


async def test_caller_of_an_emptied_helper_is_not_stubbed(small):
    # The claim lives in the caller (how progress advances); the emptied helper is another claim.
    unit = Unit(id="m", kind="method", claim="The epoch counter advances by a fraction after every batch.",
                hints=["cosine_multiplier", "steps_per_epoch", "epoch + i"])
    verdict = judge_stub(small(SCHEDULE).context(unit))
    assert verdict.label != Label.STUBBED, verdict.reason


async def test_claim_naming_the_placeholder_makes_it_the_implementation(small):
    unit = Unit(id="m", kind="method", claim="A cosine multiplier anneals the rate over training.",
                hints=["run_epoch", "steps_per_epoch"])
    verdict = judge_stub(small(SCHEDULE).context(unit))
    assert verdict.label == Label.STUBBED and "cosine_multiplier" in verdict.reason


async def test_fields_class_attributes_and_library_classes_are_not_lost_names(small):
    from sa_align.judges.evidence.ownership import unset_attributes

    files = {"parts.py": '''
        from dataclasses import dataclass
        from typing import NamedTuple

        import gym
        import torch.nn as nn
        from transformers import PreTrainedModel


        @dataclass
        class Schedule:
            ramp_steps: int = 100
            hold_steps: int = 50

            def total(self):
                return self.ramp_steps + self.hold_steps


        class Pair(NamedTuple):
            left: float
            right: float

            def gap(self):
                return self.right - self.left


        class Bottle:
            widen = 4

            def width(self, c):
                return c * self.widen


        class Maze(gym.Env):
            def reset(self):
                return self.np_random.random()


        class Encoder(PreTrainedModel):
            def forward(self, x):
                return x * self.config.hidden_size


        class Head(nn.Module):
            def forward(self, x):
                return self.classifier(x) if self.training else x
    '''}
    # Only the torch module's head is read but never built: `nn.Module` gives `training`, not `classifier`.
    assert unset_attributes(small(files).index) == frozenset({"classifier"})


RIVALS = {
    "train.py": '''
        from pool import attention_pool, mean_pool

        if __name__ == "__main__":
            print(attention_pool([1.0, 2.0], [0.5, 0.5], temperature=1.0), mean_pool([1.0]))
    ''',
    "pool.py": '''
        import math


        def mean_pool(xs):
            """Average of the inputs."""
            pass


        def attention_pool(xs, scores, temperature):
            weights = [math.exp(s / temperature) for s in scores]
            total = sum(weights)
            return sum(w * x for w, x in zip(weights, xs)) / total
    ''',
}


async def test_claim_naming_a_placeholder_does_not_outrank_a_richer_independent_rival(small):
    # "mean pool" names the emptied `mean_pool`, but the claim's hints live in `attention_pool`.
    unit = Unit(id="m", kind="method", claim="Tokens are pooled with softmax weights instead of a mean pool.",
                hints=["attention_pool", "temperature", "scores"])
    verdict = judge_stub(small(RIVALS).context(unit))
    assert verdict.label != Label.STUBBED, verdict.reason


async def test_tie_goes_to_an_independent_rival_that_carries_more_of_the_unit(small):
    files = {
        "targets.py": '''
            def smooth(targets, epsilon):
                pass


            def smoothed(labels, epsilon, num_classes):
                off = epsilon / num_classes
                return [[1.0 - epsilon + off if i == y else off for i in range(num_classes)] for y in labels]
        ''',
        "train.py": '''
            from targets import smooth, smoothed

            if __name__ == "__main__":
                print(smoothed([0, 1], 0.1, 3), smooth([0], 0.1))
        ''',
    }
    # `smooth` carries `epsilon` and the lost `soft_targets`; `smoothed` carries `epsilon` and `num_classes`.
    unit = Unit(id="m", kind="method", claim="Targets spread epsilon evenly over the classes.",
                hints=["epsilon", "num_classes", "soft_targets"])
    verdict = judge_stub(small(files).context(unit))
    assert verdict.label != Label.STUBBED, verdict.reason
