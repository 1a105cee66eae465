"""Dangling names: code still reads what the unit's implementation produced, but nothing defines it.

When a claim's implementation is removed, its results often stay in use:
`ratio` is still read by the loss after the function computing it is gone,
`splits` is still returned after `make_splits` disappeared. The indexer
records such reads (`RepoIndex.unbound`: names a scope reads that its own
scope chain does not bind, so that read would fail with `NameError`).

A read unbound in one scope is not a name defined nowhere: a stale script
that reads `advantages` says nothing about `compute_gae`, which binds its own
`advantages` and is intact. So a read decides `missing` only when all hold:

- the unbound name is one of the unit's hints (`ratio`, `policy_loss`), or a
  specific word of a compound hint (`env` of `make_env`, `splits` of
  `make_splits`), and no hint names a definition that still exists
  (`named.named_definitions`);
- no scope of the repository binds the name (`_binds`). For a hint itself,
  any binding counts: an assignment, a definition, an import, a `with`/`as`
  target, a parameter or a loop variable all show the code the unit names
  still handles it. For a word of a compound hint, only a binding that makes
  the value counts (assignment, definition, import, `as` target): `env` as a
  parameter or loop variable only receives what the named producer
  (`make_env`) returned, and that producer is what is gone;
- some read is live: in a function an entry point reaches or in one of the
  unit's candidate functions, not in a dead function or a test (a stale
  script nobody runs proves nothing about what runs);
- no dead function still carries the name (then the implementation exists but
  was cut off, which the stub judge calls `stubbed`), and no function or class
  spells it in its own name (`build_splits` may be the producer, renamed);
- for a hint itself, no intact candidate function (not a placeholder, not
  dead, reading none of the dangling names) carries two or more of the unit's
  hints: that function is the implementation, whatever else reads stale
  names. A word of a compound hint is not held to this: the functions that
  unpack what the gone producer returned (`idx_train, idx_val, idx_test`)
  carry the unit's other hints without being the producer; the renamed
  producer check above is what speaks for it.

The verdict is certain only when the unbound name is a hint itself and every
other hint that names repository code (a plain or `Class.method` identifier,
not a library path such as `torch.exp`) occurs nowhere: nothing of what the
unit names is left but reads of a result nothing can produce. Otherwise it
votes `missing` at 0.85, which still outweighs a protocol judge's `aligned`
(at most 0.8) drawn from a config that merely mentions the dataset, and
yields to any certain verdict (a value compared, a placeholder body) and to
the LLM judges' combined weight.
"""

from __future__ import annotations

import re

from sa_align.aliases import split_identifier
from sa_align.index.memo import per_index
from sa_align.index.model import RepoIndex, Symbol, UnboundName
from sa_align.index.walk import is_test_path
from sa_align.judges.base import JudgeContext, decide, line_span
from sa_align.judges.evidence.liveness.dead import dead_code
from sa_align.judges.evidence.ownership import (
    Hint,
    candidate_functions,
    hint_in_repo,
    support,
    unit_hints,
)
from sa_align.judges.evidence.placeholders import placeholder
from sa_align.judges.evidence.tables import strip_comment
from sa_align.judges.evidence.words import generic_words
from sa_align.judges.stub.named import named_definitions
from sa_align.models import Label, Verdict
from sa_align.retrieve.names import name_key

NAME = "missing"
_IDENT = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
_WORD = re.compile(r"[A-Za-z_]\w*")
MIN_WORD = 3
MIN_OWNER_HINTS = 2
"""Hints an intact candidate must carry to be the implementation (one is any caller)."""
CONFIDENCE = 0.85

# Binding forms, over-approximated: text a binding could hide in counts as one (a missed
# finding is cheap, a false one is not). Assignment targets are every word left of a `=`
# outside brackets (attribute targets included, so `self.env = ...` makes `env`); a keyword
# argument (`clamp(ratio, min=0)`) is inside brackets, and reads nothing into a binding.
_ASSIGN_TOKENS = re.compile(r"[()\[\]{}]|(?<![=!<>:])=(?!=)")
_WALRUS = re.compile(r"([A-Za-z_]\w*)\s*:=")
_ANNOTATED = re.compile(r"^\s*([A-Za-z_]\w*)\s*:(?!=)")
_AS = re.compile(r"\bas\s+\(?([\w\s,]+)")
_DEF = re.compile(r"\b(?:def|class)\s+([A-Za-z_]\w*)")
_IMPORT = re.compile(r"^\s*(?:import\s|from\s+\S+\s+import\b)(.*)")
_IMPORT_BLOCK = re.compile(r"^\s*from\s+\S+\s+import\s*\(([^)]*)\)", re.M)
_DYNAMIC = re.compile(r"(?:setattr\([^,]+,\s*|globals\(\)\[\s*|locals\(\)\[\s*)[\"'](\w+)[\"']")
_FOR = re.compile(r"\bfor\s+(.+?)\s+in\b")
_LAMBDA = re.compile(r"\blambda\s+([^:]*):")
_CASE = re.compile(r"^\s*case\s+(.*):")


def _wanted(ctx: JudgeContext) -> dict[str, tuple[str, bool]]:
    """Unbound spelling key -> (the hint it comes from, whether it is the hint itself)."""
    out: dict[str, tuple[str, bool]] = {}
    for hint in ctx.unit.hints:
        h = hint.strip()
        last = h.rsplit(".", 1)[-1]
        if not _IDENT.match(last):
            continue
        out.setdefault(name_key(last), (h, True))
        if "." not in h and len(split_identifier(last)) >= 2:
            for word in set(split_identifier(last)) - generic_words():
                if len(word) >= MIN_WORD and not word.isdigit():
                    out.setdefault(word, (h, False))
    return out


def _targets(line: str) -> str:
    """The text left of the last `=` outside brackets (all targets of `a = b = f(x=1)`). A line
    that closes a bracket it did not open, or ends in a comma outside brackets, continues a call
    or a display (`    ratio, reduction="mean")`): its `=` are keyword arguments, not assignments."""
    depth, end = 0, 0
    for m in _ASSIGN_TOKENS.finditer(line):
        tok = m.group()
        if tok in "([{":
            depth += 1
        elif tok in ")]}":
            if depth == 0:
                end = 0
            depth = max(depth - 1, 0)
        elif depth == 0:
            end = m.start()
    if depth == 0 and line.rstrip().endswith(","):
        return ""
    return line[:end]


def _line_bindings(line: str, makes: set[str], takes: set[str]) -> None:
    """Add the names one code line may bind: `makes` for forms that produce a value, `takes` for
    forms that receive one (loop variables, lambda parameters, `case` captures)."""
    if "=" in line:
        makes.update(_WORD.findall(_targets(line)))
    for rx in (_WALRUS, _ANNOTATED, _DEF, _DYNAMIC):
        makes.update(rx.findall(line))
    for group in _AS.findall(line):
        makes.update(_WORD.findall(group))
    if (m := _IMPORT.match(line)) is not None:
        makes.update(_WORD.findall(m.group(1)))
    for rx in (_FOR, _LAMBDA, _CASE):
        for group in rx.findall(line):
            takes.update(_WORD.findall(group))


def _binds(index: RepoIndex, name: str) -> tuple[bool, bool]:
    """Whether some scope of the repository may bind `name`: (by a form that makes a value, by a
    form that receives one, parameters included). Only lines spelling the name are read."""
    key = name_key(name)
    makes = any(name_key(s.name) == key for s in index.symbols if s.kind != "module")
    takes = any(name_key(p) == key for s in index.symbols for p in s.params)
    word = re.compile(rf"^.*\b{re.escape(name)}\b.*$", re.M)
    for info in index.files:
        if makes and takes:
            break
        text = index.file_text(info.path) if info.kind in ("python", "notebook") else ""
        if name not in text:
            continue
        # Names of a parenthesized `from m import (a,\n b)`, on lines of their own.
        makes = makes or any(name in _WORD.findall(block) for block in _IMPORT_BLOCK.findall(text))
        made: set[str] = set()
        taken: set[str] = set()
        for m in word.finditer(text):
            _line_bindings(strip_comment(m.group()[:2000], "python"), made, taken)
        makes, takes = makes or name in made, takes or name in taken
    return makes, takes


def _bound(index: RepoIndex, name: str, exact: bool) -> bool:
    """A binding anywhere: any form for a hint itself, a value-making form for a word of one."""
    makes, takes = per_index(index, f"binds:{name}", lambda ix: _binds(ix, name))
    return makes or (exact and takes)


def _cut_off(index: RepoIndex, name: str) -> bool:
    """A dead function still spells the name: the code exists, its callers are gone."""
    dead = dead_code(index).dead
    word = re.compile(rf"\b{re.escape(name)}\b")
    for sid in dead:
        sym = index.symbol_by_id.get(sid)
        if sym is not None and (name in split_identifier(sym.name) or any(
                word.search(ln) for ln in index.lines(sym.path, sym.start_line, sym.end_line))):
            return True
    return False


def _live(index: RepoIndex, read: UnboundName, candidates: set[str]) -> bool:
    """The read is in code that runs (reached from an entry point) or that retrieval points at."""
    if is_test_path(read.path) or read.symbol in dead_code(index).dead:
        return False
    return read.symbol in candidates or index.is_reachable(read.symbol)


def _hits(ctx: JudgeContext, candidates: list[Symbol]) -> list[tuple[UnboundName, str, bool]]:
    """(a live read, its hint, whether it is the hint itself) per dangling name."""
    index = ctx.index
    wanted = _wanted(ctx)
    ids = {s.id for s in candidates}
    out: list[tuple[UnboundName, str, bool]] = []
    for name, reads in sorted(index.unbound_names().items()):
        found = wanted.get(name_key(name)) or wanted.get(name.lower())
        if found is None or _bound(index, name, found[1]) or _cut_off(index, name):
            continue
        live = [u for u in reads if _live(index, u, ids)]
        if live:
            out.append((live[0], *found))
    return out


def _owner(ctx: JudgeContext, candidates: list[Symbol], hints: list[Hint], names: set[str]) -> Symbol | None:
    """An intact candidate function carrying at least `MIN_OWNER_HINTS` hints: the implementation."""
    index = ctx.index
    dead = dead_code(index).dead
    for sym in candidates:
        if sym.id in dead or placeholder(index, sym) is not None:
            continue
        if any(u.name in names for u in index.unbound_in(sym.id)):
            continue  # it reads the dangling result itself: broken, not intact
        if support(index, sym, hints) >= MIN_OWNER_HINTS:
            return sym
    return None


def _names_code(hint: Hint) -> bool:
    """A hint spelled like repository code: a plain identifier or `Class.method`, not a library path."""
    return hint.key is not None and ("." not in hint.text.strip() or hint.qualified is not None)


def _all_gone(index: RepoIndex, hints: list[Hint], dangling_keys: set[str]) -> bool:
    """Every code-naming hint occurs nowhere, but as the dangling reads themselves."""
    return all(h.key in dangling_keys or not hint_in_repo(index, h) for h in hints if _names_code(h))


def _made_elsewhere(index: RepoIndex, name: str) -> bool:
    """A function or class spells the name in its own (`build_splits` for `splits`,
    `compute_policy_loss` for `policy_loss`): the producer may exist under another name."""
    words = tuple(split_identifier(name))

    def build(ix: RepoIndex) -> list[tuple[str, ...]]:
        return [tuple(split_identifier(s.name)) for s in ix.symbols if s.kind in ("function", "method", "class")]

    return bool(words) and any(_run_of(words, own) for own in per_index(index, "definition-words", build))


def _run_of(part: tuple[str, ...], whole: tuple[str, ...]) -> bool:
    n = len(part)
    return any(whole[i : i + n] == part for i in range(len(whole) - n + 1))


def dangling(ctx: JudgeContext) -> Verdict | None:
    """`missing` when the unit's results are read but nothing can produce them (see above)."""
    index = ctx.index
    if not index.unbound_names():
        return None
    hints = unit_hints(ctx)
    if any(named_definitions(index, h) for h in hints):
        return None
    candidates = candidate_functions(ctx)
    hits = [hit for hit in _hits(ctx, candidates) if not _made_elsewhere(index, hit[0].name)]
    if any(exact for _, _, exact in hits) and _owner(ctx, candidates, hints, {u.name for u, _, _ in hits}):
        # The unit's own names live on in an intact function: the dangling read is a stale one.
        hits = [hit for hit in hits if not hit[2]]
    if not hits:
        return None
    keys = {name_key(u.name) for u, _, exact in hits if exact}
    certain = bool(keys) and _all_gone(index, hints, keys)
    names = ", ".join(f"`{u.name}` ({u.path}:{u.line}, from `{h}`)" for u, h, _ in hits[:3])
    reason = f"code reads {names} but no code produces it, and no definition the unit names exists"
    return decide(NAME, Label.MISSING, reason, rule="MIS006", confidence=CONFIDENCE, certain=certain,
                  evidence=[line_span(u.path, u.line) for u, _, _ in hits[:5]])


__all__ = ["dangling"]
