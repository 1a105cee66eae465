"""Unbound names and unused imports, on small repositories indexed with the real `build_index`."""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

from sa_align.index import RepoIndex, build_index


def _index(tmp_path: Path, files: dict[str, str]) -> RepoIndex:
    for rel, text in files.items():
        path = tmp_path / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text).lstrip("\n"))
    return build_index(tmp_path)


def _unbound(index: RepoIndex, path: str = "m.py") -> set[tuple[str, str]]:
    """(qualname of the reading scope, name) of every unbound read in `path`."""
    return {(u.symbol.split("::", 1)[1], u.name) for u in index.unbound if u.path == path}


def _unused(index: RepoIndex, path: str = "m.py") -> set[str]:
    return {u.name for u in index.unused_imports if u.path == path}


def test_a_deleted_assignment_leaves_its_name_unbound_where_it_is_read(tmp_path: Path):
    index = _index(tmp_path, {"m.py": """
        def helper(values):
            return max(values) / 2


        def normalize(values):
            total = sum(values)
            # `ratio = helper(values)` was here
            return [v / total * ratio for v in values]


        def other():
            ratio = 0.5  # bound here, which does not help `normalize`
            return ratio


        def shrink(values):
            return squash(values)  # its definition is gone
        """})
    assert _unbound(index) == {("normalize", "ratio"), ("shrink", "squash")}
    fact = index.unbound_names()["ratio"][0]
    assert (fact.path, fact.line, fact.symbol) == ("m.py", 8, "m.py::normalize")
    assert [u.name for u in index.unbound_in("m.py::shrink")] == ["squash"]
    assert index.unbound_in("m.py::other") == []


def test_closures_see_the_functions_around_them(tmp_path: Path):
    index = _index(tmp_path, {"m.py": """
        def make_scaler(gain):
            offset = 1

            def scale(x):
                def again(y):
                    return y * gain + offset
                return again(x) + offset

            shift = lambda z: z + offset
            return scale, shift
        """})
    assert _unbound(index) == set()


def test_a_class_body_is_not_visible_from_its_methods(tmp_path: Path):
    index = _index(tmp_path, {"m.py": """
        class Scaler:
            factor = 3
            limit = factor * 2  # the class body reads its own names

            def apply(self, x, cap=limit):  # defaults are evaluated in the class body
                return min(x * factor, cap)

            def fine(self, x):
                return x * self.factor

            @staticmethod
            def nested():
                class Inner:
                    size = 2
                    doubled = size * 2
                return Inner
        """})
    assert _unbound(index) == {("Scaler.apply", "factor")}


def test_comprehension_walrus_except_with_and_for_targets_bind(tmp_path: Path):
    index = _index(tmp_path, {"m.py": """
        import contextlib


        def pairs():
            return contextlib.nullcontext((1, 2))


        def run(rows, items):
            squares = [v * v for v in rows if v]
            table = {k: w for k, w in items}
            flat = [c for row in rows for c in row]
            if (n := len(rows)) > 3:
                squares.append(n)
            doubled = [y for x in rows if (y := x * 2)]
            try:
                squares.sort()
            except ValueError as err:
                print(err)
            with pairs() as (left, right):
                squares.append(left + right)
            total = 0
            for i, (a, b) in enumerate(items):
                total += a * b + i
            first, *rest = rows
            return squares, table, flat, doubled, total, first, rest
        """})
    assert _unbound(index) == set()


def test_global_declarations_and_conditional_imports_bind_module_names(tmp_path: Path):
    index = _index(tmp_path, {"m.py": """
        from typing import TYPE_CHECKING

        try:
            import ujson as json
        except ImportError:
            import json

        if TYPE_CHECKING:
            from collections import OrderedDict


        def setup():
            global CACHE
            CACHE = {}


        def use(table: "OrderedDict") -> int:
            note: Undeclared  # annotations are never required to resolve
            return len(CACHE) + len(json.dumps(table))
        """})
    assert _unbound(index) == set()
    assert _unused(index) == set()


def test_builtins_and_module_attributes_are_not_reported(tmp_path: Path):
    index = _index(tmp_path, {"m.py": """
        class Net(Exception):
            def __init__(self):
                super().__init__(__name__, __file__, __class__)
                print(len(range(3)), isinstance(self, Net), __doc__)
        """})
    assert _unbound(index) == set()


def test_attributes_keywords_strings_and_comments_are_not_reads(tmp_path: Path):
    index = _index(tmp_path, {"m.py": """
        def configure(obj, build):
            obj.ratio = 2  # ratio in a comment
            build(ratio=obj.ratio, label="ratio")
            return f"{obj.ratio!r:>10} ratio"
        """})
    assert _unbound(index) == set()


def test_names_read_in_f_strings_count(tmp_path: Path):
    index = _index(tmp_path, {"m.py": """
        def report(loss):
            return f"loss {loss:.3f} at {epoch}"
        """})
    assert _unbound(index) == {("report", "epoch")}


def test_files_that_cannot_be_checked_are_skipped(tmp_path: Path):
    index = _index(tmp_path, {
        "star.py": """
            from math import *

            def root():
                return sqrt(2) + missing_one
            """,
        "dynamic.py": """
            def evaluate(code):
                exec(code)
                return missing_two
            """,
        "namespace.py": """
            globals()["missing_five"] = 1

            def read():
                return missing_five
            """,
        "broken.py": """
            def broken(:
                return missing_three
            """,
        "legacy.py": """
            def old():
                print "value", missing_four
            """,
    })
    assert index.unbound == []
    assert {f.path: f.parse_errors > 0 for f in index.files}["broken.py"]


def test_reading_a_namespace_keeps_unbound_names_but_not_unused_imports(tmp_path: Path):
    index = _index(tmp_path, {"m.py": """
        import gym


        def build(name):
            return eval(name) or globals()[name] or missing
        """})
    assert _unbound(index) == {("build", "missing")}
    assert _unused(index) == set()  # `eval("gym.make")` may be what reads it


def test_a_name_probed_under_a_name_error_guard_is_not_reported(tmp_path: Path):
    index = _index(tmp_path, {"m.py": """
        def has_widgets():
            try:
                widgets_api
            except NameError:
                return False
            return widgets_api.enabled


        def elsewhere():
            return widgets_api.version + really_missing
        """})
    assert _unbound(index) == {("elsewhere", "really_missing")}


def test_noqa_silences_a_line(tmp_path: Path):
    index = _index(tmp_path, {"m.py": """
        import gym  # noqa: F401


        def late():
            return injected  # noqa: F821
        """})
    assert _unbound(index) == set() and _unused(index) == set()


def test_a_file_wide_noqa_silences_its_codes(tmp_path: Path):
    index = _index(tmp_path, {
        "imports.py": "# ruff: noqa: F401\nimport gym\n\n\ndef f():\n    return missing\n",
        "everything.py": "# flake8: noqa\nimport gym\n\n\ndef f():\n    return missing\n",
    })
    assert _unused(index, "imports.py") == set() and _unbound(index, "imports.py") == {("f", "missing")}
    assert _unused(index, "everything.py") == set() and _unbound(index, "everything.py") == set()


def test_unused_imports(tmp_path: Path):
    index = _index(tmp_path, {
        "m.py": """
            from __future__ import annotations

            import gym
            import numpy as np
            import torch.nn as nn
            from torch.distributions import Normal, Categorical
            from .helpers import exported, private_helper as private_helper

            __all__ = ["exported"]


            def policy(x) -> Categorical:
                return nn.Linear(2, 2)(np.asarray(x))
            """,
        "helpers.py": "exported = 1\nprivate_helper = 2\n",
        "pkg/__init__.py": "from .core import run\nimport os\n",
        "pkg/core.py": "def run():\n    return 1\n",
    })
    facts = {u.name: u for u in index.unused_imports}
    assert set(facts) == {"gym", "Normal"}
    assert (facts["gym"].imported, facts["gym"].line) == ("gym", 3)
    assert facts["Normal"].imported == "torch.distributions.Normal"
    assert _unused(index, "pkg/__init__.py") == set()


def test_a_notebook_is_one_module_scope(tmp_path: Path):
    cells = [
        {"cell_type": "code", "source": ["%matplotlib inline\n", "import math\n", "scale = 2\n"]},
        {"cell_type": "markdown", "source": ["notes"]},
        {"cell_type": "code", "source": ["def area(r):\n", "    return math.pi * r * r * scale\n"]},
        {"cell_type": "code", "source": ["display(area(1), radius)\n"]},
    ]
    index = _index(tmp_path, {"nb.ipynb": json.dumps({"cells": cells, "nbformat": 4, "metadata": {}})})
    assert _unbound(index, "nb.ipynb") == {("<module>", "radius")}


def test_facts_survive_the_cache(tmp_path: Path):
    repo = tmp_path / "repo"
    repo.mkdir()
    (repo / "m.py").write_text("import gym\n\ndef f():\n    return ratio\n")
    cold = build_index(repo, cache_dir=tmp_path / "cache")
    (repo / "other.py").write_text("x = 1\n")
    warm = build_index(repo, cache_dir=tmp_path / "cache")  # the entry of m.py, from the cache
    again = build_index(repo, cache_dir=tmp_path / "cache")  # the whole pack
    assert warm.stats["cache_hits"] == 1 and again.stats["repo_cache_hit"] == 1
    for index in (cold, warm, again):
        assert [(u.name, u.line) for u in index.unbound] == [("ratio", 4)]
        assert [u.name for u in index.unused_imports] == ["gym"]


def test_deeply_nested_code_does_not_recurse(tmp_path: Path):
    depth = 600
    index = _index(tmp_path, {"m.py": "def f():\n    return " + "(" * depth + "missing" + ")" * depth + "\n"})
    assert _unbound(index) == {("f", "missing")}


def test_a_failure_here_costs_the_file_only_these_facts(tmp_path: Path, monkeypatch):
    from sa_align.index import scopes

    def broken(*args, **kwargs):
        raise RuntimeError("boom")

    monkeypatch.setattr(scopes, "_scope_words", broken)
    index = _index(tmp_path, {"m.py": "import gym\n\ndef f():\n    return ratio\n"})
    assert index.unbound == [] and index.unused_imports == []
    assert "m.py::f" in index.symbol_by_id
