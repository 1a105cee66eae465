"""Python extraction on the fixture repository: symbols, values in every form, calls, texts, stubs."""

from __future__ import annotations

import pytest

from sa_align.index.python import extract_python, module_name

from .conftest import value


@pytest.mark.parametrize(
    ("path", "key_path", "source", "expected", "line"),
    [
        ("mlrepo/train.py", "lr", "assign", 3e-4, 12),
        ("mlrepo/train.py", "WEIGHT_DECAY", "assign", 0.05, 13),  # annotated
        ("mlrepo/train.py", "warmup", "assign", 1000, 14),  # `1_000`, tuple unpacking
        ("mlrepo/train.py", "total_steps", "assign", 100_000, 14),
        ("mlrepo/train.py", "PIXEL_SCALE", "assign", 1 / 255, 15),
        ("mlrepo/train.py", "MIN_LR", "assign", 3e-4, 16),  # `3 * 10 ** -4`
        ("mlrepo/train.py", "LABEL_SMOOTHING", "assign", -0.5, 17),
        ("mlrepo/train.py", "SETTINGS.optimizer.beta2", "dict", 0.95, 18),
        ("mlrepo/train.py", "SETTINGS.dataset", "dict", "cifar10", 18),
        ("mlrepo/train.py", "self.grad_clip", "assign", 1.0, 24),
        ("mlrepo/train.py", "Adam.lr", "kwarg", 3e-4, 25),
        ("mlrepo/train.py", "Adam.betas", "kwarg", [0.9, 0.999], 25),
        ("mlrepo/train.py", "torch.optim.lr_scheduler.StepLR[1]", "positional", 30, 26),
        ("mlrepo/train.py", "torch.optim.lr_scheduler.StepLR[2]", "positional", 0.1, 26),
        ("mlrepo/train.py", "args.lr", "cli", 3e-4, 39),
        ("mlrepo/train.py", "args.batch_size", "cli", 256, 40),
        ("mlrepo/cli.py", "args.seed", "cli", 42, 7),  # click option
        ("mlrepo/models.py", "Net.__init__.width", "default", 1024, 34),  # `2 ** 10`
        ("mlrepo/models.py", "Block.__init__.dropout", "default", 0.1, 13),
        ("mlrepo/models.py", "hidden", "assign", 256, 32),  # annotated class attribute
    ],
)
def test_value_forms(mlrepo_index, path, key_path, source, expected, line):
    fact = value(mlrepo_index, path, key_path, source)
    assert fact.value == pytest.approx(expected)
    assert fact.line == line


def test_kwarg_records_full_callee_and_enclosing_symbol(mlrepo_index):
    fact = value(mlrepo_index, "mlrepo/train.py", "Adam.lr")
    assert fact.name == "lr"
    assert fact.call == "torch.optim.Adam"
    assert fact.raw == "3e-4"
    assert fact.symbol == "mlrepo/train.py::Trainer.__init__"
    assert value(mlrepo_index, "mlrepo/train.py", "lr").symbol is None


def test_cli_default_is_not_duplicated_as_a_kwarg(mlrepo_index):
    assert not [v for v in mlrepo_index.values if v.name == "default"]


def test_symbols_have_spans_with_decorators_and_docstrings(mlrepo_index):
    sym = mlrepo_index.symbol_by_id
    ema = sym["mlrepo/models.py::ema_update"]
    assert (ema.start_line, ema.kind) == (24, "function")  # the `@torch.no_grad()` line
    net = sym["mlrepo/models.py::Net"]
    assert net.kind == "class" and net.docstring == "Classifier with a stack of blocks."
    assert net.bases == ["nn.Module"]
    fwd = sym["mlrepo/models.py::Net.forward"]
    assert fwd.kind == "method" and fwd.parent == net.id and fwd.params == ["self", "x"]
    assert (fwd.start_line, fwd.end_line) == (39, 42)
    assert sym["mlrepo/__init__.py::<module>"].docstring.startswith("A small image classifier")


def test_comments_and_strings_are_texts(mlrepo_index):
    todo = [t for t in mlrepo_index.texts if t.kind == "comment" and t.marker == "TODO"]
    assert any(t.path == "mlrepo/stubs.py" and t.line == 33 and "temperature" in t.text for t in todo)
    strings = {t.text for t in mlrepo_index.texts if t.kind == "string" and t.path == "mlrepo/train.py"}
    assert {"imagenet", "cifar10"} <= strings


@pytest.mark.parametrize(
    ("function", "form", "line"),
    [
        ("only_pass", "pass", 8),
        ("only_ellipsis", "ellipsis", 11),
        ("only_docstring", "docstring_only", 15),
        ("not_implemented", "not_implemented", 20),
        ("constant_return", "constant_return", 24),
        ("none_return", "none_return", 28),
        ("todo_inside", "todo_comment", 33),
        ("random_output", "random_standin", 38),
        ("random_data", "random_standin", 42),
    ],
)
def test_stub_forms(mlrepo_index, function, form, line):
    stubs = {s.symbol: s for s in mlrepo_index.stubs}
    stub = stubs[f"mlrepo/stubs.py::{function}"]
    assert form in stub.forms
    assert stub.line == line


def test_one_line_getter_is_not_a_stub(mlrepo_index):
    assert "mlrepo/stubs.py::getter" not in {s.symbol for s in mlrepo_index.stubs}


def test_relative_and_aliased_imports():
    src = b"import numpy as np\nimport a.b.c\nfrom .models import Net as N\nfrom .. import util\nfrom x import *\n"
    facts = extract_python("pkg/sub/train.py", src)
    assert facts.imports == {"np": "numpy", "a": "a", "N": "pkg.sub.models.Net", "util": "pkg.util", "*x": "x"}


def test_module_names():
    assert module_name("pkg/__init__.py") == "pkg"
    assert module_name("src/pkg/mod.py") == "src.pkg.mod"


def test_string_formats_and_guards():
    src = b'a = "x" "y"\nb = f"{a}"\nc = 10 ** 100000\nd = 1 / 0\ne = [1, [2, (3, None)]]\nf = 0x10\n'
    got = {v.name: v.value for v in extract_python("m.py", src).values}
    assert got == {"a": "xy", "e": [1, [2, [3, None]]], "f": 16}


def test_call_arguments_follow_units_calls_yaml():
    src = (
        b"import argparse\n"
        b"p = argparse.ArgumentParser()\n"
        b"p.add_argument('--warmup-steps', type=int, default=500)\n"
        b"p.add_argument('--name', default=NAME)\n"
        b"sched = StepLR(opt, 30, gamma=0.1)\n"
        b"y = x.view(3, 4)\n"
        b"for i in range(10):\n"
        b"    pass\n"
        b"f(x for x in xs)\n"
    )
    got = {(v.source, v.key_path): v.value for v in extract_python("t.py", src).values}
    assert got == {("cli", "args.warmup_steps"): 500, ("positional", "StepLR[1]"): 30, ("kwarg", "StepLR.gamma"): 0.1}


def test_argument_positions_skip_comments_and_the_most_specific_source_wins():
    src = (
        b"sched = StepLR(opt,  # the optimizer\n"
        b"               30, gamma=0.1, last=(1, 2))\n"
        b"parser.add_argument('--lr', '-l', default=0.1, help='rate')\n"
        b"cfg = {'lr': 0.5, 'sched': StepLR(opt, 7)}\n"
    )
    got = sorted((v.source, v.key_path, v.value, v.line) for v in extract_python("t.py", src).values)
    assert got == [
        ("cli", "args.lr", 0.1, 3),  # not also a `kwarg` fact for `default=`
        ("dict", "cfg.lr", 0.5, 4),
        ("kwarg", "StepLR.gamma", 0.1, 2),
        ("kwarg", "StepLR.last", [1, 2], 2),
        ("kwarg", "add_argument.help", "rate", 3),
        ("positional", "StepLR[1]", 7, 4),
        ("positional", "StepLR[1]", 30, 2),  # the comment is no argument
    ]


def test_assignments_keep_literal_right_hand_sides_only():
    src = b"a = 1e-3\nb = compute(2)\nc = (0.9, 0.999)\nd = x * 2\ne = -1\n"
    got = {v.key_path: v.value for v in extract_python("t.py", src).values if v.source == "assign"}
    assert got == {"a": 1e-3, "c": [0.9, 0.999], "e": -1}


def test_dict_keys_that_name_logged_series_set_nothing():
    src = b'log({"train/learning_rate": 1e-4, "loss": 0.5})\nconfig = {"learning_rate": 3e-4}\n'
    got = {v.key_path: v.value for v in extract_python("t.py", src).values if v.source == "dict"}
    assert got == {"loss": 0.5, "config.learning_rate": 3e-4}


def test_shape_and_sample_count_keywords_set_nothing():
    src = (b"idx = rng.choice(n, size=50_000, replace=False)\nz = np.random.normal(0, 1, size=(4, 8))\n"
           b"img = resize(img, size=256)\nopt = Adam(params, lr=1e-3)\n")
    got = {v.key_path: v.value for v in extract_python("t.py", src).values if v.source == "kwarg"}
    assert got == {"choice.replace": False, "resize.size": 256, "Adam.lr": 1e-3}


def test_the_arguments_of_calls_that_draw_a_figure_set_nothing():
    src = (b"plt.grid(alpha=0.3)\naxes[0].plot(x, y, linewidth=2, alpha=0.8)\nfig, ax = plt.subplots(1, 2, figsize=(8, 4))\n"
           b"opt = torch.optim.RMSprop(params, lr=1e-3, alpha=0.99)\nsns.heatmap(m, vmin=0, vmax=1)\nstep = scheduler.step(3)\n")
    got = {v.key_path: v.value for v in extract_python("t.py", src).values if v.source in ("kwarg", "positional")}
    assert got == {"RMSprop.lr": 1e-3, "RMSprop.alpha": 0.99, "scheduler.step[0]": 3}
