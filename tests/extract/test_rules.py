"""The offline rule extractor on paper text written for these tests."""

from __future__ import annotations

import time

import pytest

from sa_align.errors import PaperError
from sa_align.extract import extract, extract_async, extract_units
from sa_align.models import Attribution, Paper, Unit, UnitKind
from sa_align.paper import paper_from_text

PAPER = """# Method

We propose Lookahead-Nesterov, a variant of Adam [3]. The first moment is
$$ m_t = \\beta_1 m_{t-1} + (1 - \\beta_1) g_t $$

We then compute $\\hat{v}_t = v_t / (1 - \\beta_2^t)$ and apply the update.

# Experiments

We evaluate on CIFAR-10 and CIFAR-100 and report top-1 accuracy. Following [12], we train with a learning rate of 3 × 10^-4 and batch size 256 for 100 epochs. We use β1 = 0.9 and β2 = 0.999, weight decay of 5e-4 and 10k warm-up steps. Dropout 0.1 is applied to every block. The learning rate is decayed by 10 at epochs 30, 60 and 90. We searched the learning rate over {1e-4, 3e-4, 1e-3}. Results are averaged over 5 random seeds. Our method achieves 93.2% accuracy with 50 epochs fewer (Table 2). In Section 3.1 we set $\\eta = 10^{-3}$.

Training proceeds as follows:
1. Sample a minibatch of images.
2. Compute the loss and its gradient.
3. Update the parameters with the new rule.

We first pretrain the encoder on ImageNet, then fine-tune it on CIFAR-10.
"""


@pytest.fixture(scope="module")
def paper() -> Paper:
    return paper_from_text(PAPER, title="Test paper")


@pytest.fixture(scope="module")
def units(paper: Paper) -> list[Unit]:
    return extract_units(paper)


def numeric(units: list[Unit]) -> dict[str, list]:
    out: dict[str, list] = {}
    for u in units:
        if u.kind == UnitKind.NUMERICAL:
            for p in u.params:
                out.setdefault(p.name, []).append(p.value if p.value is not None else (p.shape, p.values))
    return out


def test_every_quote_is_at_its_span(paper: Paper, units: list[Unit]) -> None:
    assert units
    for u in units:
        assert paper.text[u.span.start : u.span.end] == u.quote
        assert u.origin == "rules"


def test_numerical_values(units: list[Unit]) -> None:
    got = numeric(units)
    assert got["learning_rate"] == [0.0003, ("set", [0.0001, 0.0003, 0.001]), 0.001]
    assert got["batch_size"] == [256]
    assert got["epochs"] == [100]
    assert got["beta1"] == [0.9] and got["beta2"] == [0.999]
    assert got["weight_decay"] == [0.0005]
    assert got["warmup_steps"] == [10000]
    assert got["dropout"] == [0.1]
    assert got["lr_decay_factor"] == [0.1]
    assert got["lr_milestones"] == [("sequence", [30, 60, 90])]


def test_results_and_references_are_not_units(units: list[Unit]) -> None:
    values = [p.value for u in units for p in u.params]
    assert 93.2 not in values and 0.932 not in values and 2 not in values and 3.1 not in values
    assert not any("achieves" in u.quote for u in units if u.kind == UnitKind.NUMERICAL)


def test_math_symbols_never_bind_to_equation_numbers(units: list[Unit]) -> None:
    assert not any("m_t" in u.quote for u in units if u.kind == UnitKind.NUMERICAL)


def test_units_carry_hints_and_units(units: list[Unit]) -> None:
    by_name = {p.name: (u, p) for u in units if u.kind == UnitKind.NUMERICAL for p in u.params}
    assert "lr" in by_name["learning_rate"][0].hints
    assert by_name["warmup_steps"][1].unit == "steps"
    assert by_name["warmup_steps"][1].text == "10k"


def test_attribution_from_citation_markers(units: list[Unit]) -> None:
    lr = next(u for u in units if u.kind == UnitKind.NUMERICAL and any(p.name == "batch_size" for p in u.params))
    assert lr.attribution == Attribution.CITED and lr.cited_ref == "12"
    beta = next(u for u in units if u.kind == UnitKind.NUMERICAL and any(p.name == "beta1" for p in u.params))
    assert beta.attribution == Attribution.NOVEL and beta.cited_ref is None
    proposal = next(u for u in units if u.kind == UnitKind.METHOD and "We propose" in u.quote)
    assert proposal.attribution == Attribution.NOVEL


def test_protocol_units(units: list[Unit]) -> None:
    protocol = [u for u in units if u.kind == UnitKind.PROTOCOL]
    assert protocol[0].entities == ["CIFAR-10", "CIFAR-100", "accuracy"]
    seeds = next(u for u in protocol if u.params)
    assert seeds.params[0].name == "seeds" and seeds.params[0].value == 5
    assert "seeds" not in numeric(units)


def test_ordering_units(units: list[Unit]) -> None:
    orders = [u.order for u in units if u.kind == UnitKind.ORDERING]
    assert ["Sample a minibatch of images", "Compute the loss and its gradient", "Update the parameters with the new rule"] in orders
    assert ["pretrain the encoder on ImageNet", "fine-tune it on CIFAR-10"] in orders


def test_method_units_have_math_hints(units: list[Unit]) -> None:
    methods = [u for u in units if u.kind == UnitKind.METHOD]
    hints = {h for u in methods for h in u.hints}
    assert {"m_t", "g_t", "v_hat"} <= hints
    assert not any(u.quote.strip().startswith("In Section 3.1") for u in methods)


def test_notation_hints_are_marked_as_read_from_the_claim() -> None:
    paper = paper_from_text(
        "# Method\n\nWe use a target network $f _ { \\omega ^ { \\prime } }$ to generate the dynamics target "
        "$\\bar { \\mathbf { z } } _ { s } = g ( s )$ for the encoder.\n\n"
        "The loss is computed by `dynamics_loss` as $L = \\| z - \\bar { z } \\| ^ 2$ over each batch.\n")
    methods = [u for u in extract_units(paper) if u.kind == UnitKind.METHOD]
    notation, named = methods
    # Font commands are no names: `\bar{\mathbf{z}}` is `z_bar`, never `mathbf_bar`.
    assert "z_bar" in notation.hints and not any("mathbf" in h for h in notation.hints)
    assert notation.derived == ["hints"] and named.derived == []


def test_ids_are_stable_and_in_paper_order(paper: Paper, units: list[Unit]) -> None:
    again = extract_units(paper)
    assert [u.model_dump() for u in again] == [u.model_dump() for u in units]
    nums = [u for u in units if u.kind == UnitKind.NUMERICAL]
    assert [u.id for u in nums] == [f"num-{i:03d}" for i in range(1, len(nums) + 1)]
    assert [u.span.start for u in nums] == sorted(u.span.start for u in nums)


@pytest.mark.parametrize(
    "sentence, name, value",
    [
        ("We use $\\eta = 10^{-3}$ throughout.", "learning_rate", 0.001),
        ("The batch size is set to 128.", "batch_size", 128),
        ("| Learning rate | 2e-5 |", "learning_rate", 2e-05),
        ("- **Weight decay**: 0.01", "weight_decay", 0.01),
        ("Gradients are clipped to a maximum norm of 1.0.", "max_grad_norm", 1.0),
        ("We apply label smoothing of 0.1.", "label_smoothing", 0.1),
        ("The discount factor γ is 0.99 and GAE λ = 0.95.", "gae_lambda", 0.95),
        ("We mask 15% of the input tokens with a masking ratio of 15%.", "mask_ratio", 0.15),
        ("The model has 12 layers and 8 attention heads.", "num_heads", 8),
    ],
)
def test_single_sentences(sentence: str, name: str, value: float) -> None:
    got = numeric(extract_units(paper_from_text(sentence)))
    assert value in got.get(name, []), got


def test_ranges_and_tuples() -> None:
    text = "The learning rate is tuned between 1e-5 and 1e-3. Adam uses (β1, β2) = (0.9, 0.98)."
    got = numeric(extract_units(paper_from_text(text)))
    assert got["learning_rate"] == [("range", [1e-05, 0.001])]
    assert got["beta1"] == [0.9] and got["beta2"] == [0.98]


def test_references_and_citation_years_skipped() -> None:
    text = "Dropout (Srivastava et al., 2014) is described in Section 4. See Table 3 for the learning rate."
    assert numeric(extract_units(paper_from_text(text))) == {}


async def test_nothing_extractable_gives_note() -> None:
    extraction = await extract_async(paper_from_text("A short remark with no claims at all"))
    assert extraction.units == [] and extraction.dropped == 0
    assert any("no units found" in n for n in extraction.notes)


def test_empty_paper_is_an_error() -> None:
    with pytest.raises(PaperError):
        extract_units(Paper(title="empty", text="   \n"))


def test_unexpanded_latex_macros_do_not_crash() -> None:
    text = (
        "\\newcommand{\\lr}{\\eta} We set \\lr{} to \\num{3e-4} and \\mymacro{a}{b} $\\frac{1}{\\sqrt{d}$ "
        "with \\cite{kingma2014} and $$ \\undefined{ $$ a batch size of 64 \\\\ \\end{itemize}."
    )
    units = extract_units(paper_from_text(text, format="text"))
    assert 64 in numeric(units)["batch_size"]


@pytest.mark.slow
def test_one_megabyte_paper_is_fast() -> None:
    filler = (
        "The encoder maps each input to a representation that the decoder reads back. "
        "This design keeps the number of moving parts small and the analysis easy to follow. "
    ) * 6
    block = PAPER.split("# Experiments", 1)[1] + filler + "\n\n"
    text = "# Experiments\n" + (block * (1_000_000 // len(block) + 1))
    paper = paper_from_text(text)
    start = time.perf_counter()
    extraction = extract(paper)
    elapsed = time.perf_counter() - start
    units = extraction.units
    # The budget holds on a book-length paper, and the cut is reported; repeated statements are merged.
    assert len(text) >= 1_000_000 and 0 < len(units) <= 80
    assert any(n.startswith("unit budget: kept") for n in extraction.notes) and any("near-duplicate" in n for n in extraction.notes)
    assert all(paper.text[u.span.start : u.span.end] == u.quote for u in units)
    assert elapsed < 60, elapsed  # about 5 s on an idle core; generous for loaded CI machines


@pytest.mark.parametrize(
    "sentence, name, value",
    [
        ("Each block holds two residual branches.", "num_branches", 2),
        ("The agent is trained for one million timesteps.", "max_steps", 1_000_000),
        ("The rate is increased linearly during the first 2000 steps.", "warmup_steps", 2000),
        ("We take random 224×224 crops of each image.", "image_size", 224),
        ("Scores use 10k generated samples.", "num_samples", 10_000),
        ("For the clipping parameter we found $\\epsilon = 0.3$ to work best.", "clip_range", 0.3),
        ("We run 100 epochs, and decay the rate at the end of epochs 50 and 75.", "lr_milestones", ("sequence", [50, 75])),
        ("We then linearly decay the learning rate to 0.", "min_learning_rate", 0),  # where the schedule ends
        ("We set the learning rate to 3e-4.", "learning_rate", 3e-4),
        ("The MoE has 16 layers and 64 experts.", "num_experts", 64),
        ("We train for 100k steps: (1) warmup and (2) decay.", "max_steps", 100_000),  # `(2)` opens an item
    ],
)
def test_general_phrasings(sentence: str, name: str, value) -> None:
    got = numeric(extract_units(paper_from_text(sentence)))
    assert value in got.get(name, []), got


@pytest.mark.parametrize(
    "sentence",
    [
        "Cora has 2,708 nodes and 7 classes.",  # dataset statistics
        "All runs use the 18 layer network.",  # a bare count noun never binds a value after it across words
        "We evaluate after 30 epochs of training.",  # a point in training, not its length
        "Each layer uses 3×3 convolutions.",  # a shape, not a count
        "Increasing the batch size to 512 improves accuracy by 2%.",  # an ablation result
        "Overall, layers 7 and 15 show similar co-activation patterns.",  # which layers, not how many
        "When the macro action length is set to 1, the method reduces to token-level RLHF.",  # a special case
        "The output is the same for any two samples of a trajectory.",
        "Training involves three iterative steps: (1) collect data; (2) train the model; and (3) optimize the policy.",
        "Autoregressive training operates with an example of a forecast horizon $N = 2$, using its own predictions.",
        "Experts 48 and 23 both focus on connector words.",
    ],
)
def test_not_settings(sentence: str) -> None:
    assert numeric(extract_units(paper_from_text(sentence))) == {}


def test_a_capital_the_paper_defines_as_a_count_is_a_setting_without_a_cue() -> None:
    text = (
        "# Method\n\nThe sampler runs over $K$ rounds of $N$ steps each, and $M$ is a constant.\n\n"
        "# Experiments\n\nThe sampler here is run with $K = 1 0$ , and $N = 2 T / K$ . "
        "Its bound holds with $M = 5$ here. The total is $K N = 2 T$ . Resolutions vary with $N = 2 , 3 , 4$ .\n"
    )
    got = numeric(extract_units(paper_from_text(text)))
    # K is defined as a count of rounds; M is not, and `2 T`, `2 , 3 , 4` are a product and a range.
    assert got == {"k": [10]}, got


def test_counts_are_named_by_the_words_after_them() -> None:
    text = (
        "# Method\n\nWe use 12 modes and 18 hidden dimensions, with a total of 4 Fourier blocks. "
        "We stop when the loss has not improved for 10 consecutive epochs.\n"
    )
    got = numeric(extract_units(paper_from_text(text)))
    assert got["modes"] == [12] and got["hidden_size"] == [18] and got["fourier_blocks"] == [4]
    assert 10 not in [v for values in got.values() for v in values]


def test_symbols_assigned_in_converted_math_name_their_values() -> None:
    text = "# Setup\n\nWe use the variances with $\\beta _ { T } ~ = ~ 0 . 0 2$ and $P_{max} = 49$; with $n = 3$ we repeat.\n"
    got = numeric(extract_units(paper_from_text(text)))
    assert got["beta_end"] == [0.02] and got["p_max"] == [49]
    assert 3 not in [v for values in got.values() for v in values]  # a one-letter index is no setting


def test_a_subscripted_symbol_names_its_constant_without_a_setting_cue() -> None:
    text = (
        "# Rewards\n\nHere $\\kappa _ { r _ { x y } } = 0 . 4$ denotes the sharpness of the tracking term. "
        "The decay obeys $\\alpha _ { t } = 1 - \\beta _ { t }$ at every step.\n"
    )
    got = numeric(extract_units(paper_from_text(text)))
    assert got["kappa_r_xy"] == [0.4]
    assert "alpha_t" not in got  # a value followed by an operator is part of an equation


def test_training_lengths_past_ten_million_are_counts_but_data_sizes_are_not() -> None:
    text = "# Training\n\nThe agent is trained for 250 million transitions. We use 40 million collected trajectories.\n"
    got = numeric(extract_units(paper_from_text(text)))
    assert got["transitions"] == [250_000_000]
    assert 40_000_000 not in [v for values in got.values() for v in values]


def test_a_name_given_its_value_before_it_takes_no_second_value_after_it() -> None:
    text = "# Setup\n\nThe encoder is trained with 0.05 weight decay for 300 epochs on one GPU.\n"
    got = numeric(extract_units(paper_from_text(text)))
    assert got["weight_decay"] == [0.05] and got["epochs"] == [300]


def test_a_value_drawn_from_an_interval_is_a_range() -> None:
    text = "# Training\n\nFor each batch the dropout rate is randomly sampled in [0.1, 0.3].\n"
    assert numeric(extract_units(paper_from_text(text)))["dropout"] == [("range", [0.1, 0.3])]


def test_a_capital_symbol_assigned_in_math_names_a_count_by_the_words_after_it() -> None:
    text = (
        "# Solver\n\nTime is discretized into $N = 6 4$ uniform time steps, and the policy has "
        "$L = 4$ residual blocks; with $k = 5$ we repeat.\n"
    )
    units = extract_units(paper_from_text(text))
    params = {p.surface: (p.name, p.value) for u in units for p in u.params}
    assert params["N"] == ("uniform_time_steps", 64) and params["residual blocks"] == ("num_layers", 4)
    assert 5 not in [v for _, v in params.values()]  # a lower-case letter stays an index


def test_uniform_draws_in_converted_math_are_ranges_named_by_their_symbol() -> None:
    text = (
        "# Data\n\nInitial conditions are generated with $c _ { 0 } ~ \\sim ~ U ( - 1 , 3 )$ and "
        "$\\gamma _ { 2 } \\sim$ $U ( 0 . 0 5 , 0 . 2 5 )$ for every trajectory.\n"
    )
    got = numeric(extract_units(paper_from_text(text)))
    assert got["c_0"] == [("range", [-1, 3])] and got["gamma_2"] == [("range", [0.05, 0.25])]
    assert "u" not in got


def test_names_with_their_setting_in_parentheses() -> None:
    text = (
        "# Setup\n\nWe train on the KdV (5e-3) and BURGERS(0.1, 0.02) sets and use the pretrained "
        "Atlas-L (350M) model. Inserting (12) into Eq (4) as in Lee (2021) gives ODE (7).\n"
    )
    got = numeric(extract_units(paper_from_text(text)))
    assert got["kdv"] == [0.005] and got["burgers"] == [("sequence", [0.1, 0.02])]
    assert got["atlas_l"] == [350_000_000]
    assert not {"inserting", "eq", "lee", "ode"} & set(got)


def _by_name(text: str) -> dict[str, tuple]:
    """`name -> (surface, value)` of every param extracted from `text`."""
    return {p.name: (p.surface, p.value) for u in extract_units(paper_from_text(text)) for p in u.params}


def test_a_number_beside_a_schedule_names_another_setting() -> None:
    text = (
        "# Diffusion\n\nWe follow the linear noise schedule with $T = 5 0 0$ , and the optimizer uses a "
        "cosine schedule with $5 \\%$ of linear warm up.\n"
    )
    params = _by_name(text)
    assert params["diffusion_steps"] == ("T", 500) and params["warmup_ratio"][1] == 0.05
    assert "beta_schedule" not in params and "lr_schedule" not in params  # a schedule is a choice, not a number


def test_a_symbol_with_its_unit_word_and_a_time_step_are_named() -> None:
    text = (
        "# Model\n\nThe recurrent core performs $M = 4$ internal ticks per environment step, and "
        "the solver advances with $\\Delta t = 0 . 0 5$ between frames.\n"
    )
    params = _by_name(text)
    assert params["internal_ticks"] == ("M", 4) and params["time_step_size"][1] == 0.05


def test_where_a_loop_starts_is_no_setting() -> None:
    paper = paper_from_text("# Training\n\nAlgorithm 1: 1: initialize 2: for epoch $= 1$ to max_epochs do 3: shuffle the data. "
                            "We train for 500 epochs.\n")
    assert [(p.name, p.value) for u in extract_units(paper) for p in u.params] == [("epochs", 500)]


def test_a_value_outside_its_settings_range_names_another_setting() -> None:
    paper = paper_from_text("# Method\n\nWe train with AdamW and a learning rate of 1e-4. We randomly sample the masking "
                            "ratio by Beta distribution $( \\alpha = 4 , \\beta = 1 )$.\n")
    got = [(p.name, p.value) for u in extract_units(paper) for p in u.params]
    assert ("learning_rate", 1e-4) in got and ("alpha", 4) in got and ("learning_rate", 4) not in got


def test_a_subscripted_symbol_is_read_in_its_sentence() -> None:
    text = ("# Setup\n\nWe use the DDPM schedule with $\\beta _ { 1 } =$ $1 0 ^ { - 4 }$ , and $\\beta _ { T } ~ = ~ 0 . 0 2$ .\n\n"
            "We use Adam with $\\beta _ { 1 } = 0 . 9$ .\n")
    params = {(p.name, p.value) for u in extract_units(paper_from_text(text)) for p in u.params}
    # `β_1` of a DDPM schedule is where the noise schedule starts; Adam's `β_1` is its first moment decay.
    assert {("beta_start", 1e-4), ("beta_end", 0.02), ("beta1", 0.9)} <= params


def test_a_value_with_a_unit_of_its_own_is_not_the_setting_named_before_it() -> None:
    text = ("# Intro\n\nOur model generates videos at 768p resolution and 24 FPS within 20.7k GPU hours.\n\n"
            "We train at a resolution of 256 with batch size 64 on GPUs with 80 GB memory.\n")
    params = {(p.name, p.value) for u in extract_units(paper_from_text(text)) for p in u.params}
    assert params == {("image_size", 256), ("batch_size", 64)}  # not `image_size = 24`, nor a size of 80


def test_steps_of_a_sampler_are_not_training_steps_and_past_tense_states_a_setting() -> None:
    text = (
        "# Setup\n\nWe train for 400k steps with a batch size of 256. At the inference stage, we used the "
        "improved DDPM schedule with 100 steps, and we configured CFG to 4.5. We used an action repeat of 4.\n"
    )
    params = _by_name(text)
    assert params["max_steps"][1] == 400000 and params["sampling_steps"] == ("steps", 100)
    assert params["guidance_scale"] == ("CFG", 4.5) and params["action_repeat"] == ("action repeat", 4)


def test_steps_a_qualifier_says_are_not_training_steps_are_named_by_their_words() -> None:
    from sa_align.extract.rules import rule_units

    text = ("For the training, we consider 10 initial time steps and train to predict the following time step. "
            "We train for 5000 steps.")
    params = {(p.name, p.value) for u in rule_units(paper_from_text(text, format="text")) for p in u.params}
    assert ("initial_time_steps", 10) in params and ("max_steps", 5000) in params
    assert ("max_steps", 10) not in params


def test_a_sentence_reporting_an_outcome_with_a_number_is_no_method_unit() -> None:
    from sa_align.extract.rules import rule_units

    text = ("## 3 Method\n\nWe propose a sensitivity loss $L_s = \\| J - \\hat{J} \\|^2$ added to the data loss. "
            "We show that our approach can outperform the physics-informed baseline by up to $30 \\%$. "
            "Retrieving the parameter results in large scattering with the baseline ($R ^ { 2 } = 0 . 6 3 5$).")
    quotes = [u.quote for u in rule_units(paper_from_text(text, format="markdown")) if u.kind == UnitKind.METHOD]
    assert len(quotes) == 1 and quotes[0].startswith("We propose a sensitivity loss")


def test_a_sentence_about_what_could_be_done_next_gives_no_unit() -> None:
    from sa_align.extract.rules import rule_units

    text = ("## 5 Detection\n\nWe train a logistic regression on TF-IDF features of 50 responses per model. "
            "We believe detection accuracy could be further improved by fine-tuning a pretrained model like BERT.")
    units = rule_units(paper_from_text(text, format="markdown"))
    assert units and not any("BERT" in u.quote for u in units)


def test_numeric_citation_markers_are_no_part_of_method_or_ordering_claims() -> None:
    refs = "".join(f"[{i}] A. Author. A cited work number {i}. 2020.\n\n" for i in range(1, 101))
    text = ("# Method\n\nFollowing [96], we add an FC layer as the head initialized from the class label text embeddings.\n\n"
            "We first encode the image, then project it with a linear layer [12], and finally decode with the decoder.\n\n"
            "# References\n\n" + refs)
    paper = paper_from_text(text)
    units = extract_units(paper)
    method = next(u for u in units if u.kind == UnitKind.METHOD and "FC layer" in u.claim)
    order = next(u for u in units if u.kind == UnitKind.ORDERING)
    assert method.claim.startswith("Following, we add") and "[96]" in method.quote
    assert "[12]" not in order.claim and not any("[" in step for step in order.order)
    assert all(paper.text[u.span.start : u.span.end] == u.quote for u in (method, order))


def test_defined_counts_reads_the_papers_own_count_symbols() -> None:
    from sa_align.extract.counts import defined_counts

    text = (
        "The domain is cut into $S$ segments. Let the number of parallel processors be $P$. "
        "$N$ denotes the number of steps. $k$ steps back, $T$ is the horizon."
    )
    assert defined_counts(text) == {"S", "P", "N"}  # a lower-case `$k$` is an index; `$T$` is not a count


def test_a_protocol_names_the_longer_name_not_the_one_inside_it() -> None:
    text = ("# 4 Experiments\n\nWe evaluate on the HH-RLHF dataset and compare against DPO as a baseline.\n\n"
            "We also evaluate on ImageNet-R and compare against PPO as a baseline.\n")
    units = [u for u in extract_units(paper_from_text(text)) if u.kind == "protocol"]
    names = {e for u in units for e in u.entities}
    assert "RLHF" not in names and "DPO" in names  # must fire: RLHF inside HH-RLHF
    assert {"ImageNet", "PPO"} <= names  # must not fire: ImageNet-R is an ImageNet
