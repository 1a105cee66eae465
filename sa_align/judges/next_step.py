"""What would decide an undecided unit: the next step a reviewer can take, in a sentence or two.

An undecided unit's reason says why the judges abstained; a reviewer also needs to know what to
do about it. The next step is read from what the run already knows, never guessed:

- the repository holds no code or configuration: point the audit at the implementation;
- a preview rule's finding was held back (`UnitResult.held_label`): check it at its evidence, or
  let the rule decide with `--preview` (a model would not settle it: its votes are a preview rule too);
- no LLM judge was configured and LLM judges may judge the unit's kind: `--judge MODEL` would
  decide it, at one call per model sample (`EvalConfig.judges` gives the ensemble when set);
- LLM judges ran and failed (an error, a prompt over `judge_prompt_tokens`): what to change, and
  the calls a rerun takes;
- otherwise a person has to look.

Beside it, what a static judge's abstention already names as found nowhere (a setting, a name,
a protocol entity, stated values) or failed on, so the reviewer knows which file or value to look for.
"""

from __future__ import annotations

import re

from sa_align.config import EvalConfig
from sa_align.judges import routing
from sa_align.models import Label, UnitResult, Verdict
from sa_align.prose import shorten

LLM_JUDGE = "llm"
OVER_BUDGET = "prompt over budget"
"""The error of an LLM verdict whose prompt did not fit (`llm_judge.OVER_BUDGET`, not imported: that module builds prompts)."""

_UNSET = [re.compile(r"(`[^`]+`) is set nowhere with a comparable value"),
          re.compile(r"no code or config sets or names ((?:`[^`]+`(?:,? and |, )?)+)")]
"""What the numeric and missing judges say of a setting or name they found in no file."""
_NAME = re.compile(r"`[^`]+`")
_UNNAMED = re.compile(r"not located: ([^;()]+)")
"""The protocol judge's entities the code never names."""
_ABSENT_VALUES = re.compile(r"(\d+ of the \d+ values the claim states) occur in no code or config file")


def model_calls(config: EvalConfig) -> int:
    """Calls one unit takes: one per sample of each configured judge model, else one (a model's single sample)."""
    return sum(spec.samples for spec in config.judges) or 1


def next_step(result: UnitResult, config: EvalConfig, *, has_code: bool = True) -> tuple[str, int | None]:
    """The next step for `result` and the model calls it takes (`None`: no model call); `("", None)` when decided."""
    if result.label != Label.UNDECIDED:
        return "", None
    if not has_code:
        return "The repository holds no code or configuration: audit the folder that holds the implementation.", None
    if result.held_label is not None:
        where = f" at `{result.evidence[0].path}:{result.evidence[0].start_line}`" if result.evidence else ""
        return (f"Check the held {result.held_label.value} finding{where}; `--preview` lets {result.rule} "
                f"set the label (`sa-align rules {result.rule}` shows how often it is right).", None)
    step, calls = _model_step(result, config)
    found = _not_found(result.verdicts)
    return " ".join(s for s in (step, found) if s), calls


def _model_step(result: UnitResult, config: EvalConfig) -> tuple[str, int | None]:
    calls = model_calls(config)
    plural = "s" if calls != 1 else ""
    if routing.llm_policy(result.unit.kind) == "never":
        return f"LLM judges do not judge {result.unit.kind.value} units: a person has to check it.", None
    if not config.judges:
        return "`--judge MODEL` would decide it: 1 call per model sample.", calls
    llm = [v for v in result.verdicts if v.judge == LLM_JUDGE]
    if any(v.error == OVER_BUDGET for v in llm):
        return (f"Its prompt did not fit `judge_prompt_tokens` ({config.judge_prompt_tokens}): raise it and rerun "
                f"({calls} model call{plural}).", calls)
    failed = next((v.error for v in llm if v.error), None)
    if failed:
        return (f"The LLM judges failed ({_first_line(failed)}): a rerun retries them ({calls} model call{plural}; "
                "cached answers cost nothing).", calls)
    if not llm:
        return f"The configured LLM judges did not run on it: a rerun would ask them ({calls} model call{plural}).", calls
    return "The LLM judges could not decide either: a person has to read the candidates.", None


def _not_found(verdicts: list[Verdict]) -> str:
    """What the static judges' abstentions name as found in no file, and which judge failed on what."""
    names: list[str] = []
    said: list[str] = []
    for v in verdicts:
        if v.judge == LLM_JUDGE or not v.abstained:
            continue
        if v.error:
            said.append(f"the {v.judge} judge failed ({_first_line(v.error)})")
        for pattern in _UNSET:
            names += [n for m in pattern.finditer(v.reason) for n in _NAME.findall(m.group(1))]
        said += [f"the code never names {m.group(1).strip()}" for m in _UNNAMED.finditer(v.reason)]
        said += [f"{m.group(1)} occur in no file" for m in _ABSENT_VALUES.finditer(v.reason)]
    names = list(dict.fromkeys(names))[:4]
    if names:
        # The paper's name for a setting is often not the code's: a hint is how a reviewer says which it is.
        said.insert(0, f"no code or config file sets {' or '.join(names)} (if the code calls it otherwise, "
                       "add that name to the unit's `hints` in a units file)")
    said = list(dict.fromkeys(said))[:3]
    return f"The static judges could not check it: {'; '.join(said)}." if said else ""


def _first_line(text: str) -> str:
    return shorten(text.strip().splitlines()[0] if text.strip() else "", 120)
