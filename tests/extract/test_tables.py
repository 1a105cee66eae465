"""Settings tables as numerical units: names, values and the column header as condition."""

from __future__ import annotations

from pathlib import Path

import pytest

from sa_align.extract import extract, extract_units
from sa_align.models import Paper, Unit, UnitKind
from sa_align.paper import load_paper, paper_from_text

FIXTURE = Path(__file__).resolve().parent.parent / "fixtures" / "papers" / "converted.md"


def params(units: list[Unit]) -> dict[str, list[tuple]]:
    out: dict[str, list[tuple]] = {}
    for u in units:
        for p in u.params:
            out.setdefault(p.name, []).append((p.value if p.value is not None else p.values, p.condition))
    return out


def _table(caption: str, head: list[str], *rows: list[str], before: str = "") -> str:
    """A paper of one HTML table under its caption (after `before`), as converters write it."""
    cells = "".join("<tr>" + "".join(f"<td>{c}</td>" for c in row) + "</tr>" for row in (head, *rows))
    return f"{before}{caption}\n\n<table>{cells}</table>\n"


@pytest.fixture(scope="module")
def converted() -> tuple[Paper, list[Unit]]:
    paper = load_paper(FIXTURE)
    return paper, extract_units(paper)


def test_hyperparameter_table_rows_become_units_with_conditions(converted) -> None:
    paper, units = converted
    got = params(units)
    assert got["warmup_steps"] == [(500, "Stage 1"), (1000, "Stage 2")]
    assert got["weight_decay"] == [(0.05, "Stage 1"), (0.01, "Stage 2")]
    assert (0.1, "Stage 1") in got["dropout"]
    row = next(u for u in units if any(p.name == "warmup_steps" for p in u.params))
    assert row.kind == UnitKind.NUMERICAL and len(row.params) == 2
    assert paper.text[row.span.start : row.span.end] == row.quote and row.quote.startswith("<tr>")


def test_no_unit_from_contents_references_acknowledgements_checklists_or_proofs(converted) -> None:
    paper, units = converted
    assert units
    for u in units:
        assert paper.region_at(u.span.start, {"contents", "references", "acknowledgements", "checklist", "proof", "furniture"}) is None
    values = {v for name, found in params(units).items() for v, _ in found if not isinstance(v, list)}
    assert 0.01 not in {v for v, c in params(units).get("learning_rate", [])}  # the reference list's
    assert 64 not in values and 0.5 not in values  # the appendix proof's and the inline proof's
    assert 0.0003 in {v for v, _ in params(units)["learning_rate"]}


TRANSPOSED = """# Models

Table 2: Model configurations.

<table><tr><td>Model</td><td>#Layers</td><td>Hidden size</td><td>Learning rate</td></tr><tr><td>Tiny</td><td>6</td><td>256</td><td>1e-3</td></tr><tr><td>Base</td><td>12</td><td>768</td><td>3e-4</td></tr></table>
"""

RESULTS = """# Results

Table 3: Comparison with baselines on CIFAR-10 (accuracy, 3 seeds).

<table><tr><td>Method</td><td>Accuracy</td><td>Params</td></tr><tr><td>ResNet-18</td><td>93.1 ± 0.2</td><td>11M</td></tr><tr><td>Ours</td><td>94.0 ± 0.1</td><td>9M</td></tr></table>
"""


def test_a_table_naming_parameters_in_its_header_reads_rows_as_configurations() -> None:
    got = params(extract_units(paper_from_text(TRANSPOSED)))
    assert got["num_layers"] == [(6, "Tiny"), (12, "Base")]
    assert got["hidden_size"] == [(256, "Tiny"), (768, "Base")]
    assert got["learning_rate"] == [(0.001, "Tiny"), (0.0003, "Base")]


def test_results_tables_give_no_numerical_units_but_name_what_was_compared() -> None:
    units = extract_units(paper_from_text(RESULTS))
    assert not any(u.kind == UnitKind.NUMERICAL for u in units)
    protocol = [e for u in units if u.kind == UnitKind.PROTOCOL for e in u.entities]
    assert "CIFAR-10" in protocol or "ResNet-18" in protocol or "accuracy" in protocol


def test_labelled_cells_name_their_setting_and_the_row_is_the_condition() -> None:
    text = (
        "Table 4: Hyperparameter search ranges.\n\n<table><tr><td>Method</td><td>Hyperparameters</td></tr>"
        "<tr><td>Adapter</td><td>Bottleneck: [8, 16, 32]</td></tr></table>\n"
    )
    got = params(extract_units(paper_from_text(text)))
    assert got["bottleneck"] == [([8, 16, 32], "Adapter")]


@pytest.mark.parametrize(
    "table",
    [
        "<table><tr><td>batch size</td><td>64</td></tr><tr><td>epochs</td><td>30</td></tr></table>",  # no header row
        "<table><tr><td>Setting</td><td>Value</td></tr><tr><td>batch size</td><td>64</td><td>??</td><td>7</td></tr><tr><td>epochs</td></tr></table>",  # ragged
        "<table><tr><td>Setting</td><td>Value</td></tr><tr><td></td><td></td></tr></table>",  # empty
        "<table><tr><td>Setting<tr><td>batch size<td>64",  # never closed
    ],
)
def test_bad_tables_give_a_result_not_a_crash(table: str) -> None:
    extraction = extract(paper_from_text(f"# Setup\n\nWe list the settings.\n\n{table}\n\n# Empty\n\n"))
    assert len(extraction.units) <= 80
    got = params(extraction.units)
    assert "batch_size" not in got or got["batch_size"][0][0] == 64


def test_a_paper_that_is_nearly_all_tables_keeps_the_budget() -> None:
    rows = "".join(f"<tr><td>Setting {i} rate</td><td>{i}.5</td></tr>" for i in range(400))
    text = "# Setup\n\nTable 1: Hyperparameters.\n\n<table><tr><td>Name</td><td>Value</td></tr>" + rows + "</table>\n"
    extraction = extract(paper_from_text(text))
    assert 0 < len(extraction.units) <= 80 and any("unit budget" in n for n in extraction.notes)


def test_a_paper_with_nothing_extractable_says_so() -> None:
    extraction = extract(paper_from_text("# Notes\n\nThis text states nothing one could check.\n"))
    assert extraction.units == [] and any("no units found" in n for n in extraction.notes)


def test_garbled_conversion_is_read_without_a_crash() -> None:
    garbled = "# M e t h o d\n\n$$ \\begin{array} { r l } 5 1 2 & { \\times } \\end{array $$\n\n<table><tr><td>\x00\ufffd</td>" * 50
    extraction = extract(paper_from_text(garbled))
    assert len(extraction.units) <= 80


def surfaces(units: list[Unit]) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for u in units:
        for p in u.params:
            out.setdefault(p.name, []).append(p.surface)
    return out


STAGES = """# Training details

Table 5: Hyperparameters of the two training stages.

<table><tr><td>Stage</td><td>Hyperparameter</td><td>Small</td><td>Large</td></tr>\
<tr><td rowspan="4">Pretrain</td><td>Batch size</td><td>128</td><td>256</td></tr>\
<tr><td>Actor learning rate</td><td>3e-4</td><td>1e-4</td></tr>\
<tr><td>Weight decay</td><td>0.05</td><td>0.1</td></tr>\
<tr><td>Epochs</td><td>30</td><td>40</td></tr>\
<tr><td>Rollout horizon</td><td>64</td><td>96</td></tr>\
<tr><td>Discount factor</td><td>0.97</td><td>0.99</td></tr></table>
"""


def test_a_row_written_one_cell_short_after_a_merged_cell_keeps_its_name() -> None:
    got = params(extract_units(paper_from_text(STAGES)))
    assert got["rollout_length"] == [(64, "Small"), (96, "Large")]
    assert got["gamma"] == [(0.97, "Small"), (0.99, "Large")]
    assert "pretrain" not in got  # the merged cell's label is never read as a row's name


def test_a_row_carries_its_whole_name_cell_as_surface() -> None:
    got = surfaces(extract_units(paper_from_text(STAGES)))
    assert got["learning_rate"] == ["Actor learning rate", "Actor learning rate"]


RUN_ON = """# Baseline details

Table 6: Hyperparameters of the baseline agent.

<table><tr><td>Hyperparameter</td><td>Value</td></tr>\
<tr><td>Target smoothing coefficient Learning rate of the critic Replay buffer size Number of parallel environments</td>\
<td>0.01 0.0005 500000 16 3 7</td></tr></table>
"""


def test_names_run_together_take_the_first_values_in_order_when_the_cell_holds_more() -> None:
    units = extract_units(paper_from_text(RUN_ON))
    row = next(u for u in units if u.kind == UnitKind.NUMERICAL)
    assert [(p.name, p.value) for p in row.params] == [
        ("target_update_tau", 0.01),
        ("learning_rate", 0.0005),
        ("replay_buffer_size", 500000),
        ("num_envs", 16),
    ]  # 3 and 7 have no name left: they stay unread


def test_two_names_do_not_take_the_first_of_many_values() -> None:
    text = RUN_ON.replace(" Replay buffer size Number of parallel environments", "")
    units = extract_units(paper_from_text(text))
    assert not any(p.name == "target_update_tau" and p.value == 0.01 for u in units for p in u.params)


PAIRED = """# Setup

Table 7: Hyperparameters of the planner.

<table><tr><td>Hyperparameter</td><td>Value</td><td>Hyperparameter</td><td>Value</td></tr>\\
<tr><td>Batch size</td><td>512</td><td>Discount factor</td><td>0.98</td></tr>\\
<tr><td>Weight decay</td><td>0.001</td><td>Wκτ</td><td>-0.3</td></tr></table>
"""


def test_a_table_setting_its_columns_side_by_side_gives_every_pair() -> None:
    units = extract_units(paper_from_text(PAIRED))
    got = params(units)
    assert got["batch_size"] == [(512, None)] and got["gamma"] == [(0.98, None)]
    assert got["weight_decay"] == [(0.001, None)]
    row = next(u for u in units if any(p.name == "batch_size" for p in u.params))
    assert [p.name for p in row.params] == ["batch_size", "gamma"]  # one row, one unit


def test_greek_letters_in_an_unknown_row_name_are_spelled_out() -> None:
    got = params(extract_units(paper_from_text(PAIRED)))
    assert got["w_kappa_tau"] == [(-0.3, None)]


def test_a_settings_caption_mentioning_results_later_still_lists_settings() -> None:
    text = (
        "# Appendix\n\nTable 7: Training hyperparameters of the coarse and fine models behind the results in Table 2.\n\n"
        "<table><tr><td>Setting</td><td>Coarse-Resolution Model</td><td>Fine-Resolution Model</td></tr>"
        "<tr><td>Learning rate</td><td>3e-4</td><td>1e-4</td></tr>"
        "<tr><td>Batch size</td><td>64</td><td>32</td></tr></table>\n\n"
        "Table 8: Results with different hyperparameters.\n\n"
        "<table><tr><td>Setting</td><td>Score</td></tr><tr><td>Learning rate</td><td>71.5</td></tr>"
        "<tr><td>Batch size</td><td>70.2</td></tr></table>\n"
    )
    got = params(extract_units(paper_from_text(text)))
    # A header merely containing a parameter's name (`Resolution`) names a configuration, not the parameter.
    assert got["learning_rate"] == [(0.0003, "Coarse-Resolution Model"), (0.0001, "Fine-Resolution Model")]
    assert got["batch_size"] == [(64, "Coarse-Resolution Model"), (32, "Fine-Resolution Model")]
    assert "image_size" not in got


@pytest.mark.parametrize("caption, rows", [
    # Rows of metrics are outcomes, whatever the caption calls the table.
    ("Table 1: Error metrics for PDE1 (5 parameters).",
     "<tr><td>R2</td><td>0.986</td><td>0.983</td></tr><tr><td>Relative L2</td><td>0.0146</td><td>0.0175</td></tr>"),
    # A metric the caption names in converted math, and a table of computation times.
    ("Table D.10: $R ^ { 2 }$ for PDE2 with $2 \\times 1 0 ^ { 3 }$ training samples.",
     "<tr><td>u(t)</td><td>0.997</td><td>0.981</td></tr><tr><td>dropout</td><td>0.206</td><td>0.422</td></tr>"),
    ("Table D.12: Computation time for preparing datasets.",
     "<tr><td>Batch size</td><td>1.852</td><td>0.932</td></tr><tr><td>Epochs</td><td>1.387</td><td>0.796</td></tr>"),
])
def test_tables_of_measured_outcomes_give_no_settings(caption: str, rows: str) -> None:
    text = f"# Experiments\n\n{caption}\n\n<table><tr><td>Value</td><td>FNO</td><td>SC-FNO</td></tr>{rows}</table>\n"
    table = text.index("<table>")
    assert not any(u.kind == UnitKind.NUMERICAL and u.span.start >= table for u in extract_units(paper_from_text(text)))


def test_a_citation_year_in_a_settings_cell_is_no_value() -> None:
    text = ("# Appendix\n\nTable 5: Hyperparameters.\n\n<table><tr><td>Hyperparameter</td><td>Value</td></tr>"
            "<tr><td>Optimizer</td><td>AdamW (Loshchilov &amp; Hutter, 2019)</td></tr>"
            "<tr><td>Learning rate</td><td>3e-4</td></tr></table>\n")
    got = params(extract_units(paper_from_text(text)))
    assert list(got) == ["learning_rate"]


def test_a_numbered_citation_in_a_cell_is_no_value_but_a_bracketed_list_is() -> None:
    refs = "".join(f"[{i}] A. Author. A cited work number {i}. 2020.\n\n" for i in range(1, 61))
    text = ("# Appendix\n\nTable 1: Design choices and the settings we use.\n\n<table>"
            "<tr><td>Setting</td><td>Choice</td></tr>"
            "<tr><td>Routing algorithm</td><td>Dropless [58] MoE with token choice</td></tr>"
            "<tr><td>Kernel size</td><td>[3, 3]</td></tr>"
            "<tr><td>Number of experts</td><td>64 small experts [39]</td></tr>"
            "<tr><td colspan=\"2\">Preference tuning (DPO [12])</td></tr>"
            "<tr><td>Learning rate</td><td>3e-4</td></tr></table>\n\n# References\n\n" + refs)
    paper = paper_from_text(text)
    assert any(c.text == "[58]" for c in paper.citations)  # the finder knows the marker
    got = params(extract_units(paper))
    assert got["num_experts"] == [(64, None)] and got["learning_rate"] == [(3e-4, None)]
    assert got["kernel_size"] == [([3, 3], None)]
    assert all(v not in (58, 39, 12) for vs in got.values() for v, _ in vs)


def test_a_symbol_of_a_named_method_is_that_symbol() -> None:
    text = ("# Appendix\n\nTable 5: Hyperparameters of PPO.\n\n<table><tr><td>Hyperparameter</td><td>Value</td></tr>"
            "<tr><td>γ in GAE</td><td>1</td></tr><tr><td>λ in GAE</td><td>0.95</td></tr></table>\n")
    got = params(extract_units(paper_from_text(text)))
    assert got["gamma"] == [(1, None)] and got["gae_lambda"] == [(0.95, None)]


def test_a_value_a_count_cannot_take_is_left_out_of_its_row() -> None:
    text = ("# Appendix\n\nTable 1: Design choices and the settings we use.\n\n<table>"
            "<tr><td>Setting</td><td>Value</td></tr>"
            "<tr><td>Experts</td><td>Used with weight 0.01</td></tr>"
            "<tr><td>Learning rate</td><td>3e-4</td></tr></table>\n")
    got = params(extract_units(paper_from_text(text)))
    assert "num_experts" not in got and got["learning_rate"] == [(3e-4, None)]


def test_models_scored_on_benchmarks_are_a_comparison_not_settings() -> None:
    # The caption names no result; the headers name benchmarks, one of them split by the converter.
    text = ("# Results\n\nTable 3: Open models with their active parameters.\n\n<table><tr><td>Model</td><td>Active params</td>"
            "<td>MMLU</td><td>Hella- Swag</td><td>PIQA</td></tr><tr><td>Mistral-7B [78]</td><td>7.3B</td><td>64.0</td>"
            "<td>83.0</td><td>82.8</td></tr><tr><td>OLMo-1B</td><td>1.2B</td><td>32.1</td><td>62.5</td><td>75.0</td></tr>"
            "</table>\n\nTable 4: Hyperparameters per dataset.\n\n<table><tr><td>Hyperparameter</td><td>MMLU</td>"
            "<td>PIQA</td></tr><tr><td>Learning rate</td><td>1e-4</td><td>3e-4</td></tr><tr><td>Batch size</td>"
            "<td>32</td><td>64</td></tr></table>\n")
    got = params(extract_units(paper_from_text(text)))
    assert set(got) == {"learning_rate", "batch_size"}  # the settings table keeps its rows
    versus = text.replace("Open models with their active parameters.", "Our model versus open models of their active parameters.")
    assert set(params(extract_units(paper_from_text(versus)))) == {"learning_rate", "batch_size"}


def test_lists_of_a_search_grid_are_the_values_tried() -> None:
    text = ("# Appendix\n\nTable 3. Method-specific hyperparameter search grid.\n\n<table><tr><td>Method</td>"
            "<td>Hyperparameters</td></tr><tr><td>VPT-Deep</td><td>Prompt Number: [5, 10, 50, 100]</td></tr>"
            "<tr><td>LoRA</td><td>LoRA Bottleneck: [1, 8, 16, 32]</td></tr></table>\n")
    shapes = {p.shape for u in extract_units(paper_from_text(text)) for p in u.params if p.values}
    assert shapes == {"set"}


def test_several_labels_run_together_in_one_cell_are_each_a_setting() -> None:
    text = _table("Table 4: Hyperparameter search ranges.", ["Method", "Hyperparameters"],
                  ["Adapter", "Scale Factor:[0.01, 0.1, 1]Bottleneck: [4, 8, 16]"])
    got = params(extract_units(paper_from_text(text)))
    assert got["scale_factor"] == [([0.01, 0.1, 1], "Adapter")] and got["bottleneck"] == [([4, 8, 16], "Adapter")]


def test_a_range_of_parameter_counts_is_no_setting() -> None:
    text = _table("Table 4: Hyperparameters.", ["Method", "Params (M)", "Bottleneck"], ["Adapter", "0.082 ~0.599", "8"])
    got = params(extract_units(paper_from_text(text)))
    assert "num_parameters" not in got and got["bottleneck"] == [(8, "Adapter")]


def test_values_a_setting_cannot_take_are_left_to_the_rows_they_came_from() -> None:
    text = _table("Table 2: Training hyperparameters.", ["Hyperparameter", "Value"], ["Optimizer", "20"],
                  ["Learning rate", "1 × 10−4 512"], ["Zs dim (only used within the encoder)", "256"], ["Dropout", "3 5 0.1"])
    got = params(extract_units(paper_from_text(text)))
    # No optimizer is a number; 512 is no learning rate; a cell mostly of impossible values is garbled.
    assert "optimizer" not in got and "dropout" not in got
    assert got["learning_rate"] == [(1e-4, None)]
    assert got["zs_dim"] == [(256, None)]  # the remark in brackets is not part of the name


def test_a_table_of_cited_methods_settings_is_cited_work() -> None:
    text = ("# Introduction\n\nTable 1: Settings that differ between DQN (Mnih et al., 2015) and SAC (Haarnoja et al., 2018).\n\n"
            "<table><tr><td>Hyperparameter</td><td>DQN</td><td>SAC</td></tr><tr><td>Discount factor</td><td>0.99</td>"
            "<td>0.98</td></tr><tr><td>Batch size</td><td>32</td><td>256</td></tr></table>\n\n"
            "Table 2: Our hyperparameters.\n\n<table><tr><td>Hyperparameter</td><td>Ours</td></tr>"
            "<tr><td>Batch size</td><td>512</td></tr></table>\n")
    rows = {u.params[0].value: u for u in extract_units(paper_from_text(text)) if u.quote.startswith("<tr>")}
    assert rows[0.99].attribution == "cited" and rows[0.99].cited_ref == "Mnih et al., 2015"
    assert rows[32].attribution == "cited"
    assert rows[512].attribution == "novel"  # a column the caption does not cite is the paper's own
    named = [u for u in extract_units(paper_from_text(text)) if u.kind == "protocol" and "DQN" in u.entities]
    assert named and all(u.attribution == "cited" for u in named)  # the methods compared are cited work too


def test_names_glued_without_a_space_pair_with_their_values_or_give_nothing() -> None:
    text = _table("Table 5: Hyperparameters of the encoder.", ["Hyperparameter", "Value"],
                  ["Encoder batch sizeLearning rate", "32 1e-4"], ["Training batch sizeIterationLearning rate", "32500001e-4"],
                  ["ResNet backbone depth", "50"])
    got = params(extract_units(paper_from_text(text)))
    assert got["batch_size"] == [(32, None)] and got["learning_rate"] == [(1e-4, None)]
    # Three glued names against one run of digits cannot be paired: no `..._sizeiterationlearning_rate`.
    assert not [name for name in got if "iteration" in name]
    assert got["num_layers"] == [(50, None)]  # `ResNet backbone depth`: a capitalised compound word is not glued names


def test_a_table_counting_each_methods_parameters_reports_results() -> None:
    text = _table("Table 11: Number of parameters and inference time (s) results.", ["Methods", "Parameters", "Time"],
                  ["PID", "4034952", "0.081"], ["BPPO", "6579171", "0.079"], ["Ours", "140748553", "1.131"])
    assert not [u for u in extract_units(paper_from_text(text)) if u.kind == "numerical"]


def test_of_models_set_side_by_side_the_papers_own_column_is_kept() -> None:
    text = _table("Table 3: Pretraining setups.", ["Setting", "TinyMoE-1B", "JetMoE", "OpenMoE"],
                  ["Learning rate", "4.0E-04", "5.0E-04", "0.01"], ["Vocabulary size", "50,304", "32,000", "256,384"],
                  before="# TinyMoE: Sparse Experts for Small Budgets\n\n")
    got = params(extract_units(paper_from_text(text)))
    assert got["learning_rate"] == [(4e-4, "TinyMoE-1B")] and got["vocab_size"] == [(50304, "TinyMoE-1B")]


def test_rows_of_what_a_run_cost_are_no_settings() -> None:
    text = _table("Table 6: Training hyperparameters.", ["Hyperparameter", "Value"], ["Approximate training hours", "1"],
                  ["GPU memory", "24"], ["Step time (seconds)", "0.02"], ["Batch size", "1024"])
    got = params(extract_units(paper_from_text(text)))
    assert got["batch_size"] == [(1024, None)] and got["step_time"] == [(0.02, None)]
    assert not [name for name in got if "hours" in name or "memory" in name]


def test_a_cell_that_names_its_own_settings_gives_them_under_their_names() -> None:
    text = _table("Table 7: Training hyperparameters.", ["Configuration", "Stage-1", "Stage-2"],
                  ["Optimizer Hyperparameters", "β1 = 0.9, β2 = 0.999", "β1 = 0.9, β2 = 0.95"], ["Batch size", "1536", "768"])
    got = params(extract_units(paper_from_text(text)))
    assert got["beta2"] == [(0.999, "Stage-1"), (0.95, "Stage-2")] and got["beta1"] == [(0.9, "Stage-1"), (0.9, "Stage-2")]
    assert "optimizer_hyperparameters" not in got


def test_a_parameter_count_column_gives_no_setting() -> None:
    # Must fire: a row that sets nothing but its method's count under `#Params (M)` gives no unit.
    text = _table("Table 3: Hyperparameter search grid per method.", ["Method", "Hyperparameters", "#Params (M)"],
                  ["Adapter", "Bottleneck: [8, 16]", "0.31"], ["BitFit", "N/A", "0.10"], ["SSF", "N/A", "0.21"])
    got = params(extract_units(paper_from_text(text)))
    assert [v for v, _ in got.get("num_parameters", [])] == [0.31]
    # Must not fire: a count beside the row's own settings says how large that configuration is.
    assert [v for v, _ in got["bottleneck"]] == [[8, 16]]


def test_a_model_size_in_a_sentence_gives_no_setting() -> None:
    text = ("# 4 Experiments\n\nWe compare the scores of the three policies across the 1B, 3B and 13B model size on the "
            "summarisation task.\n\nWe train every policy with a learning rate of 2e-5 and a batch size of 64.\n")
    got = params(extract_units(paper_from_text(text)))
    assert "num_parameters" not in got
    assert got["learning_rate"] == [(2e-5, None)] and got["batch_size"] == [(64, None)]
