"""The facts the indexer extracts from a repository, and the `RepoIndex` that holds them.

Per-file facts (`FileFacts`) are what the cache stores, keyed by content hash;
`RepoIndex` adds what needs the whole repository: resolved calls, the call
graph, entry points and reachability.
"""

from __future__ import annotations

from functools import cached_property
from typing import TYPE_CHECKING, Any, Literal, Union

from pydantic import BaseModel, ConfigDict, Field, PrivateAttr

from sa_align.models import CodeSpan

if TYPE_CHECKING:
    import networkx as nx

JsonValue = Union[bool, int, float, str, None, list[Any], dict[str, Any]]

FileKind = Literal["python", "notebook", "config", "shell", "c", "text"]

ValueSource = Literal[
    "assign",  # `lr = 3e-4`, `self.lr = 3e-4`, `LR: float = 3e-4`
    "kwarg",  # `Adam(params, lr=3e-4)`
    "default",  # `def f(lr=3e-4)`
    "cli",  # `add_argument('--lr', default=3e-4)`, `@click.option('--lr', default=3e-4)`
    "dict",  # `{"lr": 3e-4}`
    "config",  # YAML/JSON/TOML/INI key
    "positional",  # `StepLR(opt, 30, 0.1)` positional literal arguments
    "shell",  # `SEEDS=3`, `export LR="0.1"`, `local K=9` in a shell script
]


class _Fact(BaseModel):
    # The indexer builds facts without validation (`fast.make`, `model_construct`): validators and
    # serializers are built on first use, not at import, which every `sa-align index` would pay.
    model_config = ConfigDict(extra="forbid", use_attribute_docstrings=True, defer_build=True)


class Symbol(_Fact):
    """A module, class, function or method."""

    id: str
    """Unique id: `path::QualName` (`pkg/model.py::Net.forward`); a module is `path::<module>`."""
    name: str
    """Bare name (`forward`)."""
    qualname: str
    """Dotted name inside the file (`Net.forward`)."""
    kind: Literal["module", "class", "function", "method"]
    """What the symbol is."""
    path: str
    """File path relative to the repository root."""
    start_line: int
    """First line (1-based), decorators included."""
    end_line: int
    """Last line (inclusive)."""
    docstring: str | None = None
    """Docstring, if any."""
    params: list[str] = Field(default_factory=list)
    """Parameter names of a function or method."""
    parent: str | None = None
    """Id of the enclosing class or function, if any."""
    bases: list[str] = Field(default_factory=list)
    """Base classes of a class as written (`nn.Module`, `BaseTrainer`)."""

    @property
    def span(self) -> CodeSpan:
        return CodeSpan(path=self.path, start_line=self.start_line, end_line=self.end_line, symbol=self.qualname)


class ValueFact(_Fact):
    """A literal value bound to a name somewhere in the code or configs."""

    name: str
    """Name as written: variable, keyword, parameter, CLI flag without dashes, dict key or config leaf key."""
    key_path: str
    """Full path to the value: `optimizer.lr` in a config, `Adam.lr` for a keyword, `args.lr` for a CLI flag,
    `SEEDS` for a shell variable (`fn.SEEDS` inside a shell function)."""
    value: JsonValue
    """The literal parsed to a JSON value (numbers as numbers, tuples as lists); `None` for `None`."""
    raw: str
    """The literal's source text (`3e-4`, `(0.9, 0.999)`)."""
    source: ValueSource
    """The syntactic form it came from."""
    path: str
    """File path relative to the repository root."""
    line: int
    """Line of the literal (1-based)."""
    symbol: str | None = None
    """Id of the enclosing function or class (`None` at module level or in config files)."""
    call: str | None = None
    """Callee name for `kwarg` and `positional` values (`torch.optim.Adam`)."""


class CallFact(_Fact):
    """A call site."""

    caller: str
    """Id of the enclosing symbol (module symbol id at top level)."""
    callee: str
    """Callee as written (`self.encoder`, `F.relu`, `train`)."""
    resolved: str | None = None
    """Symbol id the callee resolves to inside the repository, when it can be resolved."""
    path: str
    """File path."""
    line: int
    """Line of the call."""


class TextFact(_Fact):
    """A comment or string literal."""

    kind: Literal["comment", "string", "docstring"]
    """What it is."""
    text: str
    """Its text (quotes and comment markers removed)."""
    path: str
    """File path."""
    line: int
    """Line it starts on."""
    symbol: str | None = None
    """Id of the enclosing function or class."""
    marker: str | None = None
    """`TODO`, `FIXME`, `XXX`, `HACK`, `placeholder`, ... when the text carries such a marker."""


StubForm = Literal[
    "pass",
    "ellipsis",
    "docstring_only",
    "not_implemented",
    "constant_return",
    "none_return",
    "todo_comment",
    "random_standin",
    "constant_standin",
]


class StubFact(_Fact):
    """Evidence that a function defers its work."""

    symbol: str
    """Id of the function."""
    forms: list[StubForm]
    """Which placeholder forms were found."""
    line: int
    """Line of the most telling piece of evidence."""
    detail: str = ""
    """Short text: the TODO comment, the constant returned, the random call."""


class UnboundName(_Fact):
    """A name code reads that nothing binds (not a parameter, local, enclosing-function,
    module or builtin name): running the read would raise NameError, the telltale of
    a deleted definition or statement."""

    name: str
    """The name as written (`ratio`, `helper`)."""
    path: str
    """File path relative to the repository root."""
    line: int
    """First line (1-based) where the scope reads it."""
    symbol: str
    """Id of the function, method or class whose scope reads it (the module symbol id at top level;
    a lambda or comprehension reads for the definition around it)."""


class UnusedImport(_Fact):
    """A name a file imports that no code of the file reads (outside `__init__.py`, `__all__` and `__future__`)."""

    name: str
    """Local name the import binds (`np` for `import numpy as np`, `Normal`)."""
    imported: str
    """What it imports, dotted and absolute (`numpy`, `torch.distributions.Normal`)."""
    path: str
    """File path relative to the repository root."""
    line: int
    """Line of the imported name (1-based; in a parenthesized `from` import, the name's own line)."""


class EntryPoint(_Fact):
    """A way the repository is run."""

    symbol: str | None
    """Symbol id started by the entry point (module symbol for `__main__` blocks and scripts)."""
    path: str
    """File that declares it (the Python file, `pyproject.toml`, a shell script, a Makefile)."""
    line: int = 1
    """Line of the declaration."""
    kind: Literal["main_block", "console_script", "shell", "makefile", "filename", "notebook"]
    """How it was found."""
    detail: str = ""
    """E.g. the console-script name or the shell command line."""
    end_line: int | None = None
    """Last line of the declaration when it spans a block (the `if __name__ == "__main__":` body)."""
    target: str | None = None
    """What it runs, as written: a script path (`train.py`), a module (`pkg.train`) or `module:function`."""


class FileInfo(_Fact):
    """A file that was indexed."""

    path: str
    """Path relative to the repository root."""
    kind: FileKind
    """How it was indexed."""
    language: str | None = None
    """tree-sitter language used, if any."""
    sha256: str
    """Content hash (cache key)."""
    size: int
    """Size in bytes."""
    lines: int
    """Number of lines."""
    parse_errors: int = 0
    """Error nodes in the syntax tree (the file is still indexed)."""


class SkippedFile(_Fact):
    """A file the walk did not index, and why."""

    path: str
    """Path relative to the repository root."""
    reason: str
    """`gitignored`, `binary`, `too-large`, `symlink-outside-root`, `symlink-loop`, `vendored`, `unreadable`, `control-character-in-name`, ..."""


class FileFacts(_Fact):
    """Everything extracted from one file; the unit of caching."""

    info: FileInfo
    """The file."""
    symbols: list[Symbol] = Field(default_factory=list)
    """Definitions in the file (including its module symbol)."""
    values: list[ValueFact] = Field(default_factory=list)
    """Literal values bound to names."""
    calls: list[CallFact] = Field(default_factory=list)
    """Call sites, unresolved across files."""
    texts: list[TextFact] = Field(default_factory=list)
    """Comments, docstrings and string literals."""
    stubs: list[StubFact] = Field(default_factory=list)
    """Placeholder evidence per function."""
    imports: dict[str, str] = Field(default_factory=dict)
    """Local name -> imported dotted name (`np` -> `numpy`, `Net` -> `models.net.Net`)."""
    entry_points: list[EntryPoint] = Field(default_factory=list)
    """Entry points declared in this file."""
    unbound: list[UnboundName] = Field(default_factory=list)
    """Names read that nothing binds, one per (symbol, name); none for a file that cannot be checked
    (syntax errors, star imports, `exec`, writes through `globals()`, Python 2: `units/scopes.yaml`)."""
    unused_imports: list[UnusedImport] = Field(default_factory=list)
    """Imported names no code of the file reads, one per name; none where a string may name one
    (`eval(...)`, `globals()[name]`)."""


class RepoIndex(_Fact):
    """The searchable picture of a repository that retrieval and the judges query."""

    root: str
    """Absolute repository root."""
    files: list[FileInfo] = Field(default_factory=list)
    """Indexed files."""
    skipped: list[SkippedFile] = Field(default_factory=list)
    """Files not indexed, with reasons."""
    symbols: list[Symbol] = Field(default_factory=list)
    """All definitions."""
    values: list[ValueFact] = Field(default_factory=list)
    """All literal bindings, code and config."""
    calls: list[CallFact] = Field(default_factory=list)
    """All call sites, resolved where possible."""
    texts: list[TextFact] = Field(default_factory=list)
    """All comments, docstrings and string literals."""
    stubs: list[StubFact] = Field(default_factory=list)
    """All placeholder evidence."""
    entry_points: list[EntryPoint] = Field(default_factory=list)
    """All entry points."""
    unbound: list[UnboundName] = Field(default_factory=list)
    """All names read that nothing binds (see `unbound_names()` and `unbound_in()`)."""
    unused_imports: list[UnusedImport] = Field(default_factory=list)
    """All imported names their file never reads."""
    reachable: list[str] = Field(default_factory=list)
    """Symbol ids reachable from some entry point over the call graph."""
    content_hash: str = ""
    """SHA-256 over sorted (path, sha256) pairs."""
    git_commit: str | None = None
    """`HEAD` commit, read from `.git` without running git."""
    stats: dict[str, float] = Field(default_factory=dict)
    """Counters: files parsed, cache hits, seconds."""

    _texts: dict[str, str] = PrivateAttr(default_factory=dict)
    _lines: dict[str, list[str]] = PrivateAttr(default_factory=dict)

    def set_file_text(self, path: str, text: str) -> None:
        """Keep a file's decoded text so callers never reread the (untrusted) file system."""
        self._texts[path] = text
        self._lines.pop(path, None)

    def file_text(self, path: str) -> str:
        """Decoded text of an indexed file ('' if unknown)."""
        return self._texts.get(path, "")

    def lines(self, path: str, start: int, end: int) -> list[str]:
        """Lines `start..end` (1-based, inclusive) of an indexed file."""
        # Split once per file: judges ask for a few lines of the same file many times.
        split = self._lines.get(path)
        if split is None:
            split = self._lines[path] = self.file_text(path).splitlines()
        return split[max(start - 1, 0) : end]

    @cached_property
    def symbol_by_id(self) -> dict[str, Symbol]:
        return {s.id: s for s in self.symbols}

    def has_code(self) -> bool:
        """Whether any indexed file holds a line of code or configuration (plain text, a README, does not count)."""
        return any(f.lines for f in self.files if f.kind != "text")

    def file_kind(self, path: str) -> FileKind | None:
        """How an indexed file was indexed (`python`, `config`, ...); `None` for a path not indexed."""
        return self._kind_by_path.get(path)

    @cached_property
    def _kind_by_path(self) -> dict[str, FileKind]:
        return {f.path: f.kind for f in self.files}

    @cached_property
    def graph(self) -> "nx.DiGraph":
        """Call graph: symbol ids as nodes, resolved calls as edges (caller -> callee)."""
        import networkx as nx

        g = nx.DiGraph()
        g.add_nodes_from(self.symbol_by_id)
        for c in self.calls:
            if c.resolved and c.resolved != c.caller:
                g.add_edge(c.caller, c.resolved)
        return g

    def symbol_at(self, path: str, line: int) -> Symbol | None:
        """Innermost function/class/method containing `line` of `path`."""
        best: Symbol | None = None
        for s in self.symbols:
            if s.path == path and s.kind != "module" and s.start_line <= line <= s.end_line:
                if best is None or s.start_line >= best.start_line:
                    best = s
        return best

    def is_reachable(self, symbol_id: str) -> bool:
        return symbol_id in self.reachable_set

    @cached_property
    def reachable_set(self) -> frozenset[str]:
        return frozenset(self.reachable)

    def unbound_names(self) -> dict[str, list[UnboundName]]:
        """Name -> the places that read it unbound (`"helper" in index.unbound_names()`)."""
        return self._unbound_by[0]

    def unbound_in(self, symbol_id: str) -> list[UnboundName]:
        """The names the scope of `symbol_id` (a function, method, class or module symbol) reads unbound."""
        return self._unbound_by[1].get(symbol_id, [])

    @cached_property
    def _unbound_by(self) -> tuple[dict[str, list[UnboundName]], dict[str, list[UnboundName]]]:
        by_name: dict[str, list[UnboundName]] = {}
        by_symbol: dict[str, list[UnboundName]] = {}
        for u in self.unbound:
            by_name.setdefault(u.name, []).append(u)
            by_symbol.setdefault(u.symbol, []).append(u)
        return by_name, by_symbol
