"""Which sites of a parameter take effect, and which ones a unit is about.

The numeric judge (`judges/numeric/judge.py`, whose docstring states the policy)
compares a stated value with every site that sets the parameter. This module
answers the questions about one site that need more than its value:

- `tier`: its precedence (hard-coded overrides of a configuration read over
  read configuration over command-line values over literals in code over
  function defaults over dead configuration);
- `ignored_default`: a parameter default the function body never reads, which
  therefore never takes effect;
- `about_unit`: among sites that disagree, the ones whose context (key path,
  callee, enclosing function, the branch of a preset chain, file) names what the
  unit names (`tasks.mnli.lr` for "the learning rate for MNLI", `if size == "base":`
  for the base model's setting);
- `same_setting` / `other_callee`: whether two sites set one setting or two.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

from sa_align.aliases import param_aliases, split_identifier
from sa_align.index.memo import per_index
from sa_align.index.model import RepoIndex, ValueFact
from sa_align.index.overrides import overrides
from sa_align.index.walk import is_test_path
from sa_align.judges.evidence.liveness.dead import dead_code
from sa_align.judges.evidence.tables import code_vocab, stubbed_symbols
from sa_align.judges.evidence.words import generic_words, root
from sa_align.models import Param, Unit
from sa_align.resources import load_yaml
from sa_align.retrieve.params import param_index
from sa_align.retrieve.text import tokenize

Outcome = Literal["match", "conflict"]


@dataclass
class SiteCheck:
    """One site compared with the stated value."""

    fact: ValueFact
    tier: int
    outcome: Outcome
    overrides: int | None = None
    """Line of the configuration read this literal overrides (tier 5), else `None`."""
    branch: str = ""
    """The string literals the nearest enclosing `if`/`elif` compares with (`if size == "Hi-MAR-B":`):
    the preset a branch of a preset chain sets."""


# --------------------------------------------------------------------------- precedence


def _in_function(fact: ValueFact, index: RepoIndex) -> bool:
    sym = index.symbol_by_id.get(fact.symbol or "")
    return sym is not None and sym.kind in ("function", "method")


def _passed_to_constructor(fact: ValueFact, index: RepoIndex) -> bool:
    """A class-body default (a dataclass field, a config class's attribute) that a call of the class
    passes as a keyword (`TrainingConfig(batch_size=128)`): a default, like a parameter's, which
    the presets built with the keyword override."""
    sym = index.symbol_by_id.get(fact.symbol or "")
    if sym is None or sym.kind != "class":
        return False
    passed = per_index(index, "constructor-keywords", lambda ix: frozenset(
        (f.call.rsplit(".", 1)[-1], f.name) for f in ix.values if f.source == "kwarg" and f.call))
    return (sym.name, fact.name) in passed


def _read(fact: ValueFact, index: RepoIndex, literal_lines: int) -> bool:
    """True when Python code mentions the setting's name beyond the literal sites themselves."""
    leaf = _leaf(fact)
    refs = code_vocab(index).references
    return max(refs.get(leaf, 0), refs.get(fact.name, 0)) > literal_lines


def _declared_unread(fact: ValueFact, index: RepoIndex, literal_lines: int) -> bool:
    """A config-file key, or a class- or module-level constant (`NUM_SEEDS = 10` in `config.py`, a
    dataclass field's default), whose name no Python code uses beyond the literal sites: declared,
    never read. A dict entry may be read by unpacking (`Adam(**OPT)`), and in a repository that reads
    fields reflectively (`asdict`, `__dict__`) so may a constant: neither is taken for dead."""
    if fact.source == "dict" or (fact.source == "assign" and (_reflects(index) or fact.name in _default_names(index))):
        return False
    if fact.source == "assign":
        # Its own declarations are the only lines that may name it without reading it (`PAD = 4` beside
        # `padding=PAD`), not every literal site of the parameter.
        literal_lines = per_index(index, "declared-names", _declared_names).get(fact.name, 1)
    return not _read(fact, index, literal_lines)


_DEF_LINE = re.compile(r"^\s*(?:async\s+)?def\s")
_DEFAULT_NAME = re.compile(r"=\s*([A-Za-z_]\w*)")


def _default_names(index: RepoIndex) -> frozenset[str]:
    """Names a `def` line uses as a parameter default (`def mlp(sizes=HIDDEN_SIZES)`): reads the code
    vocabulary leaves out with the rest of the definition line."""
    def build(ix: RepoIndex) -> frozenset[str]:
        names: set[str] = set()
        for info in ix.files:
            if info.kind != "python":
                continue
            for line in ix.file_text(info.path).splitlines():
                if _DEF_LINE.match(line):
                    names.update(_DEFAULT_NAME.findall(line))
        return frozenset(names)

    return per_index(index, "default-names", build)


def unread_line(index: RepoIndex, path: str, line: int) -> list[ValueFact]:
    """The settings line `line` of `path` declares, when every one of them is configuration nothing
    reads (`_declared_unread`); empty when the line sets nothing or something on it is read."""
    facts = [f for f in per_index(index, "values-by-line", _values_by_line).get((path, line), [])
             if f.source in ("config", "assign")]
    if not facts or any(f.source == "assign" and _in_function(f, index) for f in facts):
        return []
    # Declarations of a name (a constant's own line, a dataclass field mirroring a config key) are no reads of it.
    declared = per_index(index, "declared-names", _declared_names)
    if _reflects(index) and any(declared.get(_leaf(f)) for f in facts):
        return []  # a field that mirrors the key may be read without being named
    return facts if all(_declared_unread(f, index, declared.get(_leaf(f), 0)) for f in facts) else []


def _leaf(fact: ValueFact) -> str:
    return fact.key_path.rsplit(".", 1)[-1] if fact.key_path else fact.name


def _declared_names(index: RepoIndex) -> dict[str, int]:
    """Name -> Python lines that declare it as a class- or module-level constant or field."""
    lines: dict[str, set[tuple[str, int]]] = {}
    for f in index.values:
        if f.source == "assign" and not _in_function(f, index):
            lines.setdefault(f.name, set()).add((f.path, f.line))
    return {name: len(where) for name, where in lines.items()}


def _values_by_line(index: RepoIndex) -> dict[tuple[str, int], list[ValueFact]]:
    out: dict[tuple[str, int], list[ValueFact]] = {}
    for f in index.values:
        out.setdefault((f.path, f.line), []).append(f)
    return out


def _reflects(index: RepoIndex) -> bool:
    refs = code_vocab(index).references
    return any(refs.get(name) for name in load_yaml("numeric.yaml").get("attribute_reflection", []))


def _launchers(index: RepoIndex) -> frozenset[str]:
    """Shell scripts that start a Python run (`python train.py ...`)."""
    return per_index(index, "launchers", lambda ix: frozenset(e.path for e in ix.entry_points if e.kind == "shell"))


def _shell_tier(fact: ValueFact, index: RepoIndex) -> int:
    """A variable the script expands or exports is in effect: at the launch tier in a script that
    starts a run, as a literal in running code elsewhere; one nothing reads is dead."""
    from sa_align.index.reads import shell_reads

    reads = shell_reads(index, fact.path)
    if fact.name not in reads.expanded and fact.name not in reads.exported:
        return 0
    return 3 if fact.path in _launchers(index) else 2


def overrides_read(fact: ValueFact, index: RepoIndex) -> int | None:
    """Line of the configuration read that this literal assignment overrides, if any
    (`lr = cfg["lr"]` ... `lr = 0.01`; see `sa_align/index/overrides.py`)."""
    if fact.source != "assign" or _kind(fact.path, index) != "python":
        return None
    if fact.symbol is not None and not _in_function(fact, index):
        return None  # a class body: its assignments are declarations, not statements that run in order
    if fact.symbol is not None and fact.symbol in dead_code(index).dead:
        return None  # a helper nothing that runs calls overrides nothing (`judges/evidence/liveness/dead.py`)
    return overrides(index, fact.path, fact.symbol).get((fact.line, fact.name))


def _kind(path: str, index: RepoIndex) -> str | None:
    return index.file_kind(path)


def tier(fact: ValueFact, index: RepoIndex, literal_lines: int = 0) -> int:
    """Precedence of a site (see the numeric judge's docstring): 5 override ... 0 dead."""
    if overrides_read(fact, index) is not None:
        return 5
    if fact.source in ("kwarg", "positional") or (fact.source in ("assign", "dict") and _in_function(fact, index)):
        return 2
    if fact.source == "assign" and _passed_to_constructor(fact, index):
        return 1
    if fact.source in ("config", "assign", "dict"):
        return 0 if _declared_unread(fact, index, literal_lines) else 4
    if fact.source == "shell":
        return _shell_tier(fact, index)
    if fact.source == "cli":
        return 3
    return 1


# --------------------------------------------------------------------------- effect


def ignored_default(fact: ValueFact, index: RepoIndex) -> bool:
    """A parameter default that the function's body never reads: whatever its value, it sets nothing.

    A placeholder body (`pass`, `raise NotImplementedError`) is left to the stub judge,
    and a body that reads its locals reflectively (`locals()`) counts as reading them all.
    """
    from sa_align.index.reads import body_reads

    if fact.source != "default" or not fact.symbol or fact.symbol in stubbed_symbols(index):
        return False
    sym = index.symbol_by_id.get(fact.symbol)
    if sym is None or fact.name not in sym.params:
        return False  # a lambda's default, or one the symbol table does not list
    reads = body_reads(index, fact.symbol)
    return reads is not None and fact.name not in reads


# --------------------------------------------------------------------------- context


def _words(text: str, drop: frozenset[str] = frozenset()) -> set[str]:
    """Crude stems of the words of `text` (not `drop`, no bare numbers), hyphenated compounds also
    joined (`SST-2` -> `sst2`, `fine-tuning` -> `finetun`, which meets `finetune`), and a word with
    the number after it (`Stage 1` -> `stage1`: the number is what tells stage 1 from stage 2)."""
    compounds = [m.replace("-", "") for m in re.findall(r"\b[A-Za-z]\w*(?:-\w+)+", text)]
    compounds += [f"{word}{n}" for word, n in _NUMBERED.findall(text)]
    return {root(w) for w in tokenize(f"{text} {' '.join(compounds)}") if not w.isdigit() and w not in drop}


def unit_words(unit: Unit, p: Param) -> frozenset[str]:
    """Words of the unit's claim and hints that are not the parameters' own names (`mnli` in
    "the learning rate for MNLI"), nor words too generic to tell one setting from another.

    A value stated for one preset of several (`Param.condition`: `512 (Tiny) / 1024 (Small)`, a
    table's column) is about its own preset's words, not the other presets'."""
    own = " ".join(f"{q.name} {q.surface or ''} {' '.join(param_aliases(q.name))}" for q in unit.params)
    said = _words(f"{unit.claim} {' '.join(unit.hints)}", generic_words())
    if p.condition:
        others = " ".join(q.condition for q in unit.params if q.condition and q.condition != p.condition)
        said = (said - _words(others)) | _words(p.condition, generic_words())
    return frozenset(said - _words(own))


def site_words(check: SiteCheck) -> set[str]:
    """Words of a site's context: key path above the leaf, callee, enclosing function, branch, file path."""
    fact = check.fact
    scope = fact.key_path.rsplit(".", 1)[0] if "." in fact.key_path else ""
    qualname = (fact.symbol or "").split("::", 1)[-1] if fact.symbol else ""
    path = fact.path.rsplit(".", 1)[0]
    parts = (scope, fact.call or "", qualname, check.branch, path)
    return _words(" ".join(x.replace(".", " ").replace("/", " ") for x in parts))


_BRANCH = re.compile(r"^\s*(?:el)?if\b(.*)$")
_NUMBERED = re.compile(r"\b([A-Za-z]{3,})[ _]?(\d{1,2})\b")
_PRESET_KEY = re.compile(r"""^\s*(["'])([^"'\n]{1,60})\1\s*:\s*\S""")
_ITEM = re.compile(r"^\s*-\s+\S")
_ITEM_NAME = re.compile(r"^(?:name|title|stage|id|label)\s*:\s*(.{1,80})$")
_DEF = re.compile(r"^\s*(?:async\s+def|def|class)\b")
_LITERAL = re.compile(r"""(["'])([^"'\n]{1,40})\1""")
_BRANCH_LOOKBACK = 80
"""Lines a site may sit below the `if` of its branch."""


def branch_literals(fact: ValueFact, index: RepoIndex) -> str:
    """The string literals of the nearest enclosing `if`/`elif` test of a Python site, within its function,
    or the key of the nearest enclosing dict entry (a preset in a table of settings); in a YAML file,
    the name of the list item the site belongs to (`- name: "Stage 1"`)."""
    if fact.path.endswith((".yaml", ".yml")):
        return _yaml_item_name(fact, index)
    if not fact.path.endswith(".py"):
        return ""
    lines = index.lines(fact.path, max(1, fact.line - _BRANCH_LOOKBACK), fact.line)
    if not lines:
        return ""
    indent = len(lines[-1]) - len(lines[-1].lstrip())
    for line in reversed(lines[:-1]):
        stripped = line.lstrip()
        if not stripped or stripped.startswith("#") or len(line) - len(stripped) >= indent:
            continue
        if _DEF.match(line):
            return ""
        if (m := _BRANCH.match(line)) is not None:
            return " ".join(lit for _, lit in _LITERAL.findall(m.group(1)))
        if (m := _PRESET_KEY.match(line)) is not None:
            return m.group(2)  # `"celeba": Config(...)`: the preset a table of settings keys this site under
        indent = len(line) - len(stripped)
    return ""


def _yaml_item_name(fact: ValueFact, index: RepoIndex) -> str:
    """The `name` (or `title`, `stage`, `id`) of the YAML list item whose mapping holds the site."""
    if "]." not in fact.key_path:
        return ""
    first = max(1, fact.line - _BRANCH_LOOKBACK)
    lines = index.lines(fact.path, first, fact.line + _BRANCH_LOOKBACK)
    here = fact.line - first
    if here >= len(lines):
        return ""
    indent = _yaml_indent(lines[here])
    start = next((i for i in range(here, -1, -1) if _ITEM.match(lines[i]) and _yaml_indent(lines[i]) == indent), None)
    if start is None:
        return ""
    keys = [lines[start].split("-", 1)[1].lstrip()]
    for line in lines[start + 1:]:
        if line.strip() and (_ITEM.match(line) or len(line) - len(line.lstrip(" ")) < indent):
            break
        keys.append(line[indent:])
    name = next((m.group(1) for k in keys if (m := _ITEM_NAME.match(k))), "")
    return name.strip().strip("\"'")


def _yaml_indent(line: str) -> int:
    """Where a YAML line's key starts (after the dash of a list item)."""
    return len(line) - len(line.lstrip(" -"))


def about_unit(checks: list[SiteCheck], words: frozenset[str]) -> list[SiteCheck]:
    """The sites whose context has a word the unit says and some other site lacks; `[]` when
    context singles out no proper subset (no word of the unit, or all sites carry one)."""
    if not words or len(checks) < 2:
        return []
    contexts = [site_words(c) for c in checks]
    shared = set.intersection(*contexts)
    picked = [c for c, ctx in zip(checks, contexts) if (ctx - shared) & words]
    return picked if 0 < len(picked) < len(checks) else []


def preset_name(named: list[SiteCheck], others: list[SiteCheck], words: frozenset[str]) -> str | None:
    """Where the site the unit's words single out lives (`PRESETS.base`, `finetune`): the preset it names."""
    theirs = set().union(*(site_words(c) for c in others)) if others else set()
    for c in named:
        if (site_words(c) - theirs) & words:
            fact = c.fact
            scope = fact.key_path.rsplit(".", 1)[0] if "." in fact.key_path else ""
            return c.branch or scope or (fact.symbol or "").split("::", 1)[-1] or fact.call or fact.path
    return None


# --------------------------------------------------------------------------- same setting


def other_callee(conflict: SiteCheck, matches: list[SiteCheck]) -> bool:
    """A literal passed to some callee says nothing about another function's default.

    When the stated value is a function's parameter default (`def crop(x, padding=4)`),
    only a call of that function overrides it; `Conv2d(..., padding=1)` is another setting.
    """
    if conflict.fact.source not in ("kwarg", "positional") or not matches:
        return False
    if any(m.fact.source != "default" for m in matches):
        return False
    callee = (conflict.fact.call or "").rsplit(".", 1)[-1]
    owners = [(m.fact.symbol or "").split("::")[-1].split(".") for m in matches]
    return not any(callee in parts for parts in owners)


def same_setting(a: ValueFact, b: ValueFact) -> bool:
    """Two sites set the same thing: one flag, one callee's keyword, one key path."""
    if a.source == b.source == "cli" and a.key_path and a.key_path == b.key_path:
        return True  # a flag's default and a script passing the flag set the same thing
    if a.call or b.call:
        return bool(a.call and b.call and a.call.rsplit(".", 1)[-1] == b.call.rsplit(".", 1)[-1])
    return a.key_path == b.key_path or a.key_path.rsplit(".", 1)[-1] == b.key_path.rsplit(".", 1)[-1] and a.path != b.path


__all__ = [
    "SiteCheck", "about_unit", "branch_literals", "ignored_default", "other_callee", "overrides_read", "same_setting", "site_words",
    "tier", "unit_words",
]


# --------------------------------------------------------------------------- live and related sites


def live_sites(sites: list[tuple[ValueFact, Outcome]], index: RepoIndex) -> tuple[list, list[ValueFact]]:
    """Sites in functions something that runs calls, and the facts of those in dead functions (`judges/evidence/liveness/dead.py`)."""
    dead_fns = dead_code(index).dead
    live = [(f, o) for f, o in sites if f.symbol is None or f.symbol not in dead_fns]
    return live, [f for f, _ in sites if f.symbol is not None and f.symbol in dead_fns]


def related_sites(p: Param, index: RepoIndex, tol: float) -> list[SiteCheck]:
    """Live sites with the stated value under a name sharing a telling word with the parameter's names.

    Reported in the reason only: a resembling name neither confirms nor refutes the setting.
    """
    weak = set(load_yaml("numeric.yaml")["related_names"]["weak_words"])
    mine = {w.lower() for n in (p.name, p.surface or "") for w in split_identifier(n)} - weak
    if not mine:
        return []
    hits = [f for f in param_index(index).value_matches(p, tol)
            if not is_test_path(f.path) and mine & ({w.lower() for w in split_identifier(f.name)} - weak)]
    live, _dead = live_sites([(f, "match") for f in hits], index)
    return [SiteCheck(f, tier(f, index), "match", None) for f, _ in live][:5]
