"""Values judge: a claim none of whose stated values occurs anywhere is not implemented as stated."""

from __future__ import annotations

from sa_align.judges.values import judge_values
from sa_align.models import Label, Param, Unit

DATA = {"data.py": "SPLITS = {'train': 800, 'val': 200}\n\n\ndef load_split(name):\n    return SPLITS[name] * 0.5\n"}


def test_no_stated_value_anywhere_is_missing(small):
    repo = small(DATA)
    verdict = judge_values(repo.context(Unit(id="a", kind="numerical", claim="SkyTimelapse: 2392 train clips / 225 test clips")))
    assert verdict.label == Label.MISSING and "(2392, 225)" in verdict.reason


def test_a_value_that_occurs_anywhere_abstains(small):
    repo = small(DATA)
    verdict = judge_values(repo.context(Unit(id="p", kind="numerical", claim="800 training and 200 validation samples (80/20)")))
    assert verdict.abstained and "800" in verdict.reason


def test_percentages_match_either_notation_and_reference_numbers_do_not_count(small):
    repo = small({"mix.py": "IMAGE_SHARE = 12.5\n\n\ndef share():\n    return IMAGE_SHARE\n"})
    assert judge_values(repo.context(Unit(id="m", kind="numerical", claim="Mix 12.5% images (Table 3)"))).abstained
    steps = Unit(id="s", kind="ordering", claim="(3) evaluate after step (4) on section 7")
    assert "no value" in judge_values(repo.context(steps)).reason


def test_a_set_parameter_is_left_to_the_numeric_judge(small):
    repo = small({"train.py": "def main():\n    lr = 0.3\n    return lr\n"})
    unit = Unit(id="l", kind="numerical", claim="lr 0.1 and 77 warm-up steps", params=[Param(name="learning_rate", value=0.1)])
    assert "numeric judge" in judge_values(repo.context(unit)).reason


def test_a_method_whose_words_are_there_without_its_values_is_missing(small):
    repo = small({"loss.py": "def focal_loss(probs, targets, focusing):\n    return ((1 - probs) ** focusing) * targets\n"})
    unit = Unit(id="f", kind="method", claim="Focal loss with focusing parameter gamma = 5 down-weights easy targets")
    verdict = judge_values(repo.context(unit))
    # Claim words in the code do not show the component runs with other values.
    assert verdict.label == Label.MISSING and verdict.rule == "VAL001" and "focal" in verdict.reason


def test_a_third_or_more_of_the_values_absent_is_missing(small):
    repo = small(DATA)
    verdict = judge_values(repo.context(Unit(id="s", kind="protocol", claim="Split of 800 and 200 samples, 19 tasks, 1000 images")))
    assert verdict.label == Label.MISSING and verdict.rule == "VAL002" and "2 of the 4 values" in verdict.reason
    few = judge_values(repo.context(Unit(id="f", kind="protocol", claim="Split of 800 and 200 samples at rate 0.5, with 19 tasks")))
    assert few.abstained


def test_a_few_absent_values_among_present_ones_lean_to_a_key_omission_without_voting(small):
    repo = small(DATA)
    verdict = judge_values(repo.context(Unit(id="f", kind="numerical", claim="Split of 800 and 200 samples at rate 0.5, with 19 tasks")))
    assert verdict.abstained and verdict.label == Label.UNDECIDED
    assert verdict.lean == Label.MISMATCHED and verdict.score == 0.5 and "1 of the 4 values" in verdict.reason


def test_the_untried_values_of_a_search_grid_are_not_absent(small):
    repo = small({"train.py": "PROMPTS = 10\n\n\ndef build():\n    return PROMPTS\n"})
    grid = Unit(id="g", kind="numerical", claim="Prompt number searched in [5, 10, 50, 200, 300].",
                params=[Param(name="prompt_number", values=[5, 10, 50, 200, 300], shape="set")])
    verdict = judge_values(repo.context(grid))
    assert verdict.abstained and verdict.lean is None, verdict.reason
    # The same values as a sequence must all be there: most of them are not.
    seq = grid.model_copy(update={"params": [Param(name="prompt_number", values=[5, 10, 50, 200, 300], shape="sequence")]})
    verdict = judge_values(repo.context(seq))
    assert verdict.label == Label.MISMATCHED or verdict.lean == Label.MISMATCHED


def test_a_parameter_count_is_not_looked_for_in_code(small):
    repo = small({"vit.py": "DEPTH = 12\nPATCH = 16\n\n\ndef build():\n    return DEPTH, PATCH\n"})
    unit = Unit(id="v", kind="numerical", claim="ViT-B/16 backbone with 86M params, 12 layers and patch size 16.",
                params=[Param(name="num_parameters", value=86_000_000), Param(name="num_layers", value=12),
                        Param(name="patch_size", value=16)])
    verdict = judge_values(repo.context(unit))
    assert verdict.abstained and verdict.lean is None, verdict.reason
