"""Scope gate: `aligned` on part of a free-text claim is an abstention; failures stand."""

from __future__ import annotations

import pytest

from sa_align.extract.derive import complete_unit
from sa_align.judges.base import decide
from sa_align.judges.scope import scoped, stated_numbers, unchecked_numbers
from sa_align.models import Label, Param, Unit

TRAIN = {
    "train.py": """
        import torch


        def main(model):
            optimizer = torch.optim.AdamW(model.parameters(), lr=8e-4, weight_decay=0.03)
            return optimizer


        if __name__ == "__main__":
            main(None)
    """,
}


def _free(kind: str, claim: str) -> Unit:
    return complete_unit(Unit(id="u", kind=kind, claim=claim))


def test_reference_numbers_and_small_integers_are_not_stated_values():
    assert stated_numbers("AdamW (Table 3, Appendix B.1): lr=8e-4, 2 stages, warm-up 8000 steps (Eq. 4)") == [8e-4, 8000]
    # The paper extractor's reference words count too, and a claim's own numbering.
    assert stated_numbers("Experiment 5, layer 7 frozen: 12 layers. Step 4: as in Smith et al. 2020") == [12]
    # Math a PDF converter spaced out is one number per value, not its digits.
    assert stated_numbers("a weight decay of $1 \\times 1 0 ^ { - 6 }$ and betas $( 0 . 9 , 0 . 9 9 9 )$") == [1e-6, 0.9, 0.999]
    # A size written without spaces states each side; a speed-up factor states nothing.
    assert stated_numbers("128x128 crops of 256X256 images, 32x32x3 inputs, 10x faster") == [128, 128, 256, 256, 32, 32, 3]
    # A year after an author's name in a citation's brackets dates the citation; after a method's name it may be a setting.
    assert stated_numbers("any subset (by Klenke, 2014, Definition 1.79); as He et al. (2016) did") == []
    assert stated_numbers("warm-up (Goyal et al., 2017; Smith, 2018) for 2000 steps; Adam, 2000 iterations") == [2000, 2000]
    # Where a field sits in an observation vector is no value to look for; the vector's size is.
    assert stated_numbers("observation 45 dims: base vel[0:3], gravity[6:9], joint pos[9:21], tail[ : 48]; lr [3e-4]") == [45, 3e-4]


def test_numbers_no_parameter_carries_are_unchecked():
    unit = _free("numerical", "AdamW: lr=8e-4, weight_decay=0.03; evaluation on 30000 prompts of 77 tokens")
    assert unchecked_numbers(unit) == [30000, 77]


# Under the calibrated judge a failure lean becomes the label when the model is sure the claim is not faithful
# (`calibrate/policy.py`, step 6): on these small repositories that turns "no finding" into `mismatched`.
_LEAN_FLAGS = pytest.mark.xfail(
    reason="the calibrated judge labels a failure lean `mismatched` where the judges found none", strict=True)


@pytest.fixture
def hand_or_lean(calibrated, request):
    if calibrated:
        request.applymarker(_LEAN_FLAGS)


@pytest.mark.usefixtures("hand_or_lean")
async def test_value_judge_aligned_on_part_of_the_claim_abstains(small):
    repo = small(TRAIN)
    partial = await repo.judge(_free("numerical", "AdamW: lr=8e-4, weight_decay=0.03, 30000 evaluation prompts"))
    assert partial.label == Label.UNDECIDED
    numeric = next(v for v in partial.verdicts if v.judge == "numeric")
    assert numeric.abstained and "also states 30000" in numeric.reason
    assert numeric.lean == Label.ALIGNED and numeric.confidence > 0  # still weighed by the calibrated judge
    whole = await repo.judge(_free("numerical", "AdamW optimizer: lr=8e-4, weight_decay=0.03"))
    assert whole.label == Label.ALIGNED


async def test_failures_on_part_of_the_claim_stand(small):
    result = await small(TRAIN).judge(_free("numerical", "AdamW: lr=1e-4, weight_decay=0.03, 30000 prompts"))
    assert result.label == Label.MISMATCHED


def test_presence_judges_never_align_a_derived_unit_and_given_fields_are_trusted():
    derived = _free("protocol", "Evaluate on CIFAR-100 with the full augmentation pipeline and 5 seeds")
    vote = decide("protocol", Label.ALIGNED, "the code uses CIFAR-100", rule="PRO001", confidence=0.8)
    assert scoped(derived, vote).abstained
    given = Unit(id="g", kind="protocol", claim="Evaluate on CIFAR-100", entities=["CIFAR-100"])
    assert scoped(given, vote) is vote
    failure = decide("protocol", Label.MISSING, "no code uses CIFAR-100", rule="PRO003", confidence=0.8)
    assert scoped(derived, failure) is failure


def test_a_unit_with_given_params_is_not_gated():
    unit = Unit(id="n", kind="numerical", claim="lr 0.1 for 90 epochs", params=[Param(name="learning_rate", value=0.1)])
    vote = decide("numeric", Label.ALIGNED, "lr matches", rule="NUM001", confidence=1.0)
    assert scoped(unit, vote) is vote


@pytest.mark.usefixtures("hand_or_lean")
async def test_a_different_value_under_the_claims_name_is_no_finding_when_every_stated_value_is_elsewhere(small):
    repo = small({"train.py": """
        import torch

        GLOBAL_BATCH = 288


        def main(model):
            batch_size = 8
            return torch.optim.AdamW(model.parameters(), lr=8e-4), batch_size, GLOBAL_BATCH


        if __name__ == "__main__":
            main(None)
    """})
    renamed = await repo.judge(_free("numerical", "Stage 1: batch_size=288"))
    numeric = next(v for v in renamed.verdicts if v.judge == "numeric")
    assert renamed.label == Label.UNDECIDED and "perhaps under other names" in numeric.reason
    wrong = await repo.judge(_free("numerical", "Stage 1: batch_size=512"))
    assert wrong.label == Label.MISMATCHED
