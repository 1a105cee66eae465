"""Numeric judge: does the value that takes effect equal the value the paper states?

Every site that sets a unit's parameter is found through the parameter index
(names through the alias tables: `lr`, `optimizer.lr`, `--lr`, `Adam(lr=...)`
all set `learning_rate`; test files are ignored). Values are compared across
notations (`3e-4` = `3 × 10^-4` = `0.0003`), with percent awareness (`10%` =
`0.1` = `10`), within the unit's tolerance (else `config.numeric_rel_tol`).
Sequences (betas, milestones) compare element by element, sets by membership,
ranges by inclusion. A count of seeds, runs or folds is also stated by the
length of a list of seeds and by loops (`for seed in range(3)`; `judges/evidence/counts.py`).

Precedence policy (which site takes effect), highest first (`numeric_sites.tier`):

5. hard-coded overrides: a literal assigned to a setting after the code read
   it, in the scope that reads it (`lr = cfg["lr"]` then `lr = 0.01` in one
   function; `args = p.parse_args()` then `args.lr = 0.1`, also at module
   level; `cfg["lr"]`, `cfg.lr`, `self.lr` likewise), and not under a branch
   or loop the read is outside of. The configured value never reaches the run;
   the literal does (`sa_align/index/overrides.py`). The same name assigned in
   another function is another variable and stays at tier 2;
4. configuration that the code reads: config-file keys (YAML/JSON/TOML/INI)
   and module- or class-level constants and dict entries (dataclass field
   defaults included) whose name the Python code uses somewhere;
3. command-line values: `add_argument('--lr', default=...)`, which a config
   file overrides, and what a launcher script sets: the flags it passes and
   the shell variables it expands or exports (`SEEDS=3` ... `$SEEDS`,
   `export LR=3e-4`). A launcher's setting takes effect on the run it
   launches, above any code default; but a repository's scripts also launch
   smoke tests and ablations, so configuration the code reads stays above them;
2. literals in code that runs: keyword and positional arguments
   (`Adam(lr=1e-3)`), assignments and dict entries inside a function body;
   these are hard-coded overrides when no configuration is read for the name,
   and otherwise other uses of the name (a test loader's batch size, a conv
   layer's padding) that leave the configured setting alone. Variables a shell
   script that starts no Python run reads belong here too;
1. function parameter defaults (`def train(lr=...)`), which any caller overrides;
0. configuration nothing reads: a config key no code mentions, or a shell
   variable its script never expands or exports, is dead.

A parameter default that the function body never reads (`def schedule(n,
beta_start=1e-4)` computing something else) takes no effect at any tier: it is
left out. When such defaults are the only sites, the stated value is declared
but ignored -> mismatched with moderate confidence (0.6, not certain: the body
may reach the same number another way). A placeholder body is the stub judge's
to label, and a body that reads its locals reflectively (`locals()`) counts as
reading them.

Sites inside functions nothing that runs calls (`judges/evidence/liveness/dead.py`) set
nothing a run uses and are left out. When they are the only sites, the stated
value survives only where nothing runs: a match there is no finding (unknown),
a different value a weak mismatch (0.5 at most, never certain).

Decision for one parameter: no comparable site -> unknown; every site equal ->
aligned (certain); every site different -> mismatched (certain, unless the sites
are the branches of one preset chain, `if size == "base": ... elif size == "large":`,
none of them with the stated value: 0.8, since the claim's preset may be absent
from the chain or the value another setting's); but when every
site is dead configuration (tier 0), nothing shows the value reaches the run:
aligned or mismatched with confidence 0.5 at most, never certain (an LLM judge, when
configured, still looks); a unit whose values only such configuration holds abstains
(`NUM004`), never `aligned`. Otherwise the
highest tier decides: all equal there -> aligned (not certain: lower sites
differ), all different there -> mismatched (certain: the value that takes
effect is wrong). Mixed at the top tier, the unit's context first picks the
sites it is about: a site whose context (key path above the leaf, callee,
enclosing function, the string literals of its enclosing `if`, file path) carries a word of the claim or hints, other
than the parameters' own names and generic words, that some other top site
lacks (`tasks.mnli.learning_rate` for "the learning rate for MNLI", a
`finetune()` body for "when fine-tuning", `if model == "Hi-MAR-B":` for the B model). Those sites alone decide: all equal
-> aligned, all different -> mismatched (0.8, not certain: context is read
from words). Without such a word, when a differing site is the same
setting as a matching one (same key path, or the same callee) the code
disagrees with itself -> mismatched with low confidence; otherwise the other
sites are other settings of the same name (`mnli.epochs` vs `sst2.epochs`) ->
aligned with low confidence.

A unit is mismatched if any parameter is, aligned if all found parameters are,
and abstains when none is set anywhere (the missing judge decides absence).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Sequence

from sa_align.aliases import canonical_param, computed, split_identifier
from sa_align.index.memo import per_index
from sa_align.index.model import RepoIndex, ValueFact
from sa_align.judges.base import JudgeContext, StaticJudge, abstain, decide, line_span
from sa_align.judges.evidence.counts import param_sites
from sa_align.judges.evidence.words import generic_words
from sa_align.judges.numeric.combine import ParamDecision, combine, differs_as_claimed, mismatch_score
from sa_align.judges.numeric.compare import compare
from sa_align.judges.numeric.sites import (
    Outcome,
    SiteCheck,
    about_unit,
    branch_literals,
    ignored_default,
    live_sites,
    other_callee,
    overrides_read,
    preset_name,
    related_sites,
    same_setting,
    tier,
    unit_words,
)
from sa_align.models import CodeSpan, Label, Param, Unit, Verdict
from sa_align.retrieve.params import fact_names, norm_name, param_index
from sa_align.retrieve.text import tokenize

NAME = "numeric"
DEAD = 0
"""Tier of configuration nothing reads."""
DEAD_CONFIDENCE = 0.5
"""Most confidence a decision resting only on configuration nothing reads can have."""


# --------------------------------------------------------------------------- decision


def decide_param(
    p: Param, index: RepoIndex, tol: float, hints: list[str] | None = None, words: frozenset[str] = frozenset(),
    siblings: Sequence[Param] = (),
) -> ParamDecision:
    """Decide one parameter from every site that sets it (`_decide_param`). A quantity code computes
    (a parameter count) confirms when a site holds it, but another number under its name shows no
    difference: the count comes from the architecture, and `num_params` may count something else."""
    d = _decide_param(p, index, tol, hints, words, siblings)
    if d.label == Label.MISMATCHED and computed(p.name):
        return ParamDecision(p, None, 0.0, False, [], f"{d.note}; but `{p.name}` is computed, not set, so this shows no difference")
    return d


def _decide_param(
    p: Param, index: RepoIndex, tol: float, hints: list[str] | None, words: frozenset[str], siblings: Sequence[Param],
) -> ParamDecision:
    """Decide one parameter from every site that sets it.

    When no site is found under the parameter's names, sites the unit's `hints`
    name stand in (`base_width: 64` for "64 filters" hinted `base_width`); a
    decision found that way is never certain. `words` (`unit_words`) are what
    the unit says besides the parameter's name; they pick among sites that disagree.
    `siblings` are the unit's other parameters of the same name ("stride 2 ... stride 1"):
    a site holding a sibling's value is that sibling's setting, not a different value.
    """
    tol = p.tolerance if p.tolerance is not None else tol
    sites = _own_sites(param_sites(p, index), p, siblings, tol)
    if not sites and hints:
        found = _own_sites(param_index(index).hint_sites(hints), p, siblings, tol)
        if found:
            d = _decide_sites(p, index, found, words)
            if d.label == Label.MISMATCHED and not any(_specific_hint(h, f, p) for h in hints for f, _ in found):
                # `seed` may name the seed itself where the claim counts seeds: confirm, never flag.
                return ParamDecision(p, None, 0.0, False, [], f"{d.note}; a generic hint cannot show a different value")
            note = f"{d.note} (located by the unit's hints)"
            return ParamDecision(p, d.label, min(d.confidence, 0.75), False, d.evidence, note, rule=d.rule)
    if not sites and (related := related_sites(p, index, tol)):
        # Shown to the reader, never counted: on SA-Bench's development split such matches
        # were faithful in 16 of 51 claims.
        names = ", ".join(sorted({c.fact.name for c in related}))
        note = f"{_say(p, related, 'sets')} under a related name ({names}), which is not counted as the setting"
        return ParamDecision(p, None, 0.0, False, [], note)
    return _decide_sites(p, index, sites, words)


def _own_sites(facts, p: Param, siblings: Sequence[Param], tol: float) -> list[tuple[ValueFact, Outcome]]:
    """Each comparable site with its outcome for `p`, less the sites that hold a sibling's value instead."""
    out = []
    for f in facts:
        outcome = compare(f.value, p, tol)
        if outcome == "conflict" and any(compare(f.value, q, tol) == "match" for q in siblings):
            continue
        if outcome is not None:
            out.append((f, outcome))
    return out


def _specific_hint(hint: str, fact: ValueFact, p: Param) -> bool:
    """The hint spells the site's name or callee, and is a compound (`base_width`,
    `RandomHorizontalFlip`) or a word that names no other known parameter (`crop`, not `seed`)."""
    leaf = hint.strip().rsplit(".", 1)[-1]
    names = {norm_name(n) for n in fact_names(fact)} | ({norm_name(fact.call.rsplit(".", 1)[-1])} if fact.call else set())
    if norm_name(leaf) not in names:
        return False
    if len(split_identifier(leaf)) >= 2:
        return True
    known = canonical_param(leaf)
    return known is None or norm_name(known) == norm_name(canonical_param(p.name) or p.name)


def param_hints(unit: Unit, p: Param) -> list[str]:
    """Hints that may name `p`'s setting: all of them for a one-parameter unit, else those sharing a
    word with it other than a generic one (`batch_size` does not name `replay_buffer_size`)."""
    if len(unit.params) == 1:
        return list(unit.hints)
    words = set(tokenize(f"{p.name} {p.surface or ''}")) - generic_words()
    return [h for h in unit.hints if set(tokenize(h)) & words]


def decide_params(unit: Unit, index: RepoIndex, tol: float) -> tuple[ParamDecision, ...]:
    """One decision per parameter of the unit, hints standing in for names the code does not use.

    The numeric, stub and protocol judges all ask this of one unit: decided once per index.
    """
    memo: dict[tuple[str, float], tuple[ParamDecision, ...]] = per_index(index, "param-decisions", lambda _ix: {})
    key = (unit.model_dump_json(include={"claim", "params", "hints"}), tol)
    if key not in memo:
        memo[key] = tuple(decide_param(p, index, tol, param_hints(unit, p), unit_words(unit, p),
                                       [q for q in unit.params if q is not p and q.name == p.name])
                          for p in unit.params)
    return memo[key]


def _decide_sites(
    p: Param, index: RepoIndex, sites: list[tuple[ValueFact, Outcome]], words: frozenset[str] = frozenset()
) -> ParamDecision:
    live, dead = live_sites(sites, index)
    if dead and not live:
        return _dead_only(p, index, sites, dead, words)
    checks = _checks(live, index)
    if not checks:
        return ParamDecision(p, None, 0.0, False, [], f"`{p.name}` is set nowhere with a comparable value")
    ignored = [c for c in checks if ignored_default(c.fact, index)]
    if not ignored:
        return _decide_checks(p, checks, words)
    if len(ignored) == len(checks):
        # Declared but never read: the stated value (or any other) is not what the code does.
        # Not certain: the body may compute the same thing another way.
        note = _say(p, ignored, "declares") + "; the function never reads it, so the declared value takes no effect"
        return ParamDecision(p, Label.MISMATCHED, 0.6, False, [c.fact for c in ignored], note, rule="NUM007")
    skip = {id(c) for c in ignored}  # identity: comparing sites field by field is quadratic on big repos
    d = _decide_checks(p, [c for c in checks if id(c) not in skip], words)
    return replace(d, note=f"{d.note}; defaults the function never reads are left out ({_sites(ignored)})")


def _checks(sites: list[tuple[ValueFact, Outcome]], index: RepoIndex) -> list[SiteCheck]:
    """Each site with its precedence tier and the configuration read it overrides."""
    literal_lines = len({(f.path, f.line) for f, _ in sites if f.source in ("kwarg", "positional", "assign", "dict")})
    return [SiteCheck(f, tier(f, index, literal_lines), o, overrides_read(f, index), branch_literals(f, index))
            for f, o in sites]


def _dead_only(p: Param, index: RepoIndex, sites: list, dead: list[ValueFact], words: frozenset[str]) -> ParamDecision:
    """Every site lies in code nothing that runs calls: it shows what was meant, not what a run does.
    A match there is no finding (abstain); a different value is still a weak sign of drift."""
    where = ", ".join(sorted({f"`{f.symbol.split('::', 1)[-1]}` ({f.path}:{f.line})" for f in dead}))
    note = f"`{p.name}` is set only in code nothing that runs calls: {where}"
    d = _decide_checks(p, _checks(sites, index), words)
    if d.label != Label.MISMATCHED:
        return ParamDecision(p, None, 0.0, False, [], note)
    return ParamDecision(p, Label.MISMATCHED, min(d.confidence, DEAD_CONFIDENCE), False, d.evidence, f"{d.note}; {note}", rule="NUM008")


def _decide_checks(p: Param, checks: list[SiteCheck], words: frozenset[str]) -> ParamDecision:
    """The precedence policy of the module docstring over sites that take effect."""
    d = _by_precedence(p, checks, words)
    if d.label is None or any(c.tier != DEAD for c in checks):
        return d
    # Only configuration nothing reads: it shows what was meant, not what runs.
    note = f"{d.note}; nothing reads this configuration, so it may not take effect"
    return ParamDecision(p, d.label, min(d.confidence, DEAD_CONFIDENCE), False, d.evidence, note,
                         rule="NUM004" if d.label == Label.ALIGNED else "NUM008")


def _by_precedence(p: Param, checks: list[SiteCheck], words: frozenset[str]) -> ParamDecision:
    matches = [c for c in checks if c.outcome == "match"]
    conflicts = sorted((c for c in checks if c.outcome == "conflict"), key=lambda c: -c.tier)
    if not conflicts:
        return ParamDecision(p, Label.ALIGNED, 0.95, True, [c.fact for c in matches], _say(p, matches, "sets"), rule="NUM001")
    if not matches:
        if len({c.branch for c in conflicts if c.branch}) >= 2:
            # Presets of one chain (`if size == "base": ... elif size == "large":`), none with the stated
            # value: the claim's preset may be missing from the chain, or the value another setting's.
            note = _say(p, conflicts, "sets") + "; each in a preset of one chain, none with the stated value"
            return ParamDecision(p, Label.MISMATCHED, 0.8, False, [c.fact for c in conflicts], note, rule="NUM006")
        return ParamDecision(p, Label.MISMATCHED, 0.95, True, [c.fact for c in conflicts], _say(p, conflicts, "sets"), rule="NUM005")
    conflicts = [c for c in conflicts if not other_callee(c, matches)]
    if not conflicts:
        note = _say(p, matches, "sets") + "; literals passed to other callees are other settings"
        return ParamDecision(p, Label.ALIGNED, 0.7, False, [c.fact for c in matches], note, rule="NUM003")
    top = max(c.tier for c in matches + conflicts)
    top_match = [c for c in matches if c.tier == top]
    top_conflict = [c for c in conflicts if c.tier == top]
    if not top_conflict:
        note = _say(p, top_match, "takes effect at") + f"; lower-precedence sites differ ({_sites(conflicts)})"
        return ParamDecision(p, Label.ALIGNED, 0.8, False, [c.fact for c in top_match], note, rule="NUM002")
    if not top_match:
        note = _say(p, top_conflict, "overrides with") + f"; the stated value appears only where overridden ({_sites(matches)})"
        return ParamDecision(p, Label.MISMATCHED, 0.9, True, [c.fact for c in top_conflict], note, rule="NUM005")
    return _decide_mixed(p, top_match, top_conflict, words)


def _decide_mixed(
    p: Param, top_match: list[SiteCheck], top_conflict: list[SiteCheck], words: frozenset[str]
) -> ParamDecision:
    """Sites of the top tier disagree: the unit's context, then sameness of setting, decides."""
    named = about_unit(top_match + top_conflict, words)
    if named:
        chosen = {id(c) for c in named}  # identity: comparing sites field by field is quadratic on big repos
        preset = preset_name(named, [c for c in top_match + top_conflict if id(c) not in chosen], words)
        where = f" in `{preset}`, the preset the claim names" if preset else " where the context names the unit's setting"
        if all(c.outcome == "match" for c in named):
            note = _say(p, named, "sets") + f"{where}; other settings differ ({_sites(top_conflict)})"
            return ParamDecision(p, Label.ALIGNED, 0.8, False, [c.fact for c in named], note, rule="NUM003")
        if all(c.outcome == "conflict" for c in named):
            note = _say(p, named, "sets") + f"{where}; the stated value is another setting's ({_sites(top_match)})"
            return ParamDecision(p, Label.MISMATCHED, 0.8, False, [c.fact for c in named], note, rule="NUM006")
        top_match = [c for c in named if c.outcome == "match"]
        top_conflict = [c for c in named if c.outcome == "conflict"]
    clash = [c for c in top_conflict if any(same_setting(c.fact, m.fact) for m in top_match)]
    if clash:
        note = f"sites disagree about `{p.name}`: {_sites(clash)} vs stated value at {_sites(top_match)}"
        return ParamDecision(p, Label.MISMATCHED, 0.6, False, [c.fact for c in clash + top_match], note, rule="NUM006")
    note = _say(p, top_match, "sets") + f"; other settings of the same name differ ({_sites(top_conflict)})"
    return ParamDecision(p, Label.ALIGNED, 0.65, False, [c.fact for c in top_match], note, rule="NUM003")


def _sites(checks: list[SiteCheck]) -> str:
    return ", ".join(_site(c) for c in checks[:3])


def _site(c: SiteCheck) -> str:
    where = f"{c.fact.path}:{c.fact.line} ({c.fact.raw})"
    return f"{where}, set after line {c.overrides} reads the configured value" if c.overrides else where


def _say(p: Param, checks: list[SiteCheck], verb: str) -> str:
    stated = p.text or (p.value if p.value is not None else p.values)
    preset = f" for {p.condition}" if p.condition else ""
    return f"`{p.name}` (paper: {stated}{preset}): code {verb} {_sites(checks)}"


# --------------------------------------------------------------------------- the judge


def judge_numeric(ctx: JudgeContext) -> Verdict:
    unit: Unit = ctx.unit
    if not unit.params:
        return abstain(NAME, "the unit states no parameter values")
    decisions = decide_params(unit, ctx.index, ctx.config.numeric_rel_tol)
    label, conf, certain, facts, note, rule = combine(decisions)
    if label is None:
        return abstain(NAME, note)
    if label == Label.ALIGNED and "params" in unit.derived and any(d.label is None for d in decisions):
        # Read from free text, an unchecked parameter may be the one that differs.
        return abstain(NAME, f"{note}; a parameter read from the claim could not be checked")
    if label == Label.MISMATCHED and certain and "params" in unit.derived and differs_as_claimed(unit, decisions):
        # "128x128 (half of the full 256x256)": code that sets 256 may derive 128 from it, or set
        # the claim's other setting under this name. The difference is a lead, not a finding.
        certain, conf, rule = False, min(conf, 0.6), "NUM009"
        note += "; but the code's value is one the claim also states, perhaps the value the stated one derives from"
    # `decide` keeps ten spans; one per line, first seen first.
    lines = list(dict.fromkeys((f.path, f.line) for f in facts))[:10]
    evidence: list[CodeSpan] = [line_span(path, line) for path, line in lines]
    score = None
    if label == Label.ALIGNED and rule == "NUM004":
        # Declared where nothing reads it: what was meant, never shown to reach the run. Readers call that
        # deferred, missing or (when another value runs) mismatched: not `aligned`, and no one failure either.
        return abstain(NAME, note, rule=rule, evidence=evidence)
    if label == Label.MISMATCHED and rule == "NUM008":
        # Set only where nothing runs: the setting is implemented but never reached (`shared/LABELLING.md`).
        return decide(NAME, Label.STUBBED, note, rule=rule, confidence=conf, evidence=evidence)
    if label == Label.MISMATCHED:
        score = mismatch_score(sum(d.label == Label.MISMATCHED for d in decisions),
                               sum(d.label == Label.ALIGNED for d in decisions))
    return decide(NAME, label, note, rule=rule, confidence=conf, certain=certain, evidence=evidence, score=score)


def numeric_judge() -> StaticJudge:
    """Factory: the numeric value judge."""
    return StaticJudge(NAME, judge_numeric)


__all__ = ["compare", "decide_param", "decide_params", "numeric_judge", "tier"]
