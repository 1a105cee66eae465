"""Python scopes on the tree-sitter tree: is this identifier a read, in which scope, bound there?

The exact half of `scopes.py`: it runs only for the few names the pre-filter
keeps, so it can afford to look at nodes one by one. Every walk uses an
explicit stack or a parent loop, never recursion.

Scopes follow Python: a name resolves in its own scope, then in the functions
around it, then in the module; a class body is visible only to code directly in
it, not to its methods. Default values, decorators, annotations and base
classes belong to the scope around the definition. Comprehensions are treated
as part of the scope around them, which can only hide a finding.
"""

from __future__ import annotations

from tree_sitter import Node

SCOPES = frozenset({"function_definition", "lambda", "class_definition"})
IMPORTS = frozenset({"import_statement", "import_from_statement", "future_import_statement"})
# Parents under which an identifier is never a read, and the field of a parent that is not one.
_NEVER_READ = IMPORTS | {"parameters", "lambda_parameters", "typed_parameter", "list_splat_pattern",
                         "dictionary_splat_pattern", "global_statement", "nonlocal_statement", "keyword_pattern",
                         "aliased_import", "relative_import"}
_NOT_READ_FIELD = {"attribute": "attribute", "keyword_argument": "name", "function_definition": "name",
                   "class_definition": "name", "default_parameter": "name", "typed_default_parameter": "name"}
# Binding forms: the field that holds the target; nodes all of whose identifiers bind.
_TARGET_FIELD = {"assignment": "left", "augmented_assignment": "left", "for_statement": "left",
                 "for_in_clause": "left", "named_expression": "name", "as_pattern": "alias",
                 "type_alias_statement": "left"}
_BIND_ALL = frozenset({"global_statement", "nonlocal_statement", "case_pattern", "type_parameter"})
_READS_INSIDE = frozenset({"attribute", "subscript", "call"})  # `a.b = 1`, `a[i] = 1` bind nothing


class Checker:
    """Exact scope lookups in one tree; the bindings of each scope are collected once."""

    def __init__(self, root: Node, globals_: set[bytes]):
        self.root = root
        self.globals = globals_
        """Names some `global` statement declares: bound in the module."""
        self.probed: set[bytes] = set()
        """Names read under a NameError guard (`try: get_ipython` / `except NameError:`): the file
        knows they may be missing, and its other reads of them are taken as guarded too."""
        self._bound: dict[int, set[bytes]] = {}

    def unbound_read(self, node: Node) -> Node | None:
        """The scope of identifier `node` when it is a read that nothing binds; `None` otherwise."""
        if not is_read(node):
            return None
        scope = scope_of(node, strict=True, probed=self.probed)
        name, current = node.text, scope
        while current is not None:
            if (current == scope or current.type != "class_definition") and name in self.bound(current):
                return None
            current = None if current.type == "module" else scope_of(current, strict=False)
        return scope

    def bound(self, scope: Node) -> set[bytes]:
        got = self._bound.get(scope.id)
        if got is None:
            got = self._bound[scope.id] = bindings(scope) | (self.globals if scope.type == "module" else set())
        return got


def definition_of(scope: Node) -> Node | None:
    """The function or class `scope` belongs to (`None` in the module): lambdas are not symbols."""
    while scope is not None and scope.type == "lambda":
        scope = scope_of(scope, strict=False)
    return None if scope is None or scope.type == "module" else scope


def is_read(node: Node) -> bool:
    """Whether identifier `node` is read (or bound) where it stands, rather than naming an
    attribute, a keyword argument, a parameter, a definition or something imported."""
    parent = node.parent
    kind = parent.type
    field = _NOT_READ_FIELD.get(kind)
    if field is not None:
        return parent.child_by_field_name(field) != node
    if kind == "dotted_name":
        return parent.parent is not None and parent.parent.type not in _NEVER_READ
    return kind not in _NEVER_READ


def scope_of(node: Node, strict: bool, probed: set[bytes] | None = None) -> Node | None:
    """The function, lambda, class or module whose body holds `node`. Strict: `None` inside an
    annotation or a `try` that catches NameError (neither read has to succeed; a guarded name
    is added to `probed`)."""
    child, parent = node, node.parent
    while parent is not None:
        kind = parent.type
        if strict and kind == "type":
            return None
        if strict and _guards(parent, child):
            if probed is not None:
                probed.add(node.text)
            return None
        if kind in SCOPES and parent.child_by_field_name("body") == child:
            return parent
        child, parent = parent, parent.parent
    return child


def _guards(parent: Node, child: Node) -> bool:
    """Whether `child` is the body of a `try` catching NameError or of `with suppress(NameError)`."""
    if parent.type == "try_statement" and parent.child_by_field_name("body") == child:
        return any(c.type == "except_clause" and b"NameError" in c.text.split(b":", 1)[0] for c in parent.children)
    if parent.type == "with_statement" and parent.child_by_field_name("body") == child:
        return any(c.type == "with_clause" and b"NameError" in c.text for c in parent.children)
    return False


def bindings(scope: Node) -> set[bytes]:
    """Every name bound directly in `scope` (a nested function or class binds only its name here)."""
    names: set[bytes] = set()
    if scope.type == "module":
        stack = [(c, False) for c in scope.named_children]
    else:
        stack = [(scope.child_by_field_name("body"), False), (scope.child_by_field_name("type_parameters"), True)]
        if scope.type != "class_definition":
            names |= _param_names(scope.child_by_field_name("parameters"))
    while stack:
        node, target = stack.pop()
        if node is None:
            continue
        kind = node.type
        if kind == "identifier":
            if target:
                names.add(node.text)
            continue
        if kind in SCOPES:  # its name binds here, its header (defaults, bases) is evaluated here
            if kind != "lambda":
                names.add(node.child_by_field_name("name").text)
            body = node.child_by_field_name("body")
            stack.extend((c, False) for c in node.named_children if c != body and c.type != "identifier")
            continue
        if kind in IMPORTS:
            names |= _import_names(node)
            continue
        field = _TARGET_FIELD.get(kind)
        if field is not None:
            stack.append((node.child_by_field_name(field), True))
        inner = (target and kind not in _READS_INSIDE) or kind in _BIND_ALL
        stack.extend((c, inner) for c in node.named_children)
    return names


def _param_names(params: Node | None) -> set[bytes]:
    names: set[bytes] = set()
    stack = list(params.named_children) if params is not None else []
    while stack:
        node = stack.pop()
        if node.type == "identifier":
            names.add(node.text)
        elif node.type in ("default_parameter", "typed_default_parameter"):
            stack.append(node.child_by_field_name("name"))
        elif node.type in ("typed_parameter", "list_splat_pattern", "dictionary_splat_pattern", "tuple_pattern"):
            stack.extend(c for c in node.named_children if c.type != "type")
    return names


def _import_names(statement: Node) -> set[bytes]:
    names = set()
    for node in statement.children_by_field_name("name"):
        target = node.child_by_field_name("alias") if node.type == "aliased_import" else node.named_children[0]
        if target is not None:
            names.add(target.text)
    return names


def in_annotation(node: Node) -> bool:
    """Whether `node` (a string's content) sits in an annotation."""
    for _ in range(4):
        node = node.parent
        if node is None:
            return False
        if node.type == "type":
            return True
    return False
