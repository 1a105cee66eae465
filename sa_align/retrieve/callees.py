"""Which library function a call site calls, through the imports of its file.

`units/calls.yaml: call_arguments` says what the bare positions of well-known
library calls set; the same position means different things in different
libraries (`torch.optim.SGD(params, 0.01)` starts with the parameters,
`keras.optimizers.SGD(0.01, 0.9)` with the learning rate). So a call matches an
entry only by its full dotted name, after the file's imports are applied:
`optim.SGD` under `from torch import optim`, `nn.Dropout` under
`import torch.nn as nn` and a bare `SGD` under `from torch.optim import SGD`
all resolve; a callee whose head no import binds (a local class,
`self.opt_cls`, an argument) matches nothing. Re-exports
(`tensorflow.keras` for `keras`) go through `module_aliases`.

Imports are read from the file's text with a line pattern, not the syntax
tree: the index does not keep them, and a missed import only costs a match.
A name the file also defines, assigns, or imports from two different places
is not resolved: which one a call means depends on the order things ran.
"""

from __future__ import annotations

import re
from functools import lru_cache

from sa_align.index.memo import per_index
from sa_align.index.model import RepoIndex, ValueFact
from sa_align.resources import load_yaml

_IMPORT = re.compile(r"^[ \t]*import[ \t]+([^\n#;\\]+)", re.M)
_FROM = re.compile(r"^[ \t]*from[ \t]+([\w.]+)[ \t]+import[ \t]+(\([^)]*\)|[^\n#;\\]+)", re.M)
_ALIAS = re.compile(r"^([\w.]+)(?:\s+as\s+(\w+))?$")
_COMMENT = re.compile(r"#[^\n]*")
_POSITION = re.compile(r"\[(\d+)\]$")
_ASSIGNED = re.compile(r"^[ \t]*([A-Za-z_]\w*)[ \t]*(?::[^=\n]*)?=(?!=)", re.M)


@lru_cache(maxsize=1)
def _tables() -> tuple[dict[str, dict[int | str, str]], tuple[tuple[str, str], ...]]:
    """The argument table and the module aliases, longest first."""
    data = load_yaml("calls.yaml")
    aliases = sorted((data.get("module_aliases") or {}).items(), key=lambda kv: -len(kv[0]))
    return dict(data.get("call_arguments") or {}), tuple((str(k), str(v)) for k, v in aliases)


@lru_cache(maxsize=1)
def _roots() -> frozenset[str]:
    """Top-level packages the table and the aliases name (`torch`, `keras`, `tensorflow`, ...)."""
    table, aliases = _tables()
    return frozenset(name.split(".")[0] for name in [*table, *(a for a, _ in aliases)])


def canonical_module(dotted: str) -> str:
    """`dotted` with re-exporting module prefixes replaced (`tensorflow.keras.layers.Dropout` ->
    `keras.layers.Dropout`), until none applies."""
    aliases = _tables()[1]
    for _ in range(8):  # aliases chain (`tensorflow.keras.optimizers.legacy` -> `keras.optimizers`)
        for prefix, target in aliases:
            if dotted == prefix or dotted.startswith(prefix + "."):
                dotted = target + dotted[len(prefix):]
                break
        else:
            return dotted
    return dotted


def _bind(out: dict[str, set[str]], local: str, target: str) -> None:
    out.setdefault(local, set()).add(canonical_module(target))


def parse_imports(text: str) -> dict[str, set[str]]:
    """Local name -> the absolute dotted names imports bind it to (relative imports left out:
    they are the repository's own code, never a library call)."""
    out: dict[str, set[str]] = {}
    for m in _IMPORT.finditer(text):
        for part in m.group(1).split(","):
            alias = _ALIAS.match(part.strip())
            if alias is not None:
                name, local = alias.groups()
                _bind(out, local or name.split(".")[0], name if local else name.split(".")[0])
    for m in _FROM.finditer(text):
        module, names = m.group(1), _COMMENT.sub("", m.group(2)).strip("()")
        if module.startswith("."):
            continue
        for part in names.split(","):
            alias = _ALIAS.match(part.strip())
            if alias is not None and "." not in alias.group(1):
                name, local = alias.groups()
                _bind(out, local or name, f"{module}.{name}")
    return out


def file_imports(index: RepoIndex, path: str) -> dict[str, str]:
    """Local name -> the one library name it stands for in `path` (built once per file)."""
    cache: dict[str, dict[str, str]] = per_index(index, "file-imports", lambda _ix: {})
    hit = cache.get(path)
    if hit is None:
        text = index.file_text(path)
        if not any(root in text for root in _roots()):
            cache[path] = {}
            return cache[path]  # imports nothing the table knows: no need to read them
        # A name the file defines or assigns as well may not be the import where a call runs.
        local = per_index(index, "names-defined-by-path", _defined_by_path).get(path, set())
        local = local | set(_ASSIGNED.findall(text))
        hit = {name: next(iter(targets)) for name, targets in parse_imports(text).items()
               if len(targets) == 1 and name not in local}
        cache[path] = hit
    return hit


def _defined_by_path(index: RepoIndex) -> dict[str, set[str]]:
    out: dict[str, set[str]] = {}
    for sym in index.symbols:
        if sym.kind != "module":
            out.setdefault(sym.path, set()).add(sym.name)
    return out


def resolve_callee(written: str, imports: dict[str, str]) -> str | None:
    """The dotted library name a callee as written (`optim.SGD`) stands for, or `None`."""
    head, _, rest = written.partition(".")
    target = imports.get(head)
    if target is None:
        return None
    return canonical_module(f"{target}.{rest}" if rest else target)


def call_argument(fact: ValueFact, imports: dict[str, str]) -> str | None:
    """The parameter `units/calls.yaml: call_arguments` says this call argument sets, if any,
    with the callee resolved through `imports` (its file's, from `file_imports`)."""
    if not fact.call or fact.source not in ("kwarg", "positional"):
        return None
    callee = resolve_callee(fact.call, imports)
    args = _tables()[0].get(callee) if callee else None
    if not args:
        return None
    m = _POSITION.search(fact.name) if fact.source == "positional" else None
    key: int | str = int(m.group(1)) if m else fact.name
    meant = args.get(key)
    return str(meant) if meant else None


__all__ = ["call_argument", "canonical_module", "file_imports", "parse_imports", "resolve_callee"]
