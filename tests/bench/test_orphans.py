"""Which functions a structural edit cuts off: alive before it, dead after it."""

from __future__ import annotations

import textwrap

from sa_align.bench.orphans import cut_off_lines


def _src(text: str) -> str:
    return textwrap.dedent(text).lstrip("\n")


BEFORE = {
    "train.py": _src('''
        from losses import total_loss

        if __name__ == "__main__":
            total_loss([1.0], [0.5])
    '''),
    "losses.py": _src('''
        def ratio_of(new, old):
            return [n / o for n, o in zip(new, old)]


        def clipped(new, old):
            return [min(r, 1.2) for r in ratio_of(new, old)]


        def value_term(values):
            return sum(v * v for v in values)


        def total_loss(new, old):
            return sum(clipped(new, old)) + value_term(old)
    '''),
}


def _stub_total_loss() -> dict[str, str]:
    text = BEFORE["losses.py"].replace(
        "    return sum(clipped(new, old)) + value_term(old)\n", "    raise NotImplementedError\n")
    return {"losses.py": text}


def _lines(texts: dict[str, str], path: str, name: str) -> set[int]:
    lines = texts[path].splitlines()
    start = next(i for i, ln in enumerate(lines, 1) if ln.startswith(f"def {name}("))
    end = start
    while end < len(lines) and (not lines[end] or lines[end].startswith(" ")):
        end += 1
    while not lines[end - 1].strip():
        end -= 1
    return set(range(start, end + 1))


def test_helpers_of_an_emptied_function_are_cut_off_in_a_chain():
    cut = cut_off_lines(BEFORE, _stub_total_loss())
    expected = set()
    for name in ("ratio_of", "clipped", "value_term"):
        expected |= _lines(BEFORE, "losses.py", name)
    assert cut == {"losses.py": expected}


def test_the_emptied_function_itself_is_not_cut_off():
    cut = cut_off_lines(BEFORE, _stub_total_loss())
    assert not _lines(BEFORE, "losses.py", "total_loss") & cut["losses.py"]


def test_a_helper_still_called_from_running_code_stays_alive():
    after = _stub_total_loss()
    after["train.py"] = BEFORE["train.py"] + "    print(value_term([1.0]))\n"
    cut = cut_off_lines(BEFORE, after)
    assert not _lines(BEFORE, "losses.py", "value_term") & cut["losses.py"]
    assert _lines(BEFORE, "losses.py", "ratio_of") <= cut["losses.py"]


def test_an_edit_that_cuts_nothing_off_reports_nothing():
    after = {"losses.py": BEFORE["losses.py"].replace("1.2", "1.3")}
    assert cut_off_lines(BEFORE, after) == {}


def test_a_deleted_function_is_gone_not_cut_off():
    text = BEFORE["losses.py"]
    start = text.index("def value_term")
    end = text.index("def total_loss")
    after = {"losses.py": text[:start] + text[end:].replace(" + value_term(old)", "")}
    assert cut_off_lines(BEFORE, after) == {}


def test_names_defined_twice_never_die():
    before = dict(BEFORE)
    before["other.py"] = _src('''
        def ratio_of(a, b):
            return a / b
    ''')
    cut = cut_off_lines(before, _stub_total_loss())
    assert not _lines(before, "losses.py", "ratio_of") & cut["losses.py"]


def test_gold_of_a_unit_inside_cut_off_code_becomes_stubbed():
    import pytest

    from sa_align.bench.edits import Draft, Skip
    from sa_align.bench.mutate import update_gold
    from sa_align.models import CodeSpan, Gold, Label, Unit

    def unit(uid: str, *spans: tuple[str, set[int]]) -> Unit:
        gold = Gold(label=Label.ALIGNED, spans=[CodeSpan(path=p, start_line=min(ls), end_line=max(ls)) for p, ls in spans])
        return Unit(id=uid, kind="method", claim=f"claim {uid}", gold=gold)

    after = _stub_total_loss()
    total = _lines(BEFORE, "losses.py", "total_loss")
    draft = Draft(kind="stub", unit_id="total", label=Label.STUBBED, files=after, target_spans=[], detail="stub",
                  core={"losses.py": total}, collateral_label=Label.STUBBED)
    units = [unit("total", ("losses.py", total)), unit("ratio", ("losses.py", _lines(BEFORE, "losses.py", "ratio_of"))),
             unit("entry", ("train.py", {4}))]
    out, collateral = update_gold(units, draft, BEFORE)
    gold = {u.id: u.gold for u in out}
    assert gold["ratio"].label == Label.STUBBED and "cut off" in gold["ratio"].note
    assert gold["entry"].label == Label.ALIGNED
    assert collateral == {"ratio": Label.STUBBED}
    # A unit only partly inside the cut-off code has no clear label: the variant is skipped.
    partly = unit("partly", ("losses.py", _lines(BEFORE, "losses.py", "ratio_of")), ("train.py", {4}))
    with pytest.raises(Skip, match="cuts off part"):
        update_gold(units + [partly], draft, BEFORE)


# --------------------------------------------------------------------------- one liveness definition with the judge


def _stub(text: str, name: str) -> str:
    """`text` with the body of `def name(...)` replaced by `raise NotImplementedError`."""
    lines = text.splitlines(keepends=True)
    start = next(i for i, ln in enumerate(lines) if ln.lstrip().startswith(f"def {name}("))
    indent = len(lines[start]) - len(lines[start].lstrip()) + 4
    end = start + 1
    while end < len(lines) and (not lines[end].strip() or len(lines[end]) - len(lines[end].lstrip()) >= indent):
        end += 1
    while not lines[end - 1].strip():
        end -= 1
    return "".join(lines[:start + 1] + [" " * indent + "raise NotImplementedError\n"] + lines[end:])


SCORER = {
    "run.py": _src('''
        from scoring import score

        if __name__ == "__main__":
            score([0.2, 0.9])
    '''),
    "scoring.py": _src('''
        def calibrate(xs):
            return [x / max(xs) for x in xs]


        def score(xs):
            return sum(calibrate(xs))
    '''),
}


def _cut(extra: dict[str, str], before_score: str | None = None) -> set[int]:
    """Lines of `calibrate` cut off when `score` is stubbed, with `extra` files in the repository."""
    before = {**SCORER, **extra}
    if before_score is not None:
        before["scoring.py"] = before_score
    return cut_off_lines(before, {"scoring.py": _stub(before["scoring.py"], "score")}).get("scoring.py", set())


def test_the_plain_case_cuts_the_helper_off():
    assert _cut({}) == _lines(SCORER, "scoring.py", "calibrate")


def test_tests_are_no_users_and_a_continued_import_is_no_use():
    extra = {
        "tests/test_scoring.py": "from scoring import calibrate\n\n\ndef test_calibrate():\n    assert calibrate([2.0]) == [1.0]\n",
        "report.py": "from scoring import (\n    calibrate,\n    score,\n)\n\nprint(score([1.0]))\n",
    }
    assert _cut(extra) == _lines(SCORER, "scoring.py", "calibrate")


def test_what_the_judge_counts_as_a_use_keeps_the_helper_alive():
    notebook = {"cells": [{"cell_type": "code", "metadata": {}, "outputs": [], "execution_count": 1,
                           "source": ["from scoring import calibrate\n", "calibrate([1.0, 2.0])\n"]}],
                "metadata": {}, "nbformat": 4, "nbformat_minor": 5}
    import json

    uses = {
        "a string": {"plugins.py": 'STEPS = ["calibrate", "score"]\n'},
        "a Hydra target": {"conf/eval.yaml": "scorer:\n  _target_: scoring.calibrate\n"},
        "a notebook": {"explore.ipynb": json.dumps(notebook)},
        "a default argument": {"eval.py": "from scoring import calibrate\n\n\ndef run(xs, fn=calibrate):\n    return xs\n"},
        "a re-export": {"__init__.py": "from .scoring import calibrate\n"},
    }
    for what, extra in uses.items():
        assert not _cut(extra), what


def test_rules_that_keep_a_function_are_the_judges():
    decorated = SCORER["scoring.py"].replace("def calibrate", "@register('minmax')\ndef calibrate")
    assert not _cut({}, decorated)
    dynamic = SCORER["scoring.py"] + "\n\ndef by_name(name):\n    return globals()[name]\n"
    assert not _cut({}, dynamic)
    hook = _src('''
        import pytorch_lightning as pl


        class Scorer(pl.LightningModule):
            def configure_optimizers(self):
                return None

            def score(self, xs):
                return self.configure_optimizers()
    ''')
    before = {"run.py": "from scoring import Scorer\n\nif __name__ == '__main__':\n    Scorer().score([1.0])\n",
              "scoring.py": hook}
    assert not cut_off_lines(before, {"scoring.py": _stub(hook, "score")})


def test_getters_setters_and_conditional_definitions_stay_apart_and_never_die():
    from sa_align.bench.orphans import dead_functions

    text = _src('''
        import sys

        if sys.platform == "win32":
            def sep():
                return "\\\\"
        else:
            def sep():
                return "/"


        class Path:
            @property
            def name(self):
                return self._name

            @name.setter
            def name(self, value):
                self._name = value


        def join(a, b):
            return a + sep() + b + Path().name


        def main():
            return join("a", "b")
    ''')
    before = {"paths.py": text, "run.py": "from paths import main\n\nif __name__ == '__main__':\n    main()\n"}
    _, functions = dead_functions(before)
    assert {("paths.py", "sep", 0), ("paths.py", "sep", 1), ("paths.py", "Path.name", 0),
            ("paths.py", "Path.name", 1)} <= set(functions)
    assert not cut_off_lines(before, {"paths.py": _stub(text, "join")})


def test_the_generator_and_the_judge_find_the_same_dead_code(tmp_path):
    from sa_align.bench.orphans import dead_functions
    from sa_align.index import build_index
    from sa_align.judges.evidence.liveness.dead import dead_code

    texts = {**BEFORE, "losses.py": _stub_total_loss()["losses.py"],
             "conf/loss.yaml": "loss:\n  _target_: losses.value_term\n"}
    for rel, text in texts.items():
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text(text)
    generator = {f"{p}::{q}" for p, q, _ in dead_functions(texts)[0]}
    judge = set(dead_code(build_index(tmp_path)).dead)
    assert generator == judge == {"losses.py::ratio_of", "losses.py::clipped"}


# --------------------------------------------------------------------------- gold rule 6


def _unit(uid: str, *spans: tuple[str, set[int]], kind: str = "method"):
    from sa_align.models import CodeSpan, Gold, Label, Unit

    gold = Gold(label=Label.ALIGNED, spans=[CodeSpan(path=p, start_line=min(ls), end_line=max(ls)) for p, ls in spans])
    return Unit(id=uid, kind=kind, claim=f"claim {uid}", gold=gold, params=[{"name": "eps", "value": 1.2}] if kind == "numerical" else [])


def _silence_total_loss(texts: dict[str, str] = BEFORE):
    """The `unreachable` edit of `total_loss`: its only call, in train.py, commented out."""
    from sa_align.bench.edits import Draft
    from sa_align.models import Label

    after = {"train.py": texts["train.py"].replace("    total_loss([1.0], [0.5])", "    pass  # total_loss([1.0], [0.5])")}
    total = _lines(BEFORE, "losses.py", "total_loss")
    return Draft(kind="unreachable", unit_id="total", label=Label.STUBBED, files=after, target_spans=[], detail="",
                 core={"losses.py": total}, calls={"train.py": {4}}, collateral_label=Label.STUBBED)


def test_a_touched_unit_whose_other_spans_are_cut_off_is_stubbed_too():
    from sa_align.bench.mutate import update_gold
    from sa_align.models import Label

    draft = _silence_total_loss()
    units = [_unit("total", ("losses.py", _lines(BEFORE, "losses.py", "total_loss"))),
             _unit("clip", ("losses.py", _lines(BEFORE, "losses.py", "clipped")), ("train.py", {4}))]
    out, collateral = update_gold(units, draft, BEFORE)
    assert collateral == {"clip": Label.STUBBED}


def test_a_unit_cut_off_in_part_only_is_skipped():
    import pytest

    from sa_align.bench.edits import Skip
    from sa_align.bench.mutate import update_gold

    live = {**BEFORE, "train.py": BEFORE["train.py"] + "\n\ndef report():\n    return 1\n"}
    units = [_unit("total", ("losses.py", _lines(BEFORE, "losses.py", "total_loss"))),
             _unit("mix", ("losses.py", _lines(BEFORE, "losses.py", "clipped")), ("train.py", {7, 8}))]
    with pytest.raises(Skip, match="cuts off part"):
        update_gold(units, _silence_total_loss(live), live)


def test_a_numerical_unit_in_cut_off_code_keeps_its_gold():
    from sa_align.bench.mutate import update_gold
    from sa_align.models import Label

    units = [_unit("total", ("losses.py", _lines(BEFORE, "losses.py", "total_loss"))),
             _unit("eps", ("losses.py", _lines(BEFORE, "losses.py", "clipped")), kind="numerical")]
    out, collateral = update_gold(units, _silence_total_loss(), BEFORE)
    assert next(u for u in out if u.id == "eps").gold.label == Label.ALIGNED and not collateral


def test_an_unreachable_target_still_used_is_skipped():
    import pytest

    from sa_align.bench.edits import Skip
    from sa_align.bench.mutate import update_gold

    exported = {**BEFORE, "__init__.py": "from .losses import total_loss\n"}
    units = [_unit("total", ("losses.py", _lines(BEFORE, "losses.py", "total_loss")))]
    with pytest.raises(Skip, match="still used"):
        update_gold(units, _silence_total_loss(), exported)


def test_the_generator_reads_notebooks_and_configs():
    from sa_align.bench.mutate import TEXT_SUFFIXES

    assert {".ipynb", ".yaml", ".json", ".toml", ".gin"} <= TEXT_SUFFIXES
