"""What the selected rules and their status do to verdicts and results.

- A rule switched off (`RulesConfig.select` / `ignore`) never decides: its verdict becomes an
  abstention saying so (`switched_off`), and a policy step asks `enabled` before it is taken.
- A preview rule (`registry.Rule.status`) that decided a failure label has its finding held back:
  the unit is `undecided`, needs review, keeps the finding's evidence, and names the rule and the
  held label (`hold_preview`); a preview rule's `aligned` stands but needs review. `--preview`
  (`RulesConfig.preview`) lets preview rules decide as stable ones do.
"""

from __future__ import annotations

from functools import lru_cache

from sa_align.config import RulesConfig
from sa_align.models import Label, UnitResult, Verdict
from sa_align.rules.registry import matching, rules


@lru_cache(maxsize=64)
def _enabled_codes(select: tuple[str, ...] | None, ignore: tuple[str, ...]) -> frozenset[str]:
    chosen = set(rules()) if select is None else {c for s in select for c in matching(s)}
    return frozenset(chosen - {c for s in ignore for c in matching(s)})


def enabled_codes(config: RulesConfig) -> frozenset[str]:
    """The codes that may decide under `config` (unknown selectors raise `ConfigError`)."""
    return _enabled_codes(None if config.select is None else tuple(config.select), tuple(config.ignore))


def enabled(code: str | None, config: RulesConfig) -> bool:
    """Whether the rule `code` may decide; a verdict without a code (an abstention) always passes."""
    return code is None or code in enabled_codes(config)


def switched_off(verdict: Verdict, config: RulesConfig) -> Verdict:
    """`verdict`, or an abstention when its rule is switched off (the judge and reason kept for the reader)."""
    if enabled(verdict.rule, config):
        return verdict
    return Verdict(judge=verdict.judge, model=verdict.model, label=Label.UNDECIDED, abstained=True, cost=verdict.cost,
                   reason=f"rule {verdict.rule} is switched off; it found: {verdict.reason}")


def hold_preview(result: UnitResult, config: RulesConfig) -> UnitResult:
    """`result`, with a preview rule's failure held back for review (see the module docstring)."""
    code = result.rule
    if config.preview or code is None or result.label == Label.UNDECIDED:
        return result
    found = rules().get(code)
    if found is None or found.status == "stable":
        return result
    m = found.measured
    record = (f"{m.right} of {m.judged} hand-judged decisions right" if m.judged
              else "no hand-judged decision yet")
    if result.label == Label.ALIGNED:
        return result.model_copy(update={"needs_review": True,
                                         "reason": f"{result.reason} (preview rule {code}: {record})"})
    return result.model_copy(update={
        "label": Label.UNDECIDED, "score": None, "confidence": 0.0, "decided_by": "none", "agreement": None,
        "needs_review": True, "held_label": result.label,
        "reason": f"preview rule {code} ({found.name}; {record}) found it {result.label.value}, held back for review: "
                  f"{result.reason}",
    })
