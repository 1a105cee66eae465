"""Protocol judge: are the stated datasets, metrics, baselines and counts what the code uses?

Each entity of the unit is looked up through the entity alias tables
(`CIFAR-10` ~ `cifar10` ~ `torchvision.datasets.CIFAR10`) in code strings,
identifiers and config values (prose files, comments and docstrings excluded),
matched on whole words so `cifar10` never matches `cifar100`.

- a dataset or metric absent while another of its category (not named by
  the unit) is used in its place -> mismatched; likewise when it is only
  named (a function called `cifar10_loaders`; datasets only) or used more weakly than
  another (a guard string, while the config selects `cifar100`), or when
  the unit's located code (its top candidates) uses only another: see
  `entities.py` for what counts as a use;
- otherwise, entities present -> aligned (less sure when some were not located);
- every checkable entity absent with nothing in their place -> missing. The
  checkable ones are known datasets and metrics, and baselines: methods that
  `units/protocol.yaml` lists as models or algorithms a repository names when
  it builds or runs them (ResNet-50, PPO, RoBERTa). A baseline is absent only
  when none of its aliases appears anywhere in code or config (prose files,
  comments and docstrings never count), and its absence is less sure
  (confidence per category in `units/protocol.yaml`).

Names outside the alias tables, other methods (techniques such as EMA or label
smoothing, families such as CNN) and protocol phrases ("single-view testing")
are looked for, but their absence proves nothing: code names them too many ways.

Counts (seeds, runs, folds) given as parameters are decided like numeric values,
loops included: `for seed in range(3)`, `for run in range(args.runs)` and
`for seed in SEEDS` (a literal list) each state a count (`sa_align/index/loops.py`).
Splits are only confirmed, never called absent: code names them too many ways.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from sa_align.aliases import canonical_entity, entity_aliases, entity_key
from sa_align.index.memo import per_index
from sa_align.index.model import RepoIndex
from sa_align.judges.base import JudgeContext, StaticJudge, abstain, decide, function_at, line_span
from sa_align.judges.evidence.liveness.dead import dead_code
from sa_align.judges.evidence.tables import code_vocab
from sa_align.judges.numeric.judge import decide_params
from sa_align.judges.protocol.entities import can_replace, is_used, related, substituted, substituted_here
from sa_align.models import Label, Verdict
from sa_align.resources import load_yaml

NAME = "protocol"
SUBSTITUTABLE = {"dataset": 0.85, "metric": 0.7}
"""Categories where another entity can stand in for the stated one, with the confidence that it does."""
LOCATED_CANDIDATES = 3
"""Candidates that count as the unit's located code when looking for a substitute used in place."""


@dataclass
class EntityCheck:
    name: str
    category: str | None
    found: tuple[str, int] | None
    substitutes: list[tuple[str, tuple[str, int]]]
    named_at: tuple[str, int] | None = None
    """Where the code names the entity without using it (an identifier), when another is used instead."""
    dead_at: tuple[str, int] | None = None
    """Where the code uses the entity inside a function nothing that runs calls."""


def _found_entities(index: RepoIndex) -> dict[tuple[str, str], tuple[str, int]]:
    """Every known entity the code uses, with its first location."""
    def build(ix: RepoIndex) -> dict[tuple[str, str], tuple[str, int]]:
        out: dict[tuple[str, str], tuple[str, int]] = {}
        for key, loc in code_vocab(ix).entity_keys.items():
            hit = canonical_entity(key)
            if hit is not None:
                out.setdefault(hit, loc)
        return out

    return per_index(index, "entities", build)


def check_entity(name: str, index: RepoIndex, others: set[str] | None = None,
                 spans: list[tuple[str, int, int]] | None = None) -> EntityCheck:
    """Where the code uses `name`, or which entities of its category it uses instead
    (anywhere, or in the unit's located code `spans`, best first)."""
    hit = canonical_entity(name)
    # In a fixed order, the name's own key first: which key is found first says where the entity is used.
    keys = list(dict.fromkeys([entity_key(name), *(entity_key(a) for a in (entity_aliases(name) or []))]))
    vocab = code_vocab(index)
    found_all = _found_entities(index)
    found = found_all.get(hit) if hit else None
    if found is None:
        found = next((vocab.entity_keys[k] for k in keys if k and k in vocab.entity_keys), None)
    subs: list[tuple[str, tuple[str, int]]] = []
    skip = (others or set()) | ({hit[1]} if hit else set())
    if found is None and hit is not None and hit[0] in SUBSTITUTABLE:
        subs = [(canon, loc) for (cat, canon), loc in found_all.items()
                if cat == hit[0] and canon not in skip and not related(canon, hit[1])]
        subs.sort(key=lambda s: not can_replace(hit, s[0]))  # a metric of the same kind first
    elif hit is not None and hit[0] == "dataset":
        # Named somewhere, but is it what runs? Another dataset may be used in its place.
        # (A metric is computed by a function named after it: its name is its use.)
        subs = substituted(index, hit, skip) or substituted_here(index, hit, skip, spans or []) or []
        if subs or not is_used(index, hit):
            return EntityCheck(name, hit[0], None, subs, named_at=found)
    return EntityCheck(name, hit[0] if hit else None, found, subs)


@lru_cache(maxsize=1)
def _absence() -> tuple[dict[str, float], frozenset[str]]:
    """Confidence of absence per category, and the method entities that are baselines."""
    data = load_yaml("protocol.yaml")
    return {str(k): float(v) for k, v in data["absent_confidence"].items()}, frozenset(map(str, data["baselines"]))


def absent_confidence(check: EntityCheck) -> float | None:
    """How sure the entity's absence from code and config makes its absence from the work;
    `None` when absence proves nothing (an unknown name, a technique, a split)."""
    confidence, baselines = _absence()
    if check.category == "method":
        return confidence["baseline"] if _canon(check.name) in baselines else None
    return confidence.get(check.category or "") if check.category in SUBSTITUTABLE else None


def _entities_verdict(checks: list[EntityCheck]) -> Verdict | None:
    present = [c for c in checks if c.found]
    replaced = [c for c in checks if not c.found and c.substitutes]
    # Only datasets, metrics and listed baselines are named the same way in code and prose;
    # other absent names (a technique, a method family, a protocol phrase) prove nothing.
    absent = [c for c in checks if not c.found and not c.substitutes and not c.dead_at
              and absent_confidence(c) is not None]
    if replaced:
        c = replaced[0]
        subs = ", ".join(f"{name} ({loc[0]}:{loc[1]})" for name, loc in c.substitutes[:3])
        ev = [line_span(*loc) for _, loc in c.substitutes[:3]]
        where = f"only named ({c.named_at[0]}:{c.named_at[1]})" if c.named_at else "never used"
        # A training loss is no stand-in for a generation metric: say so rather than call it a replacement.
        instead = "in its place" if can_replace((c.category or "", c.name), c.substitutes[0][0]) else \
            "instead, which measure another kind of thing"
        return decide(NAME, Label.MISMATCHED, f"{c.name} is {where}; the code uses {subs} {instead}",
                      rule="PRO002", confidence=SUBSTITUTABLE[c.category], certain=c.category == "dataset", evidence=ev)
    checkable = [c for c in checks if absent_confidence(c) is not None]
    if absent and len(absent) == len(checkable):
        # Splits and technique names are found everywhere; datasets, metrics and baselines are the test.
        names = ", ".join(c.name + (f" (only named at {c.named_at[0]}:{c.named_at[1]})" if c.named_at else "")
                          for c in absent)
        confidence = min(absent_confidence(c) or 0.0 for c in absent)
        return decide(NAME, Label.MISSING, f"no code or config uses {names}", rule="PRO003", confidence=confidence)
    if present:
        ev = [line_span(*c.found) for c in present]
        names = ", ".join(f"{c.name} ({c.found[0]}:{c.found[1]})" for c in present)
        unseen = [c.name for c in checks if not c.found and not c.dead_at]
        dead = [f"{c.name} ({c.dead_at[0]}:{c.dead_at[1]})" for c in checks if c.dead_at]
        conf = 0.8 if not unseen and not dead else 0.6
        note = f"; not located: {', '.join(unseen)}" if unseen else ""
        note += f"; used only in code nothing runs: {', '.join(dead)}" if dead else ""
        return decide(NAME, Label.ALIGNED, f"the code uses {names}{note}", rule="PRO001", confidence=conf, evidence=ev)
    return None


def _params_verdict(ctx: JudgeContext) -> Verdict | None:
    decisions = decide_params(ctx.unit, ctx.index, ctx.config.numeric_rel_tol)
    bad = [d for d in decisions if d.label == Label.MISMATCHED]
    # A count declared where nothing reads it (`NUM004`) is no sign the run uses it.
    good = [d for d in decisions if d.label == Label.ALIGNED and d.rule != "NUM004"]
    pick = bad or good
    if not pick:
        return None
    ev = [line_span(f.path, f.line) for d in pick for f in d.evidence]
    conf = max(d.confidence for d in pick) if bad else min(d.confidence for d in good)
    return decide(NAME, bad and Label.MISMATCHED or Label.ALIGNED, "; ".join(d.note for d in pick),
                  rule="PRO005" if bad else "PRO004", confidence=conf, certain=all(d.certain for d in pick), evidence=ev)


def _live(check: EntityCheck, index: RepoIndex) -> EntityCheck:
    """An entity used only inside a function nothing that runs calls is not used by the run: it
    counts as not located (the stub judge decides that code), never as present or absent."""
    if check.found is None:
        return check
    owner = function_at(index, *check.found)
    if owner is None or owner.id not in dead_code(index).dead:
        return check
    return EntityCheck(check.name, check.category, None, [], named_at=None, dead_at=check.found)


def _canon(name: str) -> str:
    hit = canonical_entity(name)
    return hit[1] if hit else name


def judge_protocol(ctx: JudgeContext) -> Verdict:
    unit = ctx.unit
    if not unit.entities and not unit.params:
        return abstain(NAME, "the unit names no dataset, metric, baseline or count")
    names = set(unit.entities)
    spans = [(c.span.path, c.span.start_line, c.span.end_line) for c in ctx.candidates[:LOCATED_CANDIDATES]]
    checks = [_live(check_entity(e, ctx.index, {_canon(n) for n in names}, spans), ctx.index) for e in unit.entities]
    by_entities = _entities_verdict(checks) if checks else None
    by_params = _params_verdict(ctx) if unit.params else None
    verdicts = [v for v in (by_entities, by_params) if v is not None]
    if not verdicts:
        return abstain(NAME, "nothing the unit names could be located or ruled out")
    # A wrong entity or count outweighs a right one; otherwise the stronger verdict speaks.
    verdicts.sort(key=lambda v: (v.label == Label.ALIGNED, -v.confidence))
    best = verdicts[0]
    if len(verdicts) == 2 and best.label != verdicts[1].label:
        best = best.model_copy(update={"reason": f"{best.reason}; also: {verdicts[1].reason}"})
    return best


def protocol_judge() -> StaticJudge:
    """Factory: the datasets/metrics/baselines/counts judge."""
    return StaticJudge(NAME, judge_protocol)


__all__ = ["absent_confidence", "check_entity", "protocol_judge"]
