"""The house's shape: no import circles, nothing imports back up to `sa_align/__init__.py`, the contracts
layer (`models/`) depends on no feature folder, and the judges' evidence room sits below the judges.

Imports inside functions and under `TYPE_CHECKING` count: they hide a circle, they do not remove it.
"""

from __future__ import annotations

import ast
from pathlib import Path

import networkx as nx

PKG = Path(__file__).resolve().parent.parent / "sa_align"
ALLOWED_TYPE_ONLY = {frozenset({"sa_align.paper.latex_commands", "sa_align.paper.latex_render"})}
"""Circles allowed because an edge of each exists only for type checkers (the renderer's commands take it)."""


def _modules() -> dict[str, Path]:
    out = {}
    for path in PKG.rglob("*.py"):
        parts = list(path.relative_to(PKG.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        out[".".join(parts)] = path
    return out


def _type_only_nodes(tree: ast.AST) -> set[int]:
    nodes: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            nodes.update(id(n) for n in ast.walk(node))
    return nodes


def _targets(node: ast.AST, module: str, is_package: bool) -> list[str]:
    if isinstance(node, ast.Import):
        return [a.name for a in node.names]
    if not isinstance(node, ast.ImportFrom):
        return []
    base = node.module or ""
    if node.level:
        anchor = module if is_package else module.rsplit(".", 1)[0]
        for _ in range(node.level - 1):
            anchor = anchor.rsplit(".", 1)[0]
        base = f"{anchor}.{base}" if base else anchor
    return [f"{base}.{a.name}" for a in node.names] or [base]


def import_graph() -> nx.DiGraph:
    """Module -> module it imports, each edge marked `type_only` when every such import is for type checkers."""
    modules = _modules()

    def owner(name: str) -> str | None:
        while name and name not in modules:
            name = name.rpartition(".")[0]
        return name or None

    graph = nx.DiGraph()
    for module, path in modules.items():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        type_only = _type_only_nodes(tree)
        for node in ast.walk(tree):
            for target in _targets(node, module, path.name == "__init__.py"):
                dest = owner(target)
                if dest is None or dest == module or not target.startswith("sa_align"):
                    continue
                for hop in _loaded(module, dest, modules):
                    only = id(node) in type_only and graph.get_edge_data(module, hop, {}).get("type_only", True)
                    graph.add_edge(module, hop, type_only=only)
    return graph


def _loaded(module: str, dest: str, modules: dict[str, Path]) -> list[str]:
    """What importing `dest` from `module` runs: `dest` and the `__init__` of each package above it that is not
    already running because `module` sits inside it (`judges/scope` importing `judges/stub/named` runs
    `judges/stub/__init__`, not `judges/__init__`)."""
    parts = dest.split(".")
    parents = [".".join(parts[:i]) for i in range(1, len(parts))]
    running = {p for p in parents if module == p or module.startswith(p + ".")}
    return [dest, *(p for p in parents if p in modules and p not in running)]


def test_no_import_circle_but_the_one_type_only_circle_allowed():
    graph = import_graph()
    circles = [frozenset(c) for c in nx.strongly_connected_components(graph) if len(c) > 1]
    assert set(circles) <= ALLOWED_TYPE_ONLY, f"import circles: {[sorted(c) for c in circles]}"
    runtime = nx.DiGraph([(a, b) for a, b, d in graph.edges(data=True) if not d["type_only"]])
    assert not [c for c in nx.strongly_connected_components(runtime) if len(c) > 1]


def test_nothing_imports_back_up_to_the_package_root():
    graph = import_graph()
    assert list(graph.predecessors("sa_align")) == []


def test_the_contracts_layer_depends_on_no_feature_folder():
    graph = import_graph()
    for module in [m for m in graph if m.startswith("sa_align.models")]:
        outside = [d for d in graph.successors(module) if not d.startswith("sa_align.models")]
        assert set(outside) <= {"sa_align._version", "sa_align.resources", "sa_align.errors"}, (module, outside)


def test_the_evidence_room_sits_below_the_judges():
    graph = import_graph()
    room = "sa_align.judges.evidence"
    for module in [m for m in graph if m.startswith(room)]:
        up = [d for d in graph.successors(module) if d.startswith("sa_align.judges") and not d.startswith(room)]
        assert up == [], (module, up)


def test_the_graph_sees_function_level_and_type_only_imports(tmp_path):
    # The checker itself must see what hides a circle: an import inside a function and one for type checkers.
    graph = import_graph()
    assert graph.has_edge("sa_align.paper.latex_commands", "sa_align.paper.latex_render")
    assert graph["sa_align.paper.latex_commands"]["sa_align.paper.latex_render"]["type_only"]
    assert not graph["sa_align.paper.latex_render"]["sa_align.paper.latex_commands"]["type_only"]
    assert graph.has_edge("sa_align.pipeline", "sa_align.judges")  # imported inside `judge_all`
