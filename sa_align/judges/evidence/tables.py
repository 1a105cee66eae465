"""What the static judges look up in the repository, built once per index.

- the identifiers used in code lines (excluding definitions, imports and comments),
  for "is this name referenced anywhere";
- the vocabulary of code and config files (identifier keys and word tokens),
  for "does anything in the code mention this";
- word n-grams of code strings and identifiers as entity keys, with a location,
  for "which datasets, metrics and baselines does the code use".

Prose files (README, notes) and comments never count as implementation.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Protocol

from sa_align.aliases import split_identifier
from sa_align.index.memo import per_index
from sa_align.index.model import RepoIndex, Symbol
from sa_align.index.walk import is_test_path
from sa_align.judges.evidence.words import generic_words, root
from sa_align.models import Candidate, Unit
from sa_align.numbers import parse_number
from sa_align.retrieve import query_text
from sa_align.retrieve.names import name_key
from sa_align.retrieve.text import tokenize

CODE_KINDS = ("python", "notebook", "config", "shell", "c")
_IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_WORD = re.compile(r"[A-Za-z]+|\d+")
_DEF_OR_IMPORT = re.compile(r"^\s*(async\s+def|def|class|import|from\s+\S+\s+import)\b")
_COMMENT = re.compile(r"(^|\s)#(?!!).*$")
_STRING_START = re.compile(r"^\s*[rRbBuUfF]{0,2}(\"\"\"|\'\'\'|\"|\')")


class Judged(Protocol):
    """The part of a judge's context (`judges.base.JudgeContext`) the evidence machinery reads.

    Spelled out here so the machinery sits below the judges and never imports their layer.
    """

    unit: Unit
    candidates: list[Candidate]
    index: RepoIndex


def candidate_symbol(index: RepoIndex, cand: Candidate) -> Symbol | None:
    """The function or class a candidate points at, if it is one."""
    span = cand.span
    if span.symbol:
        sym = index.symbol_by_id.get(f"{span.path}::{span.symbol}")
        if sym is not None:
            return sym
    sym = index.symbol_at(span.path, span.start_line)
    return sym if sym is not None and sym.start_line <= span.end_line else None


@dataclass
class CodeVocab:
    """Names and words of the repository's code and config files."""

    references: dict[str, int] = field(default_factory=dict)
    """Identifier -> number of Python lines using it (definitions and imports excluded)."""
    keys: set[str] = field(default_factory=set)
    """Identifiers, lower-cased without separators (`LabelSmoothing` -> `labelsmoothing`)."""
    tokens: set[str] = field(default_factory=set)
    """Search tokens (split, stemmed) of code lines without comments."""
    entity_keys: dict[str, tuple[str, int]] = field(default_factory=dict)
    """Joined 1-3 word n-grams of code lines (`CIFAR10`, `"cifar-10"` -> `cifar10`) -> first location."""


def strip_comment(line: str, kind: str) -> str:
    """The line without a trailing `#` comment (good enough for Python, shell and YAML)."""
    if kind in ("python", "notebook", "shell", "config") and "#" in line:
        if line.lstrip().startswith("#"):
            return ""
        if line.count('"') % 2 == 0 and line.count("'") % 2 == 0:
            return _COMMENT.sub("", line)
    return line


def _string_block(lines: list[str], first: int) -> range:
    """Lines (0-based) of the string statement opening at or just after `first`."""
    for j in range(first, min(first + 4, len(lines))):
        m = _STRING_START.match(lines[j])
        if not m:
            continue
        quote = m.group(1)
        rest = lines[j][m.end():]
        if len(quote) == 1 or quote in rest:
            return range(j, j + 1)
        for k in range(j + 1, len(lines)):
            if quote in lines[k]:
                return range(j, k + 1)
        return range(j, len(lines))
    return range(0)


def docstring_lines(index: RepoIndex) -> frozenset[tuple[str, int]]:
    """(path, line) of every docstring line: documentation, not implementation."""

    def build(ix: RepoIndex) -> frozenset[tuple[str, int]]:
        out: set[tuple[str, int]] = set()
        for t in ix.texts:
            if t.kind == "docstring":
                lines = ix.file_text(t.path).splitlines()
                out.update((t.path, i + 1) for i in _string_block(lines, max(t.line - 1, 0)))
        return frozenset(out)

    return per_index(index, "docstrings", build)


def entity_grams(text: str) -> list[str]:
    """Joined 1-3 word n-grams of `text`, lower-cased (`CIFAR10`, `"cifar-10"` -> `cifar10`)."""
    words: list[str] = []
    for m in _WORD.finditer(text):
        words.extend(split_identifier(m.group(0)) if m.group(0).isalpha() else [m.group(0)])
    return ["".join(words[i : i + n]).lower() for n in (1, 2, 3) for i in range(len(words) - n + 1)]


def _add_entity_keys(vocab: CodeVocab, line: str, path: str, lineno: int) -> None:
    for key in entity_grams(line):
        vocab.entity_keys.setdefault(key, (path, lineno))


MAX_FILE_VOCABS = 20_000
"""Files whose vocabulary part is kept per process (cleared when full)."""
_FILE_VOCABS: dict[tuple[str, str, str], CodeVocab] = {}


def build_vocab(index: RepoIndex) -> CodeVocab:
    """The union of the files' parts, in file order; each part is kept by (path, content, kind),
    so the commits of a history rebuild only the parts of the files they changed."""
    vocab = CodeVocab()
    skip: list[frozenset[tuple[str, int]]] = []  # docstring lines, computed on the first miss only
    for info in index.files:
        if info.kind not in CODE_KINDS or is_test_path(info.path):
            continue
        key = (info.path, info.sha256, info.kind)
        part = _FILE_VOCABS.get(key)
        if part is None:
            skip = skip or [docstring_lines(index)]
            part = _file_vocab(index, info.path, info.kind, skip[0])
            if len(_FILE_VOCABS) >= MAX_FILE_VOCABS:
                _FILE_VOCABS.clear()
            _FILE_VOCABS[key] = part
        vocab.keys |= part.keys
        vocab.tokens |= part.tokens
        for ident, n in part.references.items():
            vocab.references[ident] = vocab.references.get(ident, 0) + n
        for gram, where in part.entity_keys.items():
            vocab.entity_keys.setdefault(gram, where)
    return vocab


def _file_vocab(index: RepoIndex, path: str, kind: str, skip: frozenset[tuple[str, int]]) -> CodeVocab:
    part = CodeVocab()
    for no, raw in enumerate(index.file_text(path).splitlines(), 1):
        if (path, no) in skip:
            continue
        line = strip_comment(raw, kind)[:2000]
        if not line.strip():
            continue
        idents = _IDENT.findall(line)
        part.keys.update(i.replace("_", "").lower() for i in idents)
        if kind in ("python", "notebook") and not _DEF_OR_IMPORT.match(line):
            for ident in set(idents):
                part.references[ident] = part.references.get(ident, 0) + 1
        part.tokens.update(tokenize(line))
        _add_entity_keys(part, line, path, no)
    return part


def symbols_by_name(index: RepoIndex) -> dict[str, list[Symbol]]:
    """Definitions (modules excluded) by the key of their bare name (`name_key`), in index order."""
    def build(ix: RepoIndex) -> dict[str, list[Symbol]]:
        out: dict[str, list[Symbol]] = {}
        for sym in ix.symbols:
            if sym.kind != "module":
                out.setdefault(name_key(sym.name), []).append(sym)
        return out

    return per_index(index, "symbols-by-name", build)


def code_vocab(index: RepoIndex) -> CodeVocab:
    """The index's code vocabulary, built once."""
    return per_index(index, "vocab", build_vocab)


def unit_terms(ctx: Judged) -> set[str]:
    """Search tokens of the unit's claim, hints, params, entities and steps."""
    return set(tokenize(query_text(ctx.unit)))


def relevant_symbols(ctx: Judged, limit: int = 3) -> list[Symbol]:
    """Functions among the top candidates that plausibly implement the unit, best first.

    A candidate counts when its name shares a specific word with the unit (a stub
    has little text besides its name), or when it is the first candidate and its
    text shares at least two words with the unit.
    """
    terms = unit_terms(ctx) - generic_words()
    out: list[Symbol] = []
    for rank, cand in enumerate(ctx.candidates[:limit]):
        sym = candidate_symbol(ctx.index, cand)
        if sym is None or sym.kind not in ("function", "method") or sym in out:
            continue
        lexical = next((w for w in cand.why if w.startswith("bm25:")), "bm25:")
        shared = [t for t in lexical[5:].split(",") if t]
        if set(tokenize(sym.name)) & terms or (rank == 0 and len(shared) >= 2):
            out.append(sym)
    return out


_NEWLINE = re.compile("\n")
_NUMBER_TOKEN = re.compile(r"(?<![\w.])[-+]?(?:\d[\d_]*\.?\d*|\.\d+)(?:[eE][-+]?\d+)?(?![\w.])")


def number_sites(index: RepoIndex) -> dict[float, tuple[tuple[str, int], ...]]:
    """Every number written in a code or config file (comments and tests included), rounded,
    with the (path, line) of each place it is written."""
    from bisect import bisect_right

    def build(ix: RepoIndex) -> dict[float, tuple[tuple[str, int], ...]]:
        out: dict[float, list[tuple[str, int]]] = {}
        for info in ix.files:
            if info.kind not in CODE_KINDS:
                continue
            text = ix.file_text(info.path)
            breaks = [m.start() for m in _NEWLINE.finditer(text)]
            for match in _NUMBER_TOKEN.finditer(text):
                value = parse_number(match.group().replace("_", ""))
                if value is not None:
                    out.setdefault(round(value, 12), []).append((info.path, bisect_right(breaks, match.start()) + 1))
        return {value: tuple(sites) for value, sites in out.items()}

    return per_index(index, "number-sites", build)


def code_numbers(index: RepoIndex) -> frozenset[float]:
    """Every number written in a code or config file (comments and tests included), rounded.

    For "does this value occur anywhere at all": a superset is the safe side, since
    only the absence of a value is ever concluded from it.
    """
    return per_index(index, "code-numbers", lambda ix: frozenset(number_sites(ix)))


def in_code(index: RepoIndex, value: float, number: float) -> bool:
    """Whether a stated value occurs among `code_numbers`, as its value or as written (`0.125` or `12.5` for 12.5%)."""
    numbers = code_numbers(index)
    return round(value, 12) in numbers or round(number, 12) in numbers


def stubbed_symbols(index: RepoIndex) -> frozenset[str]:
    """Ids of the functions the index holds placeholder evidence for."""
    return per_index(index, "stubbed-symbols", lambda ix: frozenset(s.symbol for s in ix.stubs))


def code_roots(index: RepoIndex) -> frozenset[str]:
    """Crude stems of every word of the code vocabulary, for comparing with a claim's distinctive words."""
    return per_index(index, "code-roots", lambda ix: frozenset(root(t) for t in code_vocab(ix).tokens))

