"""Stub judge: placeholder forms and unreachable implementations, on a real indexed repository."""

from __future__ import annotations

import pytest

from sa_align.judges.stub.judge import judge_stub
from sa_align.models import Label, Param, Unit


def method(uid: str, claim: str, hints: list[str]) -> Unit:
    return Unit(id=uid, kind="method", claim=claim, hints=hints)


@pytest.mark.parametrize("claim, hints, form", [
    ("Advantages use generalized advantage estimation.", ["advantage_estimate"], "pass"),
    ("An entropy bonus encourages exploration.", ["entropy_bonus"], "ellipsis"),
    ("A KL penalty keeps the policy near the reference policy.", ["kl_penalty"], "docstring_only"),
    ("The value target regresses onto the returns.", ["value_target"], "constant_return"),
    ("Rewards are scaled by a running standard deviation.", ["reward_scaling"], "todo_comment"),
])
async def test_placeholder_forms_are_stubbed(judged, claim, hints, form):
    j = judged("stubs")
    verdict = judge_stub(j.context(method("m", claim, hints)))
    assert verdict.label == Label.STUBBED, verdict.reason
    assert form in verdict.reason
    assert verdict.evidence and verdict.evidence[0].path == "agent/update.py"


async def test_not_implemented_is_certain_and_decides(judged):
    j = judged("trainer")
    result = await j.judge(method("mix", "Training pairs are combined with mixup.", ["mixup"]))
    assert result.label == Label.STUBBED and result.decided_by == "static"
    assert any(v.certain for v in result.verdicts if v.judge == "stub")


async def test_abstract_method_is_not_a_stub(judged):
    j = judged("stubs")
    verdict = judge_stub(j.context(method("act", "The policy acts greedily on observation scores.", ["act"])))
    assert verdict.label != Label.STUBBED


async def test_unreachable_implementation_is_stubbed(judged):
    unit = method("per", "Transitions are sampled with probability proportional to their priority.",
                  ["prioritized_replay"])
    # Nothing names it at all: likely a stub, but it may be reached in a way no rule knows,
    # so the vote is not certain and an LLM judge can outvote it.
    unnamed = judge_stub(judged("stubs").context(unit))
    assert unnamed.label == Label.STUBBED and not unnamed.certain and unnamed.confidence == 0.7
    assert "nothing names it" in unnamed.reason
    # A switched-off call shows the cut: the implementation is written but never runs.
    off = judged("stubs", {"run.py": ("    return loss, adv", "    # prioritized_replay_sample([1], [1.0], 1)\n    return loss, adv")})
    verdict = judge_stub(off.context(unit))
    assert verdict.label == Label.STUBBED and verdict.certain and "no entry point" in verdict.reason
    assert "commented out (run.py:" in verdict.reason
    # Once something calls it, it is reachable and no longer a stub.
    called = judged("stubs", {"run.py": ("    return loss, adv", "    prioritized_replay_sample([1], [1.0], 1)\n    return loss, adv")})
    called_verdict = judge_stub(called.context(unit))
    assert called_verdict.label != Label.STUBBED


async def test_reachable_real_implementation_abstains(judged):
    unit = method("ret", "Returns are discounted sums of rewards.", ["compute_returns"])
    verdict = judge_stub(judged("stubs").context(unit))
    assert verdict.abstained


DEFERRED = {
    "train.py": '''
        import torch


        def train(model, steps):
            params = list(model.parameters())
            lr = 0.1
            # TODO: not implemented yet
            optimizer = None
            for _ in range(steps):
                loss = model(params)
                loss.backward()
            return lr


        if __name__ == "__main__":
            train(None, 1)
    ''',
}


async def test_deferred_statements_naming_a_hint_are_stubbed(small):
    unit = method("opt", "The model is optimized with Adam.", ["Adam", "optimizer"])
    verdict = judge_stub(small(DEFERRED).context(unit))
    assert verdict.label == Label.STUBBED and "`optimizer`" in verdict.reason
    other = method("loss", "The loss is backpropagated every step.", ["loss.backward", "steps"])
    assert judge_stub(small(DEFERRED).context(other)).label != Label.STUBBED


ORPHANS = {
    "run.py": '''
        from data import build_loaders

        if __name__ == "__main__":
            build_loaders("data")
    ''',
    "data.py": '''
        def train_transform(size):
            """Random crop and flip."""
            steps = ["crop", "flip"]
            return [s for s in steps if size]


        def build_loaders(root):
            """Loaders over the training images."""
            # TODO: implement build_loaders
            return None
    ''',
}


async def test_orphan_beside_a_placeholder_is_stubbed_and_names_the_cause(small):
    # `train_transform` lost its caller because `build_loaders` is a placeholder: the augmentation never runs.
    unit = method("aug", "Training images are randomly cropped and flipped.", ["train_transform"])
    files = dict(ORPHANS)
    files["data.py"] = ORPHANS["data.py"].replace(
        "            return None", "            # loader = make_loader(root, train_transform(224))\n            return None")
    verdict = judge_stub(small(files).context(unit))
    assert verdict.label == Label.STUBBED and verdict.certain
    assert "`build_loaders`" in verdict.reason and "placeholder" in verdict.reason


async def test_a_placeholder_that_does_not_name_the_orphan_proves_nothing(small):
    # Sharing a file with a placeholder is no trace of a lost call: nothing names `train_transform`,
    # so the vote is only likely and blames no placeholder.
    unit = method("aug", "Training images are randomly cropped and flipped.", ["train_transform"])
    verdict = judge_stub(small(ORPHANS).context(unit))
    assert not verdict.certain and "placeholder" not in verdict.reason


CHAIN = {
    "run.py": '''
        from losses import total_loss

        if __name__ == "__main__":
            print(total_loss([1.0], [0.5]))
    ''',
    "losses.py": '''
        def ratio_of(new, old):
            return [n / o for n, o in zip(new, old)]


        def clipped_objective(new, old, eps=0.2):
            r = ratio_of(new, old)
            return [min(x, 1 + eps) for x in r]


        def total_loss(new, old):
            """Clipped objective plus value loss."""
            # TODO: return sum(clipped_objective(new, old)) once the value loss is back
            return 0.0
    ''',
}


async def test_helper_of_a_dead_caller_is_dead_too(small):
    j = small(CHAIN)
    ratio = method("ratio", "The probability ratio divides new by old probabilities.", ["ratio_of"])
    verdict = judge_stub(j.context(ratio))
    assert verdict.label == Label.STUBBED and verdict.certain, verdict.reason
    assert "only dead code calls it (`clipped_objective`)" in verdict.reason
    assert "placeholder `total_loss`" in verdict.reason
    # Without the switched-off call nothing shows that `clipped_objective` lost a caller: what only
    # it calls is dead, but only likely a stub.
    bare = {**CHAIN, "losses.py": CHAIN["losses.py"].replace("return sum(clipped_objective(new, old)) ", "")}
    unproven = judge_stub(small(bare).context(ratio))
    assert unproven.label == Label.STUBBED and not unproven.certain and unproven.confidence == 0.7
    # A dead function that carries none of the unit's hints says nothing about the unit.
    other = method("kl", "A KL penalty keeps the policy close.", ["kl_penalty", "beta_kl"])
    assert judge_stub(j.context(other)).label != Label.STUBBED


async def test_nothing_is_dead_without_entry_points(small):
    files = {"losses.py": CHAIN["losses.py"]}
    ratio = method("ratio", "The probability ratio divides new by old probabilities.", ["ratio_of"])
    assert judge_stub(small(files).context(ratio)).label != Label.STUBBED


async def test_empty_method_of_a_constructed_subclassed_class_is_a_stub(small):
    files = {
        "run.py": '''
            from blocks import BasicBlock, PlainBlock

            if __name__ == "__main__":
                BasicBlock(3)(1.0)
                PlainBlock(3)(1.0)
        ''',
        "blocks.py": '''
            class BasicBlock:
                def __init__(self, width):
                    self.width = width

                def forward(self, x):
                    # TODO: implement forward
                    return 0.0


            class PlainBlock(BasicBlock):
                def forward(self, x):
                    out = x * self.width
                    return out + 1.0
        ''',
    }
    unit = method("res", "A basic block adds its input back to the output.", ["BasicBlock", "shortcut"])
    verdict = judge_stub(small(files).context(unit))
    assert verdict.label == Label.STUBBED and "BasicBlock.forward" in verdict.reason


async def test_numerical_unit_set_elsewhere_is_not_stubbed_by_a_placeholder(small):
    files = {
        "train.py": '''
            def schedule(epoch, eta_max=1.0):
                pass


            if __name__ == "__main__":
                schedule(0)
        ''',
        "config.yaml": "lr: 0.001\n",
    }
    unit = Unit(id="lr", kind="numerical", claim="The learning rate is 1e-3.",
                params=[Param(name="learning_rate", value=0.001)])
    verdict = judge_stub(small(files).context(unit))
    assert verdict.abstained


async def test_ordering_unit_sequenced_elsewhere_ignores_a_placeholder_step(small):
    files = {
        "train.py": '''
            def compute_gae(rewards):
                raise NotImplementedError


            def collect_rollout(env):
                return [env]


            def train(env):
                rollout = collect_rollout(env)
                advantages = compute_gae(rollout)
                optimize_surrogate(rollout, advantages)


            def optimize_surrogate(rollout, advantages):
                return rollout, advantages


            if __name__ == "__main__":
                train(None)
        ''',
    }
    unit = Unit(id="o", kind="ordering", claim="Collect a rollout, compute GAE, then optimize the surrogate.",
                order=["collect rollout", "compute gae", "optimize surrogate"],
                hints=["collect_rollout", "compute_gae", "optimize_surrogate"])
    verdict = judge_stub(small(files).context(unit))
    assert verdict.abstained and "sequenced in `train`" in verdict.reason


TRACKERS = {
    "trackers.py": '''
        import json


        class QuietTracker:
            """Chosen when tracking is switched off."""

            def track_scalars(self, values, step):
                pass


        class FileTracker:
            def __init__(self, path):
                self.out = open(path, "a")

            def track_scalars(self, values, step):
                self.out.write(json.dumps({"step": step, **values}) + "\\n")
    ''',
    "run.py": '''
        import sys
        from trackers import FileTracker, QuietTracker

        if __name__ == "__main__":
            tracker = FileTracker(sys.argv[1]) if len(sys.argv) > 1 else QuietTracker()
            for step in range(10):
                tracker.track_scalars({"loss": 1.0 / (step + 1)}, step)
    ''',
}


@pytest.mark.parametrize("claim, hints", [
    ("Scalars are written as one JSON record per step.", ["track_scalars"]),
    ("Scalars are tracked in a JSON file.", ["FileTracker.track_scalars"]),
    ("Scalars are tracked as JSON.", ["track_scalars", "json"]),
])
async def test_null_object_beside_the_real_class_is_not_a_stub(small, claim, hints):
    verdict = judge_stub(small(TRACKERS).context(method("t", claim, hints)))
    assert verdict.label != Label.STUBBED, verdict.reason


async def test_sampling_functions_are_not_stubs(small):
    files = {"noise.py": '''
        import torch


        def draw_steps(n, horizon=1000):
            """Uniform training steps, one per example."""
            return torch.randint(0, horizon, (n,))


        def corrupt(x, steps, keep):
            eps = torch.randn_like(x)
            return keep[steps].sqrt() * x + (1 - keep[steps]).sqrt() * eps


        if __name__ == "__main__":
            x = torch.zeros(2, 3)
            print(corrupt(x, draw_steps(2), torch.linspace(0.9, 0.1, 1000)))
    '''}
    unit = method("s", "Training steps are drawn uniformly at random.", ["draw_steps"])
    assert judge_stub(small(files).context(unit)).label != Label.STUBBED


DECLARED = {
    "fit.py": '''
        import torch


        class Fitter:
            def __init__(self, net, rounds=3):
                self.net = net
                self.rounds = rounds
                # TODO: let callers pick the decay; prepare() builds both for now
                self.solver = None
                self.decay = None

            def prepare(self):
                self.solver = torch.optim.SGD(self.net.parameters(), lr=0.1, momentum=0.9)
                self.decay = torch.optim.lr_scheduler.StepLR(self.solver, step_size=1)

            def run(self, batches):
                self.prepare()
                for _ in range(self.rounds):
                    for x, y in batches:
                        self.solver.zero_grad()
                        torch.nn.functional.l1_loss(self.net(x), y).backward()
                        self.solver.step()
                    self.decay.step()


        if __name__ == "__main__":
            Fitter(torch.nn.Linear(2, 1)).run([])
    ''',
}


async def test_attribute_declared_none_and_built_elsewhere_is_not_deferred(small):
    unit = method("o", "Training uses SGD with momentum and a step schedule.", ["solver", "decay", "SGD"])
    assert judge_stub(small(DECLARED).context(unit)).label != Label.STUBBED


GUARDS = {
    "scores.py": '''
        import numpy as np


        def balanced_accuracy(preds, labels, classes):
            """Mean per-class recall."""
            if len(preds) == 0:
                # TODO: settle what balanced accuracy means without predictions
                return None
            recalls = []
            for c in range(classes):
                hits = np.sum((preds == c) & (labels == c))
                total = np.sum(labels == c)
                recalls.append(hits / total if total else 0.0)
            return float(np.mean(recalls))


        def restore(model, path):
            try:
                import safetensors  # noqa: F401
            except ImportError:
                # TODO: sharded restore of balanced checkpoints needs safetensors
                pass
            model.update(np.load(path))
            return model


        if __name__ == "__main__":
            print(balanced_accuracy(np.array([0, 1]), np.array([0, 1]), 2))
            restore({}, "w.npz")
    ''',
}


@pytest.mark.parametrize("claim, hints", [
    ("We report balanced accuracy, the mean of per-class recall over predictions.", ["balanced_accuracy"]),
    ("Balanced checkpoints are restored from disk, sharded when large.", ["restore"]),
    ("Top-1 and top-5 accuracy are reported without predictions filtered.", ["balanced_accuracy"]),
])
async def test_guard_and_fallback_branches_are_not_deferred_work(small, claim, hints):
    verdict = judge_stub(small(GUARDS).context(method("g", claim, hints)))
    assert verdict.label != Label.STUBBED, verdict.reason


async def test_deferred_local_overwriting_an_initial_value_is_still_deferred(small):
    files = {"main.py": '''
        import numpy as np


        def evaluate(runs):
            scores = []
            # TODO: not implemented yet
            scores = None
            print(np.mean(scores))


        if __name__ == "__main__":
            evaluate(3)
    '''}
    unit = method("m", "Scores are averaged over runs.", ["scores.mean", "runs"])
    verdict = judge_stub(small(files).context(unit))
    assert verdict.label == Label.STUBBED and "`scores`" in verdict.reason


async def test_digits_and_short_words_do_not_tie_a_bare_block_to_a_claim(small):
    files = {"stack.py": '''
        def make(i):
            return [i]


        def build_stack(depth):
            layers = [make(i) for i in range(depth)]
            # TODO: 2 in the decoder as well
            pass
            return layers


        if __name__ == "__main__":
            build_stack(2)
    '''}
    unit = method("s", "The encoder stacks 2 layers in sequence.", ["build_stack"])
    assert judge_stub(small(files).context(unit)).label != Label.STUBBED


async def test_a_setting_whose_carrier_is_deferred_is_stubbed(small):
    files = {
        "train.py": '''
            import torch


            def train(model, steps):
                # TODO: not implemented yet
                optimizer = None
                for _ in range(steps):
                    model.step(optimizer)


            if __name__ == "__main__":
                train(None, 1)
        ''',
    }
    betas = Unit(id="b", kind="numerical", claim="Adam uses beta1 = 0.9 and beta2 = 0.999.",
                 params=[Param(name="betas", values=[0.9, 0.999])], hints=["betas", "torch.optim.Adam"])
    verdict = judge_stub(small(files).context(betas))
    assert verdict.label == Label.STUBBED and not verdict.certain and "`optimizer`" in verdict.reason
    # A batch size is not carried by the optimizer: its absence stays the missing judge's call.
    batch = Unit(id="bs", kind="numerical", claim="The batch size is 128.", params=[Param(name="batch_size", value=128)])
    assert judge_stub(small(files).context(batch)).abstained


async def test_an_unused_function_found_by_a_free_text_claims_words_is_no_stub(small):
    from sa_align.extract.derive import complete_unit

    repo = small({
        "train.py": """
            def train(model):
                return model.fit()


            if __name__ == "__main__":
                train(None)
        """,
        "analysis.py": """
            def spectral_energy_profile(signal, bands):
                spectrum = abs(signal.fft())
                return [spectrum[b].sum() for b in bands]
        """,
    })
    unit = complete_unit(Unit(id="s", kind="method", claim="Compute the spectral_energy_profile of each generated signal per band"))
    verdict = judge_stub(repo.context(unit))
    assert verdict.abstained and "names no implementation of its own" in verdict.reason, verdict.reason
    given = unit.model_copy(update={"derived": [], "hints": ["spectral_energy_profile"]})
    assert judge_stub(repo.context(given)).label == Label.STUBBED


async def test_hints_read_off_a_claim_never_outrank_a_placeholder_the_claim_names(small):
    from sa_align.extract.derive import complete_unit

    repo = small({
        "ppo/agent.py": """
            import torch


            def probability_ratio(new_logp, old_logp):
                pass


            def loss(new_logp, old_logp, adv):
                return -(probability_ratio(new_logp, old_logp) * adv).mean()
        """,
        "ppo/logger.py": """
            import math


            class Logger:
                def log(self, pi_theta, pi_old):
                    return math.exp(math.log(pi_theta) - math.log(pi_old))
        """,
    })
    unit = complete_unit(Unit(id="r", kind="method", claim="The probability ratio is computed as exp(log pi_theta - log pi_old)."))
    assert "hints" in unit.derived and "pi_theta" in unit.hints
    verdict = judge_stub(repo.context(unit))
    assert verdict.label == Label.STUBBED and "probability_ratio" in verdict.reason, verdict.reason
    given = unit.model_copy(update={"derived": [], "hints": ["pi_theta", "pi_old"]})
    assert judge_stub(repo.context(given)).label != Label.STUBBED  # hints the unit brought point at the logger


async def test_a_unit_with_hints_read_off_its_claim_is_stubbed_at_its_best_relevant_placeholder(small):
    from sa_align.extract.derive import complete_unit

    repo = small({
        "data.py": """
            IMAGE_SIZE = 32


            def build_test_transform():
                '''The single view of each test image.'''
                pass


            def build_loaders(root, image_size=IMAGE_SIZE, crop_size=IMAGE_SIZE, batch_size=128):
                return load(root, image_size, crop_size, batch_size, transform=build_test_transform())
        """,
    })
    unit = complete_unit(Unit(id="p", kind="protocol", claim="At test time only a single view of the original 32x32 image is evaluated."))
    assert "hints" in unit.derived
    verdict = judge_stub(repo.context(unit))
    # The loader carries more of those hints, yet it is no implementation of the claim.
    assert verdict.label == Label.STUBBED and "build_test_transform" in verdict.reason, verdict.reason


async def test_a_class_among_the_candidates_is_judged_by_its_entry_method(small):
    from sa_align.extract.derive import complete_unit

    repo = small({
        "gcn/models.py": """
            import torch.nn as nn
            from gcn.layers import GraphConvolution


            class GCN(nn.Module):
                '''Two graph convolutions with a ReLU between them and a softmax over classes.'''

                def __init__(self, nfeat, nhid, nclass):
                    super().__init__()
                    self.gc1 = GraphConvolution(nfeat, nhid)
                    self.gc2 = GraphConvolution(nhid, nclass)

                def forward(self, x, adj):
                    pass
        """,
        "gcn/layers.py": """
            import torch.nn as nn


            class GraphConvolution(nn.Module):
                def __init__(self, n_in, n_out):
                    super().__init__()
                    self.linear = nn.Linear(n_in, n_out)

                def forward(self, x, adj):
                    return adj @ self.linear(x)
        """,
    })
    unit = complete_unit(Unit(id="m", kind="method", claim="The model is Z = softmax(A_hat ReLU(A_hat X W0) W1): two graph convolutions with a ReLU between them."))
    verdict = judge_stub(repo.context(unit))
    assert verdict.label == Label.STUBBED and "GCN.forward" in verdict.reason, verdict.reason


def _unused_helper(name: str) -> dict[str, str]:
    return {
        "run.py": '''
            from env import step

            if __name__ == "__main__":
                print(step([0.1, 0.2]))
        ''',
        "env.py": '''
            def step(torques):
                return sum(abs(t) for t in torques)
        ''',
        "helpers.py": f'''
            def {name}(torques, weight=2e-4):
                joint_torque = [abs(t) for t in torques]
                torque_penalty = weight * sum(joint_torque)
                total = torque_penalty
                return total
        ''',
    }


async def test_an_unreached_function_named_after_the_claim_is_stubbed(small):
    unit = method("tq", "The reward penalizes the joint torque with a small weight.", ["torque_penalty", "joint_torque"])
    verdict = judge_stub(small(_unused_helper("torque_reward")).context(unit))
    assert verdict.label == Label.STUBBED and not verdict.certain and "nothing names it" in verdict.reason


async def test_an_unreached_function_named_after_something_else_is_no_finding(small):
    # It carries the claim's words, but its name says it is another helper: that nothing calls it shows
    # nothing about the claim, whose code may live where no candidate looked.
    unit = method("tq", "The reward penalizes the joint torque with a small weight.", ["torque_penalty", "joint_torque"])
    verdict = judge_stub(small(_unused_helper("summarize_logs")).context(unit))
    assert verdict.abstained and verdict.lean is None and "its name says nothing the claim says" in verdict.reason


async def test_an_unreached_function_the_units_hints_name_is_the_claims_own(small):
    # Its name shares no word with the claim, but the unit names it: it is the claim's implementation.
    unit = method("tq", "The reward penalizes the joint torque with a small weight.", ["summarize_logs", "torque_penalty"])
    verdict = judge_stub(small(_unused_helper("summarize_logs")).context(unit))
    assert verdict.label == Label.STUBBED and "nothing names it" in verdict.reason
