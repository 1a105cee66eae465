"""Source-level facts the mutation generator needs: tree-sitter over Python, token scans elsewhere.

Nothing here executes the audited code: Python is parsed with tree-sitter and,
as a second check, compiled to bytecode (`compile()`, never run).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING, Iterator

from sa_align.index.nodes import call_by_callee

if TYPE_CHECKING:
    from tree_sitter import Node, Tree

NUMBER_TOKEN = re.compile(
    r"(?<![\w.])(?:\d[\d_]*\.?[\d_]*(?:[eE][-+]?\d+)?|\.\d+(?:[eE][-+]?\d+)?)(?![\w.])"
)
"""A numeric literal in a config line or other non-Python text."""

WORD_TOKEN = re.compile(r"(?<![\w\-])(?:[A-Za-z][A-Za-z0-9_\-]*[A-Za-z0-9]|[A-Za-z])")
"""A name as datasets and metrics are written in code (`CIFAR-10`, `top1_acc`, `mnist`)."""

STATEMENT_PARENTS = {"block", "module"}
DEF_TYPES = {"function_definition"}


@lru_cache(maxsize=1)
def _parser():
    import tree_sitter as ts
    import tree_sitter_python as tsp

    return ts.Parser(ts.Language(tsp.language()))


def parse(text: str) -> "Tree":
    return _parser().parse(text.encode("utf-8"))


def is_python(path: str) -> bool:
    return path.endswith(".py")


def node_text(node: "Node") -> str:
    return node.text.decode("utf-8") if node.text is not None else ""


def first_line(node: "Node") -> int:
    return node.start_point[0] + 1


def last_line(node: "Node") -> int:
    return node.end_point[0] + 1


def walk(node: "Node") -> Iterator["Node"]:
    stack = [node]
    while stack:
        cur = stack.pop()
        yield cur
        stack.extend(reversed(cur.children))


def python_parses(text: str, path: str = "<variant>") -> str | None:
    """`None` when the text is valid Python (no tree-sitter ERROR/MISSING node, compiles); else why not."""
    tree = parse(text)
    for node in walk(tree.root_node):
        if node.is_error or node.is_missing:
            return f"{path}:{first_line(node)}: syntax error node after mutation"
    try:
        compile(text, path, "exec", dont_inherit=True)
    except (SyntaxError, ValueError) as exc:
        return f"{path}: does not compile after mutation: {exc}"
    return None


def text_parses(path: str, text: str) -> str | None:
    """Parse check for an edited file of any kind we edit (Python, YAML, JSON)."""
    if is_python(path):
        return python_parses(text, path)
    if path.endswith((".yaml", ".yml")):
        import yaml

        try:
            yaml.safe_load(text)
        except yaml.YAMLError as exc:
            return f"{path}: YAML no longer loads: {exc}"
    elif path.endswith(".json"):
        import json

        try:
            json.loads(text)
        except ValueError as exc:
            return f"{path}: JSON no longer loads: {exc}"
    return None


# --------------------------------------------------------------------------- literals


@dataclass(frozen=True)
class Token:
    """A piece of one line: its column range and text."""

    line: int
    """1-based line."""
    start: int
    """Column (char offset in the line) where it starts."""
    end: int
    """Column where it ends (exclusive)."""
    text: str
    """The token text."""


def number_tokens(path: str, text: str, line: int) -> list[Token]:
    """Numeric literals on `line`: tree-sitter `integer`/`float` nodes in Python, the value part elsewhere."""
    lines = text.splitlines()
    if not 1 <= line <= len(lines):
        return []
    src = lines[line - 1]
    if is_python(path):
        return _python_numbers(text, line, src)
    value_from = _config_value_start(src)
    return [
        Token(line, m.start(), m.end(), m.group())
        for m in NUMBER_TOKEN.finditer(src)
        if m.start() >= value_from and not _in_comment(src, m.start())
    ]


def _python_numbers(text: str, line: int, src: str) -> list[Token]:
    tree = parse(text)
    out = []
    for node in walk(tree.root_node):
        if node.type in ("integer", "float") and node.start_point[0] == line - 1 and node.end_point[0] == line - 1:
            # tree-sitter columns are byte offsets; convert to char offsets of the line.
            start = len(src.encode("utf-8")[: node.start_point[1]].decode("utf-8", "ignore"))
            raw = node_text(node)
            out.append(Token(line, start, start + len(raw), raw))
    return sorted(out, key=lambda t: t.start)


def _config_value_start(src: str) -> int:
    """Column after the key of a `key: value` / `key = value` / `--flag value` line (0 when none)."""
    m = re.match(r"\s*(?:-\s+)?[\w.\-\"']+\s*[:=]\s*", src)
    return m.end() if m else 0


def _in_comment(src: str, col: int) -> bool:
    hash_at = src.find("#")
    return 0 <= hash_at < col


def word_tokens(path: str, text: str, line: int) -> list[Token]:
    """Names on `line` outside comments (a renamed comment changes nothing the code does)."""
    lines = text.splitlines()
    if not 1 <= line <= len(lines):
        return []
    src = lines[line - 1]
    cut = _comment_column(text, line, src) if is_python(path) else _yaml_comment_column(src)
    return [Token(line, m.start(), m.end(), m.group()) for m in WORD_TOKEN.finditer(src) if m.end() <= cut]


def semantic_word_tokens(path: str, text: str, line: int) -> list[Token]:
    """Names on `line` whose change changes what the code does.

    In Python: words inside string literals that are not docstrings, and the
    attribute named by a call (`datasets.CIFAR10(...)`); renaming a variable, a
    definition or a docstring changes nothing a run uses. Elsewhere: words in
    the value part of a `key: value` line (a renamed config key is a dead key,
    not another dataset).
    """
    tokens = word_tokens(path, text, line)
    if not is_python(path):
        value_from = _config_value_start(text.splitlines()[line - 1]) if tokens else 0
        return [t for t in tokens if t.start >= value_from]
    src = text.splitlines()[line - 1]
    spans = _semantic_columns(text, line, src)
    return [t for t in tokens if any(a <= t.start and t.end <= b for a, b in spans)]


def _semantic_columns(text: str, line: int, src: str) -> list[tuple[int, int]]:
    """Char column ranges on `line` of non-docstring strings and called attributes."""
    raw = src.encode("utf-8")

    def col(byte: int) -> int:
        return len(raw[:byte].decode("utf-8", "ignore"))

    out: list[tuple[int, int]] = []
    for node in walk(parse(text).root_node):
        if node.start_point[0] != line - 1 or node.end_point[0] != line - 1:
            continue
        if node.type == "string" and not _is_docstring(node):
            out.append((col(node.start_point[1]), col(node.end_point[1])))
        elif node.type == "attribute" and node.parent is not None and node.parent.type == "call" \
                and node.parent.child_by_field_name("function") == node:
            attr = node.child_by_field_name("attribute")
            if attr is not None:
                out.append((col(attr.start_point[1]), col(attr.end_point[1])))
    return out


def _is_docstring(node: "Node") -> bool:
    stmt = node.parent
    if stmt is None or stmt.type != "expression_statement" or len(stmt.named_children) != 1:
        return False
    block = stmt.parent
    return block is not None and block.type in ("block", "module") and block.named_children[0] == stmt


def _comment_column(text: str, line: int, src: str) -> int:
    for node in walk(parse(text).root_node):
        if node.type == "comment" and node.start_point[0] == line - 1:
            return len(src.encode("utf-8")[: node.start_point[1]].decode("utf-8", "ignore"))
    return len(src)


def _yaml_comment_column(src: str) -> int:
    m = re.search(r"(^|\s)#", src)
    return m.start() if m else len(src)


def replace_token(text: str, tok: Token, new: str) -> str:
    lines = text.splitlines(keepends=True)
    src = lines[tok.line - 1]
    lines[tok.line - 1] = src[: tok.start] + new + src[tok.end :]
    return "".join(lines)


# --------------------------------------------------------------------------- definitions and statements


def functions(tree: "Tree") -> list["Node"]:
    return [n for n in walk(tree.root_node) if n.type in DEF_TYPES]


def def_name(node: "Node") -> str:
    name = node.child_by_field_name("name")
    return node_text(name) if name is not None else ""


def outer(node: "Node") -> "Node":
    """The definition together with its decorators."""
    parent = node.parent
    return parent if parent is not None and parent.type == "decorated_definition" else node


def innermost_function(tree: "Tree", start: int, end: int) -> "Node | None":
    best = None
    for fn in functions(tree):
        if first_line(outer(fn)) <= start and end <= last_line(fn):
            if best is None or first_line(fn) >= first_line(best):
                best = fn
    return best


def statement_of(node: "Node") -> "Node | None":
    """The statement (child of a block or module) that contains `node`."""
    cur: Node | None = node
    while cur is not None and cur.parent is not None and cur.parent.type not in STATEMENT_PARENTS:
        cur = cur.parent
    return cur if cur is not None and cur.parent is not None else None


def statements_in(tree: "Tree", start: int, end: int) -> list["Node"]:
    """The sibling statements that lines `start..end` cover; for a span inside one statement, that statement.

    The outermost statements lying wholly inside the span win (a span over a whole
    `for` loop is that loop, not its body); they must share a parent, else `[]`.
    """
    stmts = [n for n in walk(tree.root_node) if n.parent is not None and n.parent.type in STATEMENT_PARENTS]
    inside = [n for n in stmts if start <= first_line(n) and last_line(n) <= end]
    top = [n for n in inside if not any(o is not n and _contains(o, n) for o in inside)]
    if top:
        if len({(n.parent.start_byte, n.parent.end_byte) for n in top}) != 1:
            return []
        return sorted(top, key=lambda n: n.start_byte)
    containing = [n for n in stmts if first_line(n) <= start and end <= last_line(n)]
    return [max(containing, key=lambda n: n.start_byte)] if containing else []


def elements_in(tree: "Tree", start: int, end: int) -> "Node | None":
    """The element of a list, tuple or call's arguments that lines `start..end` hold alone, if any."""
    for node in walk(tree.root_node):
        parent = node.parent
        if parent is None or parent.type not in ("list", "tuple", "argument_list") or not node.is_named:
            continue
        if first_line(node) == start and last_line(node) == end:
            neighbours = [c for c in parent.named_children if c != node and c.type != "comment"]
            if all(last_line(c) < start or first_line(c) > end for c in neighbours):
                return node
    return None


def _contains(a: "Node", b: "Node") -> bool:
    return a.start_byte <= b.start_byte and b.end_byte <= a.end_byte and (a.start_byte, a.end_byte) != (b.start_byte, b.end_byte)


def docstring_of(fn: "Node") -> "Node | None":
    body = fn.child_by_field_name("body")
    if body is None or not body.named_children:
        return None
    first = body.named_children[0]
    if first.type == "expression_statement" and first.named_children and first.named_children[0].type == "string":
        return first
    return None


def returns_value(fn: "Node") -> bool:
    for node in walk(fn):
        if node.type == "return_statement" and node.named_children and _owner(node) == fn:
            return True
    return False


def _owner(node: "Node") -> "Node | None":
    cur = node.parent
    while cur is not None and cur.type not in DEF_TYPES:
        cur = cur.parent
    return cur


def references(tree: "Tree", name: str) -> list["Node"]:
    """Identifier nodes spelling `name`, as a bare name or as the attribute of `obj.name`."""
    out = []
    for node in walk(tree.root_node):
        if node.type == "identifier" and node_text(node) == name:
            out.append(node)
    return out


def call_statement(ref: "Node") -> "Node | None":
    """The statement when `ref` is the callee of a call that is the whole statement (`f(x)`, `y = f(x)`)."""
    call = call_by_callee(ref)
    if call is None:
        return None
    top = call.parent if call.parent is not None and call.parent.type == "await" else call
    holder = top.parent
    if holder is not None and holder.type == "assignment" and holder.child_by_field_name("right") == top:
        top, holder = holder, holder.parent
    if holder is not None and holder.type == "expression_statement" and len(holder.named_children) == 1:
        return holder
    return None


def in_import(ref: "Node") -> "Node | None":
    cur = ref.parent
    while cur is not None:
        if cur.type in ("import_from_statement", "import_statement"):
            return cur
        if cur.type in STATEMENT_PARENTS:
            return None
        cur = cur.parent
    return None
