"""Missing judge: decides absence only when the unit's names occur nowhere in code."""

from __future__ import annotations

from sa_align.judges.missing.judge import judge_missing
from sa_align.models import Label, Param, Unit


async def test_absent_parameter_is_missing(judged):
    unit = Unit(id="mom", kind="numerical", claim="SGD momentum is 0.9.", params=[Param(name="momentum", value=0.9)])
    result = await judged("trainer").judge(unit)
    assert result.label == Label.MISSING


async def test_present_parameter_is_not_missing(judged):
    unit = Unit(id="lr", kind="numerical", claim="Learning rate 0.1.", params=[Param(name="learning_rate", value=0.1)])
    verdict = judge_missing(judged("trainer").context(unit))
    assert verdict.abstained


async def test_absent_method_is_missing_and_deleting_it_makes_it_missing(judged):
    unit = Unit(id="focal", kind="method", claim="Easy examples are down-weighted by a focusing term.",
                hints=["focal_weighting"])
    present = judge_missing(judged("trainer").context(unit))
    assert present.abstained
    src = "def focal_weighting(probs, labels, focusing):"
    deleted = judged("trainer", {"trainer/loss.py": (src, "def _unused(probs, labels, focusing):")})
    body_free = judge_missing(deleted.context(unit.model_copy(update={"claim": "Stochastic depth drops residual branches."})))
    assert body_free.label != Label.MISSING  # claim words like residual still occur: abstain, not missing
    gone = Unit(id="sd", kind="method", claim="Stochastic depth randomly skips whole blocks.", hints=["drop_path"])
    assert judge_missing(deleted.context(gone)).label == Label.MISSING


async def test_words_only_in_readme_or_comments_do_not_count(judged):
    unit = Unit(id="grader", kind="method", claim="A grader verifies previous instructions.", hints=["grader"])
    verdict = judge_missing(judged("trainer").context(unit))
    assert verdict.label == Label.MISSING  # "grader" appears only in README prose and a comment


async def test_identifiers_the_unit_names_all_gone_is_missing(small):
    files = {
        "agent.py": '''
            import torch


            class PPO:
                def value_loss(self, values, returns):
                    return ((values - returns) ** 2).mean()

                def update(self, batch):
                    loss = self.value_loss(batch["values"], batch["returns"])
                    return torch.clamp(loss, 0, 10)
        ''',
    }
    j = small(files)
    gone = Unit(id="clip", kind="method", claim="The policy maximizes the clipped surrogate objective.",
                hints=["clipped_surrogate", "torch.clamp", "surr1", "surr2"])
    verdict = judge_missing(j.context(gone))
    assert verdict.label == Label.MISSING and "clipped_surrogate" in verdict.reason
    # A hint that names a definition in the repository means the unit's code is there.
    there = gone.model_copy(update={"hints": ["clipped_surrogate", "value_loss", "surr1"]})
    assert judge_missing(j.context(there)).abstained


async def test_absent_names_beside_an_emptied_candidate_are_not_called_missing(small):
    files = {
        "train.py": '''
            class Classifier:
                """Pooled features into a linear head."""

                def __init__(self, width, classes):
                    self.width, self.classes = width, classes

                def forward(self, features):
                    raise NotImplementedError


            if __name__ == "__main__":
                Classifier(64, 10).forward([0.0])
        ''',
    }
    unit = Unit(id="head", kind="method", claim="The classifier ends with global average pooling and a softmax.",
                hints=["adaptive_avg_pool2d", "log_softmax_head"])
    verdict = judge_missing(small(files).context(unit))
    assert verdict.abstained and "`Classifier.forward` is a placeholder" in verdict.reason


async def test_claim_words_alone_never_decide_absence(small):
    repo = small({"model.py": "def forward(x):\n    return x * 2\n"})
    unit = Unit(id="m", kind="method", claim="Attention weights are renormalized by a learned temperature.")
    verdict = judge_missing(repo.context(unit))
    assert verdict.abstained and "claim words alone never show absence" in verdict.reason


async def test_the_reason_says_which_identifiers_were_looked_for_and_which_words_occur(small):
    repo = small({"model.py": "def attention(query, key):\n    return query @ key\n"})
    unit = Unit(id="m", kind="method", claim="The gated residual mixer combines attention and convolution outputs.",
                hints=["GatedResidualMixer"])
    verdict = judge_missing(repo.context(unit))
    assert verdict.label == Label.MISSING
    assert "GatedResidualMixer" in verdict.reason and "only attent" in verdict.reason


async def test_a_repository_without_code_misses_every_claim_certainly(small):
    repo = small({"README.md": "Nothing here yet.\n", "empty.py": ""})
    for unit in (Unit(id="n", kind="numerical", claim="lr=0.1", params=[Param(name="learning_rate", value=0.1)]),
                 Unit(id="p", kind="protocol", claim="Uses MNIST", entities=["MNIST"])):
        verdict = judge_missing(repo.context(unit))
        assert verdict.label == Label.MISSING and verdict.certain
