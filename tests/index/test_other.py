"""Shell scripts, Makefiles, notebooks, C/CUDA and plain text."""

from __future__ import annotations

from sa_align.index.other import command_target

from .conftest import value


def test_shell_script_overrides_are_cli_values(mlrepo_index):
    assert value(mlrepo_index, "scripts/run.sh", "args.lr").value == 1e-3
    assert value(mlrepo_index, "scripts/run.sh", "args.epochs").value == 90
    hydra = value(mlrepo_index, "scripts/run.sh", "optimizer.beta2")
    assert (hydra.value, hydra.call, hydra.line) == (0.98, "mlrepo.train", 4)
    assert value(mlrepo_index, "Makefile", "args.trials").value == 20


def test_command_targets():
    assert command_target("python train.py --lr 1") == ("train.py", ["--lr", "1"])
    assert command_target("FOO=1 torchrun --nproc_per_node=2 src/train.py")[0] == "src/train.py"
    assert command_target("uv run python -m pkg.main")[0] == "-m pkg.main"
    assert command_target("$(PYTHON) eval.py")[0] == "eval.py"
    assert command_target("echo train.py") is None
    assert command_target("python -c 'print(1)'") is None


def test_notebook_lines_refer_to_the_virtual_text(mlrepo_index):
    fact = value(mlrepo_index, "notebooks/explore.ipynb", "temperature")
    assert fact.value == 0.07
    text_line = mlrepo_index.lines("notebooks/explore.ipynb", fact.line, fact.line)
    assert text_line == ["temperature = 0.07"]
    assert "notebooks/explore.ipynb::show" in mlrepo_index.symbol_by_id
    info = {f.path: f for f in mlrepo_index.files}["notebooks/explore.ipynb"]
    assert info.kind == "notebook" and info.parse_errors == 0  # the %magic line is commented out


def test_cuda_symbols_and_defines(mlrepo_index):
    ids = mlrepo_index.symbol_by_id
    assert ids["csrc/kernel.cu::launch"].kind == "function"
    assert "csrc/kernel.cu::scale_kernel" in ids
    assert value(mlrepo_index, "csrc/kernel.cu", "BLOCK_SIZE").value == 256
    assert any(t.path == "csrc/kernel.cu" and t.marker == "TODO" for t in mlrepo_index.texts)
    assert any(c.callee == "helper_sync" for c in mlrepo_index.calls)


def test_text_files_are_kept(mlrepo_index):
    kinds = {f.path: f.kind for f in mlrepo_index.files}
    assert kinds["README.md"] == "text" and kinds["data/keep.csv"] == "text"
    assert "CIFAR-10" in mlrepo_index.file_text("README.md")


LAUNCHER = """\
#!/usr/bin/env bash
set -euo pipefail
SEEDS=3
export LR="3e-4"
readonly OPTIMIZER='adamw'
declare -i WARMUP=500 STEPS=10000
BATCH=${BATCH:-128}
TASKS=(mnli sst2)
OUT=$HOME/runs
NAME="run-$SEEDS"
SEEDS+=1
EMPTY=""
sweep() {
  local DROPOUT=0.1
  echo "$DROPOUT"
}
for seed in $(seq 0 $((SEEDS - 1))); do
  CUDA_VISIBLE_DEVICES=0 python train.py --seed "$seed" --lr "$LR"
done
"""


def _shell_facts(tmp_path, text: str):
    from sa_align.index import build_index

    (tmp_path / "run.sh").write_text(text)
    index = build_index(tmp_path)
    return index, {v.key_path: v for v in index.values if v.source == "shell"}


def test_shell_variable_assignments_with_literal_values_are_shell_values(tmp_path):
    _, facts = _shell_facts(tmp_path, LAUNCHER)
    assert {k: v.value for k, v in facts.items()} == {
        "SEEDS": 3, "LR": 3e-4, "OPTIMIZER": "adamw", "WARMUP": 500, "STEPS": 10000, "BATCH": 128,
        "TASKS": ["mnli", "sst2"], "sweep.DROPOUT": 0.1, "CUDA_VISIBLE_DEVICES": 0,
    }
    assert (facts["SEEDS"].line, facts["SEEDS"].name, facts["SEEDS"].raw) == (3, "SEEDS", "3")
    assert facts["LR"].raw == '"3e-4"' and facts["BATCH"].raw == "${BATCH:-128}"
    assert facts["sweep.DROPOUT"].name == "DROPOUT" and facts["sweep.DROPOUT"].symbol is None


def test_computed_and_appended_shell_values_are_not_values(tmp_path):
    _, facts = _shell_facts(tmp_path, LAUNCHER)
    names = {v.name for v in facts.values()}
    assert not names & {"OUT", "NAME", "EMPTY"}  # an expansion, an interpolation, nothing
    assert [v.line for v in facts.values() if v.name == "SEEDS"] == [3]  # `SEEDS+=1` appends


def test_shell_script_still_yields_its_entry_point_and_flags(tmp_path):
    index, _ = _shell_facts(tmp_path, LAUNCHER)
    assert [e.target for e in index.entry_points if e.kind == "shell"] == ["train.py"]
    assert not [v for v in index.values if v.source == "cli"]  # `--lr "$LR"` passes a variable, no literal
