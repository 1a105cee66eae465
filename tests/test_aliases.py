"""Alias tables: parameter and entity normalization, reverse lookups, identifier splitting, prose scanning."""

from __future__ import annotations

import pytest

from sa_align.aliases import (
    inside_longer_name,
    canonical_entity,
    canonical_param,
    entity_aliases,
    find_entities,
    find_param_mentions,
    known_params,
    param_aliases,
    split_identifier,
)


@pytest.mark.parametrize(
    "name",
    ["η", "\\eta", "eta", "lr", "learning rate", "step size", "learning_rate", "base_lr", "init_lr",
     "LearningRate", "learning-rate", "args.lr", "--lr", "optimizer.lr", "$\\eta$"],
)  # fmt: skip
def test_learning_rate_spellings(name: str) -> None:
    assert canonical_param(name) == "learning_rate"


@pytest.mark.parametrize("name", ["β1", "beta_1", "beta1", "b1", "adam_beta1", "\\beta_{1}", "β₁", "Beta 1"])
def test_beta1_spellings(name: str) -> None:
    assert canonical_param(name) == "beta1"


@pytest.mark.parametrize(
    "name, canonical",
    [
        ("batch size", "batch_size"), ("train_batch_size", "batch_size"), ("wd", "weight_decay"),
        ("weight decay", "weight_decay"), ("dropout rate", "dropout"), ("num_epochs", "epochs"),
        ("warm-up steps", "warmup_steps"), ("momentum", "momentum"), ("adam_epsilon", "epsilon"),
        ("max_grad_norm", "max_grad_norm"), ("gradient clipping", "max_grad_norm"),
        ("label smoothing", "label_smoothing"), ("d_model", "hidden_size"), ("n_layers", "num_layers"),
        ("num_attention_heads", "num_heads"), ("discount factor", "gamma"), ("gae_lambda", "gae_lambda"),
        ("clip_range", "clip_range"), ("ent_coef", "entropy_coef"), ("lora_r", "lora_rank"),
        ("lora_alpha", "lora_alpha"), ("num_train_timesteps", "diffusion_steps"), ("beta_schedule", "beta_schedule"),
        ("img_size", "image_size"), ("patch size", "patch_size"), ("temperature", "temperature"),
        ("CFG", "guidance_scale"), ("gradient clip norm", "max_grad_norm"), ("frame skip", "action_repeat"),
        ("num_embeddings", "codebook_size"),
    ],
)  # fmt: skip
def test_broad_table(name: str, canonical: str) -> None:
    assert canonical_param(name) == canonical


def test_unknown_and_ambiguous_symbols() -> None:
    assert canonical_param("frobnicate_factor") is None
    assert canonical_param("") is None
    assert canonical_param("γ") == "gamma"
    assert canonical_param("γ", "we decay the learning rate by γ") == "lr_decay_factor"
    assert canonical_param("λ", "GAE with λ = 0.95") == "gae_lambda"
    assert canonical_param("λ") == "lambda"
    assert canonical_param("k") is None
    assert canonical_param("steps") == "max_steps"
    assert canonical_param("steps", "at inference we sample with 50 steps") == "sampling_steps"
    # A Latin letter is not the Greek one: `A=16` of an MDP is its number of actions, not α.
    assert canonical_param("A") is None and canonical_param("a") is None and canonical_param("b") is None
    assert canonical_param("alpha") == canonical_param("α") == "alpha"


def test_param_aliases_reverse_lookup() -> None:
    lr = param_aliases("learning_rate")
    assert lr[0] == "learning_rate" and {"lr", "eta", "base_lr", "step size"} <= set(lr)
    assert param_aliases("η") == lr
    assert param_aliases("nonsense") == []
    assert len(known_params()) > 80


def test_split_identifier() -> None:
    assert split_identifier("adamBeta1") == ["adam", "beta", "1"]
    assert split_identifier("max_grad_norm") == ["max", "grad", "norm"]
    assert split_identifier("HTTPServer") == ["http", "server"]
    assert split_identifier("lr0") == ["lr", "0"]


@pytest.mark.parametrize(
    "name, expected",
    [
        ("CIFAR-10", ("dataset", "CIFAR-10")), ("cifar10", ("dataset", "CIFAR-10")), ("CIFAR10", ("dataset", "CIFAR-10")),
        ("ImageNet", ("dataset", "ImageNet")), ("ILSVRC-2012", ("dataset", "ImageNet")), ("sst2", ("dataset", "SST-2")),
        ("WikiText-103", ("dataset", "WikiText-103")), ("PTB", ("dataset", "Penn Treebank")), ("MS COCO", ("dataset", "COCO")),
        ("citeseer", ("dataset", "Citeseer")), ("HalfCheetah-v4", ("dataset", "HalfCheetah")), ("Atari 2600", ("dataset", "Atari")),
        ("F1 score", ("metric", "F1")), ("BLEU", ("metric", "BLEU")), ("IS", ("metric", "Inception Score")),
        ("mAP", ("metric", "mAP")), ("AUROC", ("metric", "AUC")), ("ppl", ("metric", "perplexity")),
        ("test set", ("split", "test")), ("dev set", ("split", "validation")),
        ("Adam", ("method", "Adam")), ("resnet50", ("method", "ResNet-50")), ("BERT-base", ("method", "BERT-base")),
        ("GCN", ("method", "GCN")), ("PPO", ("method", "PPO")), ("DDPM", ("method", "DDPM")), ("LoRA", ("method", "LoRA")),
    ],
)  # fmt: skip
def test_canonical_entity(name: str, expected: tuple[str, str]) -> None:
    assert canonical_entity(name) == expected


def test_case_sensitive_entities_and_plain_words() -> None:
    assert canonical_entity("is") is None and canonical_entity("map") is None
    assert canonical_entity("train") is None
    assert canonical_entity("MATH") == ("dataset", "MATH") and canonical_entity("math") is None
    assert canonical_entity("KID") == ("metric", "KID") and canonical_entity("kid") is None


def test_an_appendix_section_number_names_no_entity() -> None:
    found = lambda text: [m.target[1] for m in find_entities(text)]  # noqa: E731
    assert found("# C.4 EXPERIMENTS ON LARGER MODELS") == [] and found("# F.1 EVALUATION PROMPTS") == []
    assert found("We pretrain on C4 and report F1.") == ["C4", "F1"]


def test_entity_aliases() -> None:
    assert {"CIFAR-10", "cifar10"} <= set(entity_aliases("cifar10"))
    assert entity_aliases("unknown thing") == []


def test_prose_scanning_keeps_offsets() -> None:
    text = "Adam ($\\beta_{1}=0.9$, β2 = 0.999), a learning rate of 3e-4 and 10k warm-up steps on CIFAR-10 (IS and FID)."
    params = find_param_mentions(text)
    assert [m.target for m in params] == ["beta1", "beta2", "learning_rate", "warmup_steps"]
    assert all(text[m.start : m.end] == m.surface for m in params)
    ents = [m.target for m in find_entities(text)]
    assert ents == [("method", "Adam"), ("dataset", "CIFAR-10"), ("metric", "Inception Score"), ("metric", "FID")]


@pytest.mark.parametrize(
    "name, canonical",
    [("init_dim", "hidden_size"), ("model size", "num_parameters"),
     ("#Params", "num_parameters"), ("num_params", "num_parameters"), ("dt", "time_step_size"),
     ("\\Delta t", "time_step_size"), ("Δt", "time_step_size"), ("hidden_dims", "hidden_size")],
)  # fmt: skip
def test_sizes_counts_and_time_steps(name: str, canonical: str) -> None:
    assert canonical_param(name) == canonical


def test_model_size_is_not_an_image_size() -> None:
    assert canonical_param("Model size") != "image_size" and canonical_param("image size") == "image_size"


def test_a_plural_of_a_many_word_name_names_the_setting() -> None:
    from sa_align.aliases import find_param_mentions

    def named(text: str) -> list:
        return [m.target for m in find_param_mentions(text)]

    assert named("18 hidden dimensions and two learning rates") == ["hidden_size", "learning_rate"]
    assert named("at four feature-map resolutions") == []  # one word stays as listed: not the image size


def test_math_that_spells_a_name_without_its_notation_names_no_entity() -> None:
    found = lambda text: [(m.target[1], m.surface) for m in find_entities(text)]  # noqa: E731
    assert found("the schedule hat_alpha_{T+1} and alpha_bar_t, with r_2 = r + 2 and b_{p_d}") == []
    assert found("we fine-tune bart-large and report macro_F1 on the test_split") == [
        ("BART", "bart-large"), ("F1", "macro_F1"), ("test", "test_split")]


def test_a_generic_count_after_a_word_that_says_what_it_counts_is_no_training_length() -> None:
    def named(text: str) -> list:
        return [m.target for m in find_param_mentions(text)]

    assert named("we predict 20 future time steps from 10 input time steps") == []
    assert named("100 imagination steps per iteration, 5 thinking steps") == []
    # Training lengths keep their name, and so do qualifiers with a setting of their own.
    assert named("100000 steps with 1000 warmup steps, 200k training steps") == ["max_steps", "warmup_steps", "max_steps"]
    assert canonical_param("initial time steps") is None
    assert canonical_param("initial learning rate") == canonical_param("init_lr") == "learning_rate"


@pytest.mark.parametrize("text, short, inside", [
    # Must fire: the shorter name glued into a longer one the paper writes.
    ("we train on the Anthropic HH-RLHF prompts", "RLHF", True),
    ("our MA-PPO policy", "PPO", True),
    ("the encoder of FR-VAE", "VAE", True),
    ("a Residual-quantized VAE (FR-VAE) encodes", "VAE", True),
    ("a U-ViT backbone", "ViT", False),
    # Must not fire: a lower-case qualifier before it, a suffix after it, or the name alone.
    ("a 90/10 train-val split", "val split", False),
    ("evaluated on ImageNet-R", "ImageNet", False),
    ("a GRU-based encoder", "GRU", False),
    ("we compare with PPO and DPO", "PPO", False),
])
def test_a_name_inside_a_longer_name_is_not_that_name(text: str, short: str, inside: bool) -> None:
    m = next(m for m in find_entities(text) if m.surface == short)
    assert inside_longer_name(text, m) is inside
