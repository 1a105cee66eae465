from __future__ import annotations

from sa_align.extract.derive import complete_unit
from sa_align.extract.notation import assignment_params, identifier_hints, text_steps
from sa_align.models import Param, Unit


def _unit(kind: str, claim: str, **kw) -> Unit:
    return Unit(id="u", kind=kind, claim=claim, **kw)


def test_settings_written_as_code_become_parameters():
    u = complete_unit(_unit("numerical", "Adam optimizer: lr=2e-5, beta1=0.95, eps=1e-8, weight_decay=0.01"))
    got = {p.name: p.value for p in u.params}
    assert got == {"learning_rate": 2e-5, "beta1": 0.95, "epsilon": 1e-8, "weight_decay": 0.01}
    assert u.derived == ["hints", "params"] and "weight_decay" in u.hints


def test_unknown_code_names_tuples_and_greek_keys():
    params = {p.name: p for p in assignment_params("unroll H_enc=5; λ_Reward=0.1; betas=(0.9, 0.999)")}
    assert params["h_enc"].value == 5 and params["lambda_reward"].value == 0.1
    assert params["betas"].values == [0.9, 0.999] and params["betas"].shape == "sequence"


def test_prose_before_a_colon_is_not_a_parameter_name():
    assert assignment_params("Batch sizes for training: 16 for ODE1, Table 3: 5 runs") == []


def test_a_two_word_setting_is_not_read_again_as_its_last_word():
    u = complete_unit(_unit("numerical", "The encoder uses AdamW with weight decay=1e-4."))
    assert [p.name for p in u.params] == ["weight_decay"]


def test_given_fields_are_never_overwritten():
    given = _unit("numerical", "lr=0.3", params=[Param(name="learning_rate", value=0.1)], hints=["lr"])
    assert complete_unit(given) is given


def test_steps_from_numbered_lists_and_arrow_chains():
    numbered = "Sequence: (1) Generate images -> (2) Compute the spectrum at each step -> (3) Compare losses"
    assert text_steps(numbered) == ["Generate images", "Compute the spectrum at each step", "Compare losses"]
    assert text_steps("Training pipeline: pretrain encoder -> finetune head → evaluate") == [
        "pretrain encoder", "finetune head", "evaluate"]
    assert text_steps("Step 1: fit the prior. Step 2: sample") == ["fit the prior", "sample"]
    assert text_steps("no order stated here") == []


def test_protocol_entities_and_ordering_units_are_completed():
    proto = complete_unit(_unit("protocol", "Evaluate top-1 accuracy on CIFAR-100 and ImageNet"))
    assert {"CIFAR-100", "ImageNet"} <= set(proto.entities) and "entities" in proto.derived
    order = complete_unit(_unit("ordering", "Warm up the critic -> train the actor"))
    assert order.order == ["Warm up the critic", "train the actor"] and "order" in order.derived


def test_identifier_hints():
    assert identifier_hints("uses nn.GELU and weight_decay in the VisionTransformer, numHeads=8") == [
        "nn.GELU", "weight_decay", "VisionTransformer", "numHeads"]


def test_nothing_checkable_leaves_the_unit_alone():
    u = _unit("method", "The method is simple and effective.")
    assert complete_unit(u) == u and u.derived == []


def test_a_setting_named_in_a_heading_takes_the_value_after_the_colon():
    from sa_align.extract.notation import heading_params

    assert [(p.name, p.value) for p in heading_params("Training iterations for Experiment C.3 (varying kernels): 3000")] == [
        ("max_steps", 3000)]
    assert [(p.name, p.value) for p in heading_params("Low-resolution image size for Phase 1: 128x128 (half)")] == [
        ("image_size", 128)]
    assert heading_params("Evaluation protocol: 5 seeds per task, see below") == []


def test_values_end_before_the_comma_that_separates_settings():
    got = {p.name: p.value for p in assignment_params("inference_steps=100, total_images=82,783, lr=1e-4")}
    assert got["sampling_steps"] == 100 and got["total_images"] == 82783 and got["learning_rate"] == 1e-4


def test_labels_after_reference_words_and_dataset_names_are_not_settings():
    from sa_align.extract.notation import heading_params

    # `C.1` is also PPO's value-loss coefficient `c1`: after "Experiment" it is an appendix label.
    assert [(p.name, p.value) for p in heading_params("Training iterations for Experiment C.1 (varying sizes): 2000")] == [
        ("max_steps", 2000)]
    assert [p.name for p in assignment_params("see Appendix C.1=2, PPO c1=0.5")] == ["value_loss_coef"]
    # Capitals and digits before a colon name a dataset; the same shape set with `=` is a code name.
    assert assignment_params("UCF101: 2048 samples") == []
    assert [p.name for p in assignment_params("DIM2=64")] == ["dim2"]


def test_autoregressive_steps_are_sampling_steps_not_training_steps():
    u = complete_unit(_unit("numerical", "Phase 1 uses 32 autoregressive steps, Phase 2 uses 4 autoregressive steps."))
    assert [(p.name, p.value) for p in u.params] == [("sampling_steps", 32), ("sampling_steps", 4)]


def _shapes(params) -> dict[str, tuple]:
    return {p.name: (p.shape, p.values) for p in params}


def test_bracketed_lists_are_sequences_sets_or_ranges_by_how_they_are_joined():
    got = _shapes(assignment_params(
        "SongUNet: num_blocks=[3,5,7], attn_resolutions=[16]; lr∈{1e-4,3e-5} grid search, "
        "scale_factor range [0.01, 0.1, 1, 10], mu ∈ [0.3, 0.7], r_1 ~ Uniform[0.7, 1.0]"))
    assert got["num_layers"] == ("sequence", [3, 5, 7])  # `=` keeps the order: one value per resolution
    assert got["learning_rate"] == ("set", [1e-4, 3e-5])  # braces: any of the values
    assert got["scale_factor"] == ("set", [0.01, 0.1, 1, 10])  # `range` with more than two values: a grid
    assert got["mu"] == ("range", [0.3, 0.7]) and got["r_1"] == ("range", [0.7, 1.0])
    assert [p.value for p in assignment_params("attn_resolutions=[16]")] == [16]
    # A list after a prose word or a list that is not all numbers is no setting.
    assert assignment_params("trained in 5 days on [8 GPUs]; n in {3,5,10,infinity}") == []
    # A word joining a key to a list makes no prose a name; `range` itself names nothing.
    assert assignment_params("Diagonal covariance entry range = [0, 10]") == []
    # A parameter count is computed, not set: a range of them is what methods came to.
    assert assignment_params("param range [82K, 599K]") == []


def test_a_heading_may_name_a_setting_whose_values_were_searched():
    from sa_align.extract.notation import heading_params

    got = _shapes(heading_params("Number of heads h ablation: tested [2, 4, 8], selected 4"))
    assert got == {"num_heads": ("set", [2, 4, 8])}
    assert _shapes(heading_params("Eval epochs: [50, 150, 250]")) == {"epochs": ("sequence", [50, 150, 250])}


def test_a_value_ending_its_sentence_keeps_its_thousands_and_a_layer_count_stays_a_count() -> None:
    def read(claim: str) -> dict:
        unit = complete_unit(Unit(id="c", kind="numerical", claim=claim))
        return {p.name: p.value for p in unit.params}

    assert read("RoPE positional encoding with theta=10,000.") == {"theta": 10000}
    assert read("AdamW with lr=1e-4.") == {"learning_rate": 0.0001}
    assert "num_layers" not in read("MM-DiT model size: 24 transformer layers, 2B total parameters")
    assert "margin" not in read("temporal t in [0,3], M=1 (map from t=0 to t=3s).")  # a bare `M` is no margin


def test_the_words_before_a_key_may_name_the_setting() -> None:
    # Alone, `dim` is the hidden size and `LR` the learning rate; with the words before them
    # they name the feed-forward size and the minimum learning rate.
    claim = "64 experts per layer; FFN dim=1024 per expert; cosine decay to min LR=4.0e-5; Adam lr=3e-4"
    got = {(p.name, p.value) for p in assignment_params(claim)}
    assert got == {("intermediate_size", 1024), ("min_learning_rate", 4e-5), ("learning_rate", 3e-4)}


def test_a_fraction_or_a_pair_of_sizes_is_no_setting() -> None:
    # `5/3` is one ratio and `900/60` a train/test pair: neither part alone is what the claim sets.
    claim = "heat capacity ratio Gamma=5/3; PDEBench-SWE=900/60 (train/test); lr=3e-4"
    assert [(p.name, p.value) for p in assignment_params(claim)] == [("learning_rate", 3e-4)]


def test_a_value_per_named_preset_is_one_setting_per_preset() -> None:
    # Each value belongs to its preset: a repository with the base model alone states one of the three.
    u = complete_unit(_unit("numerical", "Head layers: head_layers=6 (B) / 8 (L) / 12 (H); per-size mlp_dim=512 (Tiny) / 1024 (Small) / 1024 (Medium)"))
    got = [(p.name, p.value, p.condition) for p in u.params]
    assert got == [("head_layers", 6, "B"), ("head_layers", 8, "L"), ("head_layers", 12, "H"),
                   ("intermediate_size", 512, "Tiny"), ("intermediate_size", 1024, "Small"),
                   ("intermediate_size", 1024, "Medium")]
    # The prose rules' `layers: ...=6` is the same setting as the key, not a second one.
    assert not any(p.name == "num_layers" for p in u.params)


def test_a_remark_in_brackets_after_one_value_is_no_preset() -> None:
    assert [(p.name, p.value, p.condition) for p in assignment_params("lr=3e-4 (Adam), eps=1e-8")] == [
        ("learning_rate", 3e-4, None), ("epsilon", 1e-8, None)]
