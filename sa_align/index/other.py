"""Non-Python files: shell scripts, Makefiles, C/C++/CUDA, notebooks and plain text.

Shell scripts and Makefile recipes are read for the command lines that run
Python (`python train.py --lr 3e-4`, `torchrun -m pkg.train`): each becomes an
entry point, and its `--flag value` / `key=value` overrides become `cli` values.
A shell script's variable assignments with a literal value (`SEEDS=3`,
`export LR="0.1"`, `local`/`readonly`/`declare` forms, `LR=${LR:-3e-4}`, the
`FOO=1 cmd` prefix, arrays of literals) become `shell` values; whether the
script reads them is the judge's question (`index.reads`).
"""

from __future__ import annotations

import fnmatch
import json
import re
import shlex
from functools import lru_cache

from sa_align.index.configs import scalar
from sa_align.index.fast import make
from sa_align.index.model import EntryPoint, FileFacts, FileInfo, TextFact, ValueFact
from sa_align.index.pyfacts import calls
from sa_align.index.python import _symbols, collect, extract_python
from sa_align.index.queries import language, matches, parser, stub_patterns
from sa_align.resources import load_yaml

_ENV = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*=")
_OVERRIDE = re.compile(r"^\+{0,2}([A-Za-z_][\w.\-/]*)=(.*)$")
# `${LR:-3e-4}` / `${LR-3e-4}`: the script's value unless the environment already sets one.
_DEFAULTED = re.compile(r"^\$\{\w+:?-([^$`{}\s]*)\}$")


@lru_cache(maxsize=1)
def _launchers() -> tuple[str, ...]:
    return tuple(load_yaml("entrypoints.yaml")["launchers"])


def _is_launcher(token: str) -> bool:
    base = token.rsplit("/", 1)[-1]
    return "python" in base.lower() or any(fnmatch.fnmatchcase(base, p) for p in _launchers())


def command_target(line: str) -> tuple[str, list[str]] | None:
    """(`train.py` or `-m pkg.mod`, arguments after it) when the command line runs Python."""
    try:
        tokens = shlex.split(line.replace("\\\n", " "), comments=True)
    except ValueError:
        tokens = line.split()
    while tokens and _ENV.match(tokens[0]):
        tokens.pop(0)
    if not tokens or not _is_launcher(tokens[0]):
        return None
    for i, tok in enumerate(tokens):
        if tok == "-m" and i + 1 < len(tokens):
            return "-m " + tokens[i + 1], tokens[i + 2 :]
        if tok.endswith(".py") and not tok.startswith("-"):
            return tok, tokens[i + 1 :]
    return None


def _overrides(rel: str, target: str, args: list[str], line: int) -> list[ValueFact]:
    """`--lr 3e-4`, `--lr=3e-4` and Hydra-style `optimizer.lr=3e-4` arguments."""
    out = []
    i = 0
    while i < len(args):
        tok, name, raw = args[i], None, None
        if tok.startswith("--") and len(tok) > 2:
            if "=" in tok:
                name, raw = tok[2:].split("=", 1)
            elif i + 1 < len(args) and not args[i + 1].startswith("--"):
                name, raw = tok[2:], args[i + 1]
                i += 1
        elif m := _OVERRIDE.match(tok):
            name, raw = m.group(1), m.group(2)
        i += 1
        if name and raw is not None and not raw.startswith("$"):
            key = name.replace("-", "_")
            out.append(make(ValueFact, 
                name=key.rsplit(".", 1)[-1], key_path=key if "." in key else f"args.{key}", value=scalar(raw),
                raw=raw[:200], source="cli", path=rel, line=line, symbol=None, call=target))
    return out


def _run_lines(rel: str, lines: list[tuple[int, str]], kind: str) -> tuple[list[EntryPoint], list[ValueFact]]:
    eps: list[EntryPoint] = []
    values: list[ValueFact] = []
    for line_no, text in lines:
        got = command_target(text)
        if got is None:
            continue
        target, args = got
        target = target[3:] if target.startswith("-m ") else target
        eps.append(make(EntryPoint, symbol=None, path=rel, line=line_no, kind=kind,
                                              detail=" ".join(text.split())[:200], end_line=None, target=target))
        values.extend(_overrides(rel, target, args, line_no))
    return eps, values


def _info(rel: str, kind: str, lang: str | None, size: int, n_lines: int, errors: int = 0) -> FileInfo:
    return make(FileInfo, path=rel, kind=kind, language=lang, sha256="", size=size, lines=n_lines,
                                    parse_errors=errors)


def _comments(rel: str, nodes: list, symbol_of=lambda line: None) -> list[TextFact]:
    pats = stub_patterns()
    out = []
    for node in nodes:
        text = node.text.decode("utf-8", "replace").lstrip("#/*!").rstrip("*/").strip()[:500]
        line = node.start_point[0] + 1
        out.append(make(TextFact, kind="comment", text=text, path=rel, line=line,
                                            symbol=symbol_of(line), marker=pats.marker(text)))
    return out


def _shell_literal(node) -> str | None:
    """Text of a literal shell word (`3`, `"0.1"`, `'adam'`, `${LR:-3e-4}`); `None` when computed."""
    text = node.text.decode("utf-8", "replace")
    if node.type in ("word", "number"):
        return text  # expansions and substitutions are their own node types, never a word
    if node.type == "raw_string":
        return text[1:-1]
    if node.type == "string":
        inner = node.named_children
        if all(c.type == "string_content" for c in inner):
            return text[1:-1]
        return _shell_literal(inner[0]) if len(inner) == 1 and inner[0].type == "expansion" else None
    if node.type == "expansion":
        m = _DEFAULTED.match(text)
        return m.group(1) if m else None
    return None


def _shell_function(node) -> str | None:
    """Name of the shell function whose body holds `node`, if any."""
    while node is not None:
        if node.type == "function_definition":
            name = node.child_by_field_name("name")
            return name.text.decode("utf-8", "replace") if name is not None else None
        node = node.parent
    return None


def _shell_value(rel: str, caps: dict) -> ValueFact | None:
    """A `shell` value for `NAME=literal` (also under `export`, `local`, ...); `None` for `+=` or a computed value."""
    node, lit = caps["value.shell"][0], caps["literal"][0]
    if any(c.type == "+=" for c in node.children):
        return None  # appends to a value set elsewhere
    items = lit.named_children if lit.type == "array" else [lit]
    raws = [_shell_literal(c) for c in items]
    if not raws or None in raws or raws == [""]:
        return None
    value = [scalar(r) for r in raws] if lit.type == "array" else scalar(raws[0])
    name = caps["name"][0].text.decode("utf-8", "replace")
    func = _shell_function(node)
    return make(ValueFact, name=name, key_path=f"{func}.{name}" if func else name, value=value,
                raw=lit.text.decode("utf-8", "replace")[:200], source="shell", path=rel,
                line=lit.start_point[0] + 1, symbol=None, call=None)


def extract_shell(rel: str, source: bytes, n_lines: int) -> FileFacts:
    tree = parser("bash").parse(source)
    commands, comments, assigned = [], [], []
    for _, caps in matches("bash", tree.root_node):
        if "command" in caps:
            commands.append(caps["command"][0])
        elif "text.comment" in caps:
            comments.append(caps["text.comment"][0])
        elif "value.shell" in caps:
            assigned.append(_shell_value(rel, caps))
    lines = [(c.start_point[0] + 1, c.text.decode("utf-8", "replace")) for c in commands]
    eps, values = _run_lines(rel, lines, "shell")
    values.extend(v for v in assigned if v is not None)
    return make(FileFacts, 
        info=_info(rel, "shell", "bash", len(source), n_lines, int(tree.root_node.has_error)),
        symbols=[], values=values, calls=[], texts=_comments(rel, comments), stubs=[], imports={},
        entry_points=eps)


def extract_makefile(rel: str, text: str, size: int, n_lines: int) -> FileFacts:
    lines = [(i, re.sub(r"^\t[@\-+]*", "", ln)) for i, ln in enumerate(text.splitlines(), 1) if ln.startswith("\t")]
    eps, values = _run_lines(rel, lines, "makefile")
    return make(FileFacts, info=_info(rel, "text", None, size, n_lines), symbols=[], values=values,
                                     calls=[], texts=[], stubs=[], imports={}, entry_points=eps)


def extract_c(rel: str, source: bytes, n_lines: int) -> FileFacts:
    """C/C++/CUDA symbols, calls, defines and comments; plain text when the grammar is missing."""
    if language("cpp") is None:
        return extract_text(rel, len(source), n_lines)
    tree = parser("cpp").parse(source)
    col = collect("cpp", tree.root_node, source)
    owners, _ = _symbols(rel, col, n_lines)
    values = []
    for _, caps in col.values:
        raw = caps["literal"][0].text.decode("utf-8", "replace").strip()
        value = scalar(re.sub(r"(?<=[\d.])[fFlLuU]+$", "", raw)) if raw else None
        if not isinstance(value, (int, float)) and not raw.startswith('"'):
            continue
        line = caps["literal"][0].start_point[0] + 1
        name = caps["name"][0].text.decode("utf-8", "replace")
        values.append(make(ValueFact, name=name, key_path=name, value=value, raw=raw[:200], source="assign",
                                                path=rel, line=line, symbol=owners.function_of(line), call=None))
    return make(FileFacts, 
        info=_info(rel, "c", "cpp", len(source), n_lines, col.errors or int(tree.root_node.has_error)),
        symbols=list(owners.symbols.values()), values=values, calls=calls(rel, col.calls, owners),
        texts=_comments(rel, col.comments, owners.function_of), stubs=[], imports={}, entry_points=[])


def extract_text(rel: str, size: int, n_lines: int) -> FileFacts:
    return make(FileFacts, info=_info(rel, "text", None, size, n_lines), symbols=[], values=[], calls=[],
                                     texts=[], stubs=[], imports={}, entry_points=[])


_MAGIC = re.compile(r"^(\s*)([%!])", re.M)


def notebook_text(raw: str) -> str | None:
    """Code cells joined into one virtual Python text, each after a `# %% [cell N]` line.

    Line numbers of a notebook's facts refer to this text, which is also what
    `RepoIndex.file_text` returns for the notebook. IPython magics and shell
    escapes are commented out (line count unchanged) so they do not break the parse.
    """
    try:
        nb = json.loads(raw)
    except ValueError:
        return None
    cells = nb.get("cells") if isinstance(nb, dict) else None
    if not isinstance(cells, list):
        return None
    parts = []
    for i, cell in enumerate(cells):
        if not isinstance(cell, dict) or cell.get("cell_type") != "code":
            continue
        src = cell.get("source", "")
        src = "".join(src) if isinstance(src, list) else str(src)
        parts.append(f"# %% [cell {i}]\n" + _MAGIC.sub(r"\1# \2", src).rstrip("\n") + "\n")
    return "".join(parts)


def extract_notebook(rel: str, text: str, size: int) -> FileFacts:
    facts = extract_python(rel, text.encode("utf-8"), kind="notebook")
    facts.info.size = size
    module = f"{rel}::<module>"
    facts.entry_points.append(make(EntryPoint, symbol=module, path=rel, line=1, kind="notebook",
                                                         detail="notebook code cells", end_line=None, target=rel))
    return facts
