"""Config files (YAML, JSON, TOML, INI/CFG) flattened to key paths with values and lines.

`optimizer: {lr: 3e-4}` gives a `config` ValueFact `optimizer.lr = 0.0003`. Lists of
scalars stay one value; lists of mappings are walked as `layers[0].dim`. YAML lines
come from the composed node graph; JSON and TOML lines are found by scanning for the
key in document order (a best effort); INI lines come from a line parser.
"""

from __future__ import annotations

import bisect
import json
import re
import tomllib
from typing import Any, Iterator

import yaml

from sa_align.index.fast import make
from sa_align.index.model import EntryPoint, FileFacts, FileInfo, ValueFact

MAX_FACTS = 5000
MAX_NODES = 50_000
_NUMBER = re.compile(r"^[-+]?(\d[\d_]*\.?\d*([eE][-+]?\d+)?|\.\d+([eE][-+]?\d+)?)$")
_SCRIPT = re.compile(r"^\s*([\w.\-]+)\s*=\s*([\w.]+\s*:\s*[\w.]+)")


def scalar(text: str) -> Any:
    """A config scalar written as text -> JSON value (`1e-3` is a number, as in OmegaConf)."""
    t = text.strip()
    if _NUMBER.match(t):
        try:
            return int(t.replace("_", "")) if re.fullmatch(r"[-+]?[\d_]+", t) else float(t.replace("_", ""))
        except ValueError:
            return t
    low = t.lower()
    if low in ("true", "yes", "on"):
        return True
    if low in ("false", "no", "off"):
        return False
    if low in ("null", "none", "~"):
        return None
    return t


def _yaml_scalar(node: yaml.ScalarNode) -> Any:
    if node.style:  # quoted: a string, whatever it looks like
        return node.value
    return scalar(node.value) if node.value != "" else None


def _walk_yaml(root: yaml.Node) -> Iterator[tuple[str, Any, int]]:
    stack: list[tuple[yaml.Node, str]] = [(root, "")]
    seen = 0
    while stack and seen < MAX_NODES:
        node, path = stack.pop()
        seen += 1
        line = node.start_mark.line + 1
        if isinstance(node, yaml.MappingNode):
            items = []
            for k, v in node.value:
                key = str(k.value) if isinstance(k, yaml.ScalarNode) else "?"
                items.append((v, f"{path}.{key}" if path else key))
            stack.extend(reversed(items))
        elif isinstance(node, yaml.SequenceNode):
            if all(isinstance(x, yaml.ScalarNode) for x in node.value):
                yield path, [_yaml_scalar(x) for x in node.value[:256]], line
            else:
                stack.extend(reversed([(x, f"{path}[{i}]") for i, x in enumerate(node.value)]))
        elif isinstance(node, yaml.ScalarNode) and path:
            yield path, _yaml_scalar(node), line


def _walk_data(data: Any) -> Iterator[tuple[str, Any]]:
    """Key paths of parsed JSON/TOML data, in document order."""
    stack: list[tuple[Any, str]] = [(data, "")]
    seen = 0
    while stack and seen < MAX_NODES:
        node, path = stack.pop()
        seen += 1
        if isinstance(node, dict):
            stack.extend(reversed([(v, f"{path}.{k}" if path else str(k)) for k, v in node.items()]))
        elif isinstance(node, list):
            if all(not isinstance(x, (dict, list)) for x in node):
                yield path, node[:256]
            else:
                stack.extend(reversed([(x, f"{path}[{i}]") for i, x in enumerate(node)]))
        elif path:
            yield path, node


class _LineFinder:
    """Line of each key, scanning forward through the text in document order."""

    def __init__(self, text: str, quote: str):
        self.text, self.quote, self.pos = text, quote, 0
        self.starts = [0] + [m.end() for m in re.finditer("\n", text)]

    def line(self, key_path: str) -> int:
        leaf = re.sub(r"\[\d+\]$", "", key_path).rsplit(".", 1)[-1]
        needle = f"{self.quote}{leaf}{self.quote}" if self.quote else leaf
        idx = self.text.find(needle, self.pos)
        if idx < 0:
            idx = self.text.find(needle)
        if idx < 0:
            return bisect.bisect_right(self.starts, self.pos)
        self.pos = idx + len(needle)
        return bisect.bisect_right(self.starts, idx)


def _leaf(path: str) -> str:
    return re.sub(r"\[\d+\]", "", path).rsplit(".", 1)[-1]


def _values(rel: str, flat: Iterator[tuple[str, Any, int]]) -> list[ValueFact]:
    out = []
    for path, value, line in flat:
        if len(out) >= MAX_FACTS:
            break
        if isinstance(value, (int, float)) and not isinstance(value, bool) and value != value:
            continue
        raw = json.dumps(value, default=str)[:200] if not isinstance(value, str) else value[:200]
        if isinstance(value, str) and len(value) > 2000:
            value = value[:2000]
        out.append(make(ValueFact, name=_leaf(path), key_path=path, value=_jsonable(value), raw=raw,
                                             source="config", path=rel, line=line, symbol=None, call=None))
    return out


def _jsonable(value: Any) -> Any:
    if isinstance(value, (list, tuple)):
        return [_jsonable(v) for v in value]
    if isinstance(value, (bool, int, float, str)) or value is None:
        return value
    return str(value)  # TOML dates and times


MAX_YAML_REPAIRS = 16
"""Lines a broken YAML file may lose before it counts as unreadable (see `_yaml`)."""


def _parse(rel: str, text: str) -> tuple[list[tuple[str, Any, int]], int]:
    """The file's (key path, value, line) triples, and how many lines were dropped to read it."""
    ext = rel.rsplit(".", 1)[-1].lower()
    if ext in ("yaml", "yml"):
        return _yaml(text)
    if ext in ("json", "jsonc"):
        finder = _LineFinder(text, '"')
        return [(p, v, finder.line(p)) for p, v in _walk_data(json.loads(text))], 0
    if ext == "toml":
        finder = _LineFinder(text, "")
        return [(p, v, finder.line(p)) for p, v in _walk_data(tomllib.loads(text))], 0
    return _ini(text), 0


def _yaml(text: str) -> tuple[list[tuple[str, Any, int]], int]:
    """YAML values; a line the parser rejects is blanked and the file read again.

    Agent-written configs break in one place and are sound elsewhere (a `key: value`
    line inside a list, an unquoted `lambda(x): ...`): one such line would otherwise
    cost every value of the file. Blanking keeps the other lines' numbers.
    """
    lines, dropped = text.split("\n"), 0
    while True:
        try:
            return [v for doc in yaml.compose_all("\n".join(lines), Loader=yaml.SafeLoader)
                    if doc is not None for v in _walk_yaml(doc)], dropped
        except yaml.MarkedYAMLError as exc:
            bad = _culprit(exc, lines)
            if bad is None or dropped == MAX_YAML_REPAIRS:
                raise
            lines[bad], dropped = "", dropped + 1


def _culprit(exc: yaml.MarkedYAMLError, lines: list[str]) -> int | None:
    """The line to blank: where the parser stopped, else where the construct it was reading began."""
    for mark in (exc.problem_mark, exc.context_mark):
        if mark is not None and mark.line < len(lines) and lines[mark.line].strip():
            return mark.line
    return None


def _ini(text: str) -> list[tuple[str, Any, int]]:
    """INI/CFG lines: `[section]`, `key = value` or `key: value`, indented continuations."""
    out: list[tuple[str, Any, int]] = []
    section = ""
    for i, line in enumerate(text.splitlines(), 1):
        stripped = line.strip()
        if not stripped or stripped[0] in "#;":
            continue
        if line[0] in " \t" and out:
            path, value, ln = out[-1]
            out[-1] = (path, f"{value}\n{stripped}" if value else stripped, ln)
            continue
        if stripped.startswith("[") and stripped.endswith("]"):
            section = stripped[1:-1].strip()
            continue
        m = re.match(r"^([^=:]+?)\s*[=:]\s*(.*)$", stripped)
        if not m:
            raise ValueError(f"line {i} is not `key = value`")
        out.append((f"{section}.{m.group(1)}" if section else m.group(1), m.group(2), i))
    return [(p, scalar(v) if "\n" not in v else v, ln) for p, v, ln in out]


def console_scripts(rel: str, values: list[ValueFact]) -> list[EntryPoint]:
    """Console scripts declared in pyproject.toml or setup.cfg."""
    out = []
    name = rel.rsplit("/", 1)[-1]
    for v in values:
        kp = v.key_path
        if name == "pyproject.toml" and re.match(r"^(project\.(gui-)?scripts|tool\.poetry\.scripts)\.", kp):
            if isinstance(v.value, str) and ":" in v.value:
                out.append(make(EntryPoint, symbol=None, path=rel, line=v.line, kind="console_script",
                                                      detail=v.name, end_line=None, target=v.value.strip()))
        elif name == "setup.cfg" and kp.startswith("options.entry_points.") and isinstance(v.value, str):
            out.extend(scripts_in_text(rel, v.value, v.line))
    return out


def scripts_in_text(rel: str, text: str, line: int) -> list[EntryPoint]:
    """`name = pkg.mod:func` lines (setup.cfg values, setup.py strings)."""
    out = []
    for part in text.splitlines():
        m = _SCRIPT.match(part)
        if m:
            out.append(make(EntryPoint, symbol=None, path=rel, line=line, kind="console_script",
                                                  detail=m.group(1), end_line=None,
                                                  target="".join(m.group(2).split())))
    return out


def extract_config(rel: str, text: str, size: int, n_lines: int) -> FileFacts:
    """Flattened values of one config file; a file that does not parse is kept with `parse_errors=1`, and
    a YAML file read by dropping lines with `parse_errors` set to their number."""
    try:
        flat, errors = _parse(rel, text)
    except (yaml.YAMLError, ValueError, TypeError, RecursionError, tomllib.TOMLDecodeError):
        flat, errors = [], 1
    values = _values(rel, iter(flat))
    return make(FileFacts, 
        info=make(FileInfo, path=rel, kind="config", language=None, sha256="", size=size,
                                      lines=n_lines, parse_errors=errors),
        symbols=[], values=values, calls=[], texts=[], stubs=[], imports={},
        entry_points=console_scripts(rel, values),
    )
