"""Attribution judge: the cited prior method in place of the paper's variant."""

from __future__ import annotations

from sa_align.judges.attribution import judge_attribution
from sa_align.models import Attribution, Label, Unit

DECOUPLED = Unit(id="wd", kind="method", claim="We use decoupled weight decay, applied directly to the weights.",
                 hints=["make_optimizer"])


async def test_variant_present_abstains(judged):
    verdict = judge_attribution(judged("trainer").context(DECOUPLED))
    assert verdict.abstained  # AdamW is the variant


async def test_prior_method_in_its_place_is_misattributed(judged):
    # Adam with an L2 term in the gradient is the prior method decoupled weight decay replaces.
    j = judged("trainer", {"trainer/optim.py": ("torch.optim.AdamW(", "torch.optim.Adam(")})
    verdict = judge_attribution(j.context(DECOUPLED))
    assert verdict.label == Label.MISATTRIBUTED
    assert verdict.evidence[0].path == "trainer/optim.py"


async def test_cited_units_are_never_misattributed(judged):
    cited = DECOUPLED.model_copy(update={"attribution": Attribution.CITED})
    assert judge_attribution(judged("trainer").context(cited)).abstained


async def test_plain_block_where_residual_is_claimed(judged):
    unit = Unit(id="res", kind="method", claim="Each block adds a residual connection around its two convolutions.",
                hints=["ResidualBlock", "forward"])
    assert judge_attribution(judged("trainer").context(unit)).abstained
    plain = judged("trainer", {"trainer/model.py": ("        out = out + identity\n", "")})
    assert judge_attribution(plain.context(unit)).label == Label.MISATTRIBUTED


BASELINE_CLAIMS = [
    "Operator architecture (1D baseline): each block adds a residual connection around its two convolutions.",
    "Baseline network: plain blocks with a residual connection after every stage.",
    "We run the standard residual network as a baseline, with skip connections in every block.",
]


async def test_a_unit_that_describes_a_baseline_is_never_misattributed(judged):
    # A baseline is the cited method itself: its residual connection missing is no substitution by the paper.
    plain = judged("trainer", {"trainer/model.py": ("        out = out + identity\n", "")})
    for claim in BASELINE_CLAIMS:
        unit = Unit(id="b", kind="method", claim=claim, hints=["ResidualBlock", "forward"])
        verdict = judge_attribution(plain.context(unit))
        assert verdict.abstained and "baseline" in verdict.reason, claim


async def test_a_variant_set_against_a_baseline_is_still_checked(judged):
    plain = judged("trainer", {"trainer/model.py": ("        out = out + identity\n", "")})
    unit = Unit(id="v", kind="method", hints=["ResidualBlock", "forward"],
                claim="Unlike the baseline, each block adds a residual connection around its two convolutions.")
    assert judge_attribution(plain.context(unit)).label == Label.MISATTRIBUTED


async def test_the_variants_absence_speaks_only_about_an_implementation_of_its_subject(small):
    # The best candidate is a data loader, not a block: that it has no shortcut shows no plain block.
    repo = small({"data.py": '''
        import numpy as np


        def load_observations(path, size=8):
            grid = np.load(path)
            grid = grid.reshape(size, size, -1)
            grid = grid.astype("float32")
            return grid


        if __name__ == "__main__":
            load_observations("obs.npy")
    '''})
    unit = Unit(id="s", kind="method", hints=["load_observations"],
                claim="Observations are encoded and a skip connection feeds the encoding to every layer.")
    assert judge_attribution(repo.context(unit)).abstained
