"""Loops that repeat a run: how many seeds, runs or folds a `for` loop goes through.

    for seed in range(3):            3 seeds, stated by the loop itself
    for run in range(args.runs):     as many as the setting `runs` says
    for seed in SEEDS:               as many as the list `SEEDS` holds
    for i, seed in enumerate([0, 1, 2]):

Which loop variables mean seeds, runs or folds, and which calls count like
`range` or pass an iterable through, are in `units/numeric.yaml`
(`count_loops`, `count_ranges`, `count_wrappers`). Answers come from tree-sitter
over `RepoIndex.file_text` (Python files, test files left out); the audited code
is never run.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Literal

from sa_align.index.memo import per_index
from sa_align.index.model import RepoIndex
from sa_align.index.overrides import _access
from sa_align.index.walk import is_test_path
from sa_align.resources import load_yaml


@dataclass(frozen=True)
class CountLoop:
    """A loop over repeated runs."""

    param: str
    """Canonical count parameter the loop variable stands for (`seeds`, `folds`)."""
    var: str
    """The loop variable as written (`seed`)."""
    path: str
    """File path relative to the repository root."""
    line: int
    """Line of the `for`."""
    raw: str
    """What the loop goes over, as written (`range(3)`, `SEEDS`)."""
    count: int | None = None
    """The count when the loop states it with literals (`range(3)`, `[0, 1, 2]`)."""
    setting: str | None = None
    """Otherwise the name of the setting that gives it (`runs` in `range(args.runs)`)."""
    form: Literal["range", "items"] = "range"
    """`range`: the setting's number is the count; `items`: the setting's list length is."""
    bare: bool = False
    """The setting is a bare name (`NUM_SEEDS`), not an attribute or item (`args.runs`, `cfg["runs"]`)."""


@lru_cache(maxsize=1)
def _tables() -> tuple[dict[str, str], frozenset[str], frozenset[str]]:
    data = load_yaml("numeric.yaml")
    variables = {str(v): str(param) for param, names in data["count_loops"].items() for v in names}
    return variables, frozenset(map(str, data["count_ranges"])), frozenset(map(str, data["count_wrappers"]))


def _text(node: Any) -> str:
    return "".join(node.text.decode("utf-8", "replace").split())


def _leaf_call(node: Any) -> tuple[str, list[Any]] | None:
    """(callee's last name, positional arguments) of a call."""
    if node is None or node.type != "call":
        return None
    fn, args = node.child_by_field_name("function"), node.child_by_field_name("arguments")
    if fn is None or args is None or args.type != "argument_list":
        return None
    return _text(fn).rsplit(".", 1)[-1], [a for a in args.named_children if a.type not in ("comment", "keyword_argument")]


def _int(node: Any) -> int | None:
    from sa_align.index.values import NOT_LITERAL, literal_value

    value = literal_value(node)
    return value if value is not NOT_LITERAL and isinstance(value, int) and not isinstance(value, bool) else None


def _setting(node: Any) -> tuple[str, bool] | None:
    """(name, is bare) of `NAME`, `args.name`, `cfg["name"]`, `cfg.get("name")`."""
    if node.type == "identifier":
        return _text(node), True
    access = _access(node) if node.type in ("attribute", "subscript", "call") else None
    return (access[1], False) if access else None


def _counted(iterable: Any) -> dict[str, Any] | None:
    """What a loop over `iterable` counts: a literal count, or the setting that gives it."""
    from sa_align.index.values import NOT_LITERAL, literal_value

    _, ranges, wrappers = _tables()
    call = _leaf_call(iterable)
    while call is not None and call[0] in wrappers and call[1]:
        iterable, call = call[1][0], _leaf_call(call[1][0])
    if call is not None and call[0] in ranges:
        return _range(call[1])
    if iterable.type in ("list", "tuple"):
        value = literal_value(iterable)
        return {"count": len(value)} if value is not NOT_LITERAL and isinstance(value, list) else None
    found = _setting(iterable)
    return {"setting": found[0], "bare": found[1], "form": "items"} if found else None


def _range(args: list[Any]) -> dict[str, Any] | None:
    """`range(n)`, `range(a, b)`, `range(a, b, step)` with literals; `range(N)` or `range(0, N)` by a setting."""
    ints = [_int(a) for a in args]
    if args and None not in ints:
        return {"count": len(range(*ints[:3]))} if len(ints) <= 3 and (len(ints) < 3 or ints[2]) else None
    upper = args[0] if len(args) == 1 else args[1] if len(args) == 2 and ints[0] == 0 else None
    sized = _leaf_call(upper)
    if sized is not None and sized[0] == "len" and len(sized[1]) == 1:  # `range(len(SEEDS))`
        found = _setting(sized[1][0])
        return {"setting": found[0], "bare": found[1], "form": "items"} if found else None
    found = _setting(upper) if upper is not None else None
    return {"setting": found[0], "bare": found[1], "form": "range"} if found else None


def _loops(path: str, root: Any) -> list[CountLoop]:
    from sa_align.index.reads import _walk

    variables = _tables()[0]
    out: list[CountLoop] = []
    for node, _field in _walk(root):
        if node.type != "for_statement":
            continue
        left, right = node.child_by_field_name("left"), node.child_by_field_name("right")
        if left is None or right is None:
            continue
        # `for i, seed in enumerate(...)`: the last name is the item.
        var = left if left.type == "identifier" else next(reversed(left.named_children), None)
        param = variables.get(_text(var)) if var is not None and var.type == "identifier" else None
        counted = _counted(right) if param else None
        if counted:
            raw = " ".join(right.text.decode("utf-8", "replace").split())[:80]
            out.append(CountLoop(param, _text(var), path, node.start_point[0] + 1, raw, **counted))
    return out


def count_loops(index: RepoIndex) -> list[CountLoop]:
    """Every loop over seeds, runs or folds in the repository's Python files, tests left out."""
    from sa_align.index.reads import _tree

    def build(ix: RepoIndex) -> list[CountLoop]:
        out: list[CountLoop] = []
        for info in ix.files:
            if info.kind == "python" and not is_test_path(info.path) and "for" in ix.file_text(info.path):
                out.extend(_loops(info.path, _tree(ix, info.path, "python").root_node))
        return out

    return per_index(index, "count-loops", build)
